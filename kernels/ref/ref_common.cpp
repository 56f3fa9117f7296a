#include "kernels/ref/ref_common.h"

namespace npurun::kernels::ref {

std::string check_numeric_io(const Node& node, const Graph& graph) {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        if (node.inputs[i] == kNoTensor) continue;
        const DataType t = graph.info(node.inputs[i]).dtype;
        if (!is_numeric(t)) return std::string(to_string(t)) + " input " + std::to_string(i) + " not supported";
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
        const DataType t = graph.info(node.outputs[i]).dtype;
        if (!is_numeric(t)) return std::string(to_string(t)) + " output " + std::to_string(i) + " not supported";
    }
    return {};
}

}  // namespace npurun::kernels::ref

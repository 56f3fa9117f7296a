#include "kernels/ref/ref_common.h"

namespace npurun::kernels::ref {

std::string check_numeric_io(const KernelNode& node) {
    for (size_t i = 0; i < node.num_inputs(); ++i) {
        if (!node.has_input(i)) continue;
        const DataType t = node.in(i).dtype;
        if (!is_numeric(t)) return std::string(to_string(t)) + " input " + std::to_string(i) + " not supported";
    }
    for (size_t i = 0; i < node.num_outputs(); ++i) {
        const DataType t = node.out(i).dtype;
        if (!is_numeric(t)) return std::string(to_string(t)) + " output " + std::to_string(i) + " not supported";
    }
    return {};
}

}  // namespace npurun::kernels::ref

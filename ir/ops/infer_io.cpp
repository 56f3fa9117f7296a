// Input, Output and Constant: nothing to compute; check the operand counts and that a Constant has data.
#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {

std::vector<TensorInfo> infer_input(const Node& node, const Graph& graph) {
    expect_inputs(node, 0, 0);
    expect_outputs(node, 1);
    return {declared_output(node, graph, 0)};
}

std::vector<TensorInfo> infer_output(const Node& node, const Graph& graph) {
    expect_inputs(node, 1, 1);
    expect_outputs(node, 0);
    (void)input(node, graph, 0);
    return {};
}

std::vector<TensorInfo> infer_constant(const Node& node, const Graph& graph) {
    expect_inputs(node, 0, 0);
    expect_outputs(node, 1);
    if (!graph.tensors[node.outputs[0]].is_constant() && graph.info(node.outputs[0]).num_bytes() != 0)
        bad(node, "constant layer without data");
    return {declared_output(node, graph, 0)};
}

}  // namespace npurun::ops

// Mean (and later Reduce): Arm NN's MeanLayer shape rule. Empty axes reduce everything; keepDims keeps
// reduced axes as 1; a full reduction without keepDims gives [1], not a scalar.
#include "runtime/ops/infer_fns.h"
#include "runtime/ops/infer_helpers.h"

namespace npurun::ops {

std::vector<TensorInfo> infer_mean(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ReduceAttrs>(node);
    expect_inputs(node, 1, 1);
    expect_outputs(node, 1);
    const TensorInfo& x = input(node, graph, 0);
    expect_dtype(node, x, "input", kNumericTypes);
    expect_valid_quantization(node, x, "input");
    if (x.shape.rank == 0) bad(node, "input is a scalar");
    std::vector<bool> reduced(x.shape.rank, a.axes.empty());
    for (uint32_t axis : a.axes) {
        if (axis >= x.shape.rank)
            bad(node, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(x.shape.rank));
        if (reduced[axis]) bad(node, "axis " + std::to_string(axis) + " is listed twice");
        reduced[axis] = true;
    }
    Shape out;
    for (uint32_t d = 0; d < x.shape.rank; ++d) {
        if (!reduced[d]) out.dims[out.rank++] = x.shape[d];
        else if (a.keep_dims) out.dims[out.rank++] = 1;
    }
    if (out.rank == 0) out = Shape{1};
    return {output_like(node, graph, 0, out, x.dtype)};
}

}  // namespace npurun::ops

// Mean and Reduce (Sum/Max/Mean/Min/Prod): Arm NN's MeanLayer shape rule. Empty axes reduce everything; keepDims keeps
// reduced axes as 1; a full reduction without keepDims gives [1], not a scalar.
#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {

std::vector<TensorInfo> infer_mean(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ReduceAttrs>(node);
    const TensorInfo& x = typed_input(node, graph, 1, 1, kNumericTypes);
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

std::vector<TensorInfo> infer_reduce(const Node& node, const Graph& graph) { return infer_mean(node, graph); }

// ArgMinMax: the index (Signed32, or Signed64 as later Arm NN allows) of the extreme value along one axis;
// the axis is removed from the shape (a rank-1 input gives [1]).
std::vector<TensorInfo> infer_arg_min_max(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ArgMinMaxAttrs>(node);
    const TensorInfo& x = typed_input(node, graph, 1, 1, {DataType::Float32, DataType::Float16, DataType::QAsymmU8, DataType::QAsymmS8,
                                    DataType::QSymmS8, DataType::QSymmS16, DataType::Signed32});
    if (x.shape.rank == 0) bad(node, "input is a scalar");
    const uint32_t axis = normalize_axis(node, a.axis, x.shape.rank, "axis");
    if (x.shape[axis] == 0) bad(node, "the reduced dimension is empty");
    const TensorInfo& y = declared_output(node, graph, 0);
    expect_dtype(node, y, "output", {DataType::Signed32, DataType::Signed64});
    Shape out;
    for (uint32_t d = 0; d < x.shape.rank; ++d)
        if (d != axis) out.dims[out.rank++] = x.shape[d];
    if (out.rank == 0) out = Shape{1};
    return {output_like(node, graph, 0, out, y.dtype)};
}

}  // namespace npurun::ops

// ReverseV2 and Tile (Arm NN layer types 70 and 71): pure data movement, so any element type; the output keeps
// the input's type and takes its quantization from the declared output.
#include <string>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {

// The axes are data (input 1), not an attribute: Arm NN's ReverseV2 has no descriptor. Constant axes are
// checked here; axes computed at run time are checked by the kernel before it moves anything.
std::vector<TensorInfo> infer_reverse_v2(const Node& node, const Graph& graph) {
    const TensorInfo& x = typed_input(node, graph, 2, 2, kComparableTypes);
    const TensorInfo& axes = input(node, graph, 1);
    expect_dtype(node, axes, "axes", {DataType::Signed32});
    expect_rank(node, axes, "axes", 1);
    if (x.shape.rank == 0) bad(node, "input is a scalar");
    if (axes.shape[0] > x.shape.rank)
        bad(node, std::to_string(axes.shape[0]) + " axes for an input of rank " + std::to_string(x.shape.rank));
    const Tensor& at = graph.tensor(node.inputs[1]);
    if (at.is_constant()) {
        const int32_t* v = static_cast<const int32_t*>(at.data);
        for (uint32_t i = 0; i < axes.shape[0]; ++i) (void)normalize_axis(node, v[i], x.shape.rank, "axis");
    }
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

// Output dimension i = input dimension i * multiples[i]. A multiple of 0 would make an empty tensor, which no
// kernel or buffer plan here expects, so it is refused with the layer named.
std::vector<TensorInfo> infer_tile(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<TileAttrs>(node);
    const TensorInfo& x = typed_input(node, graph, 1, 1, kComparableTypes);
    if (a.multiples.size() != x.shape.rank)
        bad(node, std::to_string(a.multiples.size()) + " multiples for an input of rank " + std::to_string(x.shape.rank));
    Shape out = x.shape;
    for (uint32_t d = 0; d < x.shape.rank; ++d) {
        if (a.multiples[d] == 0) bad(node, "multiple " + std::to_string(d) + " is 0");
        out.dims[d] = mul_u32(node, x.shape[d], a.multiples[d], "tiled dimension");
    }
    return {output_like(node, graph, 0, out, x.dtype)};
}

}  // namespace npurun::ops

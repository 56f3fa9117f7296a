// Data-movement ops beyond the foundation set: BatchToSpaceNd, SpaceToBatchNd, DepthToSpace, SpaceToDepth,
// ChannelShuffle, Gather, GatherNd, Slice, StridedSlice, Stack, Fill, Shape, Rank. They accept every element
// type (kernels move elements; a quantized output with other parameters than the input is requantized).
#include <algorithm>
#include <climits>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

const TensorInfo& one_input(const Node& node, const Graph& graph) {
    const TensorInfo& x = only_input(node, graph);
    expect_valid_quantization(node, x, "input");
    if (x.quant.per_axis()) bad(node, "per-axis quantized input is not supported");
    return x;
}

// BatchToSpaceNd / SpaceToBatchNd: one input whose spatial dimensions are 1..M (NHWC) or 2..M+1 (NCHW),
// rank M+2, with a per-dimension list (`what`: crops or padList) as long as the block shape. `out` starts
// as the input shape; each layer rewrites the spatial dimensions and the batch.
struct BlockLayer {
    const TensorInfo& x;
    uint32_t s0;
    Shape out;
    uint32_t blocks = 1;  // product of the block entries seen so far (block_entry)

    BlockLayer(const Node& node, const Graph& graph, DataLayout layout, size_t m, size_t list_size, const char* what)
        : x(one_input(node, graph)), s0(spatial_start(node, x, layout, m)), out(x.shape) {
        if (list_size != m) bad(node, std::string(what) + " and block shape have different lengths");
    }

    // Block entry i, refused when 0, multiplied into `blocks`.
    uint32_t block_entry(const Node& node, const std::vector<uint32_t>& block_shape, size_t i) {
        const uint32_t b = block_shape[i];
        if (b == 0) bad(node, "block shape entry " + std::to_string(i) + " is 0");
        blocks = mul_u32(node, blocks, b, "block count");
        return b;
    }

private:
    static uint32_t spatial_start(const Node& node, const TensorInfo& x, DataLayout layout, size_t m) {
        expect_2d_layout(node, layout);
        if (m != 1 && m != 2) bad(node, "block shape has " + std::to_string(m) + " entries, expected 1 or 2");
        if (x.shape.rank != m + 2)
            bad(node, "input " + x.shape.str() + " must have rank " + std::to_string(m + 2) + " for a block shape of " +
                          std::to_string(m) + " entries");
        return layout == DataLayout::NHWC ? 1 : 2;
    }
};

// Gather and GatherNd: params (any type, per-tensor quantization, not a scalar) and Signed32 indices,
// one output.
InputPair gather_operands(const Node& node, const Graph& graph) {
    const auto [p, idx] = two_inputs(node, graph);
    expect_valid_quantization(node, p, "params");
    if (p.quant.per_axis()) bad(node, "per-axis quantized params are not supported");
    expect_dtype(node, idx, "indices", {DataType::Signed32});
    if (p.shape.rank == 0) bad(node, "params is a scalar");
    return {p, idx};
}

}  // namespace

std::vector<TensorInfo> infer_batch_to_space_nd(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<BatchToSpaceNdAttrs>(node);
    BlockLayer l(node, graph, a.layout, a.block_shape.size(), a.crops.size(), "crops");
    for (size_t i = 0; i < a.block_shape.size(); ++i) {
        const uint32_t b = l.block_entry(node, a.block_shape, i);
        const uint32_t full = mul_u32(node, l.x.shape[l.s0 + i], b, "output size");
        const uint64_t crop = uint64_t(a.crops[i].first) + a.crops[i].second;
        if (crop > full || (crop == full && crop != 0))
            bad(node, "crops of " + std::to_string(crop) + " remove the whole dimension " + std::to_string(i));
        l.out[l.s0 + i] = full - uint32_t(crop);
    }
    const uint32_t batch = l.x.shape[0];
    if (batch % l.blocks != 0)
        bad(node, "batch " + std::to_string(batch) + " is not divisible by the block count " + std::to_string(l.blocks));
    l.out[0] = batch / l.blocks;
    return {output_like(node, graph, 0, l.out, l.x.dtype)};
}

std::vector<TensorInfo> infer_space_to_batch_nd(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<SpaceToBatchNdAttrs>(node);
    BlockLayer l(node, graph, a.layout, a.block_shape.size(), a.pads.size(), "padList");
    for (size_t i = 0; i < a.block_shape.size(); ++i) {
        const uint32_t b = l.block_entry(node, a.block_shape, i);
        const uint32_t padded = add_u32(node, add_u32(node, l.x.shape[l.s0 + i], a.pads[i].first, "padded size"),
                                        a.pads[i].second, "padded size");
        if (padded % b != 0)
            bad(node, "padded spatial size " + std::to_string(padded) + " is not divisible by the block size " +
                          std::to_string(b));
        l.out[l.s0 + i] = padded / b;
    }
    l.out[0] = mul_u32(node, l.x.shape[0], l.blocks, "output batch");
    return {output_like(node, graph, 0, l.out, l.x.dtype)};
}

std::vector<TensorInfo> infer_depth_to_space(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<DepthToSpaceAttrs>(node);
    const TensorInfo& x = one_input(node, graph);
    ImageDims d = image_dims(node, x, a.layout, "input");
    if (a.block_size == 0) bad(node, "block size is 0");
    const uint32_t bb = mul_u32(node, a.block_size, a.block_size, "block size squared");
    if (d.c % bb != 0)
        bad(node, "channels " + std::to_string(d.c) + " are not divisible by block size squared " + std::to_string(bb));
    d.c /= bb;
    d.h = mul_u32(node, d.h, a.block_size, "output height");
    d.w = mul_u32(node, d.w, a.block_size, "output width");
    return {output_like(node, graph, 0, image_shape(d, a.layout), x.dtype)};
}

std::vector<TensorInfo> infer_space_to_depth(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<DepthToSpaceAttrs>(node);
    const TensorInfo& x = one_input(node, graph);
    ImageDims d = image_dims(node, x, a.layout, "input");
    if (a.block_size == 0) bad(node, "block size is 0");
    if (d.h % a.block_size != 0 || d.w % a.block_size != 0)
        bad(node, "height and width " + x.shape.str() + " are not divisible by the block size " +
                      std::to_string(a.block_size));
    d.h /= a.block_size;
    d.w /= a.block_size;
    d.c = mul_u32(node, d.c, mul_u32(node, a.block_size, a.block_size, "block size squared"), "output channels");
    return {output_like(node, graph, 0, image_shape(d, a.layout), x.dtype)};
}

std::vector<TensorInfo> infer_channel_shuffle(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ChannelShuffleAttrs>(node);
    const TensorInfo& x = one_input(node, graph);
    if (a.axis >= x.shape.rank)
        bad(node, "axis " + std::to_string(a.axis) + " is out of range for rank " + std::to_string(x.shape.rank));
    if (a.num_groups == 0) bad(node, "numGroups is 0");
    if (x.shape[a.axis] % a.num_groups != 0)
        bad(node, "dimension " + std::to_string(x.shape[a.axis]) + " is not divisible by numGroups " +
                      std::to_string(a.num_groups));
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

// Gather along any axis (Arm NN 23.02+; 20.08 CpuRef only took axis 0): params[:axis] + indices + params[axis+1:].
std::vector<TensorInfo> infer_gather(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<GatherAttrs>(node);
    const auto [p, idx] = gather_operands(node, graph);
    const uint32_t axis = normalize_axis(node, a.axis, p.shape.rank, "axis");
    if (p.shape.rank - 1 + idx.shape.rank > kMaxRank) bad(node, "output rank exceeds " + std::to_string(kMaxRank));
    Shape out;
    for (uint32_t d = 0; d < axis; ++d) out.dims[out.rank++] = p.shape[d];
    for (uint32_t d = 0; d < idx.shape.rank; ++d) out.dims[out.rank++] = idx.shape[d];
    for (uint32_t d = axis + 1; d < p.shape.rank; ++d) out.dims[out.rank++] = p.shape[d];
    const Tensor& it = graph.tensor(node.inputs[1]);
    if (it.is_constant()) {  // constant indices are checked now; run-time ones are guarded by the kernel
        const int32_t* v = static_cast<const int32_t*>(it.data);
        for (size_t i = 0, n = idx.shape.num_elements(); i < n; ++i)
            if (v[i] < 0 || uint32_t(v[i]) >= p.shape[axis])
                bad(node, "index " + std::to_string(v[i]) + " is out of range for dimension " +
                              std::to_string(p.shape[axis]));
    }
    return {output_like(node, graph, 0, out, p.dtype)};
}

// GatherNd: indices [..., K] address the first K dimensions of params; output indices[:-1] + params[K:].
std::vector<TensorInfo> infer_gather_nd(const Node& node, const Graph& graph) {
    const auto [p, idx] = gather_operands(node, graph);
    if (idx.shape.rank == 0) bad(node, "indices is a scalar");
    const uint32_t k = idx.shape[idx.shape.rank - 1];
    if (k == 0 || k > p.shape.rank)
        bad(node, "index depth " + std::to_string(k) + " is out of range for params of rank " +
                      std::to_string(p.shape.rank));
    if (idx.shape.rank - 1 + p.shape.rank - k > kMaxRank) bad(node, "output rank exceeds " + std::to_string(kMaxRank));
    Shape out;
    for (uint32_t d = 0; d + 1 < idx.shape.rank; ++d) out.dims[out.rank++] = idx.shape[d];
    for (uint32_t d = k; d < p.shape.rank; ++d) out.dims[out.rank++] = p.shape[d];
    return {output_like(node, graph, 0, out, p.dtype)};
}

std::vector<TensorInfo> infer_slice(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<SliceAttrs>(node);
    const TensorInfo& x = one_input(node, graph);
    if (a.begin.size() != x.shape.rank || a.size.size() != x.shape.rank)
        bad(node, "begin and size need " + std::to_string(x.shape.rank) + " entries (the input rank)");
    Shape out = x.shape;
    for (uint32_t d = 0; d < x.shape.rank; ++d) {
        if (uint64_t(a.begin[d]) + a.size[d] > x.shape[d])
            bad(node, "slice [" + std::to_string(a.begin[d]) + ", +" + std::to_string(a.size[d]) +
                          ") exceeds dimension " + std::to_string(d) + " of size " + std::to_string(x.shape[d]));
        out[d] = a.size[d];
    }
    return {output_like(node, graph, 0, out, x.dtype)};
}

// Arm NN's StridedSliceLayer rule (reference/armnn-format.md §2). ellipsisMask and newAxisMask are read
// but ignored, as Arm NN does (decision: a model relying on them gets Arm NN's result, not TensorFlow's).
std::vector<TensorInfo> infer_strided_slice(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<StridedSliceAttrs>(node);
    const TensorInfo& x = one_input(node, graph);
    const uint32_t rank = x.shape.rank;
    if (rank == 0 || rank > 4) bad(node, "input has rank " + std::to_string(rank) + ", expected 1 to 4");
    if (a.begin.size() != rank || a.end.size() != rank || a.stride.size() != rank)
        bad(node, "begin, end and stride need " + std::to_string(rank) + " entries (the input rank)");
    Shape out;
    for (uint32_t d = 0; d < rank; ++d) {
        if (a.stride[d] == 0) bad(node, "stride of dimension " + std::to_string(d) + " is 0");
        if (x.shape[d] == 0) bad(node, "dimension " + std::to_string(d) + " is empty");
        if (a.shrink_axis_mask & (1 << d)) {
            if (a.stride[d] < 0) bad(node, "shrunk dimension " + std::to_string(d) + " has a negative stride");
            if (std::abs(int64_t(a.begin[d]) - int64_t(a.end[d])) > 1)
                bad(node, "shrunk dimension " + std::to_string(d) + " selects more than one element");
            continue;
        }
        out.dims[out.rank++] = strided_slice_range(a, x.shape, d).count;
    }
    if (out.rank == 0) out = Shape{1};
    return {output_like(node, graph, 0, out, x.dtype)};
}

std::vector<TensorInfo> infer_stack(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<StackAttrs>(node);
    expect_outputs(node, 1);
    if (a.num_inputs == 0 || node.inputs.size() != a.num_inputs)
        bad(node, "numInputs is " + std::to_string(a.num_inputs) + " but the layer has " +
                      std::to_string(node.inputs.size()) + " inputs");
    if (a.axis > a.input_shape.rank || a.input_shape.rank + 1 > kMaxRank)
        bad(node, "axis " + std::to_string(a.axis) + " is out of range for input rank " +
                      std::to_string(a.input_shape.rank));
    const TensorInfo& first = input(node, graph, 0);
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        const TensorInfo& x = input(node, graph, i);
        const std::string what = "input " + std::to_string(i);
        if (x.shape != a.input_shape)
            bad(node, what + " has shape " + x.shape.str() + ", expected " + a.input_shape.str());
        expect_same_dtype(node, x, what.c_str(), first, "input 0");
        expect_valid_quantization(node, x, what.c_str());
        if (x.quant.per_axis()) bad(node, what + " is per-axis quantized, which is not supported");
    }
    Shape out;
    for (uint32_t d = 0; d <= a.input_shape.rank; ++d) {
        if (d == a.axis) out.dims[out.rank++] = a.num_inputs;
        if (d < a.input_shape.rank) out.dims[out.rank++] = a.input_shape[d];
    }
    return {output_like(node, graph, 0, out, first.dtype)};
}

// Fill: the output shape is the declared one (the shape operand is run-time data in Arm NN); a constant
// shape operand must agree with it. Run-time shape values are not consulted (decision, see kernels/ref/fill.cpp).
std::vector<TensorInfo> infer_fill(const Node& node, const Graph& graph) {
    (void)attrs_of<FillAttrs>(node);
    const TensorInfo& s = only_input(node, graph);
    expect_dtype(node, s, "shape", {DataType::Signed32});
    expect_rank(node, s, "shape", 1);
    const TensorInfo& y = declared_output(node, graph, 0);
    expect_dtype(node, y, "output", {DataType::Float32, DataType::Float16, DataType::Signed32});
    if (s.shape[0] != y.shape.rank)
        bad(node, "shape operand has " + std::to_string(s.shape[0]) + " entries for an output of rank " +
                      std::to_string(y.shape.rank));
    const Tensor& st = graph.tensor(node.inputs[0]);
    if (st.is_constant()) {
        const int32_t* v = static_cast<const int32_t*>(st.data);
        for (uint32_t d = 0; d < y.shape.rank; ++d)
            if (v[d] < 0 || uint32_t(v[d]) != y.shape[d])
                bad(node, "shape operand does not match the declared output " + y.shape.str());
    }
    return {output_like(node, graph, 0, y.shape, y.dtype)};
}

std::vector<TensorInfo> infer_shape_op(const Node& node, const Graph& graph) {
    const TensorInfo& x = only_input(node, graph);
    return {output_like(node, graph, 0, Shape{x.shape.rank}, DataType::Signed32)};
}

// Rank: a Signed32 scalar (Arm NN's Dimensionality::Scalar); a file declaring [1] is accepted as well.
std::vector<TensorInfo> infer_rank(const Node& node, const Graph& graph) {
    (void)only_input(node, graph);
    const TensorInfo& y = declared_output(node, graph, 0);
    const Shape out = (y.shape.rank == 1 && y.shape[0] == 1) ? y.shape : Shape{};
    return {output_like(node, graph, 0, out, DataType::Signed32)};
}

}  // namespace npurun::ops

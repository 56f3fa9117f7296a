// Data-movement ops: Reshape, Permute, Transpose, Concat, Splitter, Pad, Resize.
#include <algorithm>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"
#include "core/checked_math.h"

namespace npurun::ops {
namespace {

const TensorInfo& single_input(const Node& node, const Graph& graph) {
    const TensorInfo& x = only_input(node, graph);
    expect_valid_quantization(node, x, "input");
    return x;
}

// The output shape of Permute (by_source: output dimension mapping[i] is input dimension i) or Transpose
// (output dimension i is input dimension mapping[i]), after checking that mapping is a permutation.
Shape permuted_shape(const Node& node, const std::vector<uint32_t>& mapping, const Shape& in, bool by_source) {
    const uint32_t rank = in.rank;
    if (mapping.size() != rank)
        bad(node, "mapping has " + std::to_string(mapping.size()) + " entries for an input of rank " +
                      std::to_string(rank));
    std::vector<bool> seen(rank, false);
    for (uint32_t m : mapping) {
        if (m >= rank || seen[m]) bad(node, "mapping is not a permutation of 0.." + std::to_string(rank - 1));
        seen[m] = true;
    }
    Shape out;
    out.rank = rank;
    for (uint32_t i = 0; i < rank; ++i) {
        if (by_source) out[mapping[i]] = in[i];
        else out[i] = in[mapping[i]];
    }
    return out;
}

}  // namespace

// Reshape copies the bytes: the dtype is kept, the element count must match.
std::vector<TensorInfo> infer_reshape(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ReshapeAttrs>(node);
    const TensorInfo& x = single_input(node, graph);
    if (a.target.num_elements() != x.shape.num_elements())
        bad(node, "cannot reshape " + x.shape.str() + " (" + std::to_string(x.shape.num_elements()) + " elements) to " +
                      a.target.str() + " (" + std::to_string(a.target.num_elements()) + " elements)");
    return {output_like(node, graph, 0, a.target, x.dtype)};
}

// Permute: output dimension mapping[i] is input dimension i.
std::vector<TensorInfo> infer_permute(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<PermuteAttrs>(node);
    const TensorInfo& x = single_input(node, graph);
    return {output_like(node, graph, 0, permuted_shape(node, a.mapping, x.shape, true), x.dtype)};
}

// Transpose: output dimension i is input dimension mapping[i].
std::vector<TensorInfo> infer_transpose(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<PermuteAttrs>(node);
    const TensorInfo& x = single_input(node, graph);
    return {output_like(node, graph, 0, permuted_shape(node, a.mapping, x.shape, false), x.dtype)};
}

// Concat places input v at view_origins[v]. As Arm NN's ConcatLayer, the output is the bounding box of
// the views, which must start at the origin and be tiled exactly (no overlap, no gap).
std::vector<TensorInfo> infer_concat(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ConcatAttrs>(node);
    if (node.inputs.empty()) bad(node, "has no inputs");
    expect_outputs(node, 1);
    if (a.view_origins.size() != node.inputs.size())
        bad(node, "has " + std::to_string(a.view_origins.size()) + " view origins for " +
                      std::to_string(node.inputs.size()) + " inputs");
    const TensorInfo& first = input(node, graph, 0);
    const uint32_t rank = first.shape.rank;
    if (rank == 0) bad(node, "cannot concatenate scalars");
    Shape out;
    out.rank = rank;
    std::vector<uint32_t> min_origin(rank, UINT32_MAX);
    for (size_t v = 0; v < node.inputs.size(); ++v) {
        const TensorInfo& x = input(node, graph, v);
        const std::string what = "input " + std::to_string(v);
        expect_same_dtype(node, x, what.c_str(), first, "input 0");
        expect_valid_quantization(node, x, what.c_str());
        if (x.shape.rank != rank) bad(node, what + " has rank " + std::to_string(x.shape.rank) + ", input 0 has " +
                                                std::to_string(rank));
        if (a.view_origins[v].size() != rank) bad(node, "view origin " + std::to_string(v) + " has the wrong rank");
        for (uint32_t d = 0; d < rank; ++d) {
            out[d] = std::max(out[d], add_u32(node, a.view_origins[v][d], x.shape[d], "view extent"));
            min_origin[d] = std::min(min_origin[d], a.view_origins[v][d]);
        }
    }
    for (uint32_t d = 0; d < rank; ++d)
        if (min_origin[d] != 0) bad(node, "views do not start at the origin in dimension " + std::to_string(d));
    size_t covered = 0;
    for (size_t v = 0; v < node.inputs.size(); ++v) {
        const Shape& sv = graph.info(node.inputs[v]).shape;
        if (!checked_add(covered, sv.num_elements(), &covered)) bad(node, "views are too large");
        for (size_t u = 0; u < v; ++u) {
            const Shape& su = graph.info(node.inputs[u]).shape;
            bool overlap = true;
            for (uint32_t d = 0; d < rank && overlap; ++d) {
                const uint64_t a0 = a.view_origins[v][d], a1 = a0 + sv[d];
                const uint64_t b0 = a.view_origins[u][d], b1 = b0 + su[d];
                overlap = a0 < b1 && b0 < a1;
            }
            if (overlap) bad(node, "views " + std::to_string(u) + " and " + std::to_string(v) + " overlap");
        }
    }
    if (covered != out.num_elements()) bad(node, "views do not cover the output " + out.str());
    return {output_like(node, graph, 0, out, first.dtype)};
}

// Splitter output v is the view at view_origins[v] with shape view_sizes[v]; views may overlap.
std::vector<TensorInfo> infer_splitter(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<SplitterAttrs>(node);
    expect_inputs(node, 1, 1);
    const TensorInfo& x = input(node, graph, 0);
    expect_valid_quantization(node, x, "input");
    if (node.outputs.empty()) bad(node, "has no outputs");
    if (a.view_origins.size() != node.outputs.size() || a.view_sizes.size() != node.outputs.size())
        bad(node, "has " + std::to_string(a.view_origins.size()) + " view origins and " +
                      std::to_string(a.view_sizes.size()) + " view sizes for " + std::to_string(node.outputs.size()) +
                      " outputs");
    std::vector<TensorInfo> outs;
    for (size_t v = 0; v < node.outputs.size(); ++v) {
        if (a.view_origins[v].size() != x.shape.rank || a.view_sizes[v].size() != x.shape.rank)
            bad(node, "view " + std::to_string(v) + " does not have the input's rank " + std::to_string(x.shape.rank));
        for (uint32_t d = 0; d < x.shape.rank; ++d)
            if (add_u32(node, a.view_origins[v][d], a.view_sizes[v][d], "view extent") > x.shape[d])
                bad(node, "view " + std::to_string(v) + " extends beyond the input " + x.shape.str() + " in dimension " +
                              std::to_string(d));
        outs.push_back(output_like(node, graph, v, Shape::from(a.view_sizes[v]), x.dtype));
    }
    return outs;
}

// Pad: out[d] = pads[d].first + in[d] + pads[d].second. Reflect mirrors without the edge (pad <= in-1),
// Symmetric with it (pad <= in).
std::vector<TensorInfo> infer_pad(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<PadAttrs>(node);
    const TensorInfo& x = single_input(node, graph);
    expect_dtype(node, x, "input", kNumericTypes);
    if (a.pads.size() != x.shape.rank)
        bad(node, "has " + std::to_string(a.pads.size()) + " padding pairs for an input of rank " +
                      std::to_string(x.shape.rank));
    Shape out;
    out.rank = x.shape.rank;
    for (uint32_t d = 0; d < out.rank; ++d) {
        const auto [before, after] = a.pads[d];
        if (a.mode != PaddingMode::Constant) {
            const uint32_t limit = a.mode == PaddingMode::Reflect ? (x.shape[d] ? x.shape[d] - 1 : 0) : x.shape[d];
            if (before > limit || after > limit)
                bad(node, std::string(a.mode == PaddingMode::Reflect ? "reflect" : "symmetric") + " padding of " +
                              std::to_string(std::max(before, after)) + " exceeds " + std::to_string(limit) +
                              " in dimension " + std::to_string(d));
        }
        out[d] = add_u32(node, add_u32(node, x.shape[d], before, "padded size"), after, "padded size");
    }
    return {output_like(node, graph, 0, out, x.dtype)};
}

std::vector<TensorInfo> infer_resize(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ResizeAttrs>(node);
    const TensorInfo& x = single_input(node, graph);
    expect_dtype(node, x, "input", kNumericTypes);
    ImageDims d = image_dims(node, x, a.layout, "input");
    if (a.align_corners && a.half_pixel_centers) bad(node, "alignCorners and halfPixelCenters cannot both be set");
    if (a.target_height == 0 || a.target_width == 0) bad(node, "target size is 0");
    if (d.h == 0 || d.w == 0) bad(node, "input has an empty spatial size " + x.shape.str());
    d.h = a.target_height;
    d.w = a.target_width;
    return {output_like(node, graph, 0, image_shape(d, a.layout), x.dtype)};
}

}  // namespace npurun::ops

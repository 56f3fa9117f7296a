// Normalization (LRN), InstanceNormalization, L2Normalization: output = input shape and type
// (reference/armnn-format.md §2 for the formulas the kernels follow).
#include <cmath>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

const TensorInfo& numeric_input(const Node& node, const Graph& graph) {
    const TensorInfo& x = typed_input(node, graph, 1, 1, kNumericTypes);
    return x;
}

}  // namespace

std::vector<TensorInfo> infer_normalization(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<NormalizationAttrs>(node);
    const TensorInfo& x = numeric_input(node, graph);
    (void)image_dims(node, x, a.layout, "input");
    if (a.norm_size == 0) bad(node, "normSize is 0");
    if (!std::isfinite(a.alpha) || !std::isfinite(a.beta) || !std::isfinite(a.k))
        bad(node, "alpha, beta and k must be finite");
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

std::vector<TensorInfo> infer_instance_normalization(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<InstanceNormalizationAttrs>(node);
    const TensorInfo& x = numeric_input(node, graph);
    (void)image_dims(node, x, a.layout, "input");
    if (!(a.eps >= 0.0f) || !std::isfinite(a.eps)) bad(node, "eps must be a finite value >= 0");
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

// Rank 1..4; lower ranks are padded to 4-D by the layout exactly as CpuRef does (see the kernel).
std::vector<TensorInfo> infer_l2_normalization(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<L2NormalizationAttrs>(node);
    const TensorInfo& x = numeric_input(node, graph);
    expect_2d_layout(node, a.layout);
    if (x.shape.rank < 1 || x.shape.rank > 4)
        bad(node, "input has rank " + std::to_string(x.shape.rank) + ", expected 1 to 4");
    if (!(a.eps >= 0.0f) || !std::isfinite(a.eps)) bad(node, "eps must be a finite value >= 0");
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

}  // namespace npurun::ops

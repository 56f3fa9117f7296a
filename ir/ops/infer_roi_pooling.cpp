// RoiPooling (Caffe / MNN ROIPooling): shape inference and validation.
#include <cmath>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {

// Inputs (Float32): x [N, C, H, W] (NCHW), rois with 5 values per ROI (batch index, x1, y1, x2, y2 in
// input-image coordinates), any shape whose first dimension is R and whose other dimensions hold 5
// values. Output Float32 [R, C, pooledHeight, pooledWidth].
std::vector<TensorInfo> infer_roi_pooling(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<RoiPoolingAttrs>(node);
    const auto [x, rois] = same_typed_inputs(node, graph, {DataType::Float32}, "input", "rois");
    expect_rank(node, x, "input", 4);
    if (rois.shape.rank < 1 || rois.shape[0] == 0 || rois.shape.num_elements() != size_t(rois.shape[0]) * 5)
        bad(node, "rois " + rois.shape.str() + " do not hold 5 values (batch, x1, y1, x2, y2) per ROI");
    if (a.pooled_height == 0 || a.pooled_width == 0 || a.pooled_height > 4096 || a.pooled_width > 4096)
        bad(node, "pooled size " + std::to_string(a.pooled_height) + "x" + std::to_string(a.pooled_width) + " is out of range 1..4096");
    if (!std::isfinite(a.spatial_scale) || a.spatial_scale <= 0.0f) bad(node, "spatialScale must be positive and finite");
    const Shape out{rois.shape[0], x.shape[1], a.pooled_height, a.pooled_width};
    (void)out.num_elements();  // throws on overflow
    expect_dtype(node, declared_output(node, graph, 0), "output", {DataType::Float32});
    return {output_like(node, graph, 0, out, DataType::Float32)};
}

}  // namespace npurun::ops

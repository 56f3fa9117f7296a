// MNN ROIPooling (Caffe / Faster R-CNN) -> the IR's RoiPooling (kernels/ref/roi_pooling.cpp), CPU-only.
//
// MNN's CPU kernel reads pooledWidth, pooledHeight and spatialScale of the RoiParameters table (seed 002's
// RoiPooling; the fields appended later, samplingRatio / aligned / poolType, belong to ROIAlign and are not
// read for ROIPooling), the feature map as N,C,H,W and 5 values per ROI from the second input.
#include <cmath>

#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"

namespace npurun::mnn {

void map_roi_pooling(Builder& b) {
    const auto* p = b.op->main_as_RoiParameters();
    if (!p) b.bad("has no RoiPooling parameters");
    if (b.num_inputs() != 2) b.bad("has " + std::to_string(b.num_inputs()) + " inputs (needs the feature map and the ROIs)");
    RoiPoolingAttrs a;
    a.pooled_width = positive_size(b, p->pooledWidth());
    a.pooled_height = positive_size(b, p->pooledHeight());
    a.spatial_scale = p->spatialScale();
    if (!(std::isfinite(a.spatial_scale) && a.spatial_scale > 0.0f)) b.bad("spatialScale " + std::to_string(a.spatial_scale) + " is not positive");
    const TensorState xs = b.in(0);
    if (b.g.info(xs.id).shape.rank != 4 || xs.layout != Layout::NCHW) b.unsupported("needs a 4-D NC4HW4/NCHW feature map");
    const TensorId y = b.new_value(b.base_name());
    b.emit(OpKind::RoiPooling, a, {xs.id, b.in_id(1)}, {y});
    b.produce(0, y, Layout::NCHW);
}

}  // namespace npurun::mnn

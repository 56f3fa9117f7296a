// MNN DetectionOutput (Caffe SSD) -> the IR's DetectionOutput (kernels/ref/detection_output.cpp).
//
// The IR's DetectionPostProcess (TFLite SSD) cannot express it exactly: it decodes (yc, xc, h, w)
// anchors with divisions by fixed scales instead of corner priors with per-prior variances, writes
// (ymin, xmin, ymax, xmax) into four separate outputs and labels classes from 0 without the background;
// so DetectionOutput is an op of its own, CPU-only (the NPU placement refuses it by name).
//
// MNN's CPU kernel reads only classCount, nmsThresholdold, keepTopK and confidenceThreshold (plus
// objectnessScore for the 5-input RefineDet form); nmsTopK, shareLocation, backgroundLable, codeType and
// varianceEncodedTarget are stored but not used: it always decodes CENTER_SIZE with the priors'
// variances, shares locations across classes and skips class 0. npurun maps the same fields, so files
// produce MNN's output; the sizes of the three inputs are checked against one another.
#include <cmath>

#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"

namespace npurun::mnn {

void map_detection_output(Builder& b) {
    const auto* p = b.op->main_as_DetectionOutput();
    if (!p) b.bad("has no DetectionOutput parameters");
    if (b.num_inputs() >= 5) b.unsupported("the RefineDet form (ARM confidence and location inputs) is not supported");
    if (b.num_inputs() != 3) b.bad("has " + std::to_string(b.num_inputs()) + " inputs (needs locations, confidences, priors)");
    if (p->classCount() < 1 || p->classCount() > (1 << 16)) b.bad("classCount " + std::to_string(p->classCount()) + " is out of range 1..65536");
    if (p->keepTopK() < 1 || p->keepTopK() > (1 << 16)) b.bad("keepTopK " + std::to_string(p->keepTopK()) + " is out of range 1..65536");
    if (!std::isfinite(p->nmsThresholdold())) b.bad("nmsThreshold is not finite");
    if (!std::isfinite(p->confidenceThreshold())) b.bad("confidenceThreshold is not finite");
    std::vector<TensorId> in;
    static const char* const names[] = {"locations", "confidences", "priors"};
    for (size_t k = 0; k < 3; ++k) {
        const TensorInfo& t = b.in_info(k);
        if (t.dtype != DataType::Float32) b.bad(std::string(names[k]) + " are " + to_string(t.dtype) + ", expected Float32");
        if (k < 2 && t.shape.rank >= 2 && t.shape[0] != 1)
            b.unsupported(std::string(names[k]) + " " + t.shape.str() + " have batch " + std::to_string(t.shape[0]) + "; MNN and npurun decode batch 1");
        in.push_back(b.in_id(k));
    }
    DetectionOutputAttrs a;
    a.num_classes = static_cast<uint32_t>(p->classCount());
    a.keep_top_k = static_cast<uint32_t>(p->keepTopK());
    a.nms_threshold = p->nmsThresholdold();
    a.confidence_threshold = p->confidenceThreshold();
    const TensorId y = b.new_value(b.base_name());
    b.emit(OpKind::DetectionOutput, a, in, {y});
    b.produce(0, y, Layout::NCHW);
}

}  // namespace npurun::mnn

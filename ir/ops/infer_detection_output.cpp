// DetectionOutput (Caffe SSD as MNN runs it): shape inference and validation.
#include <cmath>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {

// Inputs (Float32, any shape, read as flat arrays in their dimension order): locations 4P values
// (dx, dy, dw, dh per prior), confidences P*C values (prior-major), priors 8P values (P boxes
// x1,y1,x2,y2, then P variances). Output Float32 [1, 1, K, 6]: label, score, x1, y1, x2, y2 per row.
std::vector<TensorInfo> infer_detection_output(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<DetectionOutputAttrs>(node);
    expect_inputs(node, 3, 3);
    expect_outputs(node, 1);
    static const char* const names[] = {"locations", "confidences", "priors"};
    for (size_t i = 0; i < 3; ++i) expect_dtype(node, input(node, graph, i), names[i], {DataType::Float32});
    const size_t loc = input(node, graph, 0).shape.num_elements();
    const size_t conf = input(node, graph, 1).shape.num_elements();
    const size_t priors = input(node, graph, 2).shape.num_elements();
    if (a.num_classes == 0 || a.num_classes > (1u << 16)) bad(node, "classCount " + std::to_string(a.num_classes) + " is out of range 1..65536");
    if (a.keep_top_k == 0 || a.keep_top_k > (1u << 16)) bad(node, "keepTopK " + std::to_string(a.keep_top_k) + " is out of range 1..65536");
    if (!std::isfinite(a.nms_threshold) || !std::isfinite(a.confidence_threshold)) bad(node, "thresholds must be finite");
    if (loc == 0 || loc % 4 != 0) bad(node, "locations hold " + std::to_string(loc) + " values, not 4 per prior");
    const size_t p = loc / 4;
    if (priors != 8 * p)
        bad(node, "priors hold " + std::to_string(priors) + " values; " + std::to_string(p) + " priors need " + std::to_string(8 * p) +
                      " (boxes and variances)");
    if (conf / a.num_classes != p || conf % a.num_classes != 0)
        bad(node, "confidences hold " + std::to_string(conf) + " values; " + std::to_string(p) + " priors x " +
                      std::to_string(a.num_classes) + " classes need " + std::to_string(p * a.num_classes));
    expect_dtype(node, declared_output(node, graph, 0), "output", {DataType::Float32});
    return {output_like(node, graph, 0, Shape{1, 1, a.keep_top_k, 6}, DataType::Float32)};
}

}  // namespace npurun::ops

// DetectionPostProcess, the control-flow pair Merge/Switch, and StandIn.
#include <cmath>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {

// Inputs box encodings [1, B, 4] (ty, tx, th, tw), scores [1, B, numClasses + 1] (column 0 background),
// anchors [B, 4] (yc, xc, h, w). Outputs (Float32): boxes [1, D, 4], classes [1, D], scores [1, D],
// num_detections [1], with D = maxDetections * maxClassesPerDetection (Arm NN's DetectionPostProcessLayer).
std::vector<TensorInfo> infer_detection_post_process(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<DetectionPostProcessAttrs>(node);
    expect_inputs(node, 3, 3);
    expect_outputs(node, 4);
    // QSymmS16 as CpuRef 20.08 accepts it (found by the conformance suite, detection_post_process_s16_*).
    const std::initializer_list<DataType> types = {DataType::Float32, DataType::Float16, DataType::QAsymmU8,
                                                   DataType::QAsymmS8, DataType::QSymmS16};
    static const char* const names[] = {"box encodings", "scores", "anchors"};
    for (size_t i = 0; i < 3; ++i) {
        const TensorInfo& t = input(node, graph, i);
        expect_dtype(node, t, names[i], types);
        expect_valid_quantization(node, t, names[i]);
        if (t.quant.per_axis()) bad(node, std::string(names[i]) + " is per-axis quantized");
    }
    const TensorInfo& boxes = input(node, graph, 0);
    const TensorInfo& scores = input(node, graph, 1);
    const TensorInfo& anchors = input(node, graph, 2);
    expect_rank(node, boxes, "box encodings", 3);
    expect_rank(node, scores, "scores", 3);
    expect_rank(node, anchors, "anchors", 2);
    const uint32_t nb = boxes.shape[1];
    if (boxes.shape[0] != 1 || boxes.shape[2] != 4) bad(node, "box encodings " + boxes.shape.str() + " must be [1, B, 4]");
    if (a.num_classes == 0) bad(node, "numClasses is 0");
    const uint32_t cols = add_u32(node, a.num_classes, 1, "numClasses + 1");
    if (scores.shape != Shape{1, nb, cols})
        bad(node, "scores " + scores.shape.str() + " must be [1, " + std::to_string(nb) + ", numClasses + 1 = " +
                      std::to_string(cols) + "]");
    if (anchors.shape != Shape{nb, 4}) bad(node, "anchors " + anchors.shape.str() + " must be [" + std::to_string(nb) + ", 4]");
    if (a.max_detections == 0) bad(node, "maxDetections is 0");
    if (a.max_classes_per_detection == 0) bad(node, "maxClassesPerDetection is 0");
    if (a.use_regular_nms && a.detections_per_class == 0) bad(node, "detectionsPerClass is 0");
    for (float s : {a.scale_x, a.scale_y, a.scale_w, a.scale_h})
        if (!(s != 0.0f) || !std::isfinite(s)) bad(node, "box scales must be finite and non-zero");
    if (!std::isfinite(a.nms_score_threshold) || !std::isfinite(a.nms_iou_threshold)) bad(node, "thresholds must be finite");
    const uint32_t d = mul_u32(node, a.max_detections, a.max_classes_per_detection, "detection count");
    for (size_t i = 0; i < 4; ++i) expect_dtype(node, declared_output(node, graph, i), "output", {DataType::Float32});
    return {output_like(node, graph, 0, Shape{1, d, 4}, DataType::Float32),
            output_like(node, graph, 1, Shape{1, d}, DataType::Float32),
            output_like(node, graph, 2, Shape{1, d}, DataType::Float32),
            output_like(node, graph, 3, Shape{1}, DataType::Float32)};
}

// Merge (a, b): same shape and type; see kernels/ref/control_flow.cpp for the semantics npurun defines.
std::vector<TensorInfo> infer_merge(const Node& node, const Graph& graph) {
    const auto [a, b] = same_typed_inputs(node, graph, kNumericTypes);
    if (a.shape != b.shape) bad(node, "inputs " + a.shape.str() + " and " + b.shape.str() + " differ in shape");
    return {output_like(node, graph, 0, a.shape, a.dtype)};
}

// Switch (data, predicate): predicate with data's shape or a single element; outputs (false, true) like data.
std::vector<TensorInfo> infer_switch(const Node& node, const Graph& graph) {
    const auto [x, p] = two_inputs(node, graph, 2);
    expect_typed(node, x, "input", kNumericTypes);
    expect_typed(node, p, "predicate", {DataType::Boolean, DataType::Signed32, DataType::Float32, DataType::QAsymmU8});
    if (p.shape != x.shape && p.shape.num_elements() != 1)
        bad(node, "predicate " + p.shape.str() + " must have the input's shape " + x.shape.str() + " or one element");
    return {output_like(node, graph, 0, x.shape, x.dtype), output_like(node, graph, 1, x.shape, x.dtype)};
}

// StandIn stands for a layer Arm NN could not represent: it has no semantics, so its declared outputs are
// taken as they are. The model loads; creating a session fails (the kernels' check names the layer).
std::vector<TensorInfo> infer_stand_in(const Node& node, const Graph& graph) {
    (void)attrs_of<StandInAttrs>(node);
    std::vector<TensorInfo> out;
    for (size_t i = 0; i < node.outputs.size(); ++i) out.push_back(declared_output(node, graph, i));
    return out;
}

}  // namespace npurun::ops

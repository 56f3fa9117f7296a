// DetectionPostProcess cases: regular and fast NMS, several scales, thresholds and anchor sets.
//
// Why the data look like this:
//  - Anchors come in clusters far apart (no overlap between clusters); inside a cluster every pair of
//    boxes overlaps with IoU well above every threshold used (about 0.7 to 0.9 after decoding small
//    random encodings), so the "overlaps" relation is a union of cliques. On such data Arm NN 20.08's
//    NMS bug (a box that was itself suppressed still suppresses later ones; reference/armnn-format.md
//    §2, fixed upstream in 20.11) cannot change the result, and CpuRef 20.08 is a valid oracle.
//  - Scores are constants with pairwise distinct values (also after quantization): CpuRef orders with
//    std::partial_sort, which is not stable, so ties would make the order of equal scores arbitrary.
//  - One case per NMS kind builds a chain A-B-C (A overlaps B, B overlaps C, A does not overlap C), where
//    20.08 and the corrected upstream behaviour differ: its expected values are hand-computed (the
//    corrected result: A and C kept), and the manifest notes that CpuRef 20.08 differs.
// Box encodings are the network input; all four outputs are Float32 and compared as floats.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "tests/conformance/generator/armnn_runner.h"
#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::DataType;
using armnn::TensorInfo;
using armnn::TensorShape;

struct Anchor {
    float yc, xc, h, w;
};

// 9 clusters of 2 (a pair offset by 0.03 in x) on a 3x3 grid.
std::vector<Anchor> grid_pairs() {
    std::vector<Anchor> a;
    for (float y : {0.15f, 0.5f, 0.85f})
        for (float x : {0.15f, 0.5f, 0.85f}) {
            a.push_back({y, x, 0.2f, 0.2f});
            a.push_back({y, x + 0.03f, 0.2f, 0.2f});
        }
    return a;
}

// Singles, pairs and a clique of three; rectangular boxes.
std::vector<Anchor> mixed() {
    return {
        {0.15f, 0.15f, 0.2f, 0.1f},  {0.15f, 0.5f, 0.1f, 0.2f},  {0.16f, 0.5f, 0.1f, 0.2f},
        {0.5f, 0.15f, 0.2f, 0.2f},   {0.5f, 0.16f, 0.2f, 0.2f},  {0.51f, 0.15f, 0.2f, 0.2f},
        {0.5f, 0.85f, 0.15f, 0.15f}, {0.85f, 0.15f, 0.2f, 0.2f}, {0.85f, 0.5f, 0.2f, 0.25f},
        {0.85f, 0.85f, 0.1f, 0.1f},
    };
}

// Three pairs of wide boxes.
std::vector<Anchor> wide_pairs() {
    return {
        {0.2f, 0.3f, 0.1f, 0.4f}, {0.21f, 0.3f, 0.1f, 0.4f}, {0.5f, 0.6f, 0.12f, 0.5f},
        {0.5f, 0.62f, 0.12f, 0.5f}, {0.8f, 0.4f, 0.1f, 0.6f}, {0.8f, 0.43f, 0.1f, 0.6f},
    };
}

std::vector<float> anchor_values(const std::vector<Anchor>& anchors) {
    std::vector<float> v;
    for (const Anchor& a : anchors) v.insert(v.end(), {a.yc, a.xc, a.h, a.w});
    return v;
}

struct Scheme {
    TypeVariant v;
    TensorInfo encodings(unsigned boxes) const {
        return ranged_info(v, TensorShape({1, boxes, 4}), -0.25f, 0.25f);
    }
    TensorInfo scores(unsigned boxes, unsigned classes) const {
        // [0, 255/256] for every type (QAsymmS8 through its offset), so distinct values stay distinct.
        return v.info(TensorShape({1, boxes, classes + 1}), 1.0f / 256, s8() ? -128 : 0);
    }
    TensorInfo anchors(unsigned boxes) const {
        if (v.type == DataType::QSymmS16) return v.info(TensorShape({boxes, 4}), 1.0f / 16384, 0);
        if (s8()) return TensorInfo(TensorShape({boxes, 4}), DataType::Float32);
        return v.info(TensorShape({boxes, 4}), 1.0f / 200, 0);
    }
    // 20.08 cannot write QAsymmS8 constants (reference/armnn-format.md §1.3): with QAsymmS8 the scores are a
    // second network input (same distinct values) and the anchors stay Float32.
    bool s8() const { return v.type == DataType::QAsymmS8; }
};

// The scores operand: a Constant layer, or for QAsymmS8 an input with exactly these values.
armnn::IOutputSlot& scores_operand(Net& net, const Scheme& s, const TensorInfo& info, const std::vector<float>& values) {
    if (s.s8()) return net.input_values(info, values);
    auto* sc = net.net().AddConstantLayer(net.const_from(info, values), "scores");
    sc->GetOutputSlot(0).SetTensorInfo(info);
    return sc->GetOutputSlot(0);
}

const TypeVariant kTypes[] = {kF32, kF16, kU8, kS8, kS16};

struct P {
    const char* tag;
    std::vector<Anchor> (*anchors)();
    bool regular;
    unsigned classes, max_detections, per_class, classes_per_detection;
    float score_threshold, iou_threshold;
    float sy, sx, sh, sw;
};

const P kParams[] = {
    {"regular_grid_c3", grid_pairs, true, 3, 10, 5, 1, 0.3f, 0.5f, 10, 10, 5, 5},
    {"regular_grid_c2_scales8x4", grid_pairs, true, 2, 6, 3, 1, 0.5f, 0.3f, 8, 8, 4, 4},
    {"regular_mixed_c4_sparse", mixed, true, 4, 12, 10, 1, 0.6f, 0.45f, 10, 10, 5, 5},
    {"fast_grid_c3", grid_pairs, false, 3, 8, 1, 1, 0.2f, 0.5f, 10, 10, 5, 5},
    {"fast_mixed_c1", mixed, false, 1, 5, 1, 1, 0.4f, 0.6f, 10, 5, 5, 10},
    {"fast_wide_c2_all", wide_pairs, false, 2, 3, 1, 1, 0.0f, 0.5f, 10, 10, 5, 5},
};

armnn::DetectionPostProcessDescriptor dpp_desc(const P& p) {
    armnn::DetectionPostProcessDescriptor d;
    d.m_MaxDetections = p.max_detections;
    d.m_MaxClassesPerDetection = p.classes_per_detection;
    d.m_DetectionsPerClass = p.per_class;
    d.m_NmsScoreThreshold = p.score_threshold;
    d.m_NmsIouThreshold = p.iou_threshold;
    d.m_NumClasses = p.classes;
    d.m_UseRegularNms = p.regular;
    d.m_ScaleY = p.sy;
    d.m_ScaleX = p.sx;
    d.m_ScaleH = p.sh;
    d.m_ScaleW = p.sw;
    return d;
}

// Pairwise distinct scores in (0, 1), multiples of 1/256 (exact in every scheme's score type).
std::vector<float> distinct_scores(size_t n, Prng& prng) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(1 + (i * 251) / n) / 256.0f;
    for (size_t i = n; i > 1; --i) std::swap(v[i - 1], v[static_cast<size_t>(prng.integer(0, static_cast<int64_t>(i - 1)))]);
    return v;
}

void wire_outputs(Net& net, armnn::IConnectableLayer* layer, unsigned max_detections) {
    const TensorInfo boxes(TensorShape({1, max_detections, 4}), DataType::Float32);
    const TensorInfo rows(TensorShape({1, max_detections}), DataType::Float32);
    const TensorInfo count(TensorShape({1}), DataType::Float32);
    layer->GetOutputSlot(0).SetTensorInfo(boxes);
    layer->GetOutputSlot(1).SetTensorInfo(rows);
    layer->GetOutputSlot(2).SetTensorInfo(rows);
    layer->GetOutputSlot(3).SetTensorInfo(count);
    for (unsigned i = 0; i < 4; ++i) net.output(layer->GetOutputSlot(i));
}

CaseSpec float_compared(CaseSpec c) {
    c.compare = Compare::Float;
    c.tolerance = 1e-4f;
    return c;
}

void add_random_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : kTypes)
        for (const P& p : kParams)
            out.push_back(float_compared(make_case(std::string("detection_post_process_") + v.tag + "_" + p.tag,
                                                   "DetectionPostProcess", v, [v, p](Net& net) {
                const Scheme s{v};
                const std::vector<Anchor> anchors = p.anchors();
                const unsigned n = static_cast<unsigned>(anchors.size());
                const TensorInfo scores_info = s.scores(n, p.classes);
                const std::vector<float> scores = distinct_scores(scores_info.GetNumElements(), net.prng());
                auto& enc = net.input(s.encodings(n), {-0.2f, 0.2f});
                auto& sc = scores_operand(net, s, scores_info, scores);
                auto* layer = net.net().AddDetectionPostProcessLayer(
                    dpp_desc(p), net.const_from(s.anchors(n), anchor_values(anchors)), "detection_post_process");
                enc.Connect(layer->GetInputSlot(0));
                sc.Connect(layer->GetInputSlot(1));
                wire_outputs(net, layer, p.max_detections);
            })));
}

Bytes float_bytes(const std::vector<float>& v) {
    Bytes b(v.size() * sizeof(float));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

// The chain A-B-C plus a far box D, one class, zero encodings (decoded boxes are the anchors):
// IoU(A,B) = IoU(B,C) = 0.538 > 0.5, IoU(A,C) = 0.25. Corrected NMS keeps A, C, D (B is suppressed by A
// and, being suppressed, suppresses nothing); 20.08 also drops C.
void add_chain_cases(std::vector<CaseSpec>& out) {
    const std::vector<Anchor> anchors = {{0.5f, 0.5f, 0.2f, 0.2f}, {0.5f, 0.56f, 0.2f, 0.2f}, {0.5f, 0.62f, 0.2f, 0.2f}, {0.15f, 0.15f, 0.2f, 0.2f}};
    const std::vector<float> scores = {0.0f, 0.9f, 0.0f, 0.8f, 0.0f, 0.7f, 0.0f, 0.6f};  // [background, class 0] per box
    for (const TypeVariant& v : {kF32, kU8, kS8})
        for (bool regular : {true, false}) {
            const std::string name = std::string("detection_post_process_") + v.tag + (regular ? "_regular" : "_fast") + "_nms_chain";
            CaseSpec c = float_compared(make_case(name, "DetectionPostProcess", v, [v, regular, anchors, scores](Net& net) {
                const Scheme s{v};
                P p{"chain", nullptr, regular, 1, 4, 4, 1, 0.5f, 0.5f, 10, 10, 5, 5};
                auto& enc = net.input(s.encodings(4), {0.0f, 0.0f});
                auto& sc = scores_operand(net, s, v.info(TensorShape({1, 4, 2}), 0.01f, 0), scores);
                const TensorInfo anchors_info = s.s8() ? s.anchors(4) : v.info(TensorShape({4, 4}), 0.01f, 0);
                auto* layer = net.net().AddDetectionPostProcessLayer(dpp_desc(p), net.const_from(anchors_info, anchor_values(anchors)),
                                                                     "detection_post_process");
                enc.Connect(layer->GetInputSlot(0));
                sc.Connect(layer->GetInputSlot(1));
                wire_outputs(net, layer, 4);
            }));
            c.note = "NMS chain: expected values hand-computed with the corrected NMS (Arm NN 20.11, GitHub#465); 20.08 drops box C";
            c.hand_expected = [anchors](const std::vector<Bytes>&) {
                std::vector<float> boxes(16, 0.0f), classes(4, 0.0f), kept_scores(4, 0.0f);
                const size_t kept[] = {0, 2, 3};  // A (0.9), C (0.7), D (0.6)
                const float kept_score[] = {0.9f, 0.7f, 0.6f};
                for (size_t r = 0; r < 3; ++r) {
                    const Anchor& a = anchors[kept[r]];
                    boxes[r * 4 + 0] = a.yc - 0.5f * a.h;
                    boxes[r * 4 + 1] = a.xc - 0.5f * a.w;
                    boxes[r * 4 + 2] = a.yc + 0.5f * a.h;
                    boxes[r * 4 + 3] = a.xc + 0.5f * a.w;
                    kept_scores[r] = kept_score[r];
                }
                return std::vector<Bytes>{float_bytes(boxes), float_bytes(classes), float_bytes(kept_scores), float_bytes({3.0f})};
            };
            out.push_back(c);
        }
}

}  // namespace

void add_detection_cases(std::vector<CaseSpec>& out) {
    add_random_cases(out);
    add_chain_cases(out);
}

}  // namespace conformance

// DetectionPostProcess (decoding, regular and fast NMS, thresholds, the fixed 20.08 suppression bug) and the
// control-flow pair Switch/Merge. Boxes and scores are chosen so that every IoU is simple to work out by hand.
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

struct Detections {
    std::vector<float> boxes, classes, scores, num;
};

// Adds the four Float32 outputs of `a` and t's DetectionPostProcess node on (e, s, an), runs it, reads them.
Detections run_detection(OneOp& t, const DetectionPostProcessAttrs& a, TensorId e, TensorId s, TensorId an) {
    const uint32_t d = a.max_detections * a.max_classes_per_detection;
    std::vector<TensorId> outs{t.output(f32({1, d, 4})), t.output(f32({1, d})), t.output(f32({1, d})),
                               t.output(f32({1}))};
    t.op(OpKind::DetectionPostProcess, a, {e, s, an}, outs);
    t.run();
    return {t.out<float>(0), t.out<float>(1), t.out<float>(2), t.out<float>(3)};
}

Detections detect(DetectionPostProcessAttrs a, std::vector<float> enc, std::vector<float> scores,
                  std::vector<float> anchors) {
    OneOp t;
    const uint32_t n = uint32_t(anchors.size() / 4);
    auto e = t.tensor(f32({1, n, 4}), enc);
    auto s = t.tensor(f32({1, n, a.num_classes + 1}), scores);
    auto an = t.tensor(f32({n, 4}), anchors, true);
    return run_detection(t, a, e, s, an);
}

DetectionPostProcessAttrs attrs(bool regular, uint32_t classes, uint32_t max_det, float iou, float score = 0.0f) {
    DetectionPostProcessAttrs a;
    a.use_regular_nms = regular;
    a.num_classes = classes;
    a.max_detections = max_det;
    a.max_classes_per_detection = 1;
    a.detections_per_class = 2;
    a.nms_iou_threshold = iou;
    a.nms_score_threshold = score;
    a.scale_x = a.scale_y = a.scale_w = a.scale_h = 1.0f;
    return a;
}

// Anchors (yc, xc, h, w) with zero encodings decode to themselves: A = [0,0,1,1], B = [0,0.1,1,1.1]
// (IoU(A,B) = 0.9/1.1 = 0.82), C = [0,2,1,3] (disjoint from both).
const std::vector<float> kAnchors{0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 2.5f, 1, 1};
const std::vector<float> kZero(12, 0.0f);
// Columns: background, class 0, class 1.
const std::vector<float> kScores{0, 0.9f, 0.1f, 0, 0.8f, 0.7f, 0, 0.2f, 0.6f};

// The FastNms case on kScores: A c0 .9 and C c1 .6 kept, B suppressed by A, the third slot empty.
void expect_fast_nms_detections(const Detections& d) {
    EXPECT_FLOATS_NEAR(d.boxes, (std::vector<float>{0, 0, 1, 1, 0, 2, 1, 3, 0, 0, 0, 0}), 1e-6);
    EXPECT_EQ(d.classes, (std::vector<float>{0, 1, 0}));
    EXPECT_FLOATS_NEAR(d.scores, (std::vector<float>{0.9f, 0.6f, 0}), 1e-6);
    EXPECT_EQ(d.num, (std::vector<float>{2}));
}

}  // namespace

TEST(RefDetectionPostProcess, DecodesWithScalesAndAnchors) {
    // anchor (0.5, 0.5, 1, 2), encoding (1, 2, 0, 5 ln 2), scales 10/10/5/5:
    // yc = 1/10*1 + 0.5 = 0.6, xc = 2/10*2 + 0.5 = 0.9, h/2 = 0.5, w/2 = 0.5 * exp(ln 2) * 2 = 2
    DetectionPostProcessAttrs a = attrs(false, 1, 1, 0.5f);
    a.scale_y = a.scale_x = 10;
    a.scale_h = a.scale_w = 5;
    const Detections d = detect(a, {1, 2, 0, 5 * std::log(2.0f)}, {0, 0.5f}, {0.5f, 0.5f, 1, 2});
    EXPECT_FLOATS_NEAR(d.boxes, (std::vector<float>{0.1f, -1.1f, 1.1f, 2.9f}), 1e-5);
    EXPECT_EQ(d.classes, (std::vector<float>{0}));
    EXPECT_EQ(d.scores, (std::vector<float>{0.5f}));
    EXPECT_EQ(d.num, (std::vector<float>{1}));
}

TEST(RefDetectionPostProcess, FastNms) {
    // Candidates (best class per box): A c0 .9, B c0 .8, C c1 .6; B is suppressed by A.
    expect_fast_nms_detections(detect(attrs(false, 2, 3, 0.5f), kZero, kScores, kAnchors));
}

TEST(RefDetectionPostProcess, QSymmS16InputsDecodeLikeFloat) {
    // The FastNms case with QSymmS16 operands (CpuRef 20.08 accepts them): encodings 0, scores at scale
    // 0.001, anchors at scale 0.1; same detections as in float.
    OneOp t;
    auto e = t.tensor(info(DataType::QSymmS16, {1, 3, 4}, 1.0f / 1024, 0), std::vector<int16_t>(12, 0));
    auto s = t.tensor(info(DataType::QSymmS16, {1, 3, 3}, 0.001f, 0),
                      std::vector<int16_t>{0, 900, 100, 0, 800, 700, 0, 200, 600});
    auto an = t.tensor(info(DataType::QSymmS16, {3, 4}, 0.1f, 0),
                       std::vector<int16_t>{5, 5, 10, 10, 5, 6, 10, 10, 5, 25, 10, 10}, true);
    expect_fast_nms_detections(run_detection(t, attrs(false, 2, 3, 0.5f), e, s, an));
}

TEST(RefDetectionPostProcess, RegularNmsPerClassThenBestAcrossClasses) {
    // class 0: A .9 kept, B suppressed, C .2 kept; class 1: B .7 kept, A suppressed by B, C .6 kept.
    // Best 3 of {A c0 .9, C c0 .2, B c1 .7, C c1 .6}: A c0, B c1, C c1.
    const Detections d = detect(attrs(true, 2, 3, 0.5f), kZero, kScores, kAnchors);
    EXPECT_FLOATS_NEAR(d.boxes, (std::vector<float>{0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 2, 1, 3}), 1e-6);
    EXPECT_EQ(d.classes, (std::vector<float>{0, 1, 1}));
    EXPECT_FLOATS_NEAR(d.scores, (std::vector<float>{0.9f, 0.7f, 0.6f}), 1e-6);
    EXPECT_EQ(d.num, (std::vector<float>{3}));
}

TEST(RefDetectionPostProcess, ScoreThresholdAndMaxDetections) {
    const Detections d = detect(attrs(false, 2, 3, 0.5f, 0.65f), kZero, kScores, kAnchors);
    EXPECT_EQ(d.num, (std::vector<float>{1}));  // only A .9 and B .8 pass; B is suppressed
    const Detections r = detect(attrs(true, 2, 1, 0.5f), kZero, kScores, kAnchors);
    EXPECT_EQ(r.num, (std::vector<float>{1}));
    EXPECT_EQ(r.scores, (std::vector<float>{0.9f}));
}

// Arm NN 20.08 (DetectionPostProcess.cpp) let a box that had itself been suppressed suppress later boxes;
// 20.11 fixed it (commit db6e8a99b, GitHub#465). npurun implements the FIXED behaviour: here 20.08 would
// report only X, the corrected NMS keeps X and Z.
TEST(RefDetectionPostProcess, SuppressedBoxesDoNotSuppressFixedUpstreamBehaviour) {
    // X = [0,0,1,1] .9, Y = [0,0.4,1,1.4] .8, Z = [0,0.8,1,1.8] .7: IoU(X,Y) = IoU(Y,Z) = 0.6/1.4 = 0.43,
    // IoU(X,Z) = 0.2/1.8 = 0.11; threshold 0.3: Y is suppressed by X; Z overlaps only the suppressed Y.
    const std::vector<float> anchors{0.5f, 0.5f, 1, 1, 0.5f, 0.9f, 1, 1, 0.5f, 1.3f, 1, 1};
    const std::vector<float> scores{0, 0.9f, 0, 0.8f, 0, 0.7f};
    for (bool regular : {false, true}) {
        const Detections d = detect(attrs(regular, 1, 3, 0.3f), kZero, scores, anchors);
        EXPECT_EQ(d.num, (std::vector<float>{2})) << (regular ? "regular" : "fast");
        EXPECT_FLOATS_NEAR(d.scores, (std::vector<float>{0.9f, 0.7f, 0}), 1e-6);
        EXPECT_FLOATS_NEAR(d.boxes, (std::vector<float>{0, 0, 1, 1, 0, 0.8f, 1, 1.8f, 0, 0, 0, 0}), 1e-6);
    }
}

TEST(RefDetectionPostProcess, TwoClassesPerDetectionInFastMode) {
    // maxClassesPerDetection 2: output rows = maxDetections * 2; box C (disjoint) contributes c1 .6 and c0 .2.
    DetectionPostProcessAttrs a = attrs(false, 2, 2, 0.5f);
    a.max_classes_per_detection = 2;
    const Detections d = detect(a, {0, 0, 0, 0}, {0, 0.2f, 0.6f}, {0.5f, 2.5f, 1, 1});
    // Each candidate keeps its own box; the two candidates of one box overlap fully (IoU 1 > 0.5): only the
    // best survives, as in the per-class-agnostic fast NMS.
    EXPECT_EQ(d.num, (std::vector<float>{1}));
    EXPECT_EQ(d.classes, (std::vector<float>{1, 0, 0, 0}));
}

TEST(RefDetectionPostProcess, ShapeErrors) {
    OneOp t;
    auto e = t.tensor(f32({1, 2, 4}), std::vector<float>(8));
    auto s = t.tensor(f32({1, 2, 2}), std::vector<float>(4));  // numClasses 2 needs 3 columns
    auto an = t.tensor(f32({2, 4}), std::vector<float>(8), true);
    std::vector<TensorId> outs{t.output(f32({1, 1, 4})), t.output(f32({1, 1})), t.output(f32({1, 1})), t.output(f32({1}))};
    t.op(OpKind::DetectionPostProcess, attrs(false, 2, 1, 0.5f), {e, s, an}, outs);
    EXPECT_NE(std::string(expect_error([&] { t.infer(); }).what()).find("numClasses + 1"), std::string::npos);
}

TEST(RefSwitchMerge, SwitchRoutesElementsAndMergeRejoinsThem) {
    OneOp t;
    auto x = t.tensor(f32({3}), std::vector<float>{1, 2, 3});
    auto p = t.tensor(info(DataType::Boolean, {3}), std::vector<uint8_t>{1, 0, 1});
    auto f = t.output(f32({3}));
    auto tr = t.output(f32({3}));
    t.op(OpKind::Switch, std::monostate{}, {x, p}, {f, tr});
    t.run();
    const std::vector<float> off = t.out<float>(0), on = t.out<float>(1);
    EXPECT_EQ(off, (std::vector<float>{0, 2, 0}));
    EXPECT_EQ(on, (std::vector<float>{1, 0, 3}));
    OneOp m;
    auto a = m.tensor(f32({3}), off);
    auto b = m.tensor(f32({3}), on);
    auto y = m.output(f32({3}));
    m.op(OpKind::Merge, std::monostate{}, {a, b}, {y});
    m.run();
    EXPECT_EQ(m.out<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(RefSwitchMerge, ScalarPredicateAndQuantizedZeroPoint) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {2}, 0.5f, 100), std::vector<uint8_t>{110, 90});
    auto p = t.tensor(info(DataType::Boolean, {1}), std::vector<uint8_t>{0});
    auto f = t.output(info(DataType::QAsymmU8, {2}, 0.5f, 100));
    auto tr = t.output(info(DataType::QAsymmU8, {2}, 0.5f, 100));
    t.op(OpKind::Switch, std::monostate{}, {x, p}, {f, tr});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(0), (std::vector<uint8_t>{110, 90}));
    EXPECT_EQ(t.out<uint8_t>(1), (std::vector<uint8_t>{100, 100}));  // real 0 is the zero point
}

TEST(RefSwitchMerge, ShapeErrors) {
    OneOp t;
    auto x = t.tensor(f32({3}), std::vector<float>(3));
    auto p = t.tensor(info(DataType::Boolean, {2}), std::vector<uint8_t>(2));
    t.op(OpKind::Switch, std::monostate{}, {x, p}, {t.output(f32({3})), t.output(f32({3}))});
    EXPECT_EQ(expect_error([&] { t.infer(); }).kind(), ErrorKind::BadModel);
    OneOp m;
    auto a = m.tensor(f32({3}), std::vector<float>(3));
    auto b = m.tensor(f32({2}), std::vector<float>(2));
    m.op(OpKind::Merge, std::monostate{}, {a, b}, {m.output(f32({3}))});
    EXPECT_EQ(expect_error([&] { m.infer(); }).kind(), ErrorKind::BadModel);
}

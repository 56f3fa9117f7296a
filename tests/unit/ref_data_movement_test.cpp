// Reshape, Permute, Transpose, Concat, Splitter, Pad, Mean, Resize, FullyConnected reference kernels.
#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

TEST(RefReshape, CopiesBytes) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {2, 3}, 1.0f, 0), std::vector<uint8_t>{1, 2, 3, 4, 5, 6});
    auto y = t.output(info(DataType::QAsymmU8, {3, 1, 2}, 1.0f, 0));
    ReshapeAttrs a;
    a.target = Shape{3, 1, 2};
    t.op(OpKind::Reshape, a, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
}

// x[2,3] = [[0,1,2],[3,4,5]]. A 2-D permutation is its own inverse, so use 3-D to tell the conventions apart.
TEST(RefPermuteTranspose, MappingConventionsDiffer) {
    std::vector<float> in(24);
    for (int i = 0; i < 24; ++i) in[i] = float(i);  // x[a][b][c] = 12a + 4b + c, shape [2,3,4]
    // Permute {1,2,0}: input dim 0 -> output dim 1, 1 -> 2, 2 -> 0: output [4,2,3], out[c][a][b] = x[a][b][c].
    std::vector<float> expect_p;
    for (int c = 0; c < 4; ++c)
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 3; ++b) expect_p.push_back(float(12 * a + 4 * b + c));
    EXPECT_EQ(run_unary_f32(OpKind::Permute, PermuteAttrs{{1, 2, 0}}, {2, 3, 4}, in, {4, 2, 3}), expect_p);
    // Transpose {1,2,0}: output dim i = input dim mapping[i]: output [3,4,2], out[b][c][a] = x[a][b][c].
    std::vector<float> expect_t;
    for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 4; ++c)
            for (int a = 0; a < 2; ++a) expect_t.push_back(float(12 * a + 4 * b + c));
    EXPECT_EQ(run_unary_f32(OpKind::Transpose, PermuteAttrs{{1, 2, 0}}, {2, 3, 4}, in, {3, 4, 2}), expect_t);
}

TEST(RefPermute, Int16Elements) {
    OneOp t;
    auto x = t.tensor(info(DataType::QSymmS16, {2, 2}, 1.0f), std::vector<int16_t>{1, 2, 3, 4});
    auto y = t.output(info(DataType::QSymmS16, {2, 2}, 1.0f));
    t.op(OpKind::Permute, PermuteAttrs{{1, 0}}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<int16_t>(), (std::vector<int16_t>{1, 3, 2, 4}));
}

TEST(RefConcat, AlongAxis1WithRequantization) {
    // [2,1] at (0,0) and [2,2] at (0,1) -> [2,3]. Input 1 has another scale and is requantized.
    OneOp t;
    auto a = t.tensor(info(DataType::QAsymmU8, {2, 1}, 1.0f, 0), std::vector<uint8_t>{1, 2});
    auto b = t.tensor(info(DataType::QAsymmU8, {2, 2}, 0.5f, 0), std::vector<uint8_t>{20, 22, 24, 26});
    auto y = t.output(info(DataType::QAsymmU8, {2, 3}, 1.0f, 0));
    ConcatAttrs at;
    at.axis = 1;
    at.view_origins = {{0, 0}, {0, 1}};
    t.op(OpKind::Concat, at, {a, b}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{1, 10, 11, 2, 12, 13}));
}

TEST(RefConcat, ThreeInputsAxis0Float) {
    OneOp t;
    auto a = t.tensor(f32({1, 2}), std::vector<float>{1, 2});
    auto b = t.tensor(f32({2, 2}), std::vector<float>{3, 4, 5, 6});
    auto c = t.tensor(f32({1, 2}), std::vector<float>{7, 8});
    auto y = t.output(f32({4, 2}));
    ConcatAttrs at;
    at.view_origins = {{0, 0}, {1, 0}, {3, 0}};
    t.op(OpKind::Concat, at, {a, b, c}, {y});
    t.run();
    EXPECT_EQ(t.out<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(RefConcatShape, GapsAndOverlapsRejected) {
    auto concat_error = [](std::vector<std::vector<uint32_t>> origins) {
        OneOp t;
        auto a = t.tensor(f32({1, 2}), std::vector<float>{1, 2});
        auto b = t.tensor(f32({1, 2}), std::vector<float>{3, 4});
        auto y = t.output(f32({2, 2}));
        ConcatAttrs at;
        at.view_origins = std::move(origins);
        t.op(OpKind::Concat, at, {a, b}, {y});
        return std::string(expect_error([&] { t.infer(); }).what());
    };
    EXPECT_NE(concat_error({{0, 0}, {0, 0}}).find("overlap"), std::string::npos);
    EXPECT_NE(concat_error({{0, 0}, {2, 0}}).find("do not cover"), std::string::npos);
    EXPECT_NE(concat_error({{1, 0}, {2, 0}}).find("origin"), std::string::npos);
    EXPECT_NE(concat_error({{0, 0}}).find("1 view origins for 2 inputs"), std::string::npos);
}

TEST(RefSplitter, TwoViewsOfA2x3) {
    OneOp t;
    auto x = t.tensor(f32({2, 3}), std::vector<float>{1, 2, 3, 4, 5, 6});
    auto y0 = t.output(f32({2, 1}));
    auto y1 = t.output(f32({2, 2}));
    SplitterAttrs a;
    a.view_origins = {{0, 0}, {0, 1}};
    a.view_sizes = {{2, 1}, {2, 2}};
    t.op(OpKind::Splitter, a, {x}, {y0, y1});
    t.run();
    EXPECT_EQ(t.out<float>(0), (std::vector<float>{1, 4}));
    EXPECT_EQ(t.out<float>(1), (std::vector<float>{2, 3, 5, 6}));
}

TEST(RefSplitterShape, ViewOutsideInputRejected) {
    OneOp t;
    auto x = t.tensor(f32({2, 3}), std::vector<float>(6));
    auto y0 = t.output(f32({2, 2}));
    SplitterAttrs a;
    a.view_origins = {{0, 2}};
    a.view_sizes = {{2, 2}};
    t.op(OpKind::Splitter, a, {x}, {y0});
    EXPECT_NE(std::string(expect_error([&] { t.infer(); }).what()).find("extends beyond"), std::string::npos);
}

TEST(RefPad, ConstantFloatAndRawQuantizedValue) {
    OneOp t;
    auto x = t.tensor(f32({1, 2}), std::vector<float>{1, 2});
    auto y = t.output(f32({2, 5}));
    PadAttrs a;
    a.pads = {{1, 0}, {2, 1}};
    a.value = -1;
    t.op(OpKind::Pad, a, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<float>(), (std::vector<float>{-1, -1, -1, -1, -1, -1, -1, 1, 2, -1}));

    // Quantized: the pad value is the raw integer 3, not quantize(3) with the output's scale/offset.
    OneOp q;
    auto qx = q.tensor(info(DataType::QAsymmU8, {2}, 0.5f, 100), std::vector<uint8_t>{7, 8});
    auto qy = q.output(info(DataType::QAsymmU8, {4}, 0.5f, 100));
    PadAttrs qa;
    qa.pads = {{1, 1}};
    qa.value = 3;
    q.op(OpKind::Pad, qa, {qx}, {qy});
    q.run();
    EXPECT_EQ(q.out<uint8_t>(), (std::vector<uint8_t>{3, 7, 8, 3}));
}

TEST(RefPad, ReflectAndSymmetric) {
    auto pad = [](PaddingMode mode, uint32_t before, uint32_t after) {
        OneOp t;
        auto x = t.tensor(f32({3}), std::vector<float>{1, 2, 3});
        auto y = t.output(f32({3 + before + after}));
        PadAttrs a;
        a.pads = {{before, after}};
        a.mode = mode;
        t.op(OpKind::Pad, a, {x}, {y});
        t.run();
        return t.out<float>();
    };
    EXPECT_EQ(pad(PaddingMode::Reflect, 2, 2), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
    EXPECT_EQ(pad(PaddingMode::Symmetric, 3, 2), (std::vector<float>{3, 2, 1, 1, 2, 3, 3, 2}));
}

TEST(RefPad, Float16TwoDimensionsReflect) {
    OneOp t;
    auto x = t.tensor(info(DataType::Float16, {2, 2}), to_f16({1, 2, 3, 4}));
    auto y = t.output(info(DataType::Float16, {3, 3}));
    PadAttrs a;
    a.pads = {{1, 0}, {0, 1}};
    a.mode = PaddingMode::Reflect;
    t.op(OpKind::Pad, a, {x}, {y});
    t.run();
    EXPECT_EQ(from_f16(t.out<uint16_t>()), (std::vector<float>{3, 4, 3, 1, 2, 1, 3, 4, 3}));
}

TEST(RefPadShape, ReflectTooWideRejected) {
    OneOp t;
    auto x = t.tensor(f32({3}), std::vector<float>{1, 2, 3});
    auto y = t.output(f32({6}));
    PadAttrs a;
    a.pads = {{3, 0}};
    a.mode = PaddingMode::Reflect;
    t.op(OpKind::Pad, a, {x}, {y});
    EXPECT_NE(std::string(expect_error([&] { t.infer(); }).what()).find("reflect padding of 3 exceeds 2"),
              std::string::npos);
}

TEST(RefMean, AxesKeepDimsAndAll) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};  // [2,3]
    auto mean = [&](std::vector<uint32_t> axes, bool keep, Shape out) {
        OneOp t;
        auto x = t.tensor(f32({2, 3}), in);
        auto y = t.output(f32(out));
        ReduceAttrs a;
        a.op = ReduceAttrs::Op::Mean;
        a.axes = std::move(axes);
        a.keep_dims = keep;
        t.op(OpKind::Mean, a, {x}, {y});
        t.run();
        return t.out<float>();
    };
    EXPECT_EQ(mean({1}, false, {2}), (std::vector<float>{2, 5}));
    EXPECT_EQ(mean({0}, true, {1, 3}), (std::vector<float>{2.5f, 3.5f, 4.5f}));
    EXPECT_EQ(mean({}, false, {1}), (std::vector<float>{3.5f}));  // everything, [1] not a scalar
    EXPECT_EQ(mean({0, 1}, true, {1, 1}), (std::vector<float>{3.5f}));
}

TEST(RefMean, MiddleAxisOf3dUint8) {
    // [2,2,2] mean over axis 1: out[a][c] = (x[a][0][c] + x[a][1][c]) / 2
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {2, 2, 2}, 1.0f, 0), std::vector<uint8_t>{1, 2, 3, 5, 10, 20, 30, 41});
    auto y = t.output(info(DataType::QAsymmU8, {2, 2}, 1.0f, 0));
    ReduceAttrs a;
    a.op = ReduceAttrs::Op::Mean;
    a.axes = {1};
    t.op(OpKind::Mean, a, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{2, 4, 20, 31}));  // 3.5 -> 4, 30.5 -> 31 (half away)
}

TEST(RefMeanShape, AxisOutOfRangeAndDuplicate) {
    auto err = [](std::vector<uint32_t> axes) {
        OneOp t;
        auto x = t.tensor(f32({2, 3}), std::vector<float>(6));
        auto y = t.output(f32({2}));
        ReduceAttrs a;
        a.axes = std::move(axes);
        t.op(OpKind::Mean, a, {x}, {y});
        return std::string(expect_error([&] { t.infer(); }).what());
    };
    EXPECT_NE(err({2}).find("axis 2 is out of range for rank 2"), std::string::npos);
    EXPECT_NE(err({1, 1}).find("listed twice"), std::string::npos);
}

namespace {

std::vector<float> resize(ResizeMethod m, bool align, bool half, Shape in_s, std::vector<float> in, uint32_t oh,
                          uint32_t ow, DataLayout layout = DataLayout::NHWC) {
    Shape out_s = in_s;
    if (layout == DataLayout::NHWC) { out_s[1] = oh; out_s[2] = ow; }
    else { out_s[2] = oh; out_s[3] = ow; }
    return run_unary_f32(OpKind::Resize, ResizeAttrs{oh, ow, m, layout, align, half}, in_s, in, out_s);
}

}  // namespace

// 1-row inputs make each case a 1-D formula: in = [0, 10, 20, 30] (width 4) resized to width 3 or 6.
TEST(RefResize, BilinearVariants) {
    const std::vector<float> in{0, 10, 20, 30};
    // scale 4/3: src 0, 1.333, 2.667 -> 0, 13.33, 26.67
    EXPECT_FLOATS_NEAR(resize(ResizeMethod::Bilinear, false, false, {1, 1, 4, 1}, in, 1, 3),
                       (std::vector<float>{0, 13.333333f, 26.666667f}), 1e-5);
    // alignCorners: scale 3/2: src 0, 1.5, 3 -> 0, 15, 30
    EXPECT_FLOATS_NEAR(resize(ResizeMethod::Bilinear, true, false, {1, 1, 4, 1}, in, 1, 3),
                       (std::vector<float>{0, 15, 30}), 1e-5);
    // halfPixelCenters: src (x+0.5)*4/3 - 0.5 = 0.1667, 1.5, 2.8333 -> 1.667, 15, 28.33
    EXPECT_FLOATS_NEAR(resize(ResizeMethod::Bilinear, false, true, {1, 1, 4, 1}, in, 1, 3),
                       (std::vector<float>{1.6666667f, 15, 28.333334f}), 1e-4);
    // Upscale to 6 with halfPixelCenters: src (x+0.5)*2/3 - 0.5 = -1/6 (clamped to texel 0), 0.5, 7/6, ...
    EXPECT_FLOATS_NEAR(resize(ResizeMethod::Bilinear, false, true, {1, 1, 4, 1}, in, 1, 6),
                       (std::vector<float>{0, 5, 11.666667f, 18.333334f, 25, 30}), 1e-4);
}

TEST(RefResize, NearestVariants) {
    const std::vector<float> in{0, 10, 20, 30};
    // scale 4/3, floor: 0, 1.33->1, 2.67->2
    EXPECT_EQ(resize(ResizeMethod::NearestNeighbor, false, false, {1, 1, 4, 1}, in, 1, 3),
              (std::vector<float>{0, 10, 20}));
    // alignCorners rounds: scale 1.5: 0, 1.5->2 (half away), 3
    EXPECT_EQ(resize(ResizeMethod::NearestNeighbor, true, false, {1, 1, 4, 1}, in, 1, 3),
              (std::vector<float>{0, 20, 30}));
    // halfPixelCenters: (x+0.5)*4/3 = 0.67, 2, 3.33 -> floor 0, 2, 3
    EXPECT_EQ(resize(ResizeMethod::NearestNeighbor, false, true, {1, 1, 4, 1}, in, 1, 3),
              (std::vector<float>{0, 20, 30}));
}

TEST(RefResize, Bilinear2dNchwTwoChannels) {
    // 2x2 -> 3x3 with alignCorners: centre = mean of the four, edges = means of pairs.
    const auto out = resize(ResizeMethod::Bilinear, true, false, {1, 2, 2, 2}, {0, 2, 4, 6, 10, 20, 30, 40}, 3, 3,
                            DataLayout::NCHW);
    EXPECT_FLOATS_NEAR(out, (std::vector<float>{0, 1, 2, 2, 3, 4, 4, 5, 6, 10, 15, 20, 20, 25, 30, 30, 35, 40}), 1e-5);
}

TEST(RefResizeShape, AlignCornersWithHalfPixelRejected) {
    OneOp t;
    auto x = t.tensor(f32({1, 2, 2, 1}), std::vector<float>(4));
    auto y = t.output(f32({1, 3, 3, 1}));
    ResizeAttrs a;
    a.target_height = a.target_width = 3;
    a.align_corners = a.half_pixel_centers = true;
    t.op(OpKind::Resize, a, {x}, {y});
    EXPECT_NE(std::string(expect_error([&] { t.infer(); }).what()).find("cannot both be set"), std::string::npos);
}

TEST(RefFullyConnected, TransposedAndPlainWeightsWithBias) {
    // x [[1,2,3],[4,5,6]], W [[1,0,-1],[2,1,0]] (O x I), bias [1,-1] -> [[-1,3],[-1,12]]
    for (bool transposed : {true, false}) {
        OneOp t;
        auto x = t.tensor(f32({2, 1, 1, 3}), std::vector<float>{1, 2, 3, 4, 5, 6});  // flattened to [2, 3]
        auto w = transposed ? t.tensor(f32({2, 3}), std::vector<float>{1, 0, -1, 2, 1, 0}, true)
                            : t.tensor(f32({3, 2}), std::vector<float>{1, 2, 0, 1, -1, 0}, true);
        auto b = t.tensor(f32({2}), std::vector<float>{1, -1}, true);
        auto y = t.output(f32({2, 2}));
        FullyConnectedAttrs a;
        a.bias_enabled = true;
        a.transpose_weights = transposed;
        t.op(OpKind::FullyConnected, a, {x, w, b}, {y});
        t.run();
        EXPECT_EQ(t.out<float>(), (std::vector<float>{-1, 3, -1, 12})) << "transposed " << transposed;
    }
}

TEST(RefFullyConnected, QAsymmS8PerAxisWeightsAndRescaledBias) {
    // x real [1, 2] (s 0.5 zp 0: q [2, 4]); W [O=2, I=2] per-axis scales [1, 0.5]: q [[1, 1], [2, -2]]
    // -> real [[1, 1], [1, -1]]; bias Signed32 s 0.25 (not sx*sw) q [4, 8] = real [1, 2].
    // y = [1+2+1, 1-2+2] = [4, 1]; out s 0.5 zp -10 -> [-2, -8].
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmS8, {1, 2}, 0.5f, 0), std::vector<int8_t>{2, 4});
    TensorInfo wi = info(DataType::QSymmS8, {2, 2});
    wi.quant.scales = {1.0f, 0.5f};
    wi.quant.axis = 0;
    auto w = t.tensor(wi, std::vector<int8_t>{1, 1, 2, -2}, true);
    auto b = t.tensor(info(DataType::Signed32, {2}, 0.25f), std::vector<int32_t>{4, 8}, true);
    auto y = t.output(info(DataType::QAsymmS8, {1, 2}, 0.5f, -10));
    FullyConnectedAttrs a;
    a.bias_enabled = true;
    a.transpose_weights = true;
    t.op(OpKind::FullyConnected, a, {x, w, b}, {y});
    t.run();
    EXPECT_EQ(t.out<int8_t>(), (std::vector<int8_t>{-2, -8}));
}

TEST(RefFullyConnected, Uint8NoBias) {
    // x real [1, -1] (s 1 zp 128); W [I=2, O=1] real [3, 1] (s 0.5 zp 10: q [16, 12]); y = 2 -> s 0.25 zp 0 -> 8
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {1, 2}, 1.0f, 128), std::vector<uint8_t>{129, 127});
    auto w = t.tensor(info(DataType::QAsymmU8, {2, 1}, 0.5f, 10), std::vector<uint8_t>{16, 12}, true);
    auto y = t.output(info(DataType::QAsymmU8, {1, 1}, 0.25f, 0));
    t.op(OpKind::FullyConnected, FullyConnectedAttrs{}, {x, w}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{8}));
}

// Convolution3d, TransposeConvolution2d, Pooling3d, BatchMatMul, Normalization (LRN), InstanceNormalization,
// L2Normalization: hand-computed expectations.
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

TEST(RefConvolution3d, SumsWindowAndBias) {
    Convolution3dAttrs a;
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution3d, a, {1, 2, 2, 2, 1}, iota(8), {2, 2, 2, 1, 1},
                               std::vector<float>(8, 1), {1, 1, 1, 1, 1}),
              (std::vector<float>{36}));
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution3d, a, {1, 2, 2, 2, 1}, iota(8), {2, 2, 2, 1, 1},
                               std::vector<float>(8, 1), {1, 1, 1, 1, 1}, {0.5f}),
              (std::vector<float>{36.5f}));
    // two output channels [.., I=1, O=2] = {1, -1}
    EXPECT_EQ(
        run_weighted_f32(OpKind::Convolution3d, a, {1, 1, 1, 2, 1}, {3, 4}, {1, 1, 1, 1, 2}, {1, -1}, {1, 1, 1, 2, 2}),
        (std::vector<float>{3, -3, 4, -4}));
}

TEST(RefConvolution3d, DepthPaddingStrideDilationAndNcdhw) {
    Convolution3dAttrs a;
    a.pad_front = 1;
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution3d, a, {1, 3, 1, 1, 1}, {1, 2, 3}, {2, 1, 1, 1, 1}, {1, 1},
                               {1, 3, 1, 1, 1}),
              (std::vector<float>{1, 3, 5}));
    Convolution3dAttrs d;
    d.dilation_z = 2;
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution3d, d, {1, 3, 1, 1, 1}, {1, 2, 3}, {2, 1, 1, 1, 1}, {1, 1},
                               {1, 1, 1, 1, 1}),
              (std::vector<float>{4}));
    Convolution3dAttrs s;
    s.stride_z = 2;
    EXPECT_EQ(
        run_weighted_f32(OpKind::Convolution3d, s, {1, 3, 1, 1, 1}, {1, 2, 3}, {1, 1, 1, 1, 1}, {2}, {1, 2, 1, 1, 1}),
        (std::vector<float>{2, 6}));
    Convolution3dAttrs n;
    n.layout = DataLayout::NCDHW;
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution3d, n, {1, 2, 1, 1, 1}, {1, 2}, {1, 1, 1, 2, 1}, {10, 100},
                               {1, 1, 1, 1, 1}),
              (std::vector<float>{210}));
}

TEST(RefTransposeConvolution2d, ScatterStridePaddingBias) {
    TransposeConvolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    const std::vector<float> ones(4, 1);
    EXPECT_EQ(
        run_weighted_f32(OpKind::TransposeConvolution2d, a, {1, 2, 2, 1}, iota(4), {1, 2, 2, 1}, ones, {1, 3, 3, 1}),
        (std::vector<float>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
    a.stride_x = a.stride_y = 2;
    EXPECT_EQ(
        run_weighted_f32(OpKind::TransposeConvolution2d, a, {1, 2, 2, 1}, iota(4), {1, 2, 2, 1}, ones, {1, 4, 4, 1}),
        (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = 1;
    EXPECT_EQ(run_weighted_f32(OpKind::TransposeConvolution2d, a, {1, 2, 2, 1}, iota(4), {1, 2, 2, 1}, ones,
                               {1, 2, 2, 1}, {1}),
              (std::vector<float>{2, 3, 4, 5}));
    TransposeConvolution2dAttrs n;  // NCHW weights [O, I, H, W]
    n.layout = DataLayout::NCHW;
    EXPECT_EQ(
        run_weighted_f32(OpKind::TransposeConvolution2d, n, {1, 1, 1, 1}, {2}, {2, 1, 1, 1}, {3, 5}, {1, 2, 1, 1}),
        (std::vector<float>{6, 10}));
}

TEST(RefTransposeConvolution2d, PaddingLargerThanOutputIsAnError) {
    OneOp t;
    auto x = t.tensor(f32({1, 1, 1, 1}), std::vector<float>{1});
    auto w = t.tensor(f32({1, 1, 1, 1}), std::vector<float>{1}, true);
    auto y = t.output(f32({1, 1, 1, 1}));
    TransposeConvolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    a.pad_left = 1;
    t.op(OpKind::TransposeConvolution2d, a, {x, w}, {y});
    EXPECT_EQ(expect_error([&] { t.infer(); }).kind(), ErrorKind::BadModel);
}

namespace {

std::vector<float> pool3d(Pooling3dAttrs a, Shape xs, std::vector<float> x, Shape ys) {
    return run_unary_f32(OpKind::Pooling3d, a, xs, x, ys);
}

}  // namespace

TEST(RefPooling3d, MaxAverageL2) {
    Pooling3dAttrs a;
    a.pool_width = a.pool_height = a.pool_depth = 2;
    a.stride_x = a.stride_y = a.stride_z = 2;
    a.algorithm = PoolingAlgorithm::Max;
    EXPECT_EQ(pool3d(a, {1, 2, 2, 2, 1}, iota(8), {1, 1, 1, 1, 1}), (std::vector<float>{8}));
    a.algorithm = PoolingAlgorithm::Average;
    EXPECT_EQ(pool3d(a, {1, 2, 2, 2, 1}, iota(8), {1, 1, 1, 1, 1}), (std::vector<float>{4.5f}));
    a.algorithm = PoolingAlgorithm::L2;
    EXPECT_FLOATS_NEAR(pool3d(a, {1, 2, 2, 2, 1}, iota(8), {1, 1, 1, 1, 1}), (std::vector<float>{5.0497525f}), 1e-6);
    a.layout = DataLayout::NCDHW;  // two channels, each averaged on its own
    a.algorithm = PoolingAlgorithm::Average;
    EXPECT_EQ(pool3d(a, {1, 2, 2, 2, 2}, iota(16), {1, 2, 1, 1, 1}), (std::vector<float>{4.5f, 12.5f}));
}

TEST(RefPooling3d, PaddingMethods) {
    Pooling3dAttrs a;
    a.algorithm = PoolingAlgorithm::Average;
    a.pool_width = 2;
    a.pool_height = a.pool_depth = 1;
    a.stride_x = a.stride_y = a.stride_z = 1;
    a.pad_left = 1;
    EXPECT_EQ(pool3d(a, {1, 1, 1, 2, 1}, {2, 4}, {1, 1, 1, 2, 1}), (std::vector<float>{1, 3}));  // IgnoreValue
    a.padding_method = PaddingMethod::Exclude;
    EXPECT_EQ(pool3d(a, {1, 1, 1, 2, 1}, {2, 4}, {1, 1, 1, 2, 1}), (std::vector<float>{2, 3}));
}

namespace {

std::vector<float> matmul(BatchMatMulAttrs a, Shape xs, std::vector<float> x, Shape ys, std::vector<float> y, Shape os) {
    OneOp t;
    auto xi = t.tensor(f32(xs), x);
    auto yi = t.tensor(f32(ys), y);
    auto o = t.output(f32(os));
    t.op(OpKind::BatchMatMul, a, {xi, yi}, {o});
    t.run();
    return t.out<float>();
}

}  // namespace

TEST(RefBatchMatMul, TransposeAndAdjointFlags) {
    const std::vector<float> x{1, 2, 3, 4}, y{5, 6, 7, 8};
    BatchMatMulAttrs a;
    EXPECT_EQ(matmul(a, {2, 2}, x, {2, 2}, y, {2, 2}), (std::vector<float>{19, 22, 43, 50}));
    a.transpose_x = true;
    EXPECT_EQ(matmul(a, {2, 2}, x, {2, 2}, y, {2, 2}), (std::vector<float>{26, 30, 38, 44}));
    a.adjoint_x = true;  // transpose wins over adjoint
    EXPECT_EQ(matmul(a, {2, 2}, x, {2, 2}, y, {2, 2}), (std::vector<float>{26, 30, 38, 44}));
    BatchMatMulAttrs b;
    b.transpose_y = true;
    EXPECT_EQ(matmul(b, {2, 2}, x, {2, 2}, y, {2, 2}), (std::vector<float>{17, 23, 39, 53}));
    BatchMatMulAttrs c;  // adjugate of [[1,2],[3,4]] is [[4,-2],[-3,1]], not a transpose
    c.adjoint_x = true;
    EXPECT_EQ(matmul(c, {2, 2}, x, {2, 2}, y, {2, 2}), (std::vector<float>{6, 8, -8, -10}));
}

TEST(RefBatchMatMul, Adjugate3x3) {
    // A = [[1,2,3],[0,1,4],[5,6,0]] has det 1, so adj(A) = inverse(A) = [[-24,18,5],[20,-15,-4],[-5,4,1]].
    BatchMatMulAttrs a;
    a.adjoint_x = true;
    EXPECT_FLOATS_NEAR(matmul(a, {3, 3}, {1, 2, 3, 0, 1, 4, 5, 6, 0}, {3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3}),
                       (std::vector<float>{-24, 18, 5, 20, -15, -4, -5, 4, 1}), 1e-4);
    BatchMatMulAttrs b;  // on Y too; adj([[2]]) = [[1]]
    b.adjoint_y = true;
    EXPECT_EQ(matmul(b, {1, 1}, {3}, {1, 1}, {2}, {1, 1}), (std::vector<float>{3}));
}

TEST(RefBatchMatMul, BroadcastBatchesAndNhwcAxes) {
    BatchMatMulAttrs a;
    EXPECT_EQ(matmul(a, {2, 1, 2}, {1, 2, 3, 4}, {2, 1}, {1, 1}, {2, 1, 1}), (std::vector<float>{3, 7}));
    // NHWC: the multiplied axes are (-3, -2); the trailing dimension is a batch
    BatchMatMulAttrs n;
    n.layout_x = n.layout_y = DataLayout::NHWC;
    EXPECT_EQ(matmul(n, {2, 2, 1}, {1, 2, 3, 4}, {2, 2, 1}, {5, 6, 7, 8}, {2, 2, 1}), (std::vector<float>{19, 22, 43, 50}));
    // two channels interleaved: channel 0 is X=[[1,2],[3,4]], channel 1 is the identity
    EXPECT_EQ(matmul(n, {2, 2, 2}, {1, 1, 2, 0, 3, 0, 4, 1}, {2, 2, 2}, {5, 5, 6, 6, 7, 7, 8, 8}, {2, 2, 2}),
              (std::vector<float>{19, 5, 22, 6, 43, 7, 50, 8}));
}

TEST(RefBatchMatMul, ShapeErrors) {
    auto err = [](BatchMatMulAttrs a, Shape xs, Shape ys) {
        OneOp t;
        auto x = t.tensor(f32(xs), std::vector<float>(xs.num_elements()));
        auto y = t.tensor(f32(ys), std::vector<float>(ys.num_elements()));
        auto o = t.output(f32({1}));
        t.op(OpKind::BatchMatMul, a, {x, y}, {o});
        return std::string(expect_error([&] { t.infer(); }).what());
    };
    EXPECT_NE(err({}, {2, 3}, {2, 3}).find("inner dimensions"), std::string::npos);
    BatchMatMulAttrs adj;
    adj.adjoint_x = true;
    EXPECT_NE(err(adj, {2, 3}, {3, 3}).find("square"), std::string::npos);
}

namespace {

std::vector<float> lrn(NormalizationAttrs a, Shape s, std::vector<float> x) {
    return run_unary_f32(OpKind::Normalization, a, s, x, s);
}

NormalizationAttrs lrn_attrs(NormChannel c, DataLayout l, float alpha, float beta, float k) {
    return NormalizationAttrs{c, NormMethod::LocalBrightness, 3, alpha, beta, k, l};
}

}  // namespace

TEST(RefNormalization, AcrossChannelsArmNNFormula) {
    // r = 1; alpha is not divided by normSize: c0 sum 1+4, c1 1+4+9, c2 4+9
    EXPECT_FLOATS_NEAR(lrn(lrn_attrs(NormChannel::Across, DataLayout::NHWC, 1, 1, 1), {1, 1, 1, 3}, {1, 2, 3}),
                       (std::vector<float>{1.0f / 6, 2.0f / 15, 3.0f / 14}), 1e-6);
    EXPECT_FLOATS_NEAR(lrn(lrn_attrs(NormChannel::Across, DataLayout::NCHW, 0.1f, 0.5f, 2), {1, 3, 1, 1}, {1, 2, 3}),
                       (std::vector<float>{0.6324555f, 1.0846523f, 1.6514456f}), 1e-6);
}

TEST(RefNormalization, WithinChannelHonoursTheLayout) {
    // 2x2 image, r = 1: every window covers all four pixels, sum of squares 30
    const std::vector<float> expect{1.0f / 31, 2.0f / 31, 3.0f / 31, 4.0f / 31};
    EXPECT_FLOATS_NEAR(lrn(lrn_attrs(NormChannel::Within, DataLayout::NCHW, 1, 1, 1), {1, 1, 2, 2}, {1, 2, 3, 4}), expect, 1e-6);
    EXPECT_FLOATS_NEAR(lrn(lrn_attrs(NormChannel::Within, DataLayout::NHWC, 1, 1, 1), {1, 2, 2, 1}, {1, 2, 3, 4}), expect, 1e-6);
    // NHWC with two channels: each channel has its own window (CpuRef would index this as NCHW)
    EXPECT_FLOATS_NEAR(lrn(lrn_attrs(NormChannel::Within, DataLayout::NHWC, 1, 1, 0), {1, 1, 2, 2}, {1, 10, 3, 20}),
                       (std::vector<float>{0.1f, 10.0f / 500, 0.3f, 20.0f / 500}), 1e-6);
}

TEST(RefNormalization, LocalContrastIsRefusedByTheKernel) {
    OneOp t;
    auto x = t.tensor(f32({1, 1, 1, 1}), std::vector<float>{1});
    auto y = t.output(f32({1, 1, 1, 1}));
    NormalizationAttrs a = lrn_attrs(NormChannel::Across, DataLayout::NHWC, 1, 1, 1);
    a.method = NormMethod::LocalContrast;
    t.op(OpKind::Normalization, a, {x}, {y});
    EXPECT_NO_THROW(t.infer());
    EXPECT_NE(kernels::ref_kernel(OpKind::Normalization)->check(exec::KernelNodeView(t.node(), t.g)).find("LocalContrast"), std::string::npos);
}

TEST(RefInstanceNormalization, PerChannelBiasedVariance) {
    OneOp t;
    auto x = t.tensor(f32({1, 2, 2, 1}), std::vector<float>{1, 2, 3, 4});
    auto y = t.output(f32({1, 2, 2, 1}));
    t.op(OpKind::InstanceNormalization, InstanceNormalizationAttrs{2, 1, 0, DataLayout::NHWC}, {x}, {y});
    t.run();
    EXPECT_FLOATS_NEAR(t.out<float>(), (std::vector<float>{-1.6832816f, 0.1055728f, 1.8944272f, 3.6832816f}), 1e-5);
    OneOp n;  // NCHW, two channels: {1, 3} and {10, 10} (variance 0: eps 1 keeps it finite)
    auto xn = n.tensor(f32({1, 2, 1, 2}), std::vector<float>{1, 3, 10, 10});
    auto yn = n.output(f32({1, 2, 1, 2}));
    n.op(OpKind::InstanceNormalization, InstanceNormalizationAttrs{1, 0, 1, DataLayout::NCHW}, {xn}, {yn});
    n.run();
    // channel 0: mean 2, var 1 -> (x-2)/sqrt(2); channel 1: 0
    EXPECT_FLOATS_NEAR(n.out<float>(), (std::vector<float>{-0.7071068f, 0.7071068f, 0, 0}), 1e-6);
}

TEST(RefL2Normalization, AlongChannelsWithEpsAndRankPadding) {
    auto l2 = [](DataLayout layout, Shape s, std::vector<float> x, float eps = 1e-12f) {
        OneOp t;
        auto xi = t.tensor(f32(s), x);
        auto y = t.output(f32(s));
        t.op(OpKind::L2Normalization, L2NormalizationAttrs{layout, eps}, {xi}, {y});
        t.run();
        return t.out<float>();
    };
    EXPECT_FLOATS_NEAR(l2(DataLayout::NHWC, {1, 1, 1, 2}, {3, 4}), (std::vector<float>{0.6f, 0.8f}), 1e-6);
    EXPECT_FLOATS_NEAR(l2(DataLayout::NCHW, {1, 2, 1, 1}, {3, 4}), (std::vector<float>{0.6f, 0.8f}), 1e-6);
    EXPECT_FLOATS_NEAR(l2(DataLayout::NHWC, {2, 2}, {3, 4, 6, 8}), (std::vector<float>{0.6f, 0.8f, 0.6f, 0.8f}), 1e-6);
    // Kept CpuRef quirk: 2-D NCHW pads to [1, 1, H, W], so every element is normalized by itself.
    EXPECT_FLOATS_NEAR(l2(DataLayout::NCHW, {1, 2}, {3, -4}), (std::vector<float>{1, -1}), 1e-6);
    // eps bounds the denominator: sum 1e-14 < eps 1e-12 -> x / 1e-6
    EXPECT_FLOATS_NEAR(l2(DataLayout::NHWC, {1, 1}, {1e-7f}), (std::vector<float>{0.1f}), 1e-6);
}

// Quantized Convolution2d and DepthwiseConvolution2d: NEON vs kernels/ref, bit-exact, on both the
// widening and the dot-product accumulation paths, for 1..4 threads.
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::neontest::conv2d_quant {
namespace {

namespace nn = kernels::neon;

struct QCase {
    uint32_t h, w, ic, oc, k, s, pad;
    DataType x, wt;
    bool per_axis, bias;
};

const QCase kConv[] = {
    // h  w  ic  oc k s pad  input            weights            per-axis bias
    {8, 8, 16, 32, 1, 1, 0, DataType::QAsymmU8, DataType::QAsymmU8, false, true},  // MobileNet quant pointwise
    {9, 7, 8, 12, 3, 1, 1, DataType::QAsymmU8, DataType::QAsymmU8, false, true},
    {17, 17, 3, 8, 3, 2, 1, DataType::QAsymmU8, DataType::QAsymmU8, false, true},  // stem: 3 channels
    {6, 6, 37, 5, 3, 1, 1, DataType::QAsymmU8, DataType::QAsymmU8, false, false},  // ic tail > 16
    {8, 5, 20, 9, 1, 1, 0, DataType::QAsymmS8, DataType::QSymmS8, true, true},     // TFLite int8 per-channel
    {7, 7, 33, 6, 3, 2, 1, DataType::QAsymmS8, DataType::QSymmS8, true, true},
    {5, 6, 16, 4, 3, 1, 0, DataType::QAsymmS8, DataType::QAsymmS8, false, true},
    {6, 6, 24, 7, 3, 1, 1, DataType::QAsymmU8, DataType::QSymmS8, true, true},     // u8 x s8: widening only
    {4, 4, 64, 20, 1, 1, 0, DataType::QAsymmU8, DataType::QAsymmU8, false, true},
    {3, 3, 5, 3, 5, 1, 2, DataType::QAsymmS8, DataType::QSymmS8, false, false},    // window mostly padding
    // The packed 1x1 GEMM (conv1x1_quant) and the 3x3 depthwise rows: large enough that 2..4 threads split them.
    {32, 32, 64, 64, 1, 1, 0, DataType::QAsymmU8, DataType::QAsymmU8, false, true},
    {20, 20, 48, 8, 3, 1, 1, DataType::QAsymmU8, DataType::QAsymmU8, false, true},
    {5, 3, 8, 19, 1, 1, 0, DataType::QAsymmS8, DataType::QAsymmS8, false, true},   // 8-code K tail, 15 pixels, 3 channels over
    {15, 15, 20, 8, 3, 2, 1, DataType::QAsymmU8, DataType::QAsymmU8, false, true}, // stride 2, 4 channels over 8
    {6, 7, 12, 9, 1, 1, 0, DataType::QAsymmS8, DataType::QSymmS8, true, false},    // 4-code K tail, zw = 0
};


OneNode make(const QCase& c, bool depthwise, uint32_t seed) {
    std::mt19937 rng(seed);
    const uint32_t oc = depthwise ? c.ic : c.oc;
    const uint32_t o = (c.h + 2 * c.pad - c.k) / c.s + 1, ow = (c.w + 2 * c.pad - c.k) / c.s + 1;
    const int32_t zx = c.x == DataType::QAsymmU8 ? 128 - int32_t(rng() % 40) : int32_t(rng() % 40) - 20;
    const int32_t zw = c.wt == DataType::QSymmS8 ? 0 : c.wt == DataType::QAsymmU8 ? 120 + int32_t(rng() % 16) : int32_t(rng() % 9) - 4;
    const int32_t zy = c.x == DataType::QAsymmU8 ? int32_t(rng() % 256) : int32_t(rng() % 256) - 128;
    const float sx = 0.02f, sy = 0.05f + 0.1f * float(rng() % 10);
    std::vector<float> ws(c.per_axis ? oc : 1);
    for (auto& s : ws) s = 0.001f + 0.01f * float(rng() % 100) / 100.0f;
    const Shape wshape = depthwise ? Shape{1, c.k, c.k, oc} : Shape{oc, c.k, c.k, c.ic};
    std::vector<Operand> ins{
        {tinfo(c.x, {1, c.h, c.w, c.ic}, {sx}, zx), to_bytes(random_ints<uint8_t>(rng, size_t(c.h) * c.w * c.ic, 0, 255))},
        {tinfo(c.wt, wshape, ws, zw, depthwise ? 3 : 0), to_bytes(random_ints<uint8_t>(rng, wshape.num_elements(), 0, 255)), true}};
    if (c.bias) {
        std::vector<float> bs(ws.size());
        for (size_t i = 0; i < bs.size(); ++i) bs[i] = sx * ws[i];
        // One case in three: a bias scale that is not sx*sw, exercising accumulator_bias's conversion.
        if (seed % 3 == 0) for (auto& b : bs) b *= 1.5f;
        ins.push_back({tinfo(DataType::Signed32, {oc}, bs), to_bytes(random_ints<int32_t>(rng, oc, -20000, 20000)), true});
    }
    const TensorInfo y = tinfo(c.x, {1, o, ow, oc}, {sy}, zy);
    if (depthwise)
        return OneNode(OpKind::DepthwiseConvolution2d,
                       window_attrs<DepthwiseConvolution2dAttrs>(c.pad, c.s, c.bias, DataLayout::NHWC), ins, {y});
    return OneNode(OpKind::Convolution2d, window_attrs<Convolution2dAttrs>(c.pad, c.s, c.bias, DataLayout::NHWC), ins, {y});
}

class QuantConvPaths : public DotprodPaths {};

TEST_P(QuantConvPaths, Conv2dBitExactWithReference) {
    uint32_t seed = 1;
    for (const auto& c : kConv) {
        const OneNode node = make(c, false, seed++);
        EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << "case " << seed - 1;
    }
}

TEST_P(QuantConvPaths, DepthwiseBitExactWithReference) {
    uint32_t seed = 50;
    for (const auto& c : kConv) {
        const OneNode node = make(c, true, seed++);
        EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << "case " << seed - 1;
    }
}

INSTANTIATE_TEST_SUITE_P(Accumulation, QuantConvPaths, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "DotProduct" : "Widening"; });

TEST(NeonQuantConv, RefusesSixteenBitInput) {
    Convolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    std::vector<Operand> ins{{tinfo(DataType::QSymmS16, {1, 2, 2, 1}, {0.1f}), std::vector<uint8_t>(8)},
                             {tinfo(DataType::QSymmS8, {1, 1, 1, 1}, {0.1f}), std::vector<uint8_t>(1), true}};
    OneNode n(OpKind::Convolution2d, a, ins, {tinfo(DataType::QSymmS16, {1, 2, 2, 1}, {0.1f})});
    EXPECT_NE(n.neon_check(), "");
}

}  // namespace
}  // namespace npurun::neontest::conv2d_quant

// Quantized FullyConnected: NEON (through conv2d_quant as a 1x1 convolution; batch >= 2 with constant weights on the
// dot-product path through the packed GEMM) vs kernels/ref, bit-exact, on the widening and dot-product paths, both
// weight layouts, for 1..4 threads.
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::neontest::fully_connected_quant {
namespace {

namespace nn = kernels::neon;

struct FcCase {
    uint32_t batch, in, out;
    bool transpose, bias, per_axis;
    DataType x, w;
    bool input_4d;  // input [batch, 1, 2, in/2]: flattened to [batch, in] as Arm NN does
};

const FcCase kCases[] = {
    // batch in  out  transpose bias  per-axis input              weights
    {1, 256, 1001, true, true, false, DataType::QAsymmU8, DataType::QAsymmU8, false},   // MobileNet-size logits
    {1, 37, 13, false, true, false, DataType::QAsymmU8, DataType::QAsymmU8, false},     // [in,out] weights, odd sizes
    {3, 64, 16, true, false, false, DataType::QAsymmU8, DataType::QAsymmU8, false},    // batch > 1 (threads split)
    {2, 33, 17, true, true, true, DataType::QAsymmS8, DataType::QSymmS8, false},        // TFLite int8 per-channel
    {4, 20, 9, false, true, true, DataType::QAsymmS8, DataType::QSymmS8, false},        // per-axis along dim 1
    {1, 48, 5, true, true, false, DataType::QAsymmS8, DataType::QAsymmS8, true},
    {2, 24, 7, true, true, true, DataType::QAsymmU8, DataType::QSymmS8, false},         // u8 x s8: widening only
    {1, 1, 1, false, false, false, DataType::QAsymmS8, DataType::QSymmS8, false},      // degenerate
};

OneNode make(const FcCase& c, uint32_t seed) {
    std::mt19937 rng(seed);
    const int32_t zx = c.x == DataType::QAsymmU8 ? 128 - int32_t(rng() % 40) : int32_t(rng() % 40) - 20;
    const int32_t zw = c.w == DataType::QSymmS8 ? 0 : c.w == DataType::QAsymmU8 ? 120 + int32_t(rng() % 16) : int32_t(rng() % 9) - 4;
    const int32_t zy = c.x == DataType::QAsymmU8 ? int32_t(rng() % 256) : int32_t(rng() % 256) - 128;
    const float sx = 0.02f, sy = 0.05f + 0.1f * float(rng() % 10);
    std::vector<float> ws(c.per_axis ? c.out : 1);
    for (auto& s : ws) s = 0.001f + 0.01f * float(rng() % 100) / 100.0f;
    const Shape wshape = c.transpose ? Shape{c.out, c.in} : Shape{c.in, c.out};
    const Shape xshape = c.input_4d ? Shape{c.batch, 1, 2, c.in / 2} : Shape{c.batch, c.in};
    std::vector<Operand> ins{
        {tinfo(c.x, xshape, {sx}, zx), to_bytes(random_ints<uint8_t>(rng, size_t(c.batch) * c.in, 0, 255))},
        {tinfo(c.w, wshape, ws, zw, c.transpose ? 0 : 1), to_bytes(random_ints<uint8_t>(rng, size_t(c.in) * c.out, 0, 255)),
         true}};
    if (c.bias) {
        std::vector<float> bs(ws.size());
        for (size_t i = 0; i < bs.size(); ++i) bs[i] = sx * ws[i] * (seed % 2 ? 1.0f : 1.5f);
        ins.push_back({tinfo(DataType::Signed32, {c.out}, bs), to_bytes(random_ints<int32_t>(rng, c.out, -20000, 20000)), true});
    }
    FullyConnectedAttrs a;
    a.transpose_weights = c.transpose;
    a.bias_enabled = c.bias;
    return OneNode(OpKind::FullyConnected, a, ins, {tinfo(c.x, {c.batch, c.out}, {sy}, zy)});
}

class QuantFcPaths : public DotprodPaths {};

TEST_P(QuantFcPaths, BitExactWithReferenceForOneToFourThreads) {
    uint32_t seed = 700;
    for (const auto& c : kCases) {
        const OneNode node = make(c, seed++);
        ASSERT_EQ(node.neon_check(), "") << "case " << seed - 1;
        EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << "case " << seed - 1;
    }
}

INSTANTIATE_TEST_SUITE_P(Accumulation, QuantFcPaths, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "DotProduct" : "Widening"; });

TEST(NeonQuantFullyConnected, RefusesWhatTheIntegerPathCannotDoExactly) {
    FullyConnectedAttrs a;
    a.transpose_weights = true;
    // 16-bit input: not an 8-bit path.
    {
        std::vector<Operand> ins{{tinfo(DataType::QSymmS16, {1, 4}, {0.1f}), std::vector<uint8_t>(8)},
                                 {tinfo(DataType::QSymmS8, {2, 4}, {0.1f}), std::vector<uint8_t>(8), true}};
        OneNode n(OpKind::FullyConnected, a, ins, {tinfo(DataType::QSymmS16, {1, 2}, {0.1f})});
        EXPECT_NE(n.neon_check(), "");
    }
    // in > 33025: 255*255*in no longer fits the 32-bit vector accumulators.
    {
        const uint32_t in = 40000;
        std::vector<Operand> ins{{tinfo(DataType::QAsymmU8, {1, in}, {0.1f}, 128), std::vector<uint8_t>(in)},
                                 {tinfo(DataType::QAsymmU8, {1, in}, {0.1f}, 128), std::vector<uint8_t>(in), true}};
        OneNode n(OpKind::FullyConnected, a, ins, {tinfo(DataType::QAsymmU8, {1, 1}, {0.1f}, 0)});
        EXPECT_NE(n.neon_check().find("accumulation"), std::string::npos) << n.neon_check();
    }
    // Per-axis weights along the input dimension: not an output-channel scale.
    {
        std::vector<Operand> ins{{tinfo(DataType::QAsymmS8, {1, 4}, {0.1f}), std::vector<uint8_t>(4)},
                                 {tinfo(DataType::QSymmS8, {2, 4}, {0.1f, 0.2f, 0.3f, 0.4f}, 0, 1), std::vector<uint8_t>(8), true}};
        OneNode n(OpKind::FullyConnected, a, ins, {tinfo(DataType::QAsymmS8, {1, 2}, {0.1f})});
        EXPECT_NE(n.neon_check(), "");
    }
}

}  // namespace
}  // namespace npurun::neontest::fully_connected_quant

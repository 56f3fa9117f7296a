// DepthwiseConvolution2d with depth multiplier M > 1 (weights [1, KH, KW, C*M], output channel o reads
// input channel o / M): NEON vs kernels/ref, float within the depthwise bound, 8-bit bit-exact on both
// accumulation paths, identical for 1..4 threads.
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::neontest::depthwise_multiplier {
namespace {

namespace nn = kernels::neon;

struct DwCase {
    uint32_t n, h, w, c, m, k, s, pad;
    bool bias;
};

const DwCase kCases[] = {
    {1, 8, 8, 3, 2, 3, 1, 1, true},    // 3 -> 6 channels
    {2, 7, 9, 5, 3, 3, 2, 1, true},    // batch 2, odd sizes, stride 2
    {1, 6, 6, 1, 8, 3, 1, 0, false},   // one input channel fanned out to 8 (a "depthwise as conv" case)
    {1, 5, 5, 8, 4, 5, 1, 2, true},    // 32 output channels: full vectors
};

DepthwiseConvolution2dAttrs attrs(const DwCase& c) {
    return window_attrs<DepthwiseConvolution2dAttrs>(c.pad, c.s, c.bias, DataLayout::NHWC);
}

uint32_t out_size(const DwCase& c, uint32_t in) { return (in + 2 * c.pad - c.k) / c.s + 1; }

// Every thread count must give the same bytes; returns them.
TEST(NeonDepthwiseMultiplier, Float32MatchesReference) {
    uint32_t seed = 900;
    for (const auto& c : kCases) {
        std::mt19937 rng(seed++);
        const uint32_t oc = c.c * c.m;
        const std::vector<Operand> ins = float_conv_operands(rng, {c.n, c.h, c.w, c.c}, {1, c.k, c.k, oc}, 3, c.bias);
        OneNode node(OpKind::DepthwiseConvolution2d, attrs(c), ins,
                     {tinfo(DataType::Float32, {c.n, out_size(c, c.h), out_size(c, c.w), oc})});
        ASSERT_EQ(node.neon_check(), "");
        EXPECT_TRUE(neon_within_sum_bound(node, double(c.k) * c.k)) // same bound as depth multiplier 1 (depthwise_f32.cpp)
            << "case " << seed - 1;
    }
}

class QuantDwMultiplier : public DotprodPaths {};

TEST_P(QuantDwMultiplier, BitExactWithReference) {
    uint32_t seed = 950;
    for (const auto& c : kCases) {
        for (const bool s8 : {false, true}) {
            std::mt19937 rng(seed++);
            const uint32_t oc = c.c * c.m;
            const QuantDraw q = draw_quant(rng, s8, oc);  // int8: per-channel along the C*M axis, as TFLite writes it
            const std::vector<Operand> ins = quant_conv_operands(rng, q, {c.n, c.h, c.w, c.c}, {1, c.k, c.k, oc}, 3, c.bias);
            OneNode node(OpKind::DepthwiseConvolution2d, attrs(c), ins,
                         {tinfo(q.x, {c.n, out_size(c, c.h), out_size(c, c.w), oc}, {q.sy}, q.zy)});
            ASSERT_EQ(node.neon_check(), "") << "case " << seed - 1;
            const auto want = node.run_ref().at(0);
            EXPECT_EQ(neon_all_threads(node), want) << "case " << seed - 1;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Accumulation, QuantDwMultiplier, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "DotProduct" : "Widening"; });

TEST(NeonDepthwiseMultiplier, RefusesChannelsThatAreNotAMultiple) {
    const DwCase c{1, 4, 4, 3, 1, 3, 1, 1, false};
    std::vector<Operand> ins{{tinfo(DataType::Float32, {1, 4, 4, 3}), std::vector<uint8_t>(4 * 4 * 3 * 4)},
                             {tinfo(DataType::Float32, {1, 3, 3, 7}), std::vector<uint8_t>(9 * 7 * 4), true}};
    OneNode node(OpKind::DepthwiseConvolution2d, attrs(c), ins, {tinfo(DataType::Float32, {1, 4, 4, 7})});
    EXPECT_NE(node.neon_check(), "");
}

}  // namespace
}  // namespace npurun::neontest::depthwise_multiplier

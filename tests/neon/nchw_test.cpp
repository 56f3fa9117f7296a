// NCHW nodes on the NEON path (run as NHWC on transposed copies, see kernels/neon/nchw.h): Convolution2d
// with [O,I,H,W] weights, DepthwiseConvolution2d (weights [1,H,W,C*M], multiplier 1 and 2) and float
// Pooling2d; float within the kernels' bounds (pooling: exact, as in NHWC) and 8-bit bit-exact with
// kernels/ref, identical for 1..4 threads.
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

#include "kernels/neon/thread_pool.h"

namespace npurun::neontest::nchw {
namespace {

namespace nn = kernels::neon;

struct ConvCase {
    uint32_t n, c, h, w, o, k, s, pad;
    bool bias;
};
const ConvCase kConv[] = {
    {1, 3, 9, 9, 8, 3, 2, 1, true},    // stem-like, odd size
    {2, 16, 6, 5, 12, 1, 1, 0, true},  // pointwise, batch 2
    {1, 5, 7, 6, 4, 3, 1, 1, false},
};

Convolution2dAttrs conv_attrs(const ConvCase& c) { return window_attrs<Convolution2dAttrs>(c.pad, c.s, c.bias, DataLayout::NCHW); }
uint32_t out_size(const ConvCase& c, uint32_t in) { return (in + 2 * c.pad - c.k) / c.s + 1; }

// Case `c` in both 8-bit types (seeds from `seed` on), weights `wshape` quantized along `w_axis`, `oc` output
// channels: bit-exact with kernels/ref for 1..4 threads.
void expect_quant_bit_exact(OpKind kind, const OpAttrs& attrs, const ConvCase& c, const Shape& wshape, uint32_t w_axis,
                            uint32_t oc, uint32_t& seed) {
    for (const bool s8 : {false, true}) {
        std::mt19937 rng(seed++);
        const QuantDraw q = draw_quant(rng, s8, oc);
        const std::vector<Operand> ins = quant_conv_operands(rng, q, {c.n, c.c, c.h, c.w}, wshape, w_axis, c.bias);
        OneNode node(kind, attrs, ins, {tinfo(q.x, {c.n, oc, out_size(c, c.h), out_size(c, c.w)}, {q.sy}, q.zy)});
        ASSERT_EQ(node.neon_check(), "");
        EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << "case " << seed - 1;
    }
}

TEST(NeonNchw, Conv2dFloat32MatchesReference) {
    uint32_t seed = 1100;
    for (const auto& c : kConv) {
        std::mt19937 rng(seed++);
        const std::vector<Operand> ins = float_conv_operands(rng, {c.n, c.c, c.h, c.w}, {c.o, c.c, c.k, c.k}, 0, c.bias);
        OneNode node(OpKind::Convolution2d, conv_attrs(c), ins,
                     {tinfo(DataType::Float32, {c.n, c.o, out_size(c, c.h), out_size(c, c.w)})});
        ASSERT_EQ(node.neon_check(), "");
        // The NHWC conv bound (conv2d_test.cpp): 2*(K+1)*2^-24*(K+1) with K = KH*KW*I and |x|,|w|,|b| <= 1.
        EXPECT_TRUE(neon_within_sum_bound(node, double(c.k) * c.k * c.c))
            << "case " << seed - 1;
    }
}

TEST(NeonNchw, Conv2dQuantizedBitExactWithReference) {
    uint32_t seed = 1200;
    for (const auto& c : kConv)
        expect_quant_bit_exact(OpKind::Convolution2d, conv_attrs(c), c, {c.o, c.c, c.k, c.k}, 0, c.o, seed);
}

// Depthwise: ConvCase.o is the depth multiplier here.
const ConvCase kDepthwise[] = {
    {1, 8, 9, 7, 1, 3, 2, 1, true},
    {2, 3, 6, 6, 2, 3, 1, 1, true},
    {1, 5, 5, 4, 1, 5, 1, 2, false},
};

DepthwiseConvolution2dAttrs dw_attrs(const ConvCase& c) {
    return window_attrs<DepthwiseConvolution2dAttrs>(c.pad, c.s, c.bias, DataLayout::NCHW);
}

TEST(NeonNchw, DepthwiseFloat32MatchesReference) {
    uint32_t seed = 1300;
    for (const auto& c : kDepthwise) {
        std::mt19937 rng(seed++);
        const uint32_t oc = c.c * c.o;
        const std::vector<Operand> ins = float_conv_operands(rng, {c.n, c.c, c.h, c.w}, {1, c.k, c.k, oc}, 3, c.bias);
        OneNode node(OpKind::DepthwiseConvolution2d, dw_attrs(c), ins,
                     {tinfo(DataType::Float32, {c.n, oc, out_size(c, c.h), out_size(c, c.w)})});
        ASSERT_EQ(node.neon_check(), "");
        EXPECT_TRUE(neon_within_sum_bound(node, double(c.k) * c.k)) // the depthwise bound (depthwise_f32.cpp)
            << "case " << seed - 1;
    }
}

TEST(NeonNchw, DepthwiseQuantizedBitExactWithReference) {
    uint32_t seed = 1400;
    for (const auto& c : kDepthwise)
        expect_quant_bit_exact(OpKind::DepthwiseConvolution2d, dw_attrs(c), c, {1, c.k, c.k, c.c * c.o}, 3, c.c * c.o,
                               seed);
}

TEST(NeonNchw, PoolingFloat32MatchesReferenceExactly) {
    struct C { PoolingAlgorithm alg; uint32_t n, c, h, w, k, s, pad; PaddingMethod pm; };
    const C cases[] = {{PoolingAlgorithm::Max, 1, 6, 9, 9, 3, 2, 1, PaddingMethod::IgnoreValue},
                       {PoolingAlgorithm::Average, 2, 5, 7, 6, 3, 1, 1, PaddingMethod::Exclude},
                       {PoolingAlgorithm::Average, 1, 16, 4, 4, 4, 4, 0, PaddingMethod::Exclude}};
    uint32_t seed = 1500;
    for (const auto& c : cases) {
        std::mt19937 rng(seed++);
        const Pooling2dAttrs a = pool_attrs(c.alg, c.k, c.s, {c.pad, c.pad, c.pad, c.pad}, c.pm, DataLayout::NCHW);
        const uint32_t oh = (c.h + 2 * c.pad - c.k) / c.s + 1, ow = (c.w + 2 * c.pad - c.k) / c.s + 1;
        OneNode node(OpKind::Pooling2d, a,
                     {{tinfo(DataType::Float32, {c.n, c.c, c.h, c.w}), to_bytes(random_floats(rng, size_t(c.n) * c.c * c.h * c.w))}},
                     {tinfo(DataType::Float32, {c.n, c.c, oh, ow})});
        ASSERT_EQ(node.neon_check(), "");
        EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << "case " << seed - 1;
    }
}

}  // namespace
}  // namespace npurun::neontest::nchw

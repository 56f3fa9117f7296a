// The optional fp16-arithmetic CPU path (SessionOptions::cpu_fp16).
// - ref::fp16_fma, the reference's one rounding step, against an independent exact oracle (128-bit integers in
//   units of 2^-48) on edge and random operands: runs everywhere.
// - The reference kernels against the Float32 reference within fp16's error: it computes the convolution.
// - The NEON engine (kernels/neon/conv2d_f16.cpp) bit-exact with the reference for 1..4 threads, on shapes that
//   hit its edges (pixel blocks of 8, 4 and 1, channel tiles of 16 with short tails, input channels not a multiple
//   of 8, padding, stride, dilation, FullyConnected of both weight layouts, depthwise
//   channel blocks of 8 with tails). The engine exists on aarch64 builds
//   on a CPU with FEAT_FP16 only (qemu-aarch64 -cpu max has it): elsewhere these skip with a message.
#include "tests/neon/harness.h"

#include "core/fp16.h"
#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"
#include "kernels/ref/fp16_arithmetic.h"

namespace npurun::neontest::fp16arith {
namespace {

__extension__ typedef __int128 i128;  // gcc and clang on 64-bit targets
__extension__ typedef unsigned __int128 u128;

// round_fp16(a*b + c) computed exactly: halves are integers times 2^-24, products integers times 2^-48.
uint16_t exact_fma(uint16_t a, uint16_t b, uint16_t c) {
    auto units = [](uint16_t h, int scale) {  // h as a signed integer times 2^-scale (scale 24: exact)
        const int e = (h >> 10) & 31;
        const i128 m = e ? (0x400 | (h & 0x3ff)) : (h & 0x3ff);
        const i128 v = m << ((e ? e - 1 : 0) + (scale - 24));
        return (h & 0x8000) ? -v : v;
    };
    const i128 s = units(a, 24) * units(b, 24) + units(c, 48);  // units of 2^-48
    if (s == 0) return (((a ^ b) & 0x8000) && (c & 0x8000)) ? 0x8000 : 0;
    const bool neg = s < 0;
    const u128 m = neg ? -(u128)s : (u128)s;
    int top = 127;
    while (!((m >> top) & 1)) --top;
    int e = top - 48;  // value in [2^e, 2^(e+1))
    if (e < -14) e = -14;
    const int sh = e - 10 + 48;  // the half unit 2^(e-10), in 2^-48 units
    u128 q = m >> sh;
    const u128 rem = m & ((((u128)1) << sh) - 1), half = ((u128)1) << (sh - 1);
    if (rem > half || (rem == half && (q & 1))) ++q;
    const double v = std::ldexp(double(uint64_t(q)), e - 10);
    const uint16_t bits = v >= 65520.0 ? 0x7c00 : fp32_to_fp16(float(v));
    return uint16_t(bits | (neg ? 0x8000 : 0));
}

bool finite_half(uint16_t h) { return (h & 0x7c00) != 0x7c00; }

TEST(Fp16Fma, EdgeCases) {
    struct Case {
        uint16_t a, b, c, want;
    };
    const Case cases[] = {
        {0x3c00, 0x3c00, 0x0000, 0x3c00},  // 1*1 + 0
        {0x3c00, 0x1000, 0x3c00, 0x3c00},  // 1 + 2^-11: a tie, to even (1)
        {0x3c00, 0x1000, 0x3c01, 0x3c02},  // (1 + 2^-10) + 2^-11: a tie, to even (1 + 2^-9)
        {0x0c00, 0x0c00, 0x0000, 0x0001},  // 2^-12 * 2^-12 = 2^-24, the least subnormal
        {0x0800, 0x0c00, 0x0000, 0x0000},  // 2^-13 * 2^-12 = 2^-25: a tie between 0 and 2^-24, to even
        {0x7bff, 0x3c00, 0x7bff, 0x7c00},  // 65504 + 65504 overflows to infinity
        {0x7bff, 0x3c00, 0x0000, 0x7bff}, {0xbc00, 0x3c00, 0x3c00, 0x0000},  // exact cancellation gives +0
        {0x8000, 0x3c00, 0x8000, 0x8000},                                    // -0 + -0 = -0
    };
    for (const Case& c : cases) {
        EXPECT_EQ(kernels::ref::fp16_fma(c.a, c.b, c.c), c.want) << std::hex << c.a << " " << c.b << " " << c.c;
        EXPECT_EQ(exact_fma(c.a, c.b, c.c), c.want) << std::hex << c.a << " " << c.b << " " << c.c;
    }
}

TEST(Fp16Fma, MatchesExactOracle) {
    std::mt19937 rng(16);
    size_t compared = 0;
    for (int i = 0; i < 400000; ++i) {
        const uint16_t a = uint16_t(rng()), b = uint16_t(rng());
        // c near a*b's magnitude half of the time, so cancellations and ties happen often.
        uint16_t c = uint16_t(rng());
        if (i & 1) c = uint16_t((fp32_to_fp16(-fp16_to_fp32(a) * fp16_to_fp32(b)) + (rng() % 5) - 2));
        if (!finite_half(a) || !finite_half(b) || !finite_half(c)) continue;
        if (std::fabs(double(fp16_to_fp32(a)) * fp16_to_fp32(b)) >= 65520.0 * 2) continue;
        ASSERT_EQ(kernels::ref::fp16_fma(a, b, c), exact_fma(a, b, c)) << std::hex << a << " " << b << " " << c;
        ++compared;
    }
    EXPECT_GT(compared, 300000u);
}

struct ConvCase {
    uint32_t n, h, w, ic, oc, k, s, d, pad;
    bool bias;
};
const ConvCase kConv[] = {
    // n  h   w  ic  oc  k  s  d pad bias
    {1, 8, 8, 16, 32, 1, 1, 1, 0, true},   // pointwise, whole tiles, one pixel block of 8 per row
    {1, 7, 9, 13, 5, 1, 1, 1, 0, false},   // ic = 8 + 5 (tail), oc < one tile, a row of 9 = 8 + 1
    {1, 9, 9, 8, 24, 3, 1, 1, 1, true},    // 3x3 same, oc = 16 + 8
    {1, 17, 17, 3, 8, 3, 2, 1, 1, true},   // stem: 3 channels (tail only), stride 2
    {2, 6, 5, 7, 17, 3, 1, 1, 0, true},    // batch 2, oc = 16 + 1
    {1, 12, 12, 4, 4, 3, 1, 2, 2, false},  // dilation 2
    {1, 3, 3, 2, 3, 3, 1, 1, 3, true},     // padding larger than the input: windows of zeros
    {1, 20, 20, 64, 48, 3, 1, 1, 1,
     true},  // rows of 8 + 8 + 4; large enough to split over 4 threads by the default policy too
};

// A Convolution2d (weights [oc,k,k,ic]) or, with Attrs = DepthwiseConvolution2dAttrs, a depthwise layer (weights
// [1,k,k,ic], oc = ic) of case c, on random data.
template <class Attrs> OneNode make_window(OpKind op, const ConvCase& c, uint32_t seed) {
    std::mt19937 rng(seed);
    const bool depthwise = op == OpKind::DepthwiseConvolution2d;
    const uint32_t oc = depthwise ? c.ic : c.oc, eff = (c.k - 1) * c.d + 1;
    const uint32_t oh = (c.h + 2 * c.pad - eff) / c.s + 1, ow = (c.w + 2 * c.pad - eff) / c.s + 1;
    Attrs a = window_attrs<Attrs>(c.pad, c.s, c.bias, DataLayout::NHWC);
    a.dilation_x = a.dilation_y = c.d;
    const Shape w = depthwise ? Shape{1, c.k, c.k, c.ic} : Shape{oc, c.k, c.k, c.ic};
    std::vector<Operand> ins{
        {tinfo(DataType::Float32, {c.n, c.h, c.w, c.ic}), to_bytes(random_floats(rng, size_t(c.n) * c.h * c.w * c.ic))},
        {tinfo(DataType::Float32, w), to_bytes(random_floats(rng, w.num_elements())), true}};
    if (c.bias) ins.push_back({tinfo(DataType::Float32, {oc}), to_bytes(random_floats(rng, oc)), true});
    return OneNode(op, a, ins, {tinfo(DataType::Float32, {c.n, oh, ow, oc})});
}
OneNode make_conv(const ConvCase& c, uint32_t seed) {
    return make_window<Convolution2dAttrs>(OpKind::Convolution2d, c, seed);
}

// Depthwise (multiplier 1): channel counts around the 8-lane blocks, strides, padding, dilation.
const ConvCase kDw[] = {
    // n  h   w  ic  oc  k  s  d pad bias
    {1, 9, 9, 16, 16, 3, 1, 1, 1, true},    // two whole channel blocks
    {1, 8, 7, 13, 13, 3, 2, 1, 1, false},   // 8 + 5 channels, stride 2
    {2, 6, 6, 3, 3, 3, 1, 1, 0, true},      // a tail block only, batch 2, valid
    {1, 12, 12, 21, 21, 3, 1, 2, 2, true},  // dilation 2, 16 + 5
    {1, 3, 3, 8, 8, 5, 1, 1, 3, true},      // padding beyond the input
    {1, 40, 40, 64, 64, 3, 1, 1, 1, true},  // splits over 4 threads by the default policy too
};

OneNode make_dw(const ConvCase& c, uint32_t seed) {
    return make_window<DepthwiseConvolution2dAttrs>(OpKind::DepthwiseConvolution2d, c, seed);
}

struct FcCase {
    uint32_t batch, in, out;
    bool transpose, bias;
};
const FcCase kFc[] = {
    {1, 64, 10, true, true},   // a classifier head, batch 1
    {3, 37, 19, false, true},  // [in, out] weights, in = 32 + 5
    {5, 8, 33, true, false},   // oc = 2 tiles + 1
};

OneNode make_fc(const FcCase& c, uint32_t seed) {
    std::mt19937 rng(seed);
    FullyConnectedAttrs a;
    a.transpose_weights = c.transpose;
    a.bias_enabled = c.bias;
    const Shape w = c.transpose ? Shape{c.out, c.in} : Shape{c.in, c.out};
    std::vector<Operand> ins{
        {tinfo(DataType::Float32, {c.batch, c.in}), to_bytes(random_floats(rng, size_t(c.batch) * c.in))},
        {tinfo(DataType::Float32, w), to_bytes(random_floats(rng, size_t(c.in) * c.out)), true}};
    if (c.bias) ins.push_back({tinfo(DataType::Float32, {c.out}), to_bytes(random_floats(rng, c.out)), true});
    return OneNode(OpKind::FullyConnected, a, ins, {tinfo(DataType::Float32, {c.batch, c.out})});
}

// The fp16 reference against the Float32 reference: each of the K products and the input/weight roundings
// loses at most about 2^-11 relative, and |acc| <= sum|x*w| <= K for inputs in [-1, 1].
void expect_close_to_f32(const OneNode& node, size_t k, const std::string& what) {
    const auto f16 = from_bytes<float>(node.run(kernels::ref_fp16_arithmetic_kernel(node.node().op)).at(0));
    const auto f32 = from_bytes<float>(node.run_ref().at(0));
    ASSERT_EQ(f16.size(), f32.size());
    const double bound = double(k + 2) * k * std::ldexp(1.0, -10);
    double worst = 0;
    for (size_t i = 0; i < f16.size(); ++i) worst = std::max(worst, std::fabs(double(f16[i]) - f32[i]));
    EXPECT_LE(worst, bound) << what;
    EXPECT_GT(worst, 0.0) << what << ": no rounding at all, so not fp16 arithmetic";
}

TEST(Fp16Reference, CloseToFloat32) {
    for (size_t i = 0; i < std::size(kConv); ++i) {
        const ConvCase& c = kConv[i];
        if (c.ic * c.k * c.k < 8) continue;  // too few products to show rounding reliably
        expect_close_to_f32(make_conv(c, 100 + uint32_t(i)), size_t(c.ic) * c.k * c.k,
                            "conv case " + std::to_string(i));
    }
    for (size_t i = 0; i < std::size(kFc); ++i)
        expect_close_to_f32(make_fc(kFc[i], 200 + uint32_t(i)), kFc[i].in, "fc case " + std::to_string(i));
    for (size_t i = 0; i < std::size(kDw); ++i)
        expect_close_to_f32(make_dw(kDw[i], 300 + uint32_t(i)), size_t(kDw[i].k) * kDw[i].k,
                            "depthwise case " + std::to_string(i));
}

void expect_exact(const OneNode& node, const std::string& what) {
    const kernels::Kernel* k = kernels::neon_fp16_arithmetic_kernel(node.node().op);
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->check(exec::KernelNodeView(node.node(), node.graph())), "") << what;
    const auto want = node.run(kernels::ref_fp16_arithmetic_kernel(node.node().op)).at(0);
    for (unsigned threads = 1; threads <= 4; ++threads) {
        kernels::neon::set_num_threads(threads);
        kernels::neon::set_min_work_per_thread(threads == 4 ? 0 : 1);  // 4: the default split policy
        const auto got = node.run(k).at(0);
        EXPECT_EQ(got, want) << what << ", " << threads << " threads";
    }
    kernels::neon::set_num_threads(1);
    kernels::neon::set_min_work_per_thread(0);
}

TEST(Fp16Neon, BitExactWithReference) {
    if (!kernels::neon::fp16_arithmetic_available())
        GTEST_SKIP() << "no fp16 arithmetic here (aarch64 with FEAT_FP16 only)";
    for (size_t i = 0; i < std::size(kConv); ++i)
        expect_exact(make_conv(kConv[i], 100 + uint32_t(i)), "conv case " + std::to_string(i));
    for (size_t i = 0; i < std::size(kFc); ++i)
        expect_exact(make_fc(kFc[i], 200 + uint32_t(i)), "fc case " + std::to_string(i));
    for (size_t i = 0; i < std::size(kDw); ++i)
        expect_exact(make_dw(kDw[i], 300 + uint32_t(i)), "depthwise case " + std::to_string(i));
}

TEST(Fp16Neon, RefusesWhatItCannotRun) {
    const kernels::Kernel* k = kernels::neon_fp16_arithmetic_kernel(OpKind::Convolution2d);
    ASSERT_NE(k, nullptr);
    const OneNode node = make_conv(kConv[0], 1);
    const std::string why = k->check(exec::KernelNodeView(node.node(), node.graph()));
    if (!kernels::neon::fp16_arithmetic_available()) {
        EXPECT_NE(why.find("no fp16 arithmetic"), std::string::npos) << why;
        return;
    }
    EXPECT_EQ(why, "");
    // Run-time weights cannot be packed once.
    std::mt19937 rng(3);
    std::vector<Operand> ins{{tinfo(DataType::Float32, {1, 4, 4, 8}), to_bytes(random_floats(rng, 128))},
                             {tinfo(DataType::Float32, {8, 1, 1, 8}), to_bytes(random_floats(rng, 64))}};
    const OneNode runtime_w(OpKind::Convolution2d, window_attrs<Convolution2dAttrs>(0, 1, false, DataLayout::NHWC), ins,
                            {tinfo(DataType::Float32, {1, 4, 4, 8})});
    EXPECT_NE(k->check(exec::KernelNodeView(runtime_w.node(), runtime_w.graph())).find("run-time weights"),
              std::string::npos);
}

}  // namespace
}  // namespace npurun::neontest::fp16arith

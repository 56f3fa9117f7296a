// NEON vs kernels/ref for the float kernels other than Convolution2d, and Quantize/Dequantize.
// Each test states the bound of the kernel it checks (the kernels' source comments say why).
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

#include <limits>

#include "kernels/neon/thread_pool.h"
#include "kernels/neon/vector_math.h"

namespace npurun::neontest::ops {
namespace {

namespace nn = kernels::neon;

std::vector<double> ulp_bound(const std::vector<float>& ref, double ulps, double abs_floor) {
    std::vector<double> b(ref.size());
    for (size_t i = 0; i < ref.size(); ++i) {
        const double u = std::ldexp(1.0, std::max(-149, std::ilogb(ref[i] == 0.0f ? 1e-38f : ref[i]) - 23));
        b[i] = std::max(ulps * u, abs_floor);
    }
    return b;
}

TEST(NeonDepthwiseF32, MatchesReference) {
    struct C { uint32_t n, h, w, c, k, s, pad, dil; bool bias; };
    const C cases[] = {{1, 8, 8, 16, 3, 1, 1, 1, true}, {1, 9, 7, 13, 3, 2, 1, 1, true}, {2, 5, 6, 7, 5, 1, 2, 1, false},
                       {1, 10, 10, 8, 3, 1, 2, 2, true}, {1, 3, 3, 4, 3, 1, 3, 1, true}};
    uint32_t seed = 300;
    for (const auto& c : cases) {
        std::mt19937 rng(seed++);
        const uint32_t eff = (c.k - 1) * c.dil + 1, o = (c.h + 2 * c.pad - eff) / c.s + 1, ow = (c.w + 2 * c.pad - eff) / c.s + 1;
        DepthwiseConvolution2dAttrs a;
        a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = c.pad;
        a.stride_x = a.stride_y = c.s;
        a.dilation_x = a.dilation_y = c.dil;
        a.bias_enabled = c.bias;
        a.layout = DataLayout::NHWC;
        std::vector<Operand> ins{{tinfo(DataType::Float32, {c.n, c.h, c.w, c.c}), to_bytes(random_floats(rng, size_t(c.n) * c.h * c.w * c.c))},
                                 {tinfo(DataType::Float32, {1, c.k, c.k, c.c}), to_bytes(random_floats(rng, size_t(c.k) * c.k * c.c)), true}};
        if (c.bias) ins.push_back({tinfo(DataType::Float32, {c.c}), to_bytes(random_floats(rng, c.c)), true});
        OneNode node(OpKind::DepthwiseConvolution2d, a, ins, {tinfo(DataType::Float32, {c.n, o, ow, c.c})});
        // Bound: 2*(K+1)*2^-24*(sum|x*w|+|b|) <= 2*(K+1)*2^-24*(K+1) with |x|,|w|,|b| <= 1.
        EXPECT_TRUE(neon_within_sum_bound(node, double(c.k) * c.k));
    }
}

TEST(NeonFullyConnectedF32, MatchesReferenceBothWeightLayouts) {
    struct C { uint32_t batch, in, out; bool transpose, bias; };
    const C cases[] = {{1, 256, 10, true, true}, {1, 1024, 1001, true, true}, {3, 37, 13, false, true}, {2, 64, 16, false, false},
                       {1, 5, 3, true, false}};
    uint32_t seed = 400;
    for (const auto& c : cases) {
        std::mt19937 rng(seed++);
        FullyConnectedAttrs a;
        a.transpose_weights = c.transpose;
        a.bias_enabled = c.bias;
        const Shape ws = c.transpose ? Shape{c.out, c.in} : Shape{c.in, c.out};
        std::vector<Operand> ins{{tinfo(DataType::Float32, {c.batch, c.in}), to_bytes(random_floats(rng, size_t(c.batch) * c.in))},
                                 {tinfo(DataType::Float32, ws), to_bytes(random_floats(rng, size_t(c.in) * c.out)), true}};
        if (c.bias) ins.push_back({tinfo(DataType::Float32, {c.out}), to_bytes(random_floats(rng, c.out)), true});
        OneNode node(OpKind::FullyConnected, a, ins, {tinfo(DataType::Float32, {c.batch, c.out})});
        const auto ref = from_bytes<float>(node.run_ref().at(0));
        const auto got = from_bytes<float>(neon_all_threads(node));
        const double i = c.in;
        EXPECT_TRUE(floats_near(got, ref, std::vector<double>(ref.size(), 2 * (i + 2) * (i + 1) * std::ldexp(1.0, -24))))
            << "in=" << c.in << " out=" << c.out;
    }
}

TEST(NeonPoolingF32, MatchesReferenceExactly) {
    struct C { PoolingAlgorithm alg; uint32_t h, w, c, k, s, pt, pb, pl, pr; PaddingMethod pm; };
    const C cases[] = {
        {PoolingAlgorithm::Max, 8, 8, 16, 2, 2, 0, 0, 0, 0, PaddingMethod::Exclude},
        {PoolingAlgorithm::Max, 9, 9, 7, 3, 2, 1, 1, 1, 1, PaddingMethod::IgnoreValue},
        {PoolingAlgorithm::Average, 4, 4, 256, 4, 4, 0, 0, 0, 0, PaddingMethod::Exclude},  // MobileNet global-ish avg
        {PoolingAlgorithm::Average, 7, 6, 9, 3, 1, 1, 1, 1, 1, PaddingMethod::IgnoreValue},
        {PoolingAlgorithm::Average, 7, 6, 9, 3, 1, 1, 1, 1, 1, PaddingMethod::Exclude},
        {PoolingAlgorithm::Average, 5, 5, 3, 3, 2, 0, 2, 0, 2, PaddingMethod::IgnoreValue},
        {PoolingAlgorithm::Max, 2, 2, 5, 3, 3, 3, 3, 3, 3, PaddingMethod::IgnoreValue},  // windows wholly in padding
    };
    uint32_t seed = 500;
    for (const auto& c : cases) {
        std::mt19937 rng(seed++);
        const Pooling2dAttrs a = pool_attrs(c.alg, c.k, c.s, {c.pt, c.pb, c.pl, c.pr}, c.pm, DataLayout::NHWC);
        const uint32_t oh = (c.h + c.pt + c.pb - c.k) / c.s + 1, ow = (c.w + c.pl + c.pr - c.k) / c.s + 1;
        OneNode node(OpKind::Pooling2d, a, {{tinfo(DataType::Float32, {1, c.h, c.w, c.c}), to_bytes(random_floats(rng, size_t(c.h) * c.w * c.c))}},
                     {tinfo(DataType::Float32, {1, oh, ow, c.c})});
        EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << "case " << seed - 1;
    }
}

TEST(NeonElementwiseBinaryF32, BroadcastingBitExact) {
    struct C { Shape a, b, y; };
    const C shapes[] = {{{2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}},
                        {{1, 8, 8, 16}, {16}, {1, 8, 8, 16}},
                        {{1, 8, 8, 16}, {1, 1, 1, 1}, {1, 8, 8, 16}},
                        {{4, 1, 7}, {1, 5, 1}, {4, 5, 7}},
                        {{3, 1}, {1, 9}, {3, 9}},
                        {{1, 1, 13}, {2, 3, 13}, {2, 3, 13}},
                        {{1}, {1}, {1}}};
    uint32_t seed = 600;
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Maximum, BinaryOp::Minimum}) {
        for (const auto& s : shapes) {
            std::mt19937 rng(seed++);
            ElementwiseBinaryAttrs a;
            a.op = op;
            auto av = random_floats(rng, s.a.num_elements(), -4, 4), bv = random_floats(rng, s.b.num_elements(), -4, 4);
            av[0] = bv[0];  // ties for Maximum/Minimum
            OneNode node(OpKind::ElementwiseBinary, a,
                         {{tinfo(DataType::Float32, s.a), to_bytes(av)}, {tinfo(DataType::Float32, s.b), to_bytes(bv)}},
                         {tinfo(DataType::Float32, s.y)});
            EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << to_string(op) << " " << s.a.str() << " " << s.b.str();
        }
    }
}

TEST(NeonActivationF32, MatchesReferenceWithinStatedBounds) {
    struct C { ActivationFunction f; float a, b; double ulps, abs_floor; };
    const C cases[] = {
        {ActivationFunction::ReLu, 0, 0, 0, 0},          {ActivationFunction::BoundedReLu, 6, 0, 0, 0},
        {ActivationFunction::BoundedReLu, 1, -1, 0, 0},  {ActivationFunction::LeakyReLu, 0.1f, 0, 0, 0},
        {ActivationFunction::Linear, 0.5f, 0.25f, 0, 0}, {ActivationFunction::Abs, 0, 0, 0, 0},
        {ActivationFunction::Square, 0, 0, 0, 0},        {ActivationFunction::HardSwish, 0, 0, 0, 0},
        {ActivationFunction::Sigmoid, 0, 0, 4, 0},       {ActivationFunction::TanH, 1, 1, 6, std::ldexp(1.0, -24)},
        {ActivationFunction::TanH, 1.7159f, 0.6666f, 6, std::ldexp(1.0, -23)},
    };
    std::mt19937 rng(700);
    auto x = random_floats(rng, 4099, -12, 12);
    for (size_t i = 0; i < 200; ++i) x[i] *= 1e-3f;  // near zero: tanh's series branch
    x[200] = 0.0f;
    x[201] = -0.0f;
    x[202] = -3.0f;
    x[203] = 3.0f;
    for (const auto& c : cases) {
        ActivationAttrs a;
        a.function = c.f;
        a.a = c.a;
        a.b = c.b;
        OneNode node(OpKind::Activation, a, {{tinfo(DataType::Float32, {4099}), to_bytes(x)}}, {tinfo(DataType::Float32, {4099})});
        const auto ref = from_bytes<float>(node.run_ref().at(0));
        const auto got = from_bytes<float>(neon_all_threads(node));
        if (c.ulps == 0) {
            EXPECT_EQ(to_bytes(got), to_bytes(ref)) << to_string(c.f);
        } else {
            EXPECT_TRUE(floats_near(got, ref, ulp_bound(ref, c.ulps, c.abs_floor))) << to_string(c.f);
        }
    }
    // Sqrt on non-negative inputs (negative: NaN in both).
    ActivationAttrs a;
    a.function = ActivationFunction::Sqrt;
    auto pos = random_floats(rng, 1000, 0, 100);
    OneNode node(OpKind::Activation, a, {{tinfo(DataType::Float32, {1000}), to_bytes(pos)}}, {tinfo(DataType::Float32, {1000})});
    EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0));
}

TEST(NeonVectorMath, ExpAndTanhUlpAgainstLibm) {
    // The bounds vector_math.h states, over a dense sweep.
    uint32_t worst_exp = 0, worst_tanh = 0;
    for (float v = -87.0f; v < 88.0f; v += 0.0137f) {
        float in[4] = {v, v + 0.003f, v + 0.007f, v + 0.011f}, e[4], t[4];
        vst1q_f32(e, nn::exp_f32(vld1q_f32(in)));
        vst1q_f32(t, nn::tanh_f32(vld1q_f32(in)));
        for (int i = 0; i < 4; ++i) {
            worst_exp = std::max(worst_exp, ulp_distance(e[i], std::exp(in[i])));
            if (std::fabs(in[i]) < 10) worst_tanh = std::max(worst_tanh, ulp_distance(t[i], std::tanh(in[i])));
        }
    }
    for (float v = -0.6f; v < 0.6f; v += 0.00037f) {
        float in[4] = {v, v * 0.5f, v * 1e-3f, -v}, t[4];
        vst1q_f32(t, nn::tanh_f32(vld1q_f32(in)));
        for (int i = 0; i < 4; ++i) worst_tanh = std::max(worst_tanh, ulp_distance(t[i], std::tanh(in[i])));
    }
    EXPECT_LE(worst_exp, 2u);
    EXPECT_LE(worst_tanh, 4u);
    std::printf("exp_f32: max %u ulp, tanh_f32: max %u ulp vs libm\n", worst_exp, worst_tanh);
}

TEST(NeonSoftmaxF32, MatchesReferenceWithinStatedBound) {
    const Shape shapes[] = {{1, 1001}, {4, 10}, {2, 3, 7}, {1, 1}};
    std::mt19937 rng(800);
    for (const auto& s : shapes) {
        for (float beta : {1.0f, 0.5f}) {
            SoftmaxAttrs a;
            a.beta = beta;
            OneNode node(OpKind::Softmax, a, {{tinfo(DataType::Float32, s), to_bytes(random_floats(rng, s.num_elements(), -8, 8))}},
                         {tinfo(DataType::Float32, s)});
            const auto ref = from_bytes<float>(node.run_ref().at(0));
            const auto got = from_bytes<float>(neon_all_threads(node));
            EXPECT_TRUE(floats_near(got, ref, ulp_bound(ref, 8, std::ldexp(1.0, -30)))) << s.str();
        }
    }
}

TEST(NeonQuantizeDequantize, BitExact) {
    std::mt19937 rng(900);
    for (DataType t : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::QSymmS8}) {
        const int32_t off = t == DataType::QAsymmU8 ? 77 : t == DataType::QAsymmS8 ? -9 : 0;
        const float scale = 0.037f;
        auto x = random_floats(rng, 1031, -6, 6);
        // Exact ties (k + 0.5) * scale and values far outside the range.
        for (int i = 0; i < 40; ++i) x[i] = (float(i - 20) + 0.5f) * scale;
        x[40] = 1e9f;
        x[41] = -1e9f;
        x[42] = std::numeric_limits<float>::quiet_NaN();
        x[43] = std::numeric_limits<float>::infinity();
        OneNode q(OpKind::Quantize, std::monostate{}, {{tinfo(DataType::Float32, {1031}), to_bytes(x)}}, {tinfo(t, {1031}, {scale}, off)});
        const auto qref = q.run_ref().at(0);
        EXPECT_EQ(neon_all_threads(q), qref) << to_string(t);
        OneNode d(OpKind::Dequantize, std::monostate{}, {{tinfo(t, {1031}, {scale}, off), qref}}, {tinfo(DataType::Float32, {1031})});
        EXPECT_EQ(neon_all_threads(d), d.run_ref().at(0)) << to_string(t);
    }
}

TEST(NeonKernels, RefuseUncoveredCases) {
    Pooling2dAttrs p;
    p.algorithm = PoolingAlgorithm::L2;
    p.pool_width = p.pool_height = p.stride_x = p.stride_y = 2;
    p.layout = DataLayout::NHWC;
    OneNode l2(OpKind::Pooling2d, p, {{tinfo(DataType::Float32, {1, 4, 4, 1}), std::vector<uint8_t>(64)}}, {tinfo(DataType::Float32, {1, 2, 2, 1})});
    EXPECT_NE(l2.neon_check(), "");
    SoftmaxAttrs s;
    s.axis = 0;
    OneNode sm(OpKind::Softmax, s, {{tinfo(DataType::Float32, {2, 3}), std::vector<uint8_t>(24)}}, {tinfo(DataType::Float32, {2, 3})});
    EXPECT_NE(sm.neon_check(), "");
    ActivationAttrs e;
    e.function = ActivationFunction::Elu;
    OneNode elu(OpKind::Activation, e, {{tinfo(DataType::Float32, {4}), std::vector<uint8_t>(16)}}, {tinfo(DataType::Float32, {4})});
    EXPECT_NE(elu.neon_check(), "");
    EXPECT_EQ(kernels::neon_kernel(OpKind::Lstm), nullptr);
}

}  // namespace
}  // namespace npurun::neontest::ops

namespace npurun::neontest::ops {
namespace {

TEST(NeonActivationQuantized, LookupTableBitExactForEveryCode) {
    std::vector<uint8_t> all(256);
    for (int i = 0; i < 256; ++i) all[size_t(i)] = uint8_t(i);
    struct C { ActivationFunction f; float a, b; };
    const C fns[] = {{ActivationFunction::BoundedReLu, 6, 0}, {ActivationFunction::ReLu, 0, 0}, {ActivationFunction::Sigmoid, 0, 0},
                     {ActivationFunction::TanH, 1, 1}, {ActivationFunction::HardSwish, 0, 0}, {ActivationFunction::Elu, 0.5f, 0},
                     {ActivationFunction::LeakyReLu, 0.2f, 0}};
    for (DataType t : {DataType::QAsymmU8, DataType::QAsymmS8}) {
        for (const auto& c : fns) {
            ActivationAttrs a;
            a.function = c.f;
            a.a = c.a;
            a.b = c.b;
            const int32_t zx = t == DataType::QAsymmU8 ? 100 : -7, zy = t == DataType::QAsymmU8 ? 3 : -100;
            OneNode node(OpKind::Activation, a, {{tinfo(t, {256}, {0.0471f}, zx), all}}, {tinfo(t, {256}, {0.0235f}, zy)});
            EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << to_string(c.f) << " " << to_string(t);
        }
    }
}

}  // namespace
}  // namespace npurun::neontest::ops

// Convolution2d: NEON vs kernels/ref on many shapes (random data, fixed seeds).
// Float bound (stated in kernels/neon/conv2d_f32.cpp): |neon - ref| <= 2*(K+2)*2^-24 * (sum|x*w| + |b|).
#include "tests/neon/harness.h"

#include "kernels/neon/thread_pool.h"

namespace npurun::neontest::conv2d {
namespace {

struct ConvCase {
    uint32_t n, h, w, ic, oc, kh, kw, sy, sx, dy, dx, pt, pb, pl, pr;
    bool bias;
};

uint32_t out_dim(uint32_t in, uint32_t k, uint32_t s, uint32_t d, uint32_t p0, uint32_t p1) {
    const uint32_t eff = (k - 1) * d + 1;
    return (in + p0 + p1 - eff) / s + 1;
}

const ConvCase kCases[] = {
    // n  h   w  ic  oc kh kw sy sx dy dx pt pb pl pr bias
    {1, 8, 8, 16, 32, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true},    // MobileNet pointwise
    {1, 7, 9, 13, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, false},    // odd channel counts (tails)
    {1, 9, 9, 8, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, true},     // 3x3 same
    {1, 17, 17, 3, 8, 3, 3, 2, 2, 1, 1, 0, 1, 0, 1, true},    // MobileNet stem (3 channels, stride 2, TF same)
    {2, 6, 5, 7, 6, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, true},      // batch 2, valid
    {1, 12, 12, 4, 4, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, false},   // dilation 2
    {1, 11, 13, 6, 9, 5, 3, 2, 1, 1, 1, 2, 1, 1, 1, true},    // non-square kernel, asymmetric stride/pad
    {1, 14, 14, 5, 7, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3, true},    // ResNet stem-like 7x7 s2
    {1, 4, 4, 64, 24, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, true},    // 1x1 stride 2 (ResNet downsample)
    {1, 1, 1, 33, 10, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true},    // 1x1 spatial
    {1, 3, 3, 2, 3, 3, 3, 1, 1, 1, 1, 3, 3, 3, 3, true},      // padding larger than input: zero windows
};

std::vector<float> run_case(const ConvCase& c, uint32_t seed, std::vector<float>* ref_out, std::vector<double>* bound) {
    std::mt19937 rng(seed);
    const uint32_t oh = out_dim(c.h, c.kh, c.sy, c.dy, c.pt, c.pb), ow = out_dim(c.w, c.kw, c.sx, c.dx, c.pl, c.pr);
    Convolution2dAttrs a;
    a.pad_left = c.pl; a.pad_right = c.pr; a.pad_top = c.pt; a.pad_bottom = c.pb;
    a.stride_x = c.sx; a.stride_y = c.sy; a.dilation_x = c.dx; a.dilation_y = c.dy;
    a.bias_enabled = c.bias;
    a.layout = DataLayout::NHWC;
    auto x = random_floats(rng, size_t(c.n) * c.h * c.w * c.ic);
    auto w = random_floats(rng, size_t(c.oc) * c.kh * c.kw * c.ic);
    auto b = random_floats(rng, c.oc);
    std::vector<Operand> ins{{tinfo(DataType::Float32, {c.n, c.h, c.w, c.ic}), to_bytes(x)},
                             {tinfo(DataType::Float32, {c.oc, c.kh, c.kw, c.ic}), to_bytes(w), true}};
    if (c.bias) ins.push_back({tinfo(DataType::Float32, {c.oc}), to_bytes(b), true});
    OneNode node(OpKind::Convolution2d, a, ins, {tinfo(DataType::Float32, {c.n, oh, ow, c.oc})});
    if (ref_out) {
        *ref_out = from_bytes<float>(node.run_ref().at(0));
        // The stated bound, from sum|x*w| over the real (non-padding) taps.
        const double eps = std::ldexp(1.0, -24), k = double(c.kh) * c.kw * c.ic;
        bound->assign(ref_out->size(), 0.0);
        for (uint32_t n = 0; n < c.n; ++n)
            for (uint32_t oy = 0; oy < oh; ++oy)
                for (uint32_t ox = 0; ox < ow; ++ox)
                    for (uint32_t o = 0; o < c.oc; ++o) {
                        double s = c.bias ? std::fabs(b[o]) : 0.0;
                        for (uint32_t ky = 0; ky < c.kh; ++ky)
                            for (uint32_t kx = 0; kx < c.kw; ++kx) {
                                const int iy = int(oy * c.sy + ky * c.dy) - int(c.pt);
                                const int ix = int(ox * c.sx + kx * c.dx) - int(c.pl);
                                if (iy < 0 || ix < 0 || iy >= int(c.h) || ix >= int(c.w)) continue;
                                for (uint32_t i = 0; i < c.ic; ++i)
                                    s += std::fabs(double(x[((size_t(n) * c.h + iy) * c.w + ix) * c.ic + i]) *
                                                   w[((size_t(o) * c.kh + ky) * c.kw + kx) * c.ic + i]);
                            }
                        (*bound)[((size_t(n) * oh + oy) * ow + ox) * c.oc + o] = 2.0 * (k + 2.0) * eps * s;
                    }
    }
    return from_bytes<float>(node.run_neon().at(0));
}

TEST(NeonConv2dF32, MatchesReferenceWithinStatedBound) {
    uint32_t seed = 100;
    for (const auto& c : kCases) {
        std::vector<float> ref;
        std::vector<double> bound;
        const auto got = run_case(c, seed++, &ref, &bound);
        EXPECT_TRUE(floats_near(got, ref, bound)) << "case h=" << c.h << " w=" << c.w << " ic=" << c.ic << " oc=" << c.oc
                                                  << " k=" << c.kh << "x" << c.kw << " s=" << c.sy << "," << c.sx;
    }
}

TEST(NeonConv2dF32, IdenticalForOneToFourThreads) {
    for (const auto& c : kCases) {
        std::vector<std::vector<float>> outs;
        for (unsigned t = 1; t <= 4; ++t) {
            kernels::neon::set_num_threads(t);
            outs.push_back(run_case(c, 7, nullptr, nullptr));
        }
        kernels::neon::set_num_threads(1);
        for (unsigned t = 1; t < 4; ++t)
            EXPECT_EQ(0, std::memcmp(outs[0].data(), outs[t].data(), outs[0].size() * 4)) << "threads=" << t + 1;
    }
}

TEST(NeonConv2dF32, RefusesWhatItDoesNotCover) {
    // Grouped convolution (weights see 1 of the 2 input channels); NCHW is covered since nchw.h.
    Convolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    std::vector<Operand> ins{{tinfo(DataType::Float32, {1, 4, 4, 2}), std::vector<uint8_t>(128)},
                             {tinfo(DataType::Float32, {3, 1, 1, 1}), std::vector<uint8_t>(12), true}};
    OneNode grouped(OpKind::Convolution2d, a, ins, {tinfo(DataType::Float32, {1, 4, 4, 3})});
    EXPECT_NE(grouped.neon_check(), "");
}

}  // namespace
}  // namespace npurun::neontest::conv2d

// The integer convolution pipeline (core/quantization.h) against CpuRef's float pipeline,
// written out independently here: dequantize every operand, multiply and sum in float, add the float bias,
// quantize once. The brief's contract: the two agree within 1 in the integer.
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

struct Lcg {  // deterministic test data
    uint32_t s;
    uint32_t next() { return s = s * 1664525u + 1013904223u; }
    int32_t range(int32_t lo, int32_t hi) { return lo + int32_t((next() >> 8) % uint32_t(hi - lo + 1)); }
};

int32_t float_pipeline_quantize(float v, float scale, int32_t zp, int32_t lo, int32_t hi) {
    const float r = std::round(v / scale) + float(zp);
    return int32_t(std::fmin(std::fmax(r, float(lo)), float(hi)));
}

}  // namespace

TEST(QuantizedPipeline, Conv2dPerAxisInt8WithinOneOfFloatPipeline) {
    const uint32_t H = 6, W = 6, C = 3, O = 4, K = 3;
    const float sx = 0.02f, so = 0.05f;
    const int32_t zx = 128, zo = 120;
    const float sw[O] = {0.011f, 0.0073f, 0.013f, 0.009f};
    Lcg rng{12345};
    std::vector<uint8_t> qx(H * W * C);
    for (auto& v : qx) v = uint8_t(rng.range(0, 255));
    std::vector<int8_t> qw(O * K * K * C);
    for (auto& v : qw) v = int8_t(rng.range(-127, 127));
    std::vector<int32_t> qb(O);
    for (auto& v : qb) v = rng.range(-3000, 3000);

    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {1, H, W, C}, sx, zx), qx);
    TensorInfo wi = info(DataType::QSymmS8, {O, K, K, C});
    wi.quant.scales.assign(sw, sw + O);
    auto w = t.tensor(wi, qw, true);
    TensorInfo bi = info(DataType::Signed32, {O});
    for (uint32_t o = 0; o < O; ++o) bi.quant.scales.push_back(sx * sw[o]);
    auto b = t.tensor(bi, qb, true);
    auto y = t.output(info(DataType::QAsymmU8, {1, H, W, O}, so, zo));
    Convolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = 1;
    a.bias_enabled = true;
    t.op(OpKind::Convolution2d, a, {x, w, b}, {y});
    t.run();
    const auto got = t.out<uint8_t>();

    size_t exact = 0, total = 0, unclamped = 0;
    for (uint32_t oy = 0; oy < H; ++oy)
        for (uint32_t ox = 0; ox < W; ++ox)
            for (uint32_t o = 0; o < O; ++o) {
                float sum = 0.0f;
                for (uint32_t c = 0; c < C; ++c)
                    for (uint32_t ky = 0; ky < K; ++ky)
                        for (uint32_t kx = 0; kx < K; ++kx) {
                            const int iy = int(oy + ky) - 1, ix = int(ox + kx) - 1;
                            if (iy < 0 || ix < 0 || iy >= int(H) || ix >= int(W)) continue;
                            const float xv = float(int(qx[(iy * W + ix) * C + c]) - zx) * sx;
                            const float wv = float(qw[((o * K + ky) * K + kx) * C + c]) * sw[o];
                            sum += xv * wv;
                        }
                sum += float(qb[o]) * (sx * sw[o]);
                const int32_t expect = float_pipeline_quantize(sum, so, zo, 0, 255);
                const int32_t actual = got[(oy * W + ox) * O + o];
                ASSERT_LE(std::abs(actual - expect), 1) << "at " << oy << "," << ox << "," << o;
                exact += actual == expect;
                unclamped += expect > 0 && expect < 255;
                ++total;
            }
    EXPECT_GT(unclamped, total / 2) << "test data should mostly stay inside the output range";
    EXPECT_GE(exact * 10, total * 9) << exact << " of " << total << " exact";  // off-by-one is rare
}

TEST(QuantizedPipeline, FullyConnectedInt8MismatchedBiasScaleWithinOne) {
    const uint32_t N = 3, I = 40, O = 5;
    const float sx = 0.1f, sw = 0.004f, sb = 0.0003f, so = 0.02f;
    const int32_t zx = -7, zw = 3, zo = 5;
    Lcg rng{777};
    std::vector<int8_t> qx(N * I), qw(O * I);
    for (auto& v : qx) v = int8_t(rng.range(-128, 127));
    for (auto& v : qw) v = int8_t(rng.range(-128, 127));
    std::vector<int32_t> qb(O);
    for (auto& v : qb) v = rng.range(-5000, 5000);

    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmS8, {N, I}, sx, zx), qx);
    auto w = t.tensor(info(DataType::QAsymmS8, {O, I}, sw, zw), qw, true);
    auto b = t.tensor(info(DataType::Signed32, {O}, sb), qb, true);
    auto y = t.output(info(DataType::QAsymmS8, {N, O}, so, zo));
    FullyConnectedAttrs a;
    a.bias_enabled = true;
    a.transpose_weights = true;
    t.op(OpKind::FullyConnected, a, {x, w, b}, {y});
    t.run();
    const auto got = t.out<int8_t>();
    for (uint32_t n = 0; n < N; ++n)
        for (uint32_t o = 0; o < O; ++o) {
            float sum = 0.0f;
            for (uint32_t i = 0; i < I; ++i)
                sum += (float(qx[n * I + i] - zx) * sx) * (float(qw[o * I + i] - zw) * sw);
            sum += float(qb[o]) * sb;
            const int32_t expect = float_pipeline_quantize(sum, so, zo, -128, 127);
            EXPECT_LE(std::abs(int32_t(got[n * O + o]) - expect), 1) << n << "," << o;
        }
}

// NHWC <-> NC1HWC2 conversions against the layout formula of reference/rk3588-npu-registers.md §6.1,
// written out element by element here (there is no kernels/ref op for these NPU-side layouts).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/neon/layout_convert.h"
#include "kernels/neon/thread_pool.h"

namespace nn = npurun::kernels::neon;

namespace {

size_t nc1hwc2_index(const nn::Nc1hwc2Shape& s, uint32_t n, uint32_t c, uint32_t y, uint32_t x) {
    return (size_t(n) * s.c1() + c / s.c2) * s.plane() + (size_t(y) * s.w + x) * s.c2 + c % s.c2;
}
size_t nhwc_index(const nn::Nc1hwc2Shape& s, uint32_t n, uint32_t c, uint32_t y, uint32_t x) {
    return ((size_t(n) * s.h + y) * s.w + x) * s.c + c;
}

// IEEE binary32 -> binary16, round to nearest even, written from the format definitions.
uint16_t f32_to_f16_rne(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const int32_t exp = int32_t((u >> 23) & 0xff);
    uint32_t mant = u & 0x7fffffu;
    if (exp == 0xff) return uint16_t(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));
    int32_t e = exp - 127 + 15;
    if (e >= 0x1f) return uint16_t(sign | 0x7c00u);
    uint32_t m;
    int shift;
    if (e <= 0) {  // subnormal half (or zero)
        if (e < -10) return uint16_t(sign);
        mant |= 0x800000u;
        shift = 14 - e;
        m = mant >> shift;
    } else {
        shift = 13;
        m = (uint32_t(e) << 10) | (mant >> 13);
    }
    const uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (m & 1))) ++m;  // may carry into the exponent: correct by construction
    return uint16_t(sign | m);
}

float f16_to_f32(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
    float v;
    if (exp == 0) v = std::ldexp(float(mant), -24);
    else if (exp == 31) v = mant ? NAN : INFINITY;
    else v = std::ldexp(float(mant | 0x400u), int(exp) - 25);
    uint32_t u;
    std::memcpy(&u, &v, 4);
    u |= sign;
    std::memcpy(&v, &u, 4);
    return v;
}

std::vector<nn::Nc1hwc2Shape> shapes(uint32_t c2) {
    std::vector<nn::Nc1hwc2Shape> v;
    const uint32_t cs[] = {1, 3, c2 - 1, c2, c2 + 1, 2 * c2, 3 * c2 + 5, 37};
    for (uint32_t c : cs) {
        v.push_back({1, 5, 7, c, c2, 0});
        v.push_back({2, 3, 4, c, c2, 0});
    }
    // Padded planes, as the vendor runtime lays them out (align4(H*W) atoms).
    v.push_back({1, 3, 3, 20, c2, size_t(12) * c2});
    v.push_back({2, 1, 5, 2 * c2 + 3, c2, size_t(9) * c2});
    return v;
}

class LayoutThreads : public ::testing::TestWithParam<unsigned> {
protected:
    void SetUp() override { nn::set_num_threads(GetParam()); }
    void TearDown() override { nn::set_num_threads(1); }
};

TEST_P(LayoutThreads, Int8RoundTripAndFormula) {
    std::mt19937 rng(7);
    for (uint8_t mask : {uint8_t(0), uint8_t(0x80)}) {
        for (const auto& s : shapes(16)) {
            std::vector<uint8_t> src(s.nhwc_elements());
            for (auto& b : src) b = uint8_t(rng());
            std::vector<uint8_t> packed(s.nc1hwc2_elements(), 0xAB), back(src.size(), 0xCD);
            nn::nhwc_to_nc1hwc2_8bit(src.data(), packed.data(), s, mask);
            std::vector<uint8_t> expect(packed.size(), 0);
            for (uint32_t n = 0; n < s.n; ++n)
                for (uint32_t c = 0; c < s.c; ++c)
                    for (uint32_t y = 0; y < s.h; ++y)
                        for (uint32_t x = 0; x < s.w; ++x)
                            expect[nc1hwc2_index(s, n, c, y, x)] = uint8_t(src[nhwc_index(s, n, c, y, x)] ^ mask);
            ASSERT_EQ(packed, expect) << "C=" << s.c << " H=" << s.h << " W=" << s.w << " plane=" << s.plane();
            nn::nc1hwc2_to_nhwc_8bit(packed.data(), back.data(), s, mask);
            ASSERT_EQ(back, src) << "C=" << s.c;
        }
    }
}

TEST_P(LayoutThreads, Raw16And32Bit) {
    std::mt19937 rng(11);
    for (const auto& s : shapes(8)) {
        std::vector<uint16_t> src(s.nhwc_elements());
        for (auto& b : src) b = uint16_t(rng());
        std::vector<uint16_t> packed(s.nc1hwc2_elements(), 0xABCD), back(src.size());
        nn::nhwc_to_nc1hwc2_16bit(src.data(), packed.data(), s);
        std::vector<uint16_t> expect(packed.size(), 0);
        for (uint32_t n = 0; n < s.n; ++n)
            for (uint32_t c = 0; c < s.c; ++c)
                for (uint32_t y = 0; y < s.h; ++y)
                    for (uint32_t x = 0; x < s.w; ++x) expect[nc1hwc2_index(s, n, c, y, x)] = src[nhwc_index(s, n, c, y, x)];
        ASSERT_EQ(packed, expect) << "C=" << s.c;
        nn::nc1hwc2_to_nhwc_16bit(packed.data(), back.data(), s);
        ASSERT_EQ(back, src);
    }
    for (const auto& s : shapes(4)) {
        std::vector<uint32_t> packed(s.nc1hwc2_elements()), out(s.nhwc_elements());
        for (auto& b : packed) b = uint32_t(rng());
        nn::nc1hwc2_to_nhwc_32bit(packed.data(), out.data(), s);
        for (uint32_t n = 0; n < s.n; ++n)
            for (uint32_t c = 0; c < s.c; ++c)
                for (uint32_t y = 0; y < s.h; ++y)
                    for (uint32_t x = 0; x < s.w; ++x)
                        ASSERT_EQ(out[nhwc_index(s, n, c, y, x)], packed[nc1hwc2_index(s, n, c, y, x)]);
    }
}

TEST_P(LayoutThreads, Fp32ToFp16RoundsToNearestEven) {
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> dist(-70000.0f, 70000.0f);
    for (const auto& s : shapes(8)) {
        std::vector<float> src(s.nhwc_elements());
        for (size_t i = 0; i < src.size(); ++i) {
            // Mix magnitudes: normal, subnormal-half range, overflow, exact ties.
            switch (i % 4) {
                case 0: src[i] = dist(rng); break;
                case 1: src[i] = dist(rng) * 1e-9f; break;
                case 2: src[i] = float(int(rng() % 4096)) + 0.5f; break;
                default: src[i] = dist(rng) / 70000.0f;
            }
        }
        std::vector<uint16_t> packed(s.nc1hwc2_elements(), 0xFFFF);
        nn::nhwc_f32_to_nc1hwc2_f16(src.data(), packed.data(), s);
        std::vector<uint16_t> expect(packed.size(), 0);
        for (uint32_t n = 0; n < s.n; ++n)
            for (uint32_t c = 0; c < s.c; ++c)
                for (uint32_t y = 0; y < s.h; ++y)
                    for (uint32_t x = 0; x < s.w; ++x)
                        expect[nc1hwc2_index(s, n, c, y, x)] = f32_to_f16_rne(src[nhwc_index(s, n, c, y, x)]);
        ASSERT_EQ(packed, expect) << "C=" << s.c;
        std::vector<float> back(src.size());
        nn::nc1hwc2_f16_to_nhwc_f32(packed.data(), back.data(), s);
        for (uint32_t n = 0; n < s.n; ++n)
            for (uint32_t c = 0; c < s.c; ++c)
                for (uint32_t y = 0; y < s.h; ++y)
                    for (uint32_t x = 0; x < s.w; ++x) {
                        const float want = f16_to_f32(packed[nc1hwc2_index(s, n, c, y, x)]);
                        ASSERT_EQ(std::memcmp(&back[nhwc_index(s, n, c, y, x)], &want, 4), 0);
                    }
    }
}

INSTANTIATE_TEST_SUITE_P(Threads, LayoutThreads, ::testing::Values(1u, 2u, 3u, 4u));

}  // namespace

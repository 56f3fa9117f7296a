// core/quantization.h: Arm NN rounding rules, fp16 conversion, the integer conv pipeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/quantization.h"

using namespace npurun;
using namespace npurun::quant;

TEST(Quantize, RoundsHalfAwayFromZeroThenAddsOffset) {
    EXPECT_EQ(quantize(0.25f, 0.5f, 10, DataType::QAsymmU8), 11);    // 0.5 -> 1
    EXPECT_EQ(quantize(-0.25f, 0.5f, 10, DataType::QAsymmU8), 9);    // -0.5 -> -1
    EXPECT_EQ(quantize(0.75f, 0.5f, 0, DataType::QAsymmS8), 2);      // 1.5 -> 2
    EXPECT_EQ(quantize(1.25f, 0.5f, 0, DataType::QAsymmS8), 3);      // 2.5 -> 3 (not to even)
    EXPECT_EQ(quantize(-1.25f, 0.5f, 0, DataType::QSymmS8), -3);
    EXPECT_EQ(quantize(0.2f, 0.5f, 0, DataType::QSymmS8), 0);
}

TEST(Quantize, ClampsToTheTypeRange) {
    EXPECT_EQ(quantize(1000.0f, 1.0f, 0, DataType::QAsymmU8), 255);
    EXPECT_EQ(quantize(-1.0f, 1.0f, 0, DataType::QAsymmU8), 0);
    EXPECT_EQ(quantize(-1000.0f, 1.0f, 0, DataType::QAsymmS8), -128);
    EXPECT_EQ(quantize(1e9f, 1.0f, 0, DataType::QSymmS16), 32767);
    EXPECT_EQ(quantize(-1e9f, 1.0f, 0, DataType::QSymmS16), -32768);
    EXPECT_EQ(quantize(std::numeric_limits<float>::infinity(), 1.0f, 0, DataType::QAsymmU8), 255);
    EXPECT_EQ(quantize(std::nanf(""), 1.0f, 7, DataType::QAsymmU8), 7);  // NaN: the zero point
}

TEST(Dequantize, SubtractsOffsetThenScales) {
    EXPECT_FLOAT_EQ(dequantize(12, 0.5f, 10), 1.0f);
    EXPECT_FLOAT_EQ(dequantize(-128, 0.25f, 0), -32.0f);
}

TEST(Fp16, KnownEncodings) {
    EXPECT_EQ(fp32_to_fp16(0.0f), 0x0000);
    EXPECT_EQ(fp32_to_fp16(-0.0f), 0x8000);
    EXPECT_EQ(fp32_to_fp16(1.0f), 0x3c00);
    EXPECT_EQ(fp32_to_fp16(-2.0f), 0xc000);
    EXPECT_EQ(fp32_to_fp16(65504.0f), 0x7bff);               // largest finite
    EXPECT_EQ(fp32_to_fp16(65520.0f), 0x7c00);               // ties to even -> infinity
    EXPECT_EQ(fp32_to_fp16(65519.0f), 0x7bff);
    EXPECT_EQ(fp32_to_fp16(1e10f), 0x7c00);
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -25)), 0x0000);  // tie -> even (0)
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.5f, -25)), 0x0001);  // above the tie
    EXPECT_EQ(fp32_to_fp16(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units: tie -> even (2)
    EXPECT_EQ(fp32_to_fp16(std::numeric_limits<float>::infinity()), 0x7c00);
    const uint16_t nan = fp32_to_fp16(std::nanf(""));
    EXPECT_EQ(nan & 0x7c00, 0x7c00);
    EXPECT_NE(nan & 0x03ff, 0);
}

TEST(Fp16, RoundsToNearestEven) {
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even mantissa (1.0).
    EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
    // 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even): rounds up.
    EXPECT_EQ(fp32_to_fp16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
    // Slightly above the first tie rounds up.
    EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
}

TEST(Fp16, EveryHalfRoundTripsExactly) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const float f = fp16_to_fp32(uint16_t(h));
        if (std::isnan(f)) continue;
        ASSERT_EQ(fp32_to_fp16(f), h) << std::hex << h;
    }
    EXPECT_EQ(fp16_to_fp32(0x0001), std::ldexp(1.0f, -24));
    EXPECT_EQ(fp16_to_fp32(0xfbff), -65504.0f);
    EXPECT_TRUE(std::isinf(fp16_to_fp32(0x7c00)));
}

// An independent definition of the two conversions, in double arithmetic: a half is (-1)^s * m * 2^(e-25)
// (m with the implicit bit; subnormals e = 1 without it); a float rounds to the nearest multiple of its
// binade's half ulp (2^-24 below 2^-14), ties to even (nearbyint), and to infinity from 65520 (the midpoint
// of 65504 and 2^16) up.
double half_value(uint16_t h) {
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const double v = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(m | 0x400), e - 25);
    return (h & 0x8000) ? -v : v;
}

TEST(Fp16, EveryHalfWidensToItsValue) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const float f = fp16_to_fp32(uint16_t(h));
        if (((h >> 10) & 0x1f) == 0x1f) {
            EXPECT_EQ(std::isnan(f), (h & 0x3ff) != 0) << std::hex << h;
            continue;
        }
        ASSERT_EQ(double(f), half_value(uint16_t(h))) << std::hex << h;
        ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << std::hex << h;
    }
}

TEST(Fp16, FloatSweepRoundsToTheNearestHalf) {
    // Every 251st float bit pattern (17 M of them, every binade and sign, the subnormal halves included).
    for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 251) {
        const uint32_t x = uint32_t(bits);
        float f;
        std::memcpy(&f, &x, sizeof f);
        const uint16_t h = fp32_to_fp16(f);
        if (std::isnan(f)) {
            ASSERT_EQ(h & 0x7c00, 0x7c00) << std::hex << x;
            ASSERT_NE(h & 0x3ff, 0) << std::hex << x;
            continue;
        }
        const double a = std::fabs(double(f));
        double want;
        if (a >= 65520.0) {
            want = std::numeric_limits<double>::infinity();
        } else {
            int k = 0;
            std::frexp(a, &k);  // a = m * 2^k, m in [0.5, 1): the binade's exponent is k - 1
            const double ulp = std::ldexp(1.0, std::max(k - 1, -14) - 10);
            want = std::nearbyint(a / ulp) * ulp;
        }
        const float got = fp16_to_fp32(h);
        ASSERT_EQ(std::fabs(double(got)), want) << std::hex << x;
        ASSERT_EQ(std::signbit(got), std::signbit(f)) << std::hex << x;
    }
}

TEST(Requantize, OneRoundingHalfAwayThenOffsetAndClamp) {
    EXPECT_EQ(requantize(3, 0.5, 0, DataType::QAsymmS8), 2);
    EXPECT_EQ(requantize(-3, 0.5, 0, DataType::QAsymmS8), -2);
    EXPECT_EQ(requantize(5, 0.5, 100, DataType::QAsymmU8), 103);
    EXPECT_EQ(requantize(1000, 1.0, 0, DataType::QAsymmU8), 255);
    EXPECT_EQ(requantize(-5, 1.0, 3, DataType::QAsymmU8), 0);
    EXPECT_EQ(requantize(int64_t(1) << 40, 1.0, 0, DataType::QSymmS16), 32767);
    EXPECT_DOUBLE_EQ(multiplier(0.5f, 0.25f, 2.0f), 0.0625);
}

TEST(Requantize, BiasInAccumulatorUnits) {
    EXPECT_EQ(accumulator_bias(8, 0.125f, 0.5f, 0.25f), 8);     // scale sx*sw: as is
    EXPECT_EQ(accumulator_bias(8, 0.25f, 0.5f, 0.25f), 16);     // twice the accumulator scale
    EXPECT_EQ(accumulator_bias(3, 0.0f, 0.5f, 0.25f), 24);      // scale 0: plain integer 3 = 24 * 0.125
    EXPECT_EQ(accumulator_bias(1, 0.0625f, 0.5f, 0.25f), 1);    // 0.5 -> rounds away from zero
    EXPECT_EQ(accumulator_bias(-1, 0.0625f, 0.5f, 0.25f), -1);
}

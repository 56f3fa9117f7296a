// The per-channel requantization factors (runtime/npu/requant_per_channel.h) against the exact
// round_half_away(acc * m) of the CPU: the DPU arithmetic they program (x1 = round(acc*a >> s1),
// x2 = round(x1*b >> s2), out = round(x2*2^14 >> (14+frac)), rounding half up as the simulator does) is
// replayed here in integers over many accumulators, with the intermediates' int32 range checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "runtime/npu/requant_per_channel.h"

using npurun::npu::PerChannelRequant;
using npurun::npu::per_channel_requant;

namespace {

// The multiplier channel c's factors apply: a_c * b_c * OUT_CVT scale / 2^(all shifts).
double multiplier_of(const PerChannelRequant& q, size_t c) {
    return std::ldexp(double(q.bs_mul[c]) * double(q.bn_mul[c]) * double(q.out_scale), -int(q.bs_shift + q.bn_shift + q.out_shift));
}

int64_t round_shift(int64_t v, uint32_t s) { return s == 0 ? v : (v + (int64_t{1} << (s - 1))) >> s; }

bool fits_int32(int64_t v) { return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max(); }

// The outputs the programmed stages give for accumulator acc of channel c, and whether an intermediate
// left int32.
int64_t dpu_output(const PerChannelRequant& q, size_t c, int64_t acc, bool* overflow) {
    const int64_t x1 = round_shift(acc * q.bs_mul[c], q.bs_shift);
    const int64_t x2 = round_shift(x1 * q.bn_mul[c], q.bn_shift);
    *overflow = *overflow || !fits_int32(x1) || !fits_int32(x2);
    return round_shift(x2 * int64_t{q.out_scale}, q.out_shift);
}

// A layer's multipliers as MNN stores them (float32), spread over `span` octaves, with accumulator bounds,
// and the factors for them.
struct RandomLayer {
    std::vector<double> m, bound;
    PerChannelRequant q;
    bool ok = false;
};

RandomLayer random_layer(uint32_t seed, size_t channels, double span) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> e(-span, 0.0), b(2e4, 4e6);
    RandomLayer l;
    for (size_t c = 0; c < channels; ++c) {
        l.m.push_back(static_cast<float>(0.01 * std::exp2(e(rng))));
        l.bound.push_back(b(rng));
    }
    l.ok = per_channel_requant(l.m, l.bound, &l.q);
    return l;
}

}  // namespace

// Over 64 channels spanning 2^16 and 20,000 accumulators each: no intermediate leaves int32 while
// |output| <= 512, and the DPU output is the exact rounding wherever acc * m lies farther from a .5 than
// the channel's error bound (the product's error at the largest accumulator, half an x1 unit, half an x2
// unit); those bounds leave out under 1% of the values.
TEST(PerChannelRequant, MatchesTheExactRoundingAwayFromTies) {
    const RandomLayer l = random_layer(20, 64, 16.0);
    ASSERT_TRUE(l.ok);
    const std::vector<double>& m = l.m;
    const PerChannelRequant& q = l.q;
    std::mt19937 rng(21);
    ASSERT_EQ(q.bs_mul.size(), 64u);
    ASSERT_EQ(q.bn_mul.size(), 64u);
    EXPECT_LE(q.bs_shift, 63u);
    EXPECT_LE(q.bn_shift, 63u);
    EXPECT_EQ(q.out_shift, 14 + q.frac_bits);
    EXPECT_GT(q.out_scale, 1u << 14);
    EXPECT_LE(q.out_scale, 1u << 15);
    const int shifts = int(q.bs_shift + q.bn_shift + q.out_shift);
    size_t checked = 0, near_ties = 0;
    for (size_t c = 0; c < m.size(); ++c) {
        EXPECT_GT(q.bs_mul[c], 0);
        EXPECT_GT(q.bn_mul[c], 0);
        const double range = std::min(l.bound[c], 512.0 / m[c]);
        const double err = range * std::fabs(multiplier_of(q, c) - m[c]) +
                           std::ldexp(0.5 * q.bn_mul[c] * q.out_scale, int(q.bs_shift) - shifts) +
                           std::ldexp(0.5 * q.out_scale, -int(q.out_shift));
        std::uniform_int_distribution<int64_t> acc(-static_cast<int64_t>(range), static_cast<int64_t>(range));
        for (int i = 0; i < 20000; ++i) {
            const int64_t a = acc(rng);
            const double exact = double(a) * m[c];
            bool overflow = false;
            const int64_t got = dpu_output(q, c, a, &overflow);
            EXPECT_FALSE(overflow) << "channel " << c << " acc " << a;
            if (std::fabs(std::fabs(exact - std::trunc(exact)) - 0.5) <= err) {
                ++near_ties;
                continue;
            }
            ASSERT_EQ(got, static_cast<int64_t>(std::round(exact))) << "channel " << c << " acc " << a << " m " << m[c];
            ++checked;
        }
    }
    EXPECT_EQ(checked + near_ties, 64u * 20000);
    EXPECT_LT(near_ties, 64u * 200);
}

// The product's relative error is below 2^-(26 - d) for a channel 2^d below the layer's largest (the
// integer grid of a*b below 2^(30-d)): far below one 15-bit mantissa's 2^-16 for the channels within 2^12
// of the largest, where outputs are large.
TEST(PerChannelRequant, ProductErrorIsFarBelowAMantissa) {
    const RandomLayer l = random_layer(7, 128, 12.0);
    ASSERT_TRUE(l.ok);
    const std::vector<double>& m = l.m;
    const PerChannelRequant& q = l.q;
    const double m_max = *std::max_element(m.begin(), m.end());
    for (size_t c = 0; c < m.size(); ++c) {
        const double rel = std::fabs(multiplier_of(q, c) - m[c]) / m[c];
        const double d = std::log2(m_max / m[c]);
        EXPECT_LE(rel, std::exp2(d - 26.0)) << "channel " << c << " m " << m[c];
    }
}

// A channel MNN pruned (scale 0, which the loader turns into 1e-30) gets a zero product: output 0.
TEST(PerChannelRequant, NegligibleChannelGetsAZeroProduct) {
    PerChannelRequant q;
    ASSERT_TRUE(per_channel_requant({0.004, 1e-30 * 0.5}, {1e6, 1e6}, &q));
    EXPECT_EQ(q.bn_mul[1], 0);
    EXPECT_NE(q.bs_mul[0], 0);
    EXPECT_NE(q.bn_mul[0], 0);
}

TEST(PerChannelRequant, RefusesBadMultipliers) {
    PerChannelRequant q;
    EXPECT_FALSE(per_channel_requant({}, {}, &q));
    EXPECT_FALSE(per_channel_requant({0.01, 0.0}, {1e4, 1e4}, &q));
    EXPECT_FALSE(per_channel_requant({0.01, -0.5}, {1e4, 1e4}, &q));
    EXPECT_FALSE(per_channel_requant({0.01, std::nan("")}, {1e4, 1e4}, &q));
    EXPECT_FALSE(per_channel_requant({0.01, std::numeric_limits<double>::infinity()}, {1e4, 1e4}, &q));
    EXPECT_FALSE(per_channel_requant({0.01}, {1e4, 1e4}, &q));  // sizes differ
}

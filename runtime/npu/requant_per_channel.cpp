#include "runtime/npu/requant_per_channel.h"

#include <algorithm>
#include <cmath>

namespace npurun::npu {

namespace {
constexpr double kOutputRange = 512.0;  // outputs up to this magnitude keep every intermediate inside int32
constexpr double kInt32Max = 2147483647.0;
// x2 = output * 2^(14+21) / S <= output * 2^21 stays below 2^30 for outputs up to 2^9: int32 with room.
constexpr int kFracBits = 21;
constexpr int kMaxShift = 63;          // BS_ / BN_MUL_SHIFT_VALUE are 6 bits
constexpr int32_t kMaxFactor = 32767;  // the stream operands are signed 16-bit
// The largest channel's target sits at 32767^2 / 2, where a and b range over [23170, 32767] and
// [16384, 23170]: thousands of pairs (at 32767^2 itself only a ~ b ~ 32767 would be left). Every other
// channel's target is then half what it could be. Measured on slim-320-quant: 2, 3 and 4 give the same
// outputs.
constexpr double kTargetHeadroom = 2.0;
// The search stops at a pair whose errors move no output by more than this (in output LSBs): below the
// rounding of x2 (2^-22), and below MNN's own float32 rounding of acc * scale for outputs above 1.
constexpr double kGoodEnough = 1.0 / (1 << 24);

struct Factors {
    int32_t a = 1, b = 0;
};

// The pair (a <= 32767, b <= 32767) for target product t with the smallest bound on the output error (in
// output LSBs, `unit` per unit of a*b): acc * |a*b - t| * unit from the product, plus half an x1 unit,
// b * 2^(s1-1) * unit. Of a pair and its swap the one with b <= a is never worse (same product, smaller
// x1 unit), so b runs up to sqrt(t); for each b only a = round(t / b) can be best. The x1 term grows with
// b: once it alone exceeds the best bound the rest cannot win.
Factors nearest_product(double t, double acc, int s1, double unit) {
    Factors best;  // {1, 0}: the zero product
    double best_err = acc * t * unit;
    const double half_x1 = s1 > 0 ? std::ldexp(0.5, s1) * unit : 0.0;  // s1 = 0: x1 is exact
    const auto lo = static_cast<int32_t>(std::max(1.0, std::ceil(t / kMaxFactor)));
    // (lo can pass floor(sqrt(t)) by rounding when t is just below 32767^2: b = lo is still a pair.)
    const auto hi = std::max(lo, static_cast<int32_t>(std::min<double>(kMaxFactor, std::floor(std::sqrt(t)))));
    for (int32_t b = lo; b <= hi; ++b) {
        const double x1_err = b * half_x1;
        if (x1_err >= best_err) break;
        const double a = std::min<double>(kMaxFactor, std::round(t / b));
        const double err = acc * std::fabs(a * b - t) * unit + x1_err;
        if (err < best_err) {
            best_err = err;
            best = Factors{static_cast<int32_t>(a), b};
            if (err <= kGoodEnough) break;
        }
    }
    return best;
}

// The accumulator magnitude of a channel that matters: beyond kOutputRange output LSBs it saturates.
double effective_acc(double m, double bound) { return std::max(1.0, std::min(bound, kOutputRange / m)); }
}  // namespace

bool per_channel_requant_layer(const std::vector<double>& m, const std::vector<double>& acc_bound, PerChannelRequant* out) {
    if (m.empty() || acc_bound.size() != m.size()) return false;
    // Per channel, the accumulator magnitude that matters (beyond kOutputRange the output saturates). The
    // BS shift s1 is the smallest that keeps x1 = acc * a_c / 2^s1 inside int32 for every channel with a
    // full 16-bit a_c; the total shift R the largest that keeps every target m_c * 2^R below 32767^2.
    // (A channel of no consequence, e.g. MNN's zero scale, gets the product 0.)
    int s1 = 0;
    double m_max = 0.0;
    for (size_t c = 0; c < m.size(); ++c) {
        if (!(m[c] > 0.0) || !std::isfinite(m[c]) || !(acc_bound[c] >= 0.0)) return false;
        s1 = std::max(s1, static_cast<int>(std::ceil(std::log2(effective_acc(m[c], acc_bound[c]) * kMaxFactor / kInt32Max))));
        m_max = std::max(m_max, m[c]);
    }
    // R and OUT_CVT's scale S in (2^14, 2^15] put the largest target m_max * 2^(R+14) / S at
    // 32767^2 / kTargetHeadroom, the power of two R the octave and S the fraction of it.
    const double headroom = kTargetHeadroom;
    const int r = static_cast<int>(std::floor(std::log2(double(kMaxFactor) * kMaxFactor / (headroom * m_max)))) + 1;
    const int frac = std::min(kFracBits, r - s1);
    if (s1 > kMaxShift || frac < 0 || r - s1 - frac > kMaxShift) return false;  // no int8 layer is this far out
    const double over = std::ldexp(m_max, r) * headroom / (double(kMaxFactor) * kMaxFactor);  // in [1, 2)
    const auto scale = static_cast<uint32_t>(std::clamp(std::ceil(16384.0 * over), 16384.0, 32768.0));
    out->bs_shift = static_cast<uint32_t>(s1);
    out->bn_shift = static_cast<uint32_t>(r - s1 - frac);
    out->frac_bits = static_cast<uint32_t>(frac);
    out->out_scale = scale;
    out->out_shift = static_cast<uint32_t>(14 + frac);
    out->bs_mul.clear();
    out->bn_mul.clear();
    return true;
}

bool per_channel_requant(const std::vector<double>& m, const std::vector<double>& acc_bound, PerChannelRequant* out) {
    if (!per_channel_requant_layer(m, acc_bound, out)) return false;
    const int s1 = static_cast<int>(out->bs_shift);
    const int r = static_cast<int>(out->bs_shift + out->bn_shift + out->frac_bits);
    out->bs_mul.resize(m.size());
    out->bn_mul.resize(m.size());
    const double unit = std::ldexp(double(out->out_scale), -(r + 14));  // output LSBs per unit of a_c * b_c
    for (size_t c = 0; c < m.size(); ++c) {
        const Factors f = nearest_product(m[c] / unit, effective_acc(m[c], acc_bound[c]), s1, unit);
        out->bs_mul[c] = static_cast<int16_t>(f.a);
        out->bn_mul[c] = static_cast<int16_t>(f.b);
    }
    return true;
}

}  // namespace npurun::npu

#include "runtime/npu/requant_per_channel.h"

#include <algorithm>
#include <cmath>

namespace npurun::npu {

namespace {
// Bits kept below the output LSB: as many as the BS output keeps inside int32 for outputs up to 2^10 in
// magnitude (beyond that the int8 output saturates anyway), at most 16.
constexpr int kIntermediateBits = 31 - 10;
constexpr int kMaxFracBits = 16;
constexpr int kMaxExponentSpan = 14;  // BN operand 2^(14 - d) must stay >= 1
constexpr int kMaxBsShift = 63;       // BS_MUL_SHIFT_VALUE is 6 bits
}  // namespace

bool per_channel_requant(const std::vector<double>& m, PerChannelRequant* out) {
    if (m.empty()) return false;
    std::vector<int> e(m.size());
    std::vector<int> mant(m.size());
    for (size_t c = 0; c < m.size(); ++c) {
        if (!(m[c] > 0.0) || !std::isfinite(m[c])) return false;
        int ex = 0;
        const double f = std::frexp(m[c], &ex);  // m = f * 2^ex, f in [0.5, 1)
        auto a = static_cast<int>(std::lround(f * 32768.0));
        if (a == 32768) {  // rounded up to the next power of two
            a = 16384;
            ++ex;
        }
        mant[c] = a;
        e[c] = -ex;  // m_c ~= a_c * 2^-(15 + e_c)
    }
    const int e_min = *std::min_element(e.begin(), e.end());
    const int span = *std::max_element(e.begin(), e.end()) - e_min;
    if (span > kMaxExponentSpan) return false;
    // m_c = a_c * 2^-s1 * 2^-d_c * 2^-(15 + e_min - s1), the last factor = 2^14 / 2^out_shift.
    const int frac = std::min(kMaxFracBits, kIntermediateBits - span);
    int s1 = std::max(0, std::min(kMaxBsShift, e_min + 15 - frac));
    const int f_bits = 15 + e_min - s1;
    if (f_bits < 0) return false;
    out->bs_shift = static_cast<uint32_t>(s1);
    out->frac_bits = static_cast<uint32_t>(f_bits);
    out->out_scale = 1u << 14;
    out->out_shift = static_cast<uint32_t>(14 + f_bits);
    out->bs_mul.resize(m.size());
    out->bn_mul.resize(m.size());
    for (size_t c = 0; c < m.size(); ++c) {
        out->bs_mul[c] = static_cast<int16_t>(mant[c]);
        out->bn_mul[c] = static_cast<int16_t>(1 << (kMaxExponentSpan - (e[c] - e_min)));
    }
    return true;
}

}  // namespace npurun::npu

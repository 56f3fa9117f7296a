// Every arithmetic choice the documentation leaves open, in ONE place (reference §4.5, §12 "open
// questions"). Change a rule here and the whole simulator follows.
#pragma once

#include <cstdint>
#include <limits>

namespace npudrv::sim::arith {

// Right shift with rounding used by CLIP_TRUNCATE, BS/BN multipliers, the EW converter and the output
// converter. CHOICE: round half up (add 2^(s-1), arithmetic shift), the usual NVDLA-style rounding;
// the TRM only names ROUND_TYPE/CVT_ROUND bits, so the simulator refuses streams that set those bits.
inline int64_t round_shift(int64_t v, uint32_t s) {
    if (s == 0) return v;
    if (s >= 63) return v < 0 ? -1 : 0;
    return (v + (int64_t{1} << (s - 1))) >> s;
}

inline int64_t saturate(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Output converter, integer pipeline. CHOICE (TRM: CVT_TYPE 0 = "MUL first"): y = round_shift(x*scale,
// shift) + offset; CVT_TYPE 1 = "ALU first": y = round_shift((x+offset)*scale, shift). SCALE is the
// unsigned 16-bit field, OFFSET the signed 32-bit register.
inline int64_t out_convert(int64_t x, uint32_t cvt_type, uint32_t scale, uint32_t shift, int32_t offset) {
    if (cvt_type == 0) return round_shift(x * static_cast<int64_t>(scale), shift) + offset;
    return round_shift((x + offset) * static_cast<int64_t>(scale), shift);
}

// Weight-offset (CPEND, BS_OW) stage. CHOICE (Mesa programs OW_OP = 0x80 - weight_zero_point with
// weights stored as w - 0x80): the stage adds OW_OP * (sum of the input values under the kernel window,
// padding values included, over all input channels) to the accumulator, i.e. the term that turns
// sum((w-0x80)*x) into sum((w-wzp)*x). Applied to the raw accumulator before the BS stage.
// Depthwise (CONV_MODE 3): the sum runs over the output channel's own input channel only — the one
// reading under which the term still turns sum((w-0x80)*x) into sum((w-wzp)*x) (a cross-channel sum would
// add values the output never saw; changed when the NPU lowering's uint8 depthwise layers exposed it).
inline int64_t weight_offset_term(int32_t ow_op, int64_t window_input_sum) { return ow_op * window_input_sum; }

// Average pooling: CHOICE (IAV RK3568 programming, 65536/k): result = round_shift(sum * rw * rh, 32) for
// integers, sum * (rw/65536) * (rh/65536) in fp32 for fp16. Padded positions count (fixed reciprocal).
inline int64_t avg_pool_int(int64_t sum, uint32_t recip_w, uint32_t recip_h) {
    return round_shift(sum * static_cast<int64_t>(recip_w) * static_cast<int64_t>(recip_h), 32);
}
inline float avg_pool_float(float sum, uint32_t recip_w, uint32_t recip_h) {
    return sum * (static_cast<float>(recip_w) / 65536.0f) * (static_cast<float>(recip_h) / 65536.0f);
}

}  // namespace npudrv::sim::arith

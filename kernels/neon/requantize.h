// Vectorised requantization epilogue of the quantized NEON kernels (Convolution2d, DepthwiseConvolution2d,
// FullyConnected), bit-exact with the scalar quant::requantize (core/quantization.h) that
// kernels/ref calls:
//
//   scalar:  clamp(round_half_away(double(int64(acc) + bias) * m) + double(zo), type_min, type_max)
//   vector:  the same IEEE double operations, two lanes at a time:
//     int64(acc) + bias       SADDW, exact (as the scalar int64 sum)
//     double(...)             SCVTF, exact: |acc + bias| < 2^33 < 2^53 (the scalar conversion is exact too)
//     * m                     FMUL, the one correctly rounded product, as in the scalar code
//     round_half_away         FRINTA (std::round per lane through SIMDe)
//     + double(zo)            FADD, the same correctly rounded sum
//     clamp                   in integers instead of doubles, which gives the same value: the double v is
//                             integral (or +-inf, or NaN), so FCVTZS (truncating, saturating at int64)
//                             is exact or saturates monotonically, SQXTN saturates monotonically to
//                             int32, and the min/max against the type range (a subrange of int32) then
//                             equals clamping v itself. NaN (a non-finite multiplier: the model's scales
//                             are untrusted) converts to 0, which is what the scalar clamp returns for NaN
//                             and lies inside every type range.
// SIMDe implements FCVTZS's saturation and NaN -> 0 on x86 as well (unless SIMDE_FAST_CONVERSION_RANGE /
// SIMDE_FAST_NANS are defined, which npurun never does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/neon/neon.h"
#include "core/types.h"

namespace npurun::kernels::neon {

// Per-call constants of the epilogue: output zero point and the output type's range.
struct RequantConsts {
    float64x2_t zo;
    int32x4_t lo, hi;
};
RequantConsts requant_consts(int32_t output_offset, DataType output_type);

// Requantizes four accumulators of consecutive channels; bias[0..3] (accumulator units) and m[0..3]
// (multipliers) belong to those channels. Lanes are clamped to the output type's range.
// The same with the channels' bias (b01: channels 0 and 1, b23: 2 and 3) and multipliers already in registers, for
// kernels that requantize many pixels of the same channels.
inline int32x4_t requantize_x4(int32x4_t acc, int64x2_t b01, int64x2_t b23, float64x2_t m01, float64x2_t m23,
                               const RequantConsts& k) {
    const int64x2_t a0 = vaddw_s32(b01, vget_low_s32(acc));
    const int64x2_t a1 = vaddw_high_s32(b23, acc);
    const float64x2_t r0 = vaddq_f64(round_away_f64x2(vmulq_f64(vcvtq_f64_s64(a0), m01)), k.zo);
    const float64x2_t r1 = vaddq_f64(round_away_f64x2(vmulq_f64(vcvtq_f64_s64(a1), m23)), k.zo);
    const int32x4_t q = vqmovn_high_s64(vqmovn_s64(vcvtq_s64_f64(r0)), vcvtq_s64_f64(r1));
    return vminq_s32(vmaxq_s32(q, k.lo), k.hi);
}
inline int32x4_t requantize_x4(int32x4_t acc, const int64_t* bias, const double* m, const RequantConsts& k) {
    return requantize_x4(acc, vld1q_s64(bias), vld1q_s64(bias + 2), vld1q_f64(m), vld1q_f64(m + 2), k);
}

// The low byte of each lane (two's complement for int8 types): 8 lanes from two vectors, or 4 from one.
inline uint8x8_t narrow_to_bytes(int32x4_t a, int32x4_t b) {
    return vreinterpret_u8_s8(vmovn_s16(vcombine_s16(vmovn_s32(a), vmovn_s32(b))));
}
inline void store_4_bytes(uint8_t* dst, int32x4_t a) {
    const uint32_t packed = vget_lane_u32(vreinterpret_u32_u8(narrow_to_bytes(a, a)), 0);
    std::memcpy(dst, &packed, sizeof packed);  // dst need not be 4-byte aligned
}

// out[i] = quant::requantize(int64_t(acc[i]) + bias[i], m[i], output_offset, output_type) for i < n, bit for
// bit. Per-tensor quantization passes arrays holding one value; the tail (< 4 elements) is scalar.
void requantize_block(const int32_t* acc, const int64_t* bias, const double* m, size_t n, int32_t output_offset,
                      DataType output_type, int32_t* out);
// The same, storing the low byte of each result (8-bit output types).
void requantize_block_bytes(const int32_t* acc, const int64_t* bias, const double* m, size_t n, int32_t output_offset,
                            DataType output_type, uint8_t* out);

}  // namespace npurun::kernels::neon

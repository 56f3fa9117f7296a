// The one definition of npurun's quantization arithmetic.
//
// Everything that converts between real values and quantized integers goes through here: the reference
// kernels (kernels/ref), the NEON kernels and the NPU lowering. The float conversions follow Arm NN
// (src/armnn/TypesUtils.cpp, reference/armnn-format.md §2) so that our reference backend matches CpuRef
// exactly; the integer convolution pipeline (accumulate exactly, rescale once) is npurun's own and is
// specified below so that every backend can reproduce it bit for bit.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace npurun::quant {

// Smallest and largest integer a quantized (or integer) element of `t` can hold.
// Float types return {0, 0}; callers only ask for integer types.
int32_t type_min(DataType t);
int32_t type_max(DataType t);

// Arm NN Quantize: clamp(round(value / scale) + offset, type_min, type_max), where round() rounds half
// away from zero and the offset is added after rounding. NaN (undefined in Arm NN) maps to `offset`,
// the code of real 0, so the result is always defined.
int32_t quantize(float value, float scale, int32_t offset, DataType t);

// Arm NN Dequantize: (q - offset) * scale, computed in float.
inline float dequantize(int32_t q, float scale, int32_t offset) {
    return (static_cast<float>(q) - static_cast<float>(offset)) * scale;
}

// IEEE 754 binary16 <-> binary32. fp32 -> fp16 rounds to nearest, ties to even; overflow gives
// infinity, NaN stays NaN (quiet). fp16 -> fp32 is exact.
uint16_t fp32_to_fp16(float f);
float fp16_to_fp32(uint16_t h);

// ---- Integer pipeline of the quantized Convolution2d / DepthwiseConvolution2d / FullyConnected ----
//
//   acc    = sum over the window of (qx - zx) * (qw - zw)        exact, in an int64_t
//          + bias_acc                                            (see accumulator_bias)
//   q_out  = requantize(acc, multiplier(sx, sw, so), zo, type)
//
// `requantize` is the only rounding step: q_out = clamp(round_half_away(double(acc) * m) + zo) with the
// multiplier m = double(sx) * double(sw) / double(so) (sw is the weight scale of the output channel for
// per-axis weights). Against CpuRef, which dequantizes everything to float, multiplies, sums in float and
// quantizes once, the only differences are CpuRef's own float rounding in the sum and in the bias
// (relative error ~1e-7 * number of terms), so the results agree within 1 in the integer.
// In int8/uint8 models acc always fits in int32 (the NPU accumulates in 32 bits); int64 keeps 16-bit
// inputs exact as well.
double multiplier(float input_scale, float weight_scale, float output_scale);
int32_t requantize(int64_t acc, double multiplier, int32_t output_offset, DataType output_type);

// The bias in accumulator units (scale sx*sw). A Signed32 bias whose scale equals sx*sw (as Arm NN's
// converters write it) is used as is; any other scale s is converted once: round_half_away(b * s / (sx*sw)),
// saturated to int32. Scale 0 means a plain integer (Arm NN's Signed32 decoding), i.e. the real value b.
int32_t accumulator_bias(int32_t bias, float bias_scale, float input_scale, float weight_scale);

}  // namespace npurun::quant

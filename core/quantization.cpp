#include "core/quantization.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace npurun::quant {

int32_t type_min(DataType t) {
    switch (t) {
        case DataType::QAsymmU8: return 0;
        case DataType::QAsymmS8:
        case DataType::QSymmS8: return -128;
        case DataType::QSymmS16: return -32768;
        case DataType::Signed32:
        case DataType::Signed64: return std::numeric_limits<int32_t>::min();
        case DataType::Boolean: return 0;
        default: return 0;
    }
}

int32_t type_max(DataType t) {
    switch (t) {
        case DataType::QAsymmU8: return 255;
        case DataType::QAsymmS8:
        case DataType::QSymmS8: return 127;
        case DataType::QSymmS16: return 32767;
        case DataType::Signed32:
        case DataType::Signed64: return std::numeric_limits<int32_t>::max();
        case DataType::Boolean: return 1;
        default: return 0;
    }
}

// Clamps in double (exact for every int32), so no out-of-range float->int conversion can happen.
static int32_t clamp_to(double v, DataType t) {
    const double lo = type_min(t), hi = type_max(t);
    if (std::isnan(v)) return 0;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return static_cast<int32_t>(v);
}

int32_t quantize(float value, float scale, int32_t offset, DataType t) {
    if (std::isnan(value)) return clamp_to(offset, t);
    // value / scale in float as Arm NN does; std::round rounds half away from zero.
    const float scaled = value / scale;
    const double r = std::round(static_cast<double>(scaled)) + static_cast<double>(offset);
    return clamp_to(r, t);
}

uint16_t fp32_to_fp16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // inf or NaN
        if (abs == 0x7f800000u) return sign | 0x7c00u;
        return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
    }
    const uint32_t exp = abs >> 23;       // biased fp32 exponent
    const uint32_t mant = abs & 0x7fffffu;
    if (exp < 113) {
        // Below the smallest normal half (2^-14): a half subnormal, in units of 2^-24.
        // value = (mant | 1<<23) * 2^(exp-150) = m * 2^(exp-126) units, i.e. m >> (126 - exp).
        if (exp < 102) return sign;  // < 2^-25: rounds to zero (the tie 2^-25 is exp 102)
        const uint32_t m = mant | 0x800000u;
        const uint32_t shift = 126 - exp;  // 14..24
        uint32_t q = m >> shift;
        const uint32_t rem = m & ((1u << shift) - 1);
        const uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u))) ++q;
        return static_cast<uint16_t>(sign | q);  // q == 0x400 is correctly the smallest normal
    }
    if (exp > 142) return sign | 0x7c00u;  // >= 2^16: overflow to infinity
    uint32_t h = ((exp - 112) << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is correct
    return static_cast<uint16_t>(sign | h);                 // and 0x7c00 is infinity
}

float fp16_to_fp32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;  // mant * 2^-24, exact
        return sign ? -v : v;
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

double multiplier(float input_scale, float weight_scale, float output_scale) {
    return static_cast<double>(input_scale) * static_cast<double>(weight_scale) / static_cast<double>(output_scale);
}

int32_t requantize(int64_t acc, double m, int32_t output_offset, DataType output_type) {
    const double r = std::round(static_cast<double>(acc) * m) + static_cast<double>(output_offset);
    return clamp_to(r, output_type);
}

int32_t accumulator_bias(int32_t bias, float bias_scale, float input_scale, float weight_scale) {
    if (bias_scale == input_scale * weight_scale) return bias;
    const double real = bias_scale == 0.0f ? static_cast<double>(bias)
                                           : static_cast<double>(bias) * static_cast<double>(bias_scale);
    const double acc_scale = static_cast<double>(input_scale) * static_cast<double>(weight_scale);
    return clamp_to(std::round(real / acc_scale), DataType::Signed32);
}

}  // namespace npurun::quant

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

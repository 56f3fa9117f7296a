// Quantization parameters covering a real-value range, for choosing output scales in cases.
#pragma once

#include <cmath>

#include "tests/conformance/generator/case_spec.h"

namespace conformance {

struct QParams {
    float scale;
    int32_t offset;
};

// Affine parameters mapping [lo, hi] onto the type's integer range (symmetric types use max |bound|).
inline QParams qparams_for(const TypeVariant& v, float lo, float hi) {
    switch (v.type) {
        case armnn::DataType::QAsymmU8: {
            const float s = (hi - lo) / 255.0f;
            return {s, static_cast<int32_t>(std::lround(-lo / s))};
        }
        case armnn::DataType::QAsymmS8: {
            const float s = (hi - lo) / 255.0f;
            return {s, static_cast<int32_t>(std::lround(-lo / s)) - 128};
        }
        case armnn::DataType::QSymmS16: return {std::fmax(std::fabs(lo), std::fabs(hi)) / 32767.0f, 0};
        default: return {0.0f, 0};
    }
}

// A tensor info for `v` whose quantization covers [lo, hi].
inline armnn::TensorInfo ranged_info(const TypeVariant& v, const armnn::TensorShape& shape, float lo, float hi) {
    const QParams q = qparams_for(v, lo, hi);
    return v.info(shape, q.scale, q.offset);
}

}  // namespace conformance

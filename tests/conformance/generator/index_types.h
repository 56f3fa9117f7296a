// Data types beyond the numeric variants of case_spec.h, for the indexing / logic families: Signed32
// (indices, ArgMinMax results, Fill shapes) and Boolean (Comparison results, Switch predicates).
#pragma once

#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {

inline constexpr TypeVariant kS32{armnn::DataType::Signed32, "s32"};
inline constexpr TypeVariant kBool{armnn::DataType::Boolean, "bool"};

// Every data type a layer of these families could admit; CpuRef refusals become skipped cases.
inline const std::vector<TypeVariant>& all_data_types() {
    static const std::vector<TypeVariant> types = {kF32, kF16, kU8, kS8, kS16, kS32, kBool};
    return types;
}

// Integer results (indices, ranks, booleans) and pure data movement of integers must match exactly:
// a difference of 1 there is a wrong element, not a rounding decision.
inline CaseSpec exact(CaseSpec c) {
    c.compare = Compare::Quantized;
    c.tolerance = 0.0f;
    return c;
}

// Comparison operands quantized over [-2, 2] and [-4, 4] (the second scale exactly twice the first)
// drawn from this range: about +-4 codes of the first and +-2 of the second, so roughly one pair in
// nine dequantizes to exactly the same float. Equal / GreaterOrEqual / LessOrEqual differ from
// their strict forms only on such ties.
inline ValueRange comparison_tie_range(const TypeVariant& v) {
    const float r = 2.2f * qparams_for(v, -4, 4).scale;
    return ValueRange{-r, r};
}

// NHWC / NCHW shape of an image tensor.
inline armnn::TensorShape image_shape(armnn::DataLayout layout, unsigned n, unsigned h, unsigned w, unsigned c) {
    return layout == armnn::DataLayout::NHWC ? armnn::TensorShape({n, h, w, c}) : armnn::TensorShape({n, c, h, w});
}

inline const char* layout_tag(armnn::DataLayout layout) {
    return layout == armnn::DataLayout::NHWC ? "nhwc" : "nchw";
}

}  // namespace conformance

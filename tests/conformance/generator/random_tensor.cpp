#include "tests/conformance/generator/random_tensor.h"

#include <armnnUtils/FloatingPointConverter.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace conformance {
namespace {

struct IntRange {
    int64_t lo, hi;
};

IntRange type_range(armnn::DataType t) {
    switch (t) {
        case armnn::DataType::QAsymmU8: return {0, 255};
        case armnn::DataType::QAsymmS8: return {-128, 127};
        case armnn::DataType::QSymmS8: return {-127, 127};
        case armnn::DataType::QSymmS16: return {-32767, 32767};
        case armnn::DataType::Signed32: return {-1000, 1000};
        case armnn::DataType::Boolean: return {0, 1};
        default: throw CaseSkipped("internal: no integer range for this data type");
    }
}

bool is_integer(armnn::DataType t) {
    return t != armnn::DataType::Float32 && t != armnn::DataType::Float16;
}

// Integer code of real value v (round half away from zero, as Arm NN's Quantize).
int64_t to_code(const armnn::TensorInfo& info, float v) {
    const float scale = info.GetQuantizationScale();
    if (info.GetDataType() == armnn::DataType::Signed32) {
        return scale > 0 ? static_cast<int64_t>(std::llround(v / scale)) : static_cast<int64_t>(std::llround(v));
    }
    const IntRange r = type_range(info.GetDataType());
    const int64_t q = static_cast<int64_t>(std::llround(v / scale)) + info.GetQuantizationOffset();
    return std::clamp(q, r.lo, r.hi);
}

void store(Bytes& out, size_t i, armnn::DataType t, int64_t code) {
    switch (t) {
        case armnn::DataType::QAsymmU8:
        case armnn::DataType::Boolean: out[i] = static_cast<uint8_t>(code); break;
        case armnn::DataType::QAsymmS8:
        case armnn::DataType::QSymmS8: {
            const int8_t v = static_cast<int8_t>(code);
            std::memcpy(&out[i], &v, 1);
            break;
        }
        case armnn::DataType::QSymmS16: {
            const int16_t v = static_cast<int16_t>(code);
            std::memcpy(&out[i * 2], &v, 2);
            break;
        }
        case armnn::DataType::Signed32: {
            const int32_t v = static_cast<int32_t>(code);
            std::memcpy(&out[i * 4], &v, 4);
            break;
        }
        default: throw CaseSkipped("internal: cannot store this data type");
    }
}

Bytes encode_floats(const armnn::TensorInfo& info, const std::vector<float>& values) {
    Bytes out(info.GetNumBytes());
    if (info.GetDataType() == armnn::DataType::Float32) {
        std::memcpy(out.data(), values.data(), out.size());
    } else {
        armnnUtils::FloatingPointConverter::ConvertFloat32To16(values.data(), values.size(), out.data());
    }
    return out;
}

}  // namespace

Bytes random_tensor(const armnn::TensorInfo& info, ValueRange range, Prng& prng) {
    const size_t n = info.GetNumElements();
    const armnn::DataType t = info.GetDataType();
    const bool unset = std::isnan(range.lo) || std::isnan(range.hi);
    if (!is_integer(t)) {
        std::vector<float> v(n);
        for (auto& x : v) x = unset ? prng.uniform(-1.0f, 1.0f) : prng.uniform(range.lo, range.hi);
        return encode_floats(info, v);
    }
    IntRange r = type_range(t);
    if (!unset) r = {to_code(info, range.lo), to_code(info, range.hi)};
    Bytes out(info.GetNumBytes());
    for (size_t i = 0; i < n; ++i) store(out, i, t, prng.integer(r.lo, r.hi));
    return out;
}

Bytes encode_tensor(const armnn::TensorInfo& info, const std::vector<float>& values) {
    if (values.size() != info.GetNumElements()) throw CaseSkipped("internal: wrong number of constant values");
    if (!is_integer(info.GetDataType())) return encode_floats(info, values);
    Bytes out(info.GetNumBytes());
    for (size_t i = 0; i < values.size(); ++i) store(out, i, info.GetDataType(), to_code(info, values[i]));
    return out;
}

armnn::ConstTensor Net::random_const(const armnn::TensorInfo& info, float lo, float hi) {
    storage_.push_back(random_tensor(info, ValueRange{lo, hi}, prng_));
    return armnn::ConstTensor(info, storage_.back().data());
}

armnn::ConstTensor Net::const_from(const armnn::TensorInfo& info, const std::vector<float>& values) {
    storage_.push_back(encode_tensor(info, values));
    return armnn::ConstTensor(info, storage_.back().data());
}

}  // namespace conformance

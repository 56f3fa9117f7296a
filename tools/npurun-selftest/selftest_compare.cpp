#include "tools/npurun-selftest/selftest_compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/quantization.h"

namespace npurun::selftest {

namespace {

double element(DataType t, const void* p, size_t i) {
    switch (t) {
        case DataType::QAsymmU8: return static_cast<const uint8_t*>(p)[i];
        case DataType::QAsymmS8: return static_cast<const int8_t*>(p)[i];
        case DataType::Float32: {
            float f;
            std::memcpy(&f, static_cast<const uint8_t*>(p) + i * 4, 4);
            return f;
        }
        case DataType::Float16: {
            uint16_t h;
            std::memcpy(&h, static_cast<const uint8_t*>(p) + i * 2, 2);
            return quant::fp16_to_fp32(h);
        }
        default: return 0.0;
    }
}

bool comparable(DataType t) {
    return t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::Float32 || t == DataType::Float16;
}

// |a - b| as the judgement sees it: NaN or infinity anywhere is infinitely far unless both sides agree
// exactly (a NaN never does).
double distance(double a, double b) {
    double d = std::fabs(a - b);
    if (std::isnan(d)) d = INFINITY;
    if (!std::isfinite(a) && a == b) d = 0.0;
    return d;
}

}  // namespace

Comparison compare_to_reference(const TensorInfo& info, const void* ref, const void* got, double tolerance) {
    Comparison r;
    if (!comparable(info.dtype)) {
        r.within = false;
        r.error = std::string("cannot compare outputs of type ") + to_string(info.dtype);
        return r;
    }
    if (ref == nullptr || got == nullptr) {
        r.within = false;
        r.error = "no output data";
        return r;
    }
    r.elements = info.shape.num_elements();
    for (size_t i = 0; i < r.elements; ++i) {
        const double a = element(info.dtype, ref, i), b = element(info.dtype, got, i);
        const double d = distance(a, b);
        if (d > r.max_diff) r.max_diff = d, r.worst = i;
        if (std::isfinite(a)) r.max_ref = std::max(r.max_ref, std::fabs(a));
    }
    r.within = r.max_diff <= tolerance;
    return r;
}

ElementDiff first_element_beyond(const TensorInfo& info, const void* ref, const void* got, double tolerance) {
    ElementDiff r;
    if (!comparable(info.dtype) || ref == nullptr || got == nullptr) return r;
    const size_t n = info.shape.num_elements();
    for (size_t i = 0; i < n; ++i) {
        const double a = element(info.dtype, ref, i), b = element(info.dtype, got, i);
        if (distance(a, b) > tolerance) {
            r.found = true, r.index = i, r.expected = a, r.got = b;
            return r;
        }
    }
    return r;
}

ElementDiff first_differing_element(const TensorInfo& info, const void* a, const void* b) {
    ElementDiff r;
    const size_t n = info.shape.num_elements();
    if (!comparable(info.dtype) || a == nullptr || b == nullptr || n == 0) return r;
    const ByteComparison bc = compare_bytes(a, b, info.num_bytes());
    if (bc.identical) return r;
    const size_t element_size = info.num_bytes() / n;
    r.found = true;
    r.index = bc.first / element_size;
    r.expected = element(info.dtype, a, r.index);
    r.got = element(info.dtype, b, r.index);
    return r;
}

double fp16_tolerance(double max_ref, uint32_t rounding_steps) {
    return std::ldexp(1.0, -8) * std::max(1.0, max_ref) * std::max<uint32_t>(1, rounding_steps);
}

ByteComparison compare_bytes(const void* a, const void* b, size_t n) {
    ByteComparison r;
    const auto* x = static_cast<const uint8_t*>(a);
    const auto* y = static_cast<const uint8_t*>(b);
    for (size_t i = 0; i < n; ++i) {
        if (x[i] == y[i]) continue;
        if (r.identical) r.first = i;
        r.identical = false;
        ++r.differing;
    }
    return r;
}

}  // namespace npurun::selftest

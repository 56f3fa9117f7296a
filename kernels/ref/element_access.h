// Element-wise access to tensor data as float, the way Arm NN's reference backend does it
// (Decoders.hpp / Encoders.hpp): every kernel reads elements as real values, computes in float and writes
// real values back, quantizing once on store. Float16 is widened on load and rounded once on store.
//
// Readers and writers are small value types built on the run path without allocation; per-axis
// quantization scales are read from the graph's TensorInfo in place.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/types.h"
#include "core/quantization.h"

namespace npurun::kernels::ref {

// Raw integer value of element i of an integer or quantized tensor.
inline int32_t load_int(const void* data, DataType t, size_t i) {
    switch (t) {
        case DataType::QAsymmU8:
        case DataType::Boolean: return static_cast<const uint8_t*>(data)[i];
        case DataType::QAsymmS8:
        case DataType::QSymmS8: return static_cast<const int8_t*>(data)[i];
        case DataType::QSymmS16: return static_cast<const int16_t*>(data)[i];
        case DataType::Signed32: return static_cast<const int32_t*>(data)[i];
        default: return 0;
    }
}

// Stores an already requantized value q as element i of a quantized 8- or 16-bit tensor (the integer
// pipelines of Convolution2d and FullyConnected end here; q is in the type's range).
inline void store_quantized(void* data, DataType t, size_t i, int32_t q) {
    switch (t) {
        case DataType::QAsymmU8: static_cast<uint8_t*>(data)[i] = uint8_t(q); break;
        case DataType::QSymmS16: static_cast<int16_t*>(data)[i] = int16_t(q); break;
        default: static_cast<int8_t*>(data)[i] = int8_t(q); break;
    }
}

// Channel of flat element i for per-axis quantization: (i / inner) % count, where inner is the product of
// the dimensions after the quantization axis.
struct AxisScales {
    const float* scales = nullptr;  // nullptr: per-tensor
    size_t count = 0, inner = 1;

    static AxisScales of(const TensorInfo& t) {
        AxisScales a;
        if (!t.quant.per_axis() || t.quant.axis >= t.shape.rank) return a;
        a.scales = t.quant.scales.data();
        a.count = t.quant.scales.size();
        for (uint32_t d = t.quant.axis + 1; d < t.shape.rank; ++d) a.inner *= t.shape[d];
        return a;
    }
    float scale(size_t i) const { return scales[(i / inner) % count]; }
};

class Reader {
public:
    Reader(const TensorInfo& t, const void* data)
        : data_(data), dtype_(t.dtype), scale_(t.quant.scale()), offset_(t.quant.offset),
          axis_(AxisScales::of(t)) {
        if (axis_.scales) offset_ = 0;  // per-axis quantization is symmetric
    }

    float operator[](size_t i) const {
        switch (dtype_) {
            case DataType::Float32: return static_cast<const float*>(data_)[i];
            case DataType::Float16: {
                uint16_t h;
                std::memcpy(&h, static_cast<const uint8_t*>(data_) + 2 * i, 2);
                return quant::fp16_to_fp32(h);
            }
            case DataType::QAsymmU8:
            case DataType::QAsymmS8:
            case DataType::QSymmS8:
            case DataType::QSymmS16:
                return quant::dequantize(load_int(data_, dtype_, i), axis_.scales ? axis_.scale(i) : scale_, offset_);
            case DataType::Signed32: {
                // Arm NN: scale 0 is a plain integer, otherwise value * scale (biases).
                const int32_t v = static_cast<const int32_t*>(data_)[i];
                const float s = axis_.scales ? axis_.scale(i) : scale_;
                return s == 0.0f ? static_cast<float>(v) : static_cast<float>(v) * s;
            }
            case DataType::Signed64: return static_cast<float>(static_cast<const int64_t*>(data_)[i]);
            case DataType::Boolean: return static_cast<const uint8_t*>(data_)[i] ? 1.0f : 0.0f;
        }
        return 0.0f;
    }

private:
    const void* data_;
    DataType dtype_;
    float scale_;
    int32_t offset_;
    AxisScales axis_;
};

class Writer {
public:
    Writer(const TensorInfo& t, void* data) : data_(data), dtype_(t.dtype), scale_(t.quant.scale()), offset_(t.quant.offset) {}

    void set(size_t i, float v) const {
        switch (dtype_) {
            case DataType::Float32: static_cast<float*>(data_)[i] = v; return;
            case DataType::Float16: {
                const uint16_t h = quant::fp32_to_fp16(v);
                std::memcpy(static_cast<uint8_t*>(data_) + 2 * i, &h, 2);
                return;
            }
            case DataType::QAsymmU8:
                static_cast<uint8_t*>(data_)[i] = static_cast<uint8_t>(quant::quantize(v, scale_, offset_, dtype_));
                return;
            case DataType::QAsymmS8:
            case DataType::QSymmS8:
                static_cast<int8_t*>(data_)[i] = static_cast<int8_t>(quant::quantize(v, scale_, offset_, dtype_));
                return;
            case DataType::QSymmS16:
                static_cast<int16_t*>(data_)[i] = static_cast<int16_t>(quant::quantize(v, scale_, offset_, dtype_));
                return;
            case DataType::Signed32: {
                // Arm NN truncates (static_cast); saturate and map NaN to 0 so the conversion is defined.
                const double d = std::isnan(v) ? 0.0 : std::fmax(-2147483648.0, std::fmin(2147483647.0, double(v)));
                static_cast<int32_t*>(data_)[i] = static_cast<int32_t>(d);
                return;
            }
            case DataType::Signed64: {
                const double d = std::isnan(v) ? 0.0 : std::fmax(-9.2233720368547758e18, std::fmin(9.2233720368547748e18, double(v)));
                static_cast<int64_t*>(data_)[i] = static_cast<int64_t>(d);
                return;
            }
            case DataType::Boolean: static_cast<uint8_t*>(data_)[i] = v != 0.0f ? 1 : 0; return;
        }
    }

private:
    void* data_;
    DataType dtype_;
    float scale_;
    int32_t offset_;
};

}  // namespace npurun::kernels::ref

// Format-neutral tensor types of the npurun graph IR.
//
// These are the vocabulary every other part of the runtime speaks: loaders produce them, passes and
// kernels consume them. They deliberately mirror Arm NN's type system (the primary model format), but
// carry no FlatBuffers or Arm NN dependency.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npurun {

enum class DataType : uint8_t {
    Float16,
    Float32,
    QAsymmU8,   // uint8, scale + zero point
    QAsymmS8,   // int8, scale + zero point
    QSymmS8,    // int8, scale only (per-tensor or per-axis), zero point 0
    QSymmS16,   // int16, scale only
    Signed32,   // int32 (indices, biases: a bias with a non-zero scale is dequantized as value*scale)
    Signed64,   // int64
    Boolean,    // one byte, 0 or 1
};

size_t element_size(DataType t);
const char* to_string(DataType t);
bool is_quantized(DataType t);  // QAsymmU8, QAsymmS8, QSymmS8, QSymmS16
bool is_float(DataType t);      // Float16, Float32

enum class DataLayout : uint8_t { NHWC, NCHW, NDHWC, NCDHW };
const char* to_string(DataLayout l);

// Arm NN supports at most 5 dimensions for tensors in general; 6 gives headroom for internal reshapes.
constexpr uint32_t kMaxRank = 6;

// A shape. rank 0 is a scalar (one element), as Arm NN's Dimensionality::Scalar.
struct Shape {
    uint32_t rank = 0;
    std::array<uint32_t, kMaxRank> dims{};

    Shape() = default;
    Shape(std::initializer_list<uint32_t> d);
    static Shape from(const std::vector<uint32_t>& d);  // throws Error if d.size() > kMaxRank

    uint32_t operator[](uint32_t i) const { return dims[i]; }
    uint32_t& operator[](uint32_t i) { return dims[i]; }
    // Number of elements; throws Error(BadModel) on overflow of size_t.
    size_t num_elements() const;
    std::vector<uint32_t> to_vector() const { return {dims.begin(), dims.begin() + rank}; }
    std::string str() const;  // "1x28x28x1", "scalar"
    bool operator==(const Shape& o) const;
    bool operator!=(const Shape& o) const { return !(*this == o); }
};

// Quantization parameters. Per-tensor when scales.size() == 1 (axis is then ignored).
// Per-axis when scales.size() > 1: scales[i] applies to index i along `axis`; offset is then 0.
// Float tensors carry scales == {} (or whatever the file said; kernels ignore it).
struct Quantization {
    std::vector<float> scales;
    int32_t offset = 0;
    uint32_t axis = 0;

    bool per_axis() const { return scales.size() > 1; }
    float scale(size_t channel = 0) const {
        return scales.empty() ? 0.0f : scales[scales.size() > 1 ? channel : 0];
    }
};

// A tensor descriptor: what a value is, not where it lives at run time (the memory plan decides that).
struct TensorInfo {
    DataType dtype = DataType::Float32;
    Shape shape;
    Quantization quant;

    // Bytes needed for shape*element_size; throws Error(BadModel) on overflow.
    size_t num_bytes() const;
    std::string str() const;  // "1x28x28x1 QAsymmU8 s=0.0078 zp=128"
};

}  // namespace npurun

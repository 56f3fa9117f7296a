// Decoding of Arm NN TensorInfo / ConstTensor tables into the IR's TensorInfo and constant views.
//
// Every function here throws Error(BadModel) with a message that does not yet name the layer; the
// loader prefixes it with the layer's description.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ArmnnSchema_generated.h"
#include "ir/graph.h"

namespace npurun::armnn {

// Tensors larger than this are rejected at load time: no device npurun targets has this much memory, and
// the bound keeps every later sum of tensor sizes far away from size_t overflow.
constexpr size_t kMaxTensorBytes = size_t(1) << 40;

// Maps the file's DataType number to the IR type. Both numberings are accepted: the 2019 schema's
// QuantisedAsymm8 (2) and QuantisedSymm16 (5) as well as the current QAsymmU8 (6) and QSymmS16 (7).
// Unknown numbers are an error (Arm NN throws too).
DataType decode_data_type(int raw);

// `check_quantization`: validate a per-axis axis and scale count against the shape. Disabled only for
// legacy depthwise weights, whose quantization is remapped together with the data.
TensorInfo decode_tensor_info(const armnnSerializer::TensorInfo* fb, bool check_quantization = true);

// Checks per-axis quantization against the shape: axis < rank and one scale per index along the axis.
void check_quantization(const TensorInfo& info);

// A constant as stored in the file: decoded descriptor plus the raw little-endian element bytes.
struct ConstView {
    TensorInfo info;
    const uint8_t* bytes = nullptr;  // points into the model buffer; may be unaligned for the element type
    size_t num_bytes = 0;
};

ConstView decode_const_tensor(const armnnSerializer::ConstTensor* fb, bool check_quantization = true);

// Returns a pointer to the constant's data usable as an array of its element type: the view itself when
// it is suitably aligned (no copy), otherwise an aligned copy owned by the graph.
const void* place_constant(Graph& g, const ConstView& c);

// Converts legacy (weightsLayoutScheme 0) depthwise weights [M, I, H, W] to the IR's [1, H, W, I*M]
// (output channel c = i*M + m), including per-axis quantization; the result is owned by the graph.
Tensor convert_legacy_depthwise_weights(Graph& g, const ConstView& c, const std::string& name);

}  // namespace npurun::armnn

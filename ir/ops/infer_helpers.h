// Shared checks for the per-op infer functions (ir/ops/infer_*.cpp). Every helper throws
// Error(BadModel, node.describe() + ": ...") so messages have one shape across ops.
#pragma once

#include <initializer_list>
#include <string>
#include <variant>
#include <vector>

#include "core/error.h"
#include "ir/graph.h"

namespace npurun::ops {

[[noreturn]] void bad(const Node& node, const std::string& problem);

// Operand counts. Optional operands may be present as kNoTensor.
void expect_inputs(const Node& node, size_t min, size_t max);
void expect_outputs(const Node& node, size_t count);

bool has_input(const Node& node, size_t i);                       // present and not kNoTensor
const TensorInfo& input(const Node& node, const Graph& g, size_t i);  // required operand i
const TensorInfo& declared_output(const Node& node, const Graph& g, size_t i);

template <class T> const T& attrs_of(const Node& node) {
    if (!std::holds_alternative<T>(node.attrs)) bad(node, "attributes of the wrong kind");
    return std::get<T>(node.attrs);
}

void expect_rank(const Node& node, const TensorInfo& t, const char* what, uint32_t rank);
void expect_dtype(const Node& node, const TensorInfo& t, const char* what, std::initializer_list<DataType> allowed);
void expect_same_dtype(const Node& node, const TensorInfo& a, const char* what_a, const TensorInfo& b,
                       const char* what_b);
// Quantized tensors need positive finite scales (and a per-axis axis inside the rank).
void expect_valid_quantization(const Node& node, const TensorInfo& t, const char* what);

// The numeric element types most kernels compute on (float and quantized).
extern const std::initializer_list<DataType> kNumericTypes;
// kNumericTypes plus Signed32 and Boolean: what comparisons and pure data movement accept.
extern const std::initializer_list<DataType> kComparableTypes;

// A layer of exactly one input and one output; returns input 0 (unchecked beyond being present).
const TensorInfo& only_input(const Node& node, const Graph& g);
// expect_dtype, then expect_valid_quantization: a typed operand.
void expect_typed(const Node& node, const TensorInfo& t, const char* what, std::initializer_list<DataType> allowed);
// A layer of min..max inputs and one output whose input 0 is typed (expect_typed as "input"); returns input 0.
const TensorInfo& typed_input(const Node& node, const Graph& g, size_t min_inputs, size_t max_inputs,
                              std::initializer_list<DataType> allowed);
// A layer of two inputs and one output whose inputs have one type of `allowed` and valid quantization
// (named `what_a`, `what_b` in messages).
struct InputPair {
    const TensorInfo& a;
    const TensorInfo& b;
};
// A layer of exactly two inputs and `outputs` outputs; returns the inputs (unchecked beyond being present).
InputPair two_inputs(const Node& node, const Graph& g, size_t outputs = 1);
InputPair same_typed_inputs(const Node& node, const Graph& g, std::initializer_list<DataType> allowed,
                            const char* what_a = "input 0", const char* what_b = "input 1");

// Overflow-checked uint32 arithmetic on attribute values.
uint32_t add_u32(const Node& node, uint32_t a, uint32_t b, const char* what);
uint32_t mul_u32(const Node& node, uint32_t a, uint32_t b, const char* what);

// Negative axes count from the end (Arm NN); result in [0, rank).
uint32_t normalize_axis(const Node& node, int64_t axis, uint32_t rank, const char* what);

// 4-D image shapes in either layout.
struct ImageDims {
    uint32_t n = 0, h = 0, w = 0, c = 0;
};
ImageDims image_dims(const Node& node, const TensorInfo& t, DataLayout layout, const char* what);
Shape image_shape(const ImageDims& d, DataLayout layout);
void expect_2d_layout(const Node& node, DataLayout layout);  // NHWC or NCHW

// NumPy broadcast of two shapes (right-aligned; each dimension pair equal or containing a 1).
Shape broadcast_shape(const Node& node, const Shape& a, const Shape& b);

// Output descriptor with the given shape and dtype, quantization taken from the declared output.
TensorInfo output_like(const Node& node, const Graph& g, size_t i, const Shape& shape, DataType dtype);

}  // namespace npurun::ops

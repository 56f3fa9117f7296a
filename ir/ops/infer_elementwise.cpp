// Element-wise ops: output shape = input shape (ElementwiseBinary: NumPy broadcast of both inputs).
#include <algorithm>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

std::vector<TensorInfo> same_as_input(const Node& node, const Graph& graph) {
    const TensorInfo& x = typed_input(node, graph, 1, 1, kNumericTypes);
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

}  // namespace

std::vector<TensorInfo> infer_activation(const Node& node, const Graph& graph) {
    (void)attrs_of<ActivationAttrs>(node);
    return same_as_input(node, graph);
}

std::vector<TensorInfo> infer_floor(const Node& node, const Graph& graph) { return same_as_input(node, graph); }

std::vector<TensorInfo> infer_softmax(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<SoftmaxAttrs>(node);
    std::vector<TensorInfo> out = same_as_input(node, graph);
    const TensorInfo& x = input(node, graph, 0);
    if (x.shape.rank == 0) bad(node, "input is a scalar");
    (void)normalize_axis(node, a.axis, x.shape.rank, "axis");
    return out;
}

// NumPy broadcasting: shapes are right-aligned, each dimension pair must be equal or contain a 1.
std::vector<TensorInfo> infer_elementwise_binary(const Node& node, const Graph& graph) {
    (void)attrs_of<ElementwiseBinaryAttrs>(node);
    const auto [a, b] = same_typed_inputs(node, graph, kNumericTypes);
    const Shape out = broadcast_shape(node, a.shape, b.shape);
    return {output_like(node, graph, 0, out, a.dtype)};
}

std::vector<TensorInfo> infer_elementwise_unary(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ElementwiseUnaryAttrs>(node);
    if (a.op != UnaryOp::LogicalNot) return same_as_input(node, graph);
    const TensorInfo& x = only_input(node, graph);
    expect_dtype(node, x, "input", {DataType::Boolean});
    return {output_like(node, graph, 0, x.shape, DataType::Boolean)};
}

std::vector<TensorInfo> infer_quantize(const Node& node, const Graph& graph) {
    const TensorInfo& x = typed_input(node, graph, 1, 1, kNumericTypes);
    const TensorInfo& y = declared_output(node, graph, 0);
    expect_dtype(node, y, "output", {DataType::QAsymmU8, DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16});
    if (y.quant.per_axis()) bad(node, "per-axis quantized output is not supported");
    return {output_like(node, graph, 0, x.shape, y.dtype)};
}

std::vector<TensorInfo> infer_dequantize(const Node& node, const Graph& graph) {
    const TensorInfo& x = typed_input(node, graph, 1, 1, {DataType::QAsymmU8, DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16});
    const TensorInfo& y = declared_output(node, graph, 0);
    expect_dtype(node, y, "output", {DataType::Float32, DataType::Float16});
    return {output_like(node, graph, 0, x.shape, y.dtype)};
}

std::vector<TensorInfo> infer_batch_normalization(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<BatchNormalizationAttrs>(node);
    const TensorInfo& x = typed_input(node, graph, 5, 5, kNumericTypes);
    const ImageDims d = image_dims(node, x, a.layout, "input");
    static const char* const names[] = {"", "mean", "variance", "beta", "gamma"};
    for (size_t i = 1; i < 5; ++i) {
        const TensorInfo& p = input(node, graph, i);
        expect_dtype(node, p, names[i], kNumericTypes);
        expect_valid_quantization(node, p, names[i]);
        if (p.shape.num_elements() != d.c)
            bad(node, std::string(names[i]) + " has shape " + p.shape.str() + ", expected " + std::to_string(d.c) +
                          " elements (one per channel)");
    }
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

}  // namespace npurun::ops

namespace npurun::ops {

// Comparison: NumPy broadcast of two same-typed inputs, Boolean output (1/0 per element).
std::vector<TensorInfo> infer_comparison(const Node& node, const Graph& graph) {
    (void)attrs_of<ComparisonAttrs>(node);
    const auto [a, b] = same_typed_inputs(node, graph, kComparableTypes);
    return {output_like(node, graph, 0, broadcast_shape(node, a.shape, b.shape), DataType::Boolean)};
}

std::vector<TensorInfo> infer_logical_binary(const Node& node, const Graph& graph) {
    (void)attrs_of<LogicalBinaryAttrs>(node);
    const auto [a, b] = two_inputs(node, graph);
    expect_dtype(node, a, "input 0", {DataType::Boolean});
    expect_dtype(node, b, "input 1", {DataType::Boolean});
    return {output_like(node, graph, 0, broadcast_shape(node, a.shape, b.shape), DataType::Boolean)};
}

// Prelu: out = x > 0 ? x : alpha * x, alpha broadcast against x (the output is the broadcast shape).
std::vector<TensorInfo> infer_prelu(const Node& node, const Graph& graph) {
    const auto [x, alpha] = two_inputs(node, graph);
    expect_dtype(node, x, "input", kNumericTypes);
    expect_dtype(node, alpha, "alpha", kNumericTypes);
    expect_valid_quantization(node, x, "input");
    expect_valid_quantization(node, alpha, "alpha");
    if (is_float(x.dtype) != is_float(alpha.dtype)) expect_same_dtype(node, alpha, "alpha", x, "the input");
    return {output_like(node, graph, 0, broadcast_shape(node, x.shape, alpha.shape), x.dtype)};
}

// Cast: any element type to the declared output type, value-preserving through float (CpuRef decodes to
// float and encodes: quantized types are (de)quantized, float -> integer truncates, Boolean is != 0).
std::vector<TensorInfo> infer_cast(const Node& node, const Graph& graph) {
    const TensorInfo& x = only_input(node, graph);
    expect_valid_quantization(node, x, "input");
    const TensorInfo& y = declared_output(node, graph, 0);
    if (y.quant.per_axis()) bad(node, "per-axis quantized output is not supported");
    return {output_like(node, graph, 0, x.shape, y.dtype)};
}

std::vector<TensorInfo> infer_log_softmax(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<SoftmaxAttrs>(node);
    const TensorInfo& x = only_input(node, graph);
    expect_dtype(node, x, "input", {DataType::Float32, DataType::Float16});
    if (x.shape.rank == 0) bad(node, "input is a scalar");
    (void)normalize_axis(node, a.axis, x.shape.rank, "axis");
    return {output_like(node, graph, 0, x.shape, x.dtype)};
}

}  // namespace npurun::ops

#include "ir/ops/infer_helpers.h"

#include <cmath>

#include "core/checked_math.h"

namespace npurun::ops {

const std::initializer_list<DataType> kNumericTypes = {DataType::Float32,  DataType::Float16, DataType::QAsymmU8,
                                                       DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16};
const std::initializer_list<DataType> kComparableTypes = {DataType::Float32,  DataType::Float16, DataType::QAsymmU8,
                                                          DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16,
                                                          DataType::Signed32, DataType::Boolean};

void bad(const Node& node, const std::string& problem) { fail(ErrorKind::BadModel, node.describe() + ": " + problem); }

void expect_inputs(const Node& node, size_t min, size_t max) {
    const size_t n = node.inputs.size();
    if (n < min || n > max) {
        std::string want = min == max ? std::to_string(min) : std::to_string(min) + ".." + std::to_string(max);
        bad(node, "has " + std::to_string(n) + " inputs, expected " + want);
    }
}

void expect_outputs(const Node& node, size_t count) {
    if (node.outputs.size() != count)
        bad(node, "has " + std::to_string(node.outputs.size()) + " outputs, expected " + std::to_string(count));
}

bool has_input(const Node& node, size_t i) { return i < node.inputs.size() && node.inputs[i] != kNoTensor; }

const TensorInfo& input(const Node& node, const Graph& g, size_t i) {
    if (!has_input(node, i)) bad(node, "input " + std::to_string(i) + " is missing");
    const TensorId id = node.inputs[i];
    if (id >= g.tensors.size()) bad(node, "input " + std::to_string(i) + " refers to a tensor that does not exist");
    return g.tensors[id].info;
}

const TensorInfo& declared_output(const Node& node, const Graph& g, size_t i) {
    if (i >= node.outputs.size() || node.outputs[i] >= g.tensors.size())
        bad(node, "output " + std::to_string(i) + " refers to a tensor that does not exist");
    return g.tensors[node.outputs[i]].info;
}

void expect_rank(const Node& node, const TensorInfo& t, const char* what, uint32_t rank) {
    if (t.shape.rank != rank)
        bad(node, std::string(what) + " has rank " + std::to_string(t.shape.rank) + " (" + t.shape.str() +
                      "), expected " + std::to_string(rank));
}

void expect_dtype(const Node& node, const TensorInfo& t, const char* what, std::initializer_list<DataType> allowed) {
    for (DataType d : allowed)
        if (t.dtype == d) return;
    bad(node, std::string(what) + " has data type " + to_string(t.dtype) + ", which this layer does not accept");
}

void expect_same_dtype(const Node& node, const TensorInfo& a, const char* what_a, const TensorInfo& b,
                       const char* what_b) {
    if (a.dtype != b.dtype)
        bad(node, std::string(what_a) + " is " + to_string(a.dtype) + " but " + what_b + " is " + to_string(b.dtype));
}

void expect_valid_quantization(const Node& node, const TensorInfo& t, const char* what) {
    if (!is_quantized(t.dtype)) return;
    if (t.quant.scales.empty()) bad(node, std::string(what) + " is quantized but has no scale");
    for (float s : t.quant.scales)
        if (!(s > 0.0f) || !std::isfinite(s))
            bad(node, std::string(what) + " has an invalid quantization scale " + std::to_string(s));
    if (t.quant.per_axis()) {
        if (t.quant.axis >= t.shape.rank) bad(node, std::string(what) + " has its quantization axis out of range");
        if (t.quant.scales.size() != t.shape[t.quant.axis])
            bad(node, std::string(what) + " has " + std::to_string(t.quant.scales.size()) +
                          " quantization scales for " + std::to_string(t.shape[t.quant.axis]) + " channels");
    }
}

void expect_typed(const Node& node, const TensorInfo& t, const char* what, std::initializer_list<DataType> allowed) {
    expect_dtype(node, t, what, allowed);
    expect_valid_quantization(node, t, what);
}

const TensorInfo& only_input(const Node& node, const Graph& g) {
    expect_inputs(node, 1, 1);
    expect_outputs(node, 1);
    return input(node, g, 0);
}

const TensorInfo& typed_input(const Node& node, const Graph& g, size_t min_inputs, size_t max_inputs,
                              std::initializer_list<DataType> allowed) {
    expect_inputs(node, min_inputs, max_inputs);
    expect_outputs(node, 1);
    const TensorInfo& x = input(node, g, 0);
    expect_typed(node, x, "input", allowed);
    return x;
}

InputPair two_inputs(const Node& node, const Graph& g, size_t outputs) {
    expect_inputs(node, 2, 2);
    expect_outputs(node, outputs);
    return {input(node, g, 0), input(node, g, 1)};
}

InputPair same_typed_inputs(const Node& node, const Graph& g, std::initializer_list<DataType> allowed,
                            const char* what_a, const char* what_b) {
    const auto [a, b] = two_inputs(node, g);
    expect_dtype(node, a, what_a, allowed);
    expect_same_dtype(node, b, what_b, a, what_a);
    expect_valid_quantization(node, a, what_a);
    expect_valid_quantization(node, b, what_b);
    return {a, b};
}

uint32_t add_u32(const Node& node, uint32_t a, uint32_t b, const char* what) {
    uint32_t r;
    if (!checked_add(a, b, &r)) bad(node, std::string(what) + " overflows");
    return r;
}

uint32_t mul_u32(const Node& node, uint32_t a, uint32_t b, const char* what) {
    uint32_t r;
    if (!checked_mul(a, b, &r)) bad(node, std::string(what) + " overflows");
    return r;
}

uint32_t normalize_axis(const Node& node, int64_t axis, uint32_t rank, const char* what) {
    const int64_t r = rank;
    if (axis < -r || axis >= r)
        bad(node, std::string(what) + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return static_cast<uint32_t>(axis < 0 ? axis + r : axis);
}

void expect_2d_layout(const Node& node, DataLayout layout) {
    if (layout != DataLayout::NHWC && layout != DataLayout::NCHW)
        bad(node, std::string("data layout ") + to_string(layout) + " is not valid here (NHWC or NCHW)");
}

ImageDims image_dims(const Node& node, const TensorInfo& t, DataLayout layout, const char* what) {
    expect_2d_layout(node, layout);
    expect_rank(node, t, what, 4);
    const Shape& s = t.shape;
    if (layout == DataLayout::NHWC) return {s[0], s[1], s[2], s[3]};
    return {s[0], s[2], s[3], s[1]};
}

Shape image_shape(const ImageDims& d, DataLayout layout) {
    if (layout == DataLayout::NCHW) return Shape{d.n, d.c, d.h, d.w};
    return Shape{d.n, d.h, d.w, d.c};
}

Shape broadcast_shape(const Node& node, const Shape& a, const Shape& b) {
    Shape out;
    out.rank = a.rank > b.rank ? a.rank : b.rank;
    for (uint32_t i = 0; i < out.rank; ++i) {
        const uint32_t da = i < out.rank - a.rank ? 1 : a[i - (out.rank - a.rank)];
        const uint32_t db = i < out.rank - b.rank ? 1 : b[i - (out.rank - b.rank)];
        if (da != db && da != 1 && db != 1)
            bad(node, "inputs " + a.str() + " and " + b.str() + " cannot be broadcast together");
        out[i] = da == 1 ? db : da;
    }
    return out;
}

TensorInfo output_like(const Node& node, const Graph& g, size_t i, const Shape& shape, DataType dtype) {
    TensorInfo t;
    t.shape = shape;
    t.dtype = dtype;
    t.quant = declared_output(node, g, i).quant;
    return t;
}

}  // namespace npurun::ops

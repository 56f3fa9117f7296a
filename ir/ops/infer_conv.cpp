// Convolution2d, DepthwiseConvolution2d, FullyConnected: operand layouts per ops.h, output sizes as Arm NN's
// Convolution2dLayer: out = (in + padLow + padHigh - dilatedKernel) / stride + 1.
#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

// Float inputs take weights (and bias) of the same float type. Quantized inputs take 8-bit quantized
// weights (per-tensor or per-axis along `weight_channel_axis`) and a Signed32 bias; the output has the
// input's type (CpuRef's rule). `s16_weights`: the layer also takes QSymmS16 weights with a QSymmS16 input
// (CpuRef 20.08 does for TransposeConvolution2d; found by the conformance suite).
void check_weights_and_bias(const Node& node, const Graph& g, const TensorInfo& x, const TensorInfo& w,
                            uint32_t out_channels, uint32_t weight_channel_axis, bool bias_enabled,
                            bool s16_weights = false) {
    expect_typed(node, x, "input", kNumericTypes);
    expect_valid_quantization(node, w, "weights");
    if (is_float(x.dtype)) {
        expect_same_dtype(node, w, "weights", x, "the input");
    } else {
        const bool s16_pair = s16_weights && x.dtype == DataType::QSymmS16 && w.dtype == DataType::QSymmS16;
        if (!s16_pair) expect_dtype(node, w, "weights", {DataType::QAsymmU8, DataType::QAsymmS8, DataType::QSymmS8});
        if (w.quant.per_axis() && w.quant.axis != weight_channel_axis)
            bad(node, "per-axis weight quantization must be along the output-channel axis " +
                          std::to_string(weight_channel_axis) + ", not " + std::to_string(w.quant.axis));
    }
    if (!bias_enabled) return;
    const TensorInfo& b = input(node, g, 2);
    if (b.shape.num_elements() != out_channels)
        bad(node, "bias has shape " + b.shape.str() + ", expected " + std::to_string(out_channels) + " elements");
    if (is_float(x.dtype)) {
        expect_same_dtype(node, b, "bias", x, "the input");
    } else {
        expect_dtype(node, b, "bias", {DataType::Signed32});
        if (b.quant.scales.size() > 1 && b.quant.scales.size() != out_channels)
            bad(node, "bias has " + std::to_string(b.quant.scales.size()) + " scales for " +
                          std::to_string(out_channels) + " channels");
    }
}

uint32_t conv_out_size(const Node& node, uint32_t in, uint32_t pad_lo, uint32_t pad_hi, uint32_t kernel,
                       uint32_t stride, uint32_t dilation, const char* axis) {
    const std::string a(axis);
    if (stride == 0) bad(node, "stride " + a + " is 0");
    if (dilation == 0) bad(node, "dilation " + a + " is 0");
    if (kernel == 0) bad(node, "kernel " + a + " size is 0");
    const uint32_t dilated = add_u32(node, mul_u32(node, kernel - 1, dilation, "dilated kernel"), 1, "dilated kernel");
    const uint32_t padded = add_u32(node, add_u32(node, in, pad_lo, "padded input"), pad_hi, "padded input");
    if (dilated > padded)
        bad(node, "kernel " + a + " of " + std::to_string(dilated) + " (after dilation) is larger than the padded input " +
                      std::to_string(padded));
    return (padded - dilated) / stride + 1;
}

// The [O, kh, kw] of a dense (not depthwise) 2-D convolution's weights, checked against the input's channels.
// Layout as Arm NN stores them: NHWC [O,H,W,I]; NCHW [O,I,H,W] (Convolution2d and TransposeConvolution2d).
struct DenseConvWeights {
    uint32_t o, kh, kw;
};
DenseConvWeights dense_conv_weights(const Node& node, const TensorInfo& w, DataLayout layout, uint32_t in_c) {
    expect_rank(node, w, "weights", 4);
    const bool nhwc = layout == DataLayout::NHWC;
    const uint32_t wi = nhwc ? w.shape[3] : w.shape[1];
    if (wi != in_c)
        bad(node, "weights " + w.shape.str() + " expect " + std::to_string(wi) + " input channels, the input has " +
                      std::to_string(in_c));
    return {w.shape[0], nhwc ? w.shape[1] : w.shape[2], nhwc ? w.shape[2] : w.shape[3]};
}

// The output of a 2-D convolution-like layer: the input's batch, `channels`, conv_out_size per spatial axis.
template <class A>
TensorInfo conv2d_output(const Node& node, const Graph& g, const TensorInfo& x, const ImageDims& in, const A& a,
                         uint32_t channels, uint32_t kh, uint32_t kw) {
    ImageDims out;
    out.n = in.n;
    out.c = channels;
    out.h = conv_out_size(node, in.h, a.pad_top, a.pad_bottom, kh, a.stride_y, a.dilation_y, "height");
    out.w = conv_out_size(node, in.w, a.pad_left, a.pad_right, kw, a.stride_x, a.dilation_x, "width");
    return output_like(node, g, 0, image_shape(out, a.layout), x.dtype);
}

// Input (0) and weights (1) of a layer of 2 or 3 inputs (bias optional) and one output.
struct ConvOperands {
    const TensorInfo& x;
    const TensorInfo& w;
};
ConvOperands conv_operands(const Node& node, const Graph& g) {
    expect_inputs(node, 2, 3);
    expect_outputs(node, 1);
    return {input(node, g, 0), input(node, g, 1)};
}

}  // namespace

std::vector<TensorInfo> infer_convolution2d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<Convolution2dAttrs>(node);
    const auto [x, w] = conv_operands(node, graph);
    const ImageDims in = image_dims(node, x, a.layout, "input");
    const auto [o, kh, kw] = dense_conv_weights(node, w, a.layout, in.c);
    check_weights_and_bias(node, graph, x, w, o, 0, a.bias_enabled);
    return {conv2d_output(node, graph, x, in, a, o, kh, kw)};
}

std::vector<TensorInfo> infer_depthwise_convolution2d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<DepthwiseConvolution2dAttrs>(node);
    const auto [x, w] = conv_operands(node, graph);
    const ImageDims in = image_dims(node, x, a.layout, "input");
    expect_rank(node, w, "weights", 4);
    // [1, H, W, I*M] in every layout.
    if (w.shape[0] != 1) bad(node, "depthwise weights " + w.shape.str() + " must be [1, H, W, I*M]");
    const uint32_t channels = w.shape[3];
    if (in.c == 0 || channels == 0 || channels % in.c != 0)
        bad(node, "depthwise weights have " + std::to_string(channels) +
                      " channels, not a non-zero multiple of the input's " + std::to_string(in.c));
    check_weights_and_bias(node, graph, x, w, channels, 3, a.bias_enabled);
    return {conv2d_output(node, graph, x, in, a, channels, w.shape[1], w.shape[2])};
}

// Arm NN: output [input.dims[0], O]; the remaining input dimensions are flattened into the K dimension.
std::vector<TensorInfo> infer_fully_connected(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<FullyConnectedAttrs>(node);
    const auto [x, w] = conv_operands(node, graph);
    if (x.shape.rank < 2) bad(node, "input has rank " + std::to_string(x.shape.rank) + ", expected at least 2");
    expect_rank(node, w, "weights", 2);
    const uint32_t k = a.transpose_weights ? w.shape[1] : w.shape[0];
    const uint32_t o = a.transpose_weights ? w.shape[0] : w.shape[1];
    uint32_t x_k = 1;
    for (uint32_t d = 1; d < x.shape.rank; ++d) x_k = mul_u32(node, x_k, x.shape[d], "input feature count");
    if (x_k != k)
        bad(node, "input " + x.shape.str() + " has " + std::to_string(x_k) + " features per batch but weights " +
                      w.shape.str() + " expect " + std::to_string(k));
    check_weights_and_bias(node, graph, x, w, o, a.transpose_weights ? 0 : 1, a.bias_enabled);
    return {output_like(node, graph, 0, Shape{x.shape[0], o}, x.dtype)};
}

}  // namespace npurun::ops

namespace npurun::ops {

// Convolution3d: input NDHWC [N,D,H,W,C] or NCDHW [N,C,D,H,W], weights [D,H,W,I,O] in both layouts.
std::vector<TensorInfo> infer_convolution3d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<Convolution3dAttrs>(node);
    expect_inputs(node, 2, 3);
    expect_outputs(node, 1);
    if (a.bias_enabled != has_input(node, 2)) bad(node, "biasEnabled does not match the bias operand");
    const TensorInfo& x = input(node, graph, 0);
    const TensorInfo& w = input(node, graph, 1);
    if (a.layout != DataLayout::NDHWC && a.layout != DataLayout::NCDHW)
        bad(node, std::string("data layout ") + to_string(a.layout) + " is not valid here (NDHWC or NCDHW)");
    expect_rank(node, x, "input", 5);
    expect_rank(node, w, "weights", 5);
    const bool ndhwc = a.layout == DataLayout::NDHWC;
    const uint32_t n = x.shape[0], c = ndhwc ? x.shape[4] : x.shape[1];
    const uint32_t d = ndhwc ? x.shape[1] : x.shape[2], h = ndhwc ? x.shape[2] : x.shape[3],
                   wd = ndhwc ? x.shape[3] : x.shape[4];
    if (w.shape[3] != c)
        bad(node, "weights " + w.shape.str() + " expect " + std::to_string(w.shape[3]) + " input channels, the input has " +
                      std::to_string(c));
    const uint32_t o = w.shape[4];
    check_weights_and_bias(node, graph, x, w, o, 4, a.bias_enabled);
    const uint32_t od = conv_out_size(node, d, a.pad_front, a.pad_back, w.shape[0], a.stride_z, a.dilation_z, "depth");
    const uint32_t oh = conv_out_size(node, h, a.pad_top, a.pad_bottom, w.shape[1], a.stride_y, a.dilation_y, "height");
    const uint32_t ow = conv_out_size(node, wd, a.pad_left, a.pad_right, w.shape[2], a.stride_x, a.dilation_x, "width");
    const Shape out = ndhwc ? Shape{n, od, oh, ow, o} : Shape{n, o, od, oh, ow};
    return {output_like(node, graph, 0, out, x.dtype)};
}

// TransposeConvolution2d: out = (in - 1) * stride + kernel - (padLow + padHigh) per spatial axis.
std::vector<TensorInfo> infer_transpose_convolution2d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<TransposeConvolution2dAttrs>(node);
    const auto [x, w] = conv_operands(node, graph);
    const ImageDims in = image_dims(node, x, a.layout, "input");
    const auto [o, kh, kw] = dense_conv_weights(node, w, a.layout, in.c);
    check_weights_and_bias(node, graph, x, w, o, 0, a.bias_enabled, /*s16_weights=*/true);
    auto size = [&](uint32_t i, uint32_t k, uint32_t stride, uint32_t lo, uint32_t hi, const char* axis) {
        if (stride == 0) bad(node, std::string("stride ") + axis + " is 0");
        if (i == 0 || k == 0) bad(node, std::string("empty input or kernel along ") + axis);
        const uint64_t full = uint64_t(i - 1) * stride + k;
        const uint64_t pads = uint64_t(lo) + hi;
        if (full <= pads || full - pads > UINT32_MAX)
            bad(node, std::string("padding removes the whole output ") + axis);
        return uint32_t(full - pads);
    };
    ImageDims out;
    out.n = in.n;
    out.c = o;
    out.h = size(in.h, kh, a.stride_y, a.pad_top, a.pad_bottom, "height");
    out.w = size(in.w, kw, a.stride_x, a.pad_left, a.pad_right, "width");
    return {output_like(node, graph, 0, image_shape(out, a.layout), x.dtype)};
}

// BatchMatMul (reference/armnn-format.md §2): the multiplied axes are the last two (NCHW/NCDHW) or (-3, -2)
// (NHWC/NDHWC); every other axis broadcasts. transpose swaps the two axes; adjoint replaces a square
// matrix by its classical adjugate; transpose wins when both are set. Decision: both operands must use
// layouts of the same family (channels first or last) so that the output has one well-defined layout.
std::vector<TensorInfo> infer_batch_matmul(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<BatchMatMulAttrs>(node);
    const auto [x, y] = same_typed_inputs(node, graph, kNumericTypes, "input X", "input Y");
    auto last = [](DataLayout l) { return l == DataLayout::NHWC || l == DataLayout::NDHWC; };
    if (last(a.layout_x) != last(a.layout_y)) bad(node, "X and Y use layouts of different families");
    const uint32_t min_rank = last(a.layout_x) ? 3 : 2;
    if (x.shape.rank < min_rank || y.shape.rank < min_rank)
        bad(node, "inputs " + x.shape.str() + " and " + y.shape.str() + " need rank " + std::to_string(min_rank) +
                      " or more for their layout");
    const BatchMatMulAxes ax = batch_matmul_axes(a.layout_x, x.shape.rank), ay = batch_matmul_axes(a.layout_y, y.shape.rank);
    uint32_t xr = x.shape[ax.row], xc = x.shape[ax.col], yr = y.shape[ay.row], yc = y.shape[ay.col];
    if (a.transpose_x) std::swap(xr, xc);
    else if (a.adjoint_x && xr != xc) bad(node, "adjoint of X needs a square matrix, not " + x.shape.str());
    if (a.transpose_y) std::swap(yr, yc);
    else if (a.adjoint_y && yr != yc) bad(node, "adjoint of Y needs a square matrix, not " + y.shape.str());
    if (xc != yr)
        bad(node, "X " + x.shape.str() + " and Y " + y.shape.str() + " have inner dimensions " + std::to_string(xc) +
                      " and " + std::to_string(yr));
    // Broadcast every axis, then put the matrix sizes on the multiplied axes (right-aligned positions agree
    // because both operands use the same layout family).
    Shape xs = x.shape, ys = y.shape;
    xs[ax.row] = xs[ax.col] = 1;
    ys[ay.row] = ys[ay.col] = 1;
    Shape out = broadcast_shape(node, xs, ys);
    const BatchMatMulAxes ao = batch_matmul_axes(a.layout_x, out.rank);
    out[ao.row] = xr;
    out[ao.col] = yc;
    return {output_like(node, graph, 0, out, x.dtype)};
}

}  // namespace npurun::ops

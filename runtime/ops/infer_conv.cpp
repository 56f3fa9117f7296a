// Convolution2d, DepthwiseConvolution2d, FullyConnected: operand layouts per ops.h, output sizes as Arm NN's
// Convolution2dLayer: out = (in + padLow + padHigh - dilatedKernel) / stride + 1.
#include "runtime/ops/infer_fns.h"
#include "runtime/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

// Float inputs take weights (and bias) of the same float type. Quantized inputs take 8-bit quantized
// weights (per-tensor or per-axis along `weight_channel_axis`) and a Signed32 bias; the output has the
// input's type (CpuRef's rule).
void check_weights_and_bias(const Node& node, const Graph& g, const TensorInfo& x, const TensorInfo& w,
                            uint32_t out_channels, uint32_t weight_channel_axis, bool bias_enabled) {
    expect_dtype(node, x, "input", kNumericTypes);
    expect_valid_quantization(node, x, "input");
    expect_valid_quantization(node, w, "weights");
    if (is_float(x.dtype)) {
        expect_same_dtype(node, w, "weights", x, "the input");
    } else {
        expect_dtype(node, w, "weights", {DataType::QAsymmU8, DataType::QAsymmS8, DataType::QSymmS8});
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

}  // namespace

std::vector<TensorInfo> infer_convolution2d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<Convolution2dAttrs>(node);
    expect_inputs(node, 2, 3);
    expect_outputs(node, 1);
    const TensorInfo& x = input(node, graph, 0);
    const TensorInfo& w = input(node, graph, 1);
    const ImageDims in = image_dims(node, x, a.layout, "input");
    expect_rank(node, w, "weights", 4);
    // NHWC: [O,H,W,I]; NCHW: [O,I,H,W]
    const bool nhwc = a.layout == DataLayout::NHWC;
    const uint32_t o = w.shape[0], kh = nhwc ? w.shape[1] : w.shape[2], kw = nhwc ? w.shape[2] : w.shape[3];
    const uint32_t wi = nhwc ? w.shape[3] : w.shape[1];
    if (wi != in.c)
        bad(node, "weights " + w.shape.str() + " expect " + std::to_string(wi) + " input channels, the input has " +
                      std::to_string(in.c));
    check_weights_and_bias(node, graph, x, w, o, 0, a.bias_enabled);
    ImageDims out;
    out.n = in.n;
    out.c = o;
    out.h = conv_out_size(node, in.h, a.pad_top, a.pad_bottom, kh, a.stride_y, a.dilation_y, "height");
    out.w = conv_out_size(node, in.w, a.pad_left, a.pad_right, kw, a.stride_x, a.dilation_x, "width");
    return {output_like(node, graph, 0, image_shape(out, a.layout), x.dtype)};
}

std::vector<TensorInfo> infer_depthwise_convolution2d(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<DepthwiseConvolution2dAttrs>(node);
    expect_inputs(node, 2, 3);
    expect_outputs(node, 1);
    const TensorInfo& x = input(node, graph, 0);
    const TensorInfo& w = input(node, graph, 1);
    const ImageDims in = image_dims(node, x, a.layout, "input");
    expect_rank(node, w, "weights", 4);
    // [1, H, W, I*M] in every layout.
    if (w.shape[0] != 1) bad(node, "depthwise weights " + w.shape.str() + " must be [1, H, W, I*M]");
    const uint32_t channels = w.shape[3];
    if (in.c == 0 || channels == 0 || channels % in.c != 0)
        bad(node, "depthwise weights have " + std::to_string(channels) +
                      " channels, not a non-zero multiple of the input's " + std::to_string(in.c));
    check_weights_and_bias(node, graph, x, w, channels, 3, a.bias_enabled);
    ImageDims out;
    out.n = in.n;
    out.c = channels;
    out.h = conv_out_size(node, in.h, a.pad_top, a.pad_bottom, w.shape[1], a.stride_y, a.dilation_y, "height");
    out.w = conv_out_size(node, in.w, a.pad_left, a.pad_right, w.shape[2], a.stride_x, a.dilation_x, "width");
    return {output_like(node, graph, 0, image_shape(out, a.layout), x.dtype)};
}

// Arm NN: output [input.dims[0], O]; the remaining input dimensions are flattened into the K dimension.
std::vector<TensorInfo> infer_fully_connected(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<FullyConnectedAttrs>(node);
    expect_inputs(node, 2, 3);
    expect_outputs(node, 1);
    const TensorInfo& x = input(node, graph, 0);
    const TensorInfo& w = input(node, graph, 1);
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

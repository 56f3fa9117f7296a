// The Convolution2d kernel: what the NEON path covers, and dispatch to the float or quantized code.
#include <limits>

#include "kernels/neon/conv2d.h"
#include "kernels/neon/conv2d_quant.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

ConvGeometry geometry(const Node& n, const Graph& g) {
    return conv_geometry(n.attr<Convolution2dAttrs>(), in_info(n, g, 0).shape, in_info(n, g, 1).shape,
                         out_info(n, g).shape);
}

std::string check(const Node& n, const Graph& g) {
    const auto& a = n.attr<Convolution2dAttrs>();
    if (a.layout != DataLayout::NHWC) return refuse("only NHWC convolution");
    if (n.inputs.size() < 2 || n.outputs.size() != 1) return refuse("unexpected operand count");
    const bool bias = a.bias_enabled && has_input(n, 2);
    const TensorInfo &x = in_info(n, g, 0), &w = in_info(n, g, 1), &y = out_info(n, g);
    if (x.shape.rank != 4 || w.shape.rank != 4 || y.shape.rank != 4) return refuse("rank other than 4");
    if (w.shape[3] != x.shape[3] || y.shape[3] != w.shape[0] || y.shape[0] != x.shape[0])
        return refuse("grouped convolution or inconsistent channels");
    if (a.stride_x == 0 || a.stride_y == 0 || a.dilation_x == 0 || a.dilation_y == 0) return refuse("zero stride/dilation");
    // Taps outside the input read a zero row, so any output shape is memory-safe; the index arithmetic
    // (ptrdiff_t) only needs dimensions that fit in int32.
    const uint64_t max_dim = std::numeric_limits<int32_t>::max();
    for (uint32_t i = 0; i < 4; ++i)
        if (x.shape[i] > max_dim || y.shape[i] > max_dim || w.shape[i] > max_dim) return refuse("dimension too large");
    if (x.dtype == DataType::Float32) {
        if (w.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("mixed float types");
        if (bias && in_info(n, g, 2).dtype != DataType::Float32) return refuse("non-float32 bias");
        if (bias && in_info(n, g, 2).shape.num_elements() != w.shape[0]) return refuse("bias size");
        return {};
    }
    const std::string why = check_quant_types(n, g, bias, 0, w.shape[0]);
    if (!why.empty()) return why;
    // 255*255*K must fit in int32 so the vector accumulators are exact (see conv2d_quant.cpp).
    if (uint64_t(w.shape[1]) * w.shape[2] * w.shape[3] > 33025) return refuse("window too large for 32-bit accumulation");
    return {};
}

size_t scratch_bytes(const Node& n, const Graph& g) {
    const ConvGeometry geo = geometry(n, g);
    return in_info(n, g, 0).dtype == DataType::Float32 ? conv2d_f32_scratch(geo) : conv2d_quant_scratch(geo);
}

void run(const KernelArgs& a) {
    const Node& n = a.node;
    const bool bias = n.attr<Convolution2dAttrs>().bias_enabled && has_input(n, 2);
    if (in_info(n, a.graph, 0).dtype != DataType::Float32) {
        conv2d_quant(geometry(n, a.graph), quant_params(n, a.graph, bias), in_ptr<uint8_t>(a, 0), in_ptr<uint8_t>(a, 1),
                     bias ? in_ptr<int32_t>(a, 2) : nullptr, out_ptr<uint8_t>(a), a.scratch);
        return;
    }
    conv2d_f32(geometry(n, a.graph), in_ptr<float>(a, 0), in_ptr<float>(a, 1), bias ? in_ptr<float>(a, 2) : nullptr,
               out_ptr<float>(a), a.scratch);
}

}  // namespace

const Kernel kConvolution2d{check, scratch_bytes, run};

}  // namespace npurun::kernels::neon

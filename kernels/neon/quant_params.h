// Quantization parameters of a conv-like node (Convolution2d, DepthwiseConvolution2d, FullyConnected)
// gathered from the node's operand descriptors, and the type combinations the NEON integer kernels cover.
#pragma once

#include <string>

#include "kernels/neon/conv2d_quant.h"
#include "kernels/neon/kernel_util.h"

namespace npurun::kernels::neon {

// Empty if the NEON integer path covers (x, w, [b]) -> y; otherwise the reason. `weight_axis` is the
// weights dimension of the output channel (0 for [O,...] conv/FC weights, 3 for depthwise [1,H,W,C]).
inline std::string check_quant_types(const KernelNode& n, bool bias, uint32_t weight_axis, size_t out_channels) {
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    if (x.dtype != DataType::QAsymmU8 && x.dtype != DataType::QAsymmS8)
        return refuse(std::string("input type ") + to_string(x.dtype) + " not covered");
    if (y.dtype != x.dtype) return refuse("output type differs from input type");
    if (w.dtype != DataType::QAsymmU8 && w.dtype != DataType::QAsymmS8 && w.dtype != DataType::QSymmS8)
        return refuse(std::string("weight type ") + to_string(w.dtype) + " not covered");
    if (x.quant.scales.size() != 1 || y.quant.scales.size() != 1) return refuse("input/output need one scale");
    if (w.quant.scales.empty()) return refuse("weights without scale");
    if (w.quant.per_axis() && (w.quant.axis != weight_axis || w.quant.scales.size() != out_channels))
        return refuse("per-axis weights not along the output channels");
    if (x.quant.offset < -255 || x.quant.offset > 255 || w.quant.offset < -255 || w.quant.offset > 255)
        return refuse("zero point out of 8-bit range");
    if (bias) {
        const TensorInfo& b = in_info(n, 2);
        if (b.dtype != DataType::Signed32) return refuse("bias not Signed32");
        if (b.shape.num_elements() != out_channels) return refuse("bias size");
        if (b.quant.per_axis() && b.quant.scales.size() != out_channels) return refuse("bias scales");
    }
    return {};
}

inline QuantConvParams quant_params(const KernelNode& n, bool bias) {
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    QuantConvParams q{};
    q.input_type = x.dtype;
    q.weight_type = w.dtype;
    q.output_type = y.dtype;
    q.input_scale = x.quant.scale();
    q.output_scale = y.quant.scale();
    q.input_offset = x.quant.offset;
    q.per_axis = w.quant.per_axis();
    q.weight_offset = q.per_axis ? 0 : w.quant.offset;
    q.output_offset = y.quant.offset;
    q.weight_scales = w.quant.scales.data();
    if (bias) {
        const TensorInfo& b = in_info(n, 2);
        q.bias_scales = b.quant.scales.empty() ? nullptr : b.quant.scales.data();
        q.bias_per_axis = b.quant.per_axis();
    }
    return q;
}

}  // namespace npurun::kernels::neon

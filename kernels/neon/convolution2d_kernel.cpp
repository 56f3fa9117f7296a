// The Convolution2d kernel: what the NEON path covers, and dispatch to the float or quantized code.
// NCHW nodes (weights [O,I,H,W]) run through the NHWC code on transposed copies (see nchw.h).
#include <limits>

#include "kernels/neon/conv2d.h"
#include "kernels/neon/conv2d_quant.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/nchw.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

bool is_nchw(const Node& n) { return n.attr<Convolution2dAttrs>().layout == DataLayout::NCHW; }

// Shapes as the NHWC code sees them: input/output [N,H,W,C], weights [O,H,W,I].
struct Views {
    Shape x, w, y;
};
Views views(const Node& n, const Graph& g) {
    const Shape &x = in_info(n, g, 0).shape, &w = in_info(n, g, 1).shape, &y = out_info(n, g).shape;
    if (!is_nchw(n)) return {x, w, y};
    return {nhwc_of_nchw(x), nhwc_of_nchw(w), nhwc_of_nchw(y)};
}

ConvGeometry geometry(const Node& n, const Graph& g) {
    const Views v = views(n, g);
    return conv_geometry(n.attr<Convolution2dAttrs>(), v.x, v.w, v.y);
}

size_t kernel_scratch(const Node& n, const Graph& g) {
    const ConvGeometry geo = geometry(n, g);
    return round_up64(in_info(n, g, 0).dtype == DataType::Float32 ? conv2d_f32_scratch(geo) : conv2d_quant_scratch(geo));
}

std::string check(const Node& n, const Graph& g) {
    const auto& a = n.attr<Convolution2dAttrs>();
    if (a.layout != DataLayout::NHWC && a.layout != DataLayout::NCHW) return refuse("layout other than NHWC/NCHW");
    if (n.inputs.size() < 2 || n.outputs.size() != 1) return refuse("unexpected operand count");
    const bool bias = a.bias_enabled && has_input(n, 2);
    const TensorInfo &x = in_info(n, g, 0), &w = in_info(n, g, 1), &y = out_info(n, g);
    if (x.shape.rank != 4 || w.shape.rank != 4 || y.shape.rank != 4) return refuse("rank other than 4");
    const Views v = views(n, g);
    if (v.w[3] != v.x[3] || v.y[3] != v.w[0] || v.y[0] != v.x[0])
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

// Layout: [kernel scratch][NCHW only: x as NHWC][weights as OHWI][y as NHWC], each 64-byte aligned.
// The three copies are the sizes of tensors the graph already holds, so the sum cannot overflow.
size_t scratch_bytes(const Node& n, const Graph& g) {
    size_t bytes = kernel_scratch(n, g);
    if (is_nchw(n))
        bytes += round_up64(in_info(n, g, 0).num_bytes()) + round_up64(in_info(n, g, 1).num_bytes()) +
                 round_up64(out_info(n, g).num_bytes());
    return bytes;
}

void run(const KernelArgs& a) {
    const Node& n = a.node;
    const Graph& g = a.graph;
    const bool bias = n.attr<Convolution2dAttrs>().bias_enabled && has_input(n, 2);
    const TensorInfo &xi = in_info(n, g, 0), &wi = in_info(n, g, 1), &yi = out_info(n, g);
    const void* x = a.inputs[0];
    const void* w = a.inputs[1];
    void* y = a.outputs[0];
    if (is_nchw(n)) {
        const size_t elem = xi.dtype == DataType::Float32 ? 4 : 1;
        uint8_t* p = static_cast<uint8_t*>(a.scratch) + kernel_scratch(n, g);
        nchw_to_nhwc(x, p, xi.shape, elem);
        x = p;
        p += round_up64(xi.num_bytes());
        nchw_to_nhwc(w, p, wi.shape, elem);  // [O,I,H,W] -> [O,H,W,I]
        w = p;
        y = p + round_up64(wi.num_bytes());
    }
    if (xi.dtype != DataType::Float32) {
        conv2d_quant(geometry(n, g), quant_params(n, g, bias), static_cast<const uint8_t*>(x), static_cast<const uint8_t*>(w),
                     bias ? in_ptr<int32_t>(a, 2) : nullptr, static_cast<uint8_t*>(y), a.scratch);
    } else {
        conv2d_f32(geometry(n, g), static_cast<const float*>(x), static_cast<const float*>(w),
                   bias ? in_ptr<float>(a, 2) : nullptr, static_cast<float*>(y), a.scratch);
    }
    if (is_nchw(n)) nhwc_to_nchw(y, a.outputs[0], yi.shape, xi.dtype == DataType::Float32 ? 4 : 1);
}

}  // namespace

const Kernel kConvolution2d{check, scratch_bytes, run};

}  // namespace npurun::kernels::neon

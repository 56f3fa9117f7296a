// The DepthwiseConvolution2d kernel: NHWC, float32 or 8-bit quantized, any depth multiplier M.
//
// Output channel o reads input channel o / M (weights [1, KH, KW, C*M]). The vector kernels are written
// for M = 1; for M > 1 the input is first widened in scratch to C*M channels (channel c repeated M times),
// after which output channel o reads widened channel o: exactly the M = 1 computation, so the results
// (bit-exact for 8-bit, the stated bound for float) carry over unchanged. MobileNets use M = 1; M > 1 is
// rare enough that the copy (the size of one input per multiplier) is not worth a dedicated kernel.
#include <cstring>
#include <limits>

#include "runtime/util/checked_math.h"

#include "kernels/neon/depthwise.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

// Geometry of the M = 1 computation: for M > 1 the input channel count is the widened one (C*M).
ConvGeometry geometry(const Node& n, const Graph& g) {
    ConvGeometry geo = conv_geometry(n.attr<DepthwiseConvolution2dAttrs>(), in_info(n, g, 0).shape,
                                     in_info(n, g, 1).shape, out_info(n, g).shape);
    geo.ic = geo.oc;
    return geo;
}

size_t multiplier(const Node& n, const Graph& g) { return out_info(n, g).shape[3] / in_info(n, g, 0).shape[3]; }

size_t element_size(const Node& n, const Graph& g) { return in_info(n, g, 0).dtype == DataType::Float32 ? 4 : 1; }

// Bytes of the widened input (0 when M = 1); false on overflow.
bool widened_bytes(const Node& n, const Graph& g, size_t* bytes) {
    *bytes = 0;
    if (multiplier(n, g) == 1) return true;
    const Shape& y = out_info(n, g).shape;
    const Shape& x = in_info(n, g, 0).shape;
    size_t v = element_size(n, g);
    for (uint32_t i = 0; i < 3; ++i)
        if (!checked_mul(v, size_t(x[i]), &v)) return false;
    return checked_mul(v, size_t(y[3]), bytes) && checked_align_up(*bytes, 64, bytes);
}

// x [n, h, w, c] -> [n, h, w, c*m], each channel repeated m times.
const void* widen(const Node& n, const Graph& g, const void* x, void* out) {
    const Shape& xs = in_info(n, g, 0).shape;
    const size_t m = multiplier(n, g), es = element_size(n, g), c = xs[3];
    const size_t pixels = size_t(xs[0]) * xs[1] * xs[2];
    const uint8_t* src = static_cast<const uint8_t*>(x);
    uint8_t* dst = static_cast<uint8_t*>(out);
    for (size_t p = 0; p < pixels; ++p)
        for (size_t ch = 0; ch < c; ++ch, src += es)
            for (size_t k = 0; k < m; ++k, dst += es) std::memcpy(dst, src, es);
    return out;
}

std::string check(const Node& n, const Graph& g) {
    const auto& a = n.attr<DepthwiseConvolution2dAttrs>();
    if (a.layout != DataLayout::NHWC) return refuse("only NHWC depthwise convolution");
    if (n.inputs.size() < 2 || n.outputs.size() != 1) return refuse("unexpected operand count");
    const bool bias = a.bias_enabled && has_input(n, 2);
    const TensorInfo &x = in_info(n, g, 0), &w = in_info(n, g, 1), &y = out_info(n, g);
    if (x.shape.rank != 4 || w.shape.rank != 4 || y.shape.rank != 4) return refuse("rank other than 4");
    if (w.shape[0] != 1 || x.shape[3] == 0 || y.shape[3] % x.shape[3] != 0 || w.shape[3] != y.shape[3] ||
        y.shape[0] != x.shape[0])
        return refuse("weights [1,H,W,C*M] and output channels C*M do not match the input");
    if (a.stride_x == 0 || a.stride_y == 0 || a.dilation_x == 0 || a.dilation_y == 0) return refuse("zero stride/dilation");
    const uint64_t max_dim = std::numeric_limits<int32_t>::max();
    for (uint32_t i = 0; i < 4; ++i)
        if (x.shape[i] > max_dim || y.shape[i] > max_dim || w.shape[i] > max_dim) return refuse("dimension too large");
    if (x.dtype == DataType::Float32) {
        if (w.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("mixed float types");
        if (bias && (in_info(n, g, 2).dtype != DataType::Float32 || in_info(n, g, 2).shape.num_elements() != y.shape[3]))
            return refuse("bias type or size");
    } else {
        const std::string why = check_quant_types(n, g, bias, 3, y.shape[3]);
        if (!why.empty()) return why;
        if (uint64_t(w.shape[1]) * w.shape[2] > 33025) return refuse("window too large for 32-bit accumulation");
    }
    size_t widened = 0;
    if (!widened_bytes(n, g, &widened)) return refuse("widened input size overflows");
    return {};
}


// Layout: [widened input (64-aligned size)][depthwise_quant scratch]. check() proved the first part fits.
size_t scratch_bytes(const Node& n, const Graph& g) {
    size_t widened = 0;
    widened_bytes(n, g, &widened);
    return widened + (in_info(n, g, 0).dtype == DataType::Float32 ? 0 : depthwise_quant_scratch(geometry(n, g)));
}

void run(const KernelArgs& a) {
    const Node& n = a.node;
    const bool bias = n.attr<DepthwiseConvolution2dAttrs>().bias_enabled && has_input(n, 2);
    size_t widened = 0;
    widened_bytes(n, a.graph, &widened);
    const void* x = widened ? widen(n, a.graph, a.inputs[0], a.scratch) : a.inputs[0];
    void* rest = static_cast<uint8_t*>(a.scratch) + widened;
    if (in_info(n, a.graph, 0).dtype != DataType::Float32) {
        depthwise_quant(geometry(n, a.graph), quant_params(n, a.graph, bias), static_cast<const uint8_t*>(x),
                        in_ptr<uint8_t>(a, 1), bias ? in_ptr<int32_t>(a, 2) : nullptr, out_ptr<uint8_t>(a), rest);
        return;
    }
    depthwise_f32(geometry(n, a.graph), static_cast<const float*>(x), in_ptr<float>(a, 1),
                  bias ? in_ptr<float>(a, 2) : nullptr, out_ptr<float>(a));
}

}  // namespace

const Kernel kDepthwiseConvolution2d{check, scratch_bytes, run};

}  // namespace npurun::kernels::neon

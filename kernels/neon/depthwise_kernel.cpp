// The DepthwiseConvolution2d kernel: NHWC, float32 or 8-bit quantized, any depth multiplier M.
//
// Output channel o reads input channel o / M (weights [1, KH, KW, C*M]). The vector kernels are written
// for M = 1; for M > 1 the input is first widened in scratch to C*M channels (channel c repeated M times),
// after which output channel o reads widened channel o: exactly the M = 1 computation, so the results
// (bit-exact for 8-bit, the stated bound for float) carry over unchanged. MobileNets use M = 1; M > 1 is
// rare enough that the copy (the size of one input per multiplier) is not worth a dedicated kernel.
// NCHW nodes (weights stay [1, KH, KW, C*M]) run on NHWC copies of input and output (see nchw.h).
#include <cstring>
#include <limits>

#include "core/checked_math.h"

#include "kernels/neon/depthwise.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/nchw.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

bool is_nchw(const Node& n) { return n.attr<DepthwiseConvolution2dAttrs>().layout == DataLayout::NCHW; }

// Input and output shapes as the NHWC code sees them.
Shape x_view(const Node& n, const Graph& g) {
    return is_nchw(n) ? nhwc_of_nchw(in_info(n, g, 0).shape) : in_info(n, g, 0).shape;
}
Shape y_view(const Node& n, const Graph& g) { return is_nchw(n) ? nhwc_of_nchw(out_info(n, g).shape) : out_info(n, g).shape; }

// Geometry of the M = 1 computation: for M > 1 the input channel count is the widened one (C*M).
ConvGeometry geometry(const Node& n, const Graph& g) {
    ConvGeometry geo =
        conv_geometry(n.attr<DepthwiseConvolution2dAttrs>(), x_view(n, g), in_info(n, g, 1).shape, y_view(n, g));
    geo.ic = geo.oc;
    return geo;
}

size_t multiplier(const Node& n, const Graph& g) { return y_view(n, g)[3] / x_view(n, g)[3]; }

size_t element_size(const Node& n, const Graph& g) { return in_info(n, g, 0).dtype == DataType::Float32 ? 4 : 1; }

// Bytes of the widened input (0 when M = 1); false on overflow.
bool widened_bytes(const Node& n, const Graph& g, size_t* bytes) {
    *bytes = 0;
    if (multiplier(n, g) == 1) return true;
    const Shape y = y_view(n, g), x = x_view(n, g);
    size_t v = element_size(n, g);
    for (uint32_t i = 0; i < 3; ++i)
        if (!checked_mul(v, size_t(x[i]), &v)) return false;
    return checked_mul(v, size_t(y[3]), bytes) && checked_align_up(*bytes, 64, bytes);
}

// x [n, h, w, c] -> [n, h, w, c*m], each channel repeated m times.
const void* widen(const Node& n, const Graph& g, const void* x, void* out) {
    const Shape xs = x_view(n, g);
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
    if (a.layout != DataLayout::NHWC && a.layout != DataLayout::NCHW) return refuse("layout other than NHWC/NCHW");
    if (n.inputs.size() < 2 || n.outputs.size() != 1) return refuse("unexpected operand count");
    const bool bias = a.bias_enabled && has_input(n, 2);
    const TensorInfo &x = in_info(n, g, 0), &w = in_info(n, g, 1), &y = out_info(n, g);
    if (x.shape.rank != 4 || w.shape.rank != 4 || y.shape.rank != 4) return refuse("rank other than 4");
    const Shape xv = x_view(n, g), yv = y_view(n, g);
    if (w.shape[0] != 1 || xv[3] == 0 || yv[3] % xv[3] != 0 || w.shape[3] != yv[3] || yv[0] != xv[0])
        return refuse("weights [1,H,W,C*M] and output channels C*M do not match the input");
    if (a.stride_x == 0 || a.stride_y == 0 || a.dilation_x == 0 || a.dilation_y == 0) return refuse("zero stride/dilation");
    const uint64_t max_dim = std::numeric_limits<int32_t>::max();
    for (uint32_t i = 0; i < 4; ++i)
        if (x.shape[i] > max_dim || y.shape[i] > max_dim || w.shape[i] > max_dim) return refuse("dimension too large");
    if (x.dtype == DataType::Float32) {
        if (w.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("mixed float types");
        if (bias && (in_info(n, g, 2).dtype != DataType::Float32 || in_info(n, g, 2).shape.num_elements() != yv[3]))
            return refuse("bias type or size");
    } else {
        const std::string why = check_quant_types(n, g, bias, 3, yv[3]);
        if (!why.empty()) return why;
        if (uint64_t(w.shape[1]) * w.shape[2] > 33025) return refuse("window too large for 32-bit accumulation");
    }
    size_t widened = 0;
    if (!widened_bytes(n, g, &widened)) return refuse("widened input size overflows");
    return {};
}

size_t kernel_scratch(const Node& n, const Graph& g) {
    return in_info(n, g, 0).dtype == DataType::Float32 ? 0 : round_up64(depthwise_quant_scratch(geometry(n, g)));
}

// Layout: [depthwise_quant scratch][widened input (M > 1)][NCHW only: x as NHWC][y as NHWC], each
// 64-byte aligned. check() proved the widened size fits; the copies are sizes of existing tensors.
size_t scratch_bytes(const Node& n, const Graph& g) {
    size_t widened = 0;
    widened_bytes(n, g, &widened);
    size_t bytes = kernel_scratch(n, g) + widened;
    if (is_nchw(n)) bytes += round_up64(in_info(n, g, 0).num_bytes()) + round_up64(out_info(n, g).num_bytes());
    return bytes;
}

void run(const KernelArgs& a) {
    const Node& n = a.node;
    const Graph& g = a.graph;
    const bool bias = n.attr<DepthwiseConvolution2dAttrs>().bias_enabled && has_input(n, 2);
    size_t widened = 0;
    widened_bytes(n, g, &widened);
    uint8_t* widened_at = static_cast<uint8_t*>(a.scratch) + kernel_scratch(n, g);
    uint8_t* copies_at = widened_at + widened;
    const void* x = a.inputs[0];
    void* y = a.outputs[0];
    if (is_nchw(n)) {
        nchw_to_nhwc(x, copies_at, in_info(n, g, 0).shape, element_size(n, g));
        x = copies_at;
        y = copies_at + round_up64(in_info(n, g, 0).num_bytes());
    }
    if (widened) x = widen(n, g, x, widened_at);
    if (in_info(n, g, 0).dtype != DataType::Float32) {
        depthwise_quant(geometry(n, g), quant_params(n, g, bias), static_cast<const uint8_t*>(x), in_ptr<uint8_t>(a, 1),
                        bias ? in_ptr<int32_t>(a, 2) : nullptr, static_cast<uint8_t*>(y), a.scratch);
    } else {
        depthwise_f32(geometry(n, g), static_cast<const float*>(x), in_ptr<float>(a, 1),
                      bias ? in_ptr<float>(a, 2) : nullptr, static_cast<float*>(y));
    }
    if (is_nchw(n)) nhwc_to_nchw(y, a.outputs[0], out_info(n, g).shape, element_size(n, g));
}

}  // namespace

const Kernel kDepthwiseConvolution2d{check, scratch_bytes, run};

}  // namespace npurun::kernels::neon

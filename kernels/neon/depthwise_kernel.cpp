// The DepthwiseConvolution2d kernel: NHWC, float32 or 8-bit quantized, any depth multiplier M.
//
// Output channel o reads input channel o / M (weights [1, KH, KW, C*M]). The vector kernels are written
// for M = 1; for M > 1 the input is first widened in scratch to C*M channels (channel c repeated M times),
// after which output channel o reads widened channel o: exactly the M = 1 computation, so the results
// (bit-exact for 8-bit, the stated bound for float) carry over unchanged. MobileNets use M = 1; M > 1 is
// rare enough that the copy (the size of one input per multiplier) is not worth a dedicated kernel.
// NCHW nodes (weights stay [1, KH, KW, C*M]) run on NHWC copies of input and output (see nchw.h).
// prepare computes the geometry and the requantization multiplier and bias tables once.
#include <cstring>

#include "core/checked_math.h"

#include "kernels/neon/conv_state.h"
#include "kernels/neon/depthwise.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/nchw.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

bool is_nchw(const KernelNode& n) { return n.attr<DepthwiseConvolution2dAttrs>().layout == DataLayout::NCHW; }

// Input and output shapes as the NHWC code sees them.
Shape x_view(const KernelNode& n) {
    return is_nchw(n) ? nhwc_of_nchw(in_info(n, 0).shape) : in_info(n, 0).shape;
}
Shape y_view(const KernelNode& n) { return is_nchw(n) ? nhwc_of_nchw(out_info(n).shape) : out_info(n).shape; }

// Geometry of the M = 1 computation: for M > 1 the input channel count is the widened one (C*M).
ConvGeometry geometry(const KernelNode& n) {
    ConvGeometry geo =
        conv_geometry(n.attr<DepthwiseConvolution2dAttrs>(), x_view(n), in_info(n, 1).shape, y_view(n));
    geo.ic = geo.oc;
    return geo;
}

size_t multiplier(const KernelNode& n) { return y_view(n)[3] / x_view(n)[3]; }

size_t element_size(const KernelNode& n) { return in_info(n, 0).dtype == DataType::Float32 ? 4 : 1; }

// Bytes of the widened input (0 when M = 1); false on overflow.
bool widened_bytes(const KernelNode& n, size_t* bytes) {
    *bytes = 0;
    if (multiplier(n) == 1) return true;
    const Shape y = y_view(n), x = x_view(n);
    size_t v = element_size(n);
    for (uint32_t i = 0; i < 3; ++i)
        if (!checked_mul(v, size_t(x[i]), &v)) return false;
    return checked_mul(v, size_t(y[3]), bytes) && checked_align_up(*bytes, 64, bytes);
}

// x [n, h, w, c] -> [n, h, w, c*m], each channel repeated m times.
const void* widen(const KernelNode& n, const void* x, void* out) {
    const Shape xs = x_view(n);
    const size_t m = multiplier(n), es = element_size(n), c = xs[3];
    const size_t pixels = size_t(xs[0]) * xs[1] * xs[2];
    const uint8_t* src = static_cast<const uint8_t*>(x);
    uint8_t* dst = static_cast<uint8_t*>(out);
    for (size_t p = 0; p < pixels; ++p)
        for (size_t ch = 0; ch < c; ++ch, src += es)
            for (size_t k = 0; k < m; ++k, dst += es) std::memcpy(dst, src, es);
    return out;
}

std::string check(const KernelNode& n) {
    const auto& a = n.attr<DepthwiseConvolution2dAttrs>();
    if (std::string why = check_window_operands(a, n); !why.empty()) return why;
    const bool bias = a.bias_enabled && has_input(n, 2);
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    const Shape xv = x_view(n), yv = y_view(n);
    if (w.shape[0] != 1 || xv[3] == 0 || yv[3] % xv[3] != 0 || w.shape[3] != yv[3] || yv[0] != xv[0])
        return refuse("weights [1,H,W,C*M] and output channels C*M do not match the input");
    if (std::string why = check_window_dims(a, x, w, y); !why.empty()) return why;
    if (x.dtype == DataType::Float32) {
        if (w.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("mixed float types");
        if (bias && (in_info(n, 2).dtype != DataType::Float32 || in_info(n, 2).shape.num_elements() != yv[3]))
            return refuse("bias type or size");
    } else {
        const std::string why = check_quant_types(n, bias, 3, yv[3]);
        if (!why.empty()) return why;
        if (uint64_t(w.shape[1]) * w.shape[2] > 33025) return refuse("window too large for 32-bit accumulation");
    }
    size_t widened = 0;
    if (!widened_bytes(n, &widened)) return refuse("widened input size overflows");
    return {};
}

bool has_bias(const KernelNode& n) { return n.attr<DepthwiseConvolution2dAttrs>().bias_enabled && has_input(n, 2); }

// Prepared state (conv_state.h): the header (geometry, quantization) and, quantized, the multiplier and bias
// tables and a row (input width x channels) of input zero-point codes.
size_t state_bytes(const KernelNode& n) {
    const size_t oc = size_t(geometry(n).oc);
    return conv_state_header_bytes() +
           (element_size(n) == 1 ? quant_tables_bytes(oc, depthwise_quant_zero_row_bytes(geometry(n)), true) : 0);
}

void prepare(const PrepareArgs& a) {
    const KernelNode& n = a.node;
    ConvState* s = new_conv_state(a.state);
    s->g = geometry(n);
    s->quantized = element_size(n) == 1;
    s->oc = size_t(s->g.oc);
    s->tables_offset = conv_state_header_bytes();
    const bool bias = has_bias(n);
    s->bias_ready = !bias || n.constant(2) != nullptr;
    s->weights_ready = true;  // used as stored: [1, KH, KW, C*M] is already the kernel's layout
    if (!s->quantized) return;
    s->q = quant_params(n, bias);
    s->ic = depthwise_quant_zero_row_bytes(s->g);
    s->with_conv_rows = true;  // the zero-point row of the 3x3 path (sum_w unused)
    const QuantTables t = s->tables();
    fill_multipliers(s->q, s->oc, t.multiplier);
    fill_zero_row(s->q, s->ic, t.zero_row);
    if (s->bias_ready) fill_bias(s->q, bias ? static_cast<const int32_t*>(n.constant(2)) : nullptr, s->oc, t.bias);
}

// Scratch: [widened input (M > 1)][NCHW only: x as NHWC][y as NHWC], each 64-byte aligned. check() proved
// the widened size fits; the copies are sizes of existing tensors.
size_t scratch_bytes(const KernelNode& n) {
    size_t widened = 0;
    widened_bytes(n, &widened);
    size_t bytes = widened;
    if (is_nchw(n)) bytes += round_up64(in_info(n, 0).num_bytes()) + round_up64(out_info(n).num_bytes());
    return bytes;
}

void run(const KernelArgs& a) {
    const KernelNode& n = a.node;
    ConvState* s = conv_state(a.state);
    size_t widened = 0;
    widened_bytes(n, &widened);
    uint8_t* widened_at = static_cast<uint8_t*>(a.scratch);
    uint8_t* copies_at = widened_at + widened;
    const void* x = a.inputs[0];
    void* y = a.outputs[0];
    if (is_nchw(n)) {
        nchw_to_nhwc(x, copies_at, in_info(n, 0).shape, element_size(n));
        x = copies_at;
        y = copies_at + round_up64(in_info(n, 0).num_bytes());
    }
    if (widened) x = widen(n, x, widened_at);
    if (s->quantized) {
        const QuantTables t = s->tables();
        if (!s->bias_ready) fill_bias(s->q, in_ptr<int32_t>(a, 2), s->oc, t.bias);
        depthwise_quant(s->g, s->q, t, static_cast<const uint8_t*>(x), in_ptr<uint8_t>(a, 1), static_cast<uint8_t*>(y));
    } else {
        depthwise_f32(s->g, static_cast<const float*>(x), in_ptr<float>(a, 1), has_bias(n) ? in_ptr<float>(a, 2) : nullptr,
                      static_cast<float*>(y));
    }
    if (is_nchw(n)) nhwc_to_nchw(y, a.outputs[0], out_info(n).shape, element_size(n));
}

}  // namespace

const Kernel kDepthwiseConvolution2d{check, scratch_bytes, run, state_bytes, prepare};

}  // namespace npurun::kernels::neon

// The Convolution2d kernel: what the NEON path covers, and dispatch to the float or quantized code.
// NCHW nodes (weights [O,I,H,W]) run through the NHWC code on transposed copies (see nchw.h).
// prepare computes the geometry, the requantization tables and (NCHW) the transposed constant weights once.

#include "kernels/neon/conv2d.h"
#include "kernels/neon/conv1x1_quant.h"
#include "kernels/neon/conv2d_quant.h"
#include "kernels/neon/conv_state.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/nchw.h"
#include "kernels/neon/quant_params.h"

namespace npurun::kernels::neon {
namespace {

bool is_nchw(const KernelNode& n) { return n.attr<Convolution2dAttrs>().layout == DataLayout::NCHW; }

// Shapes as the NHWC code sees them: input/output [N,H,W,C], weights [O,H,W,I].
struct Views {
    Shape x, w, y;
};
Views views(const KernelNode& n) {
    const Shape &x = in_info(n, 0).shape, &w = in_info(n, 1).shape, &y = out_info(n).shape;
    if (!is_nchw(n)) return {x, w, y};
    return {nhwc_of_nchw(x), nhwc_of_nchw(w), nhwc_of_nchw(y)};
}

ConvGeometry geometry(const KernelNode& n) {
    const Views v = views(n);
    return conv_geometry(n.attr<Convolution2dAttrs>(), v.x, v.w, v.y);
}

bool quantized(const KernelNode& n) { return in_info(n, 0).dtype != DataType::Float32; }
bool has_bias(const KernelNode& n) { return n.attr<Convolution2dAttrs>().bias_enabled && has_input(n, 2); }
bool weights_constant(const KernelNode& n) { return n.is_constant(1); }
size_t element_size(const KernelNode& n) { return quantized(n) ? 1 : 4; }

std::string check(const KernelNode& n) {
    const auto& a = n.attr<Convolution2dAttrs>();
    if (std::string why = check_window_operands(a, n); !why.empty()) return why;
    const bool bias = a.bias_enabled && has_input(n, 2);
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    const Views v = views(n);
    if (v.w[3] != v.x[3] || v.y[3] != v.w[0] || v.y[0] != v.x[0])
        return refuse("grouped convolution or inconsistent channels");
    if (std::string why = check_window_dims(a, x, w, y); !why.empty()) return why;
    if (x.dtype == DataType::Float32) {
        if (w.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("mixed float types");
        if (bias && in_info(n, 2).dtype != DataType::Float32) return refuse("non-float32 bias");
        if (bias && in_info(n, 2).shape.num_elements() != w.shape[0]) return refuse("bias size");
        return {};
    }
    const std::string why = check_quant_types(n, bias, 0, w.shape[0]);
    if (!why.empty()) return why;
    // 255*255*K must fit in int32 so the vector accumulators are exact (see conv2d_quant.cpp).
    if (uint64_t(w.shape[1]) * w.shape[2] * w.shape[3] > 33025) return refuse("window too large for 32-bit accumulation");
    return {};
}

// Prepared state (conv_state.h): the header, the tables (quantized: multipliers, bias terms, sum_w and the
// zero-point row; float: a row of zeros), and for NCHW with constant weights the [O,H,W,I] copy of them.
struct StateLayout {
    size_t tables, weights, gemm, total;
};

// Constant-weight quantized 1x1 layers also keep the weights packed for the dot-product GEMM (conv1x1_quant.h).
bool packs_gemm(const KernelNode& n, const ConvGeometry& g) {
    return quantized(n) && weights_constant(n) && conv1x1_quant_fits(g, quant_params(n, has_bias(n)));
}
StateLayout state_layout(const KernelNode& n) {
    const ConvGeometry geo = geometry(n);
    StateLayout l{};
    l.tables = conv_state_header_bytes();
    const size_t tables = quantized(n) ? quant_tables_bytes(size_t(geo.oc), size_t(geo.ic), true)
                                          : round_up64(size_t(geo.ic) * sizeof(float));
    l.weights = is_nchw(n) && weights_constant(n) ? l.tables + tables : 0;
    l.total = l.tables + tables + (l.weights ? round_up64(in_info(n, 1).num_bytes()) : 0);
    if (packs_gemm(n, geo)) {
        l.gemm = l.total;
        l.total += round_up64(conv1x1_packed_bytes(geo));
    }
    return l;
}

size_t state_bytes(const KernelNode& n) { return state_layout(n).total; }

void prepare(const PrepareArgs& a) {
    const KernelNode& n = a.node;
    const StateLayout l = state_layout(n);
    ConvState* s = new_conv_state(a.state);
    s->g = geometry(n);
    s->quantized = quantized(n);
    s->oc = size_t(s->g.oc);
    s->ic = size_t(s->g.ic);
    s->with_conv_rows = s->quantized;
    s->tables_offset = l.tables;
    s->weights_offset = l.weights;
    s->gemm_offset = l.gemm;
    const bool bias = has_bias(n);
    const void* w = n.constant(1);
    if (w != nullptr && is_nchw(n)) {  // [O,I,H,W] -> [O,H,W,I], once
        nchw_to_nhwc(w, s->packed_weights(), in_info(n, 1).shape, element_size(n));
        w = s->packed_weights();
    }
    s->weights_ready = w != nullptr;
    s->bias_ready = !bias || n.constant(2) != nullptr;
    if (!s->quantized) {
        float* zeros = static_cast<float*>(static_cast<void*>(static_cast<uint8_t*>(a.state) + l.tables));
        for (size_t i = 0; i < s->ic; ++i) zeros[i] = 0.0f;
        return;
    }
    s->q = quant_params(n, bias);
    const QuantTables t = s->tables();
    fill_multipliers(s->q, s->oc, t.multiplier);
    fill_zero_row(s->q, s->ic, t.zero_row);
    if (s->bias_ready) fill_bias(s->q, bias ? static_cast<const int32_t*>(n.constant(2)) : nullptr, s->oc, t.bias);
    if (s->weights_ready) fill_sum_w(s->q, static_cast<const uint8_t*>(w), s->oc, size_t(s->g.kh * s->g.kw * s->g.ic), t.sum_w);
    if (s->gemm_offset) {
        s->gemm_kernel = conv1x1_kernel_to_pack();
        conv1x1_pack(s->g, s->q, s->gemm_kernel, static_cast<const uint8_t*>(w), t.sum_w, s->gemm_weights());
    }
}

// Scratch, NCHW only: [x as NHWC][run-time weights as OHWI][y as NHWC], each 64-byte aligned. The copies
// are the sizes of tensors the graph already holds, so the sum cannot overflow.
size_t scratch_bytes(const KernelNode& n) {
    if (!is_nchw(n)) return 0;
    return round_up64(in_info(n, 0).num_bytes()) + (weights_constant(n) ? 0 : round_up64(in_info(n, 1).num_bytes())) +
           round_up64(out_info(n).num_bytes());
}

void run(const KernelArgs& a) {
    const KernelNode& n = a.node;
    ConvState* s = conv_state(a.state);
    const void* x = a.inputs[0];
    const void* w = s->weights_offset ? s->packed_weights() : a.inputs[1];
    void* y = a.outputs[0];
    const size_t elem = s->quantized ? 1 : 4;
    if (is_nchw(n)) {
        uint8_t* p = static_cast<uint8_t*>(a.scratch);
        nchw_to_nhwc(x, p, in_info(n, 0).shape, elem);
        x = p;
        p += round_up64(in_info(n, 0).num_bytes());
        if (!s->weights_ready) {
            nchw_to_nhwc(w, p, in_info(n, 1).shape, elem);  // [O,I,H,W] -> [O,H,W,I]
            w = p;
            p += round_up64(in_info(n, 1).num_bytes());
        }
        y = p;
    }
    const bool bias = has_bias(n);
    if (s->quantized) {
        const QuantTables t = s->tables();
        if (!s->bias_ready) fill_bias(s->q, in_ptr<int32_t>(a, 2), s->oc, t.bias);
        if (!s->weights_ready && conv2d_quant_uses_dotprod(s->q))
            fill_sum_w(s->q, static_cast<const uint8_t*>(w), s->oc, size_t(s->g.kh * s->g.kw * s->g.ic), t.sum_w);
        if (s->gemm_offset && conv1x1_runs_now(s->gemm_kernel))
            conv1x1_quant(s->g, s->q, t, s->gemm_kernel, s->gemm_weights(), static_cast<const uint8_t*>(x),
                          static_cast<uint8_t*>(y));
        else
            conv2d_quant(s->g, s->q, t, static_cast<const uint8_t*>(x), static_cast<const uint8_t*>(w), static_cast<uint8_t*>(y));
    } else {
        conv2d_f32(s->g, static_cast<const float*>(x), static_cast<const float*>(w), bias ? in_ptr<float>(a, 2) : nullptr,
                   static_cast<float*>(y), s->zero_row_f32());
    }
    if (is_nchw(n)) nhwc_to_nchw(y, a.outputs[0], out_info(n).shape, elem);
}

}  // namespace

const Kernel kConvolution2d{check, scratch_bytes, run, state_bytes, prepare};

}  // namespace npurun::kernels::neon

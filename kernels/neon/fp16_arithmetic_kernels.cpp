// The kernels of the optional fp16-arithmetic CPU path (SessionOptions::cpu_fp16): Float32 NHWC Convolution2d, DepthwiseConvolution2d
// (multiplier 1) and FullyConnected layers with constant weights, computed by conv2d_f16.h. A layer they refuse (other layouts,
// run-time weights, a CPU without FEAT_FP16) runs on the Float32 kernel instead; check says why.
// Prepared once: the geometry, a row of fp16 zeros for padding taps, the weights packed in fp16. Per run: the
// input rounded to fp16 into scratch, then the engine.
#include <limits>

#include "core/align.h"
#include "core/fp16.h"
#include "kernels/neon/conv2d_f16.h"
#include "kernels/neon/cpu_features.h"
#include "kernels/neon/fully_connected.h"
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"

namespace npurun::kernels::neon {
namespace {

inline std::string refuse16(const std::string& why) { return "NEON fp16: " + why; }

struct F16State {
    ConvGeometry g;
    size_t zeros_offset, weights_offset;
};
constexpr size_t kHeader = align_up(sizeof(F16State), 64);

std::string check_common(const KernelNode& n, bool bias, size_t oc) {
    if (!fp16_arithmetic_available()) return refuse16("this CPU has no fp16 arithmetic (FEAT_FP16)");
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    if (x.dtype != DataType::Float32 || w.dtype != DataType::Float32 || y.dtype != DataType::Float32)
        return refuse16("not a Float32 layer");
    if (bias && (in_info(n, 2).dtype != DataType::Float32 || in_info(n, 2).shape.num_elements() != oc))
        return refuse16("bias type or size");
    if (!n.is_constant(1)) return refuse16("run-time weights (packed once, so they must be constant)");
    return {};
}

// Scratch, every fp16 kernel: the input rounded to fp16.
size_t input_f16_scratch(const KernelNode& n) { return align_up(in_info(n, 0).shape.num_elements() * 2, 64); }

// State: [F16State][ic fp16 zeros][packed weights], each part 64-byte aligned.
size_t state_for(const ConvGeometry& g) {
    return kHeader + align_up(size_t(g.ic) * 2, 64) +
           align_up(conv2d_f16_packed_bytes(size_t(g.oc), size_t(g.kh * g.kw * g.ic)), 64);
}

F16State* init_state(void* state, const ConvGeometry& g) {
    F16State* s = static_cast<F16State*>(state);
    s->g = g;
    s->zeros_offset = kHeader;  // state memory arrives zeroed: the zero row needs no writing
    s->weights_offset = kHeader + align_up(size_t(g.ic) * 2, 64);
    return s;
}

template <class T> T* at(void* state, size_t off) { return reinterpret_cast<T*>(static_cast<uint8_t*>(state) + off); }

// The run's input rounded to fp16, in scratch (input_f16_scratch).
const uint16_t* input_as_f16(const KernelArgs& a, const ConvGeometry& g) {
    uint16_t* x16 = static_cast<uint16_t*>(a.scratch);
    convert_f32_to_f16(in_ptr<float>(a, 0), size_t(g.n * g.ih * g.iw * g.ic), x16);
    return x16;
}

void run_engine(const KernelArgs& a, bool bias) {
    F16State* s = static_cast<F16State*>(a.state);
    const ConvGeometry& g = s->g;
    const uint16_t* x16 = input_as_f16(a, g);
    conv2d_f16(g, x16, at<uint16_t>(a.state, s->zeros_offset), at<uint16_t>(a.state, s->weights_offset),
               bias ? in_ptr<float>(a, 2) : nullptr, out_ptr<float>(a));
}

// ---- Convolution2d (NHWC, weights [O,KH,KW,I]) ----

bool conv_bias(const KernelNode& n) { return n.attr<Convolution2dAttrs>().bias_enabled && has_input(n, 2); }
ConvGeometry conv_geo(const KernelNode& n) {
    return conv_geometry(n.attr<Convolution2dAttrs>(), in_info(n, 0).shape, in_info(n, 1).shape, out_info(n).shape);
}

std::string conv_check(const KernelNode& n) {
    const auto& a = n.attr<Convolution2dAttrs>();
    if (a.layout != DataLayout::NHWC) return refuse16("NCHW layout (the fp16 path covers NHWC)");
    if (std::string why = check_window_operands(a, n); !why.empty()) return why;
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    if (w.shape[3] != x.shape[3] || y.shape[3] != w.shape[0] || y.shape[0] != x.shape[0])
        return refuse16("grouped convolution or inconsistent channels");
    if (std::string why = check_window_dims(a, x, w, y); !why.empty()) return why;
    return check_common(n, conv_bias(n), w.shape[0]);
}
size_t conv_state_bytes(const KernelNode& n) { return state_for(conv_geo(n)); }
void conv_prepare(const PrepareArgs& p) {
    const ConvGeometry g = conv_geo(p.node);
    F16State* s = init_state(p.state, g);
    const size_t k = size_t(g.kh * g.kw * g.ic);
    conv2d_f16_pack(static_cast<const float*>(p.node.constant(1)), size_t(g.oc), k, k, 1,
                    at<uint16_t>(p.state, s->weights_offset));
}
void conv_run(const KernelArgs& a) { run_engine(a, conv_bias(a.node)); }

// ---- DepthwiseConvolution2d (NHWC, multiplier 1, weights [1,KH,KW,C]) ----

bool dw_bias(const KernelNode& n) { return n.attr<DepthwiseConvolution2dAttrs>().bias_enabled && has_input(n, 2); }
ConvGeometry dw_geo(const KernelNode& n) {
    return conv_geometry(n.attr<DepthwiseConvolution2dAttrs>(), in_info(n, 0).shape, in_info(n, 1).shape,
                         out_info(n).shape);
}
size_t dw_c8(const ConvGeometry& g) { return align_up(size_t(g.oc), 8); }

std::string dw_check(const KernelNode& n) {
    const auto& a = n.attr<DepthwiseConvolution2dAttrs>();
    if (a.layout != DataLayout::NHWC) return refuse16("NCHW layout (the fp16 path covers NHWC)");
    if (std::string why = check_window_operands(a, n); !why.empty()) return why;
    const TensorInfo &x = in_info(n, 0), &w = in_info(n, 1), &y = out_info(n);
    if (w.shape[0] != 1 || y.shape[3] != x.shape[3] || w.shape[3] != x.shape[3] || y.shape[0] != x.shape[0])
        return refuse16("depth multiplier other than 1, or weights [1,H,W,C] not matching the input");
    if (std::string why = check_window_dims(a, x, w, y); !why.empty()) return why;
    return check_common(n, dw_bias(n), x.shape[3]);
}
// State: [F16State][weights [kh*kw][c8] fp16].
size_t dw_state_bytes(const KernelNode& n) {
    const ConvGeometry g = dw_geo(n);
    return kHeader + align_up(size_t(g.kh * g.kw) * dw_c8(g) * 2, 64);
}
void dw_prepare(const PrepareArgs& p) {
    F16State* s = static_cast<F16State*>(p.state);
    s->g = dw_geo(p.node);
    s->weights_offset = kHeader;
    const size_t taps = size_t(s->g.kh * s->g.kw), c = size_t(s->g.oc), c8 = dw_c8(s->g);
    const float* w = static_cast<const float*>(p.node.constant(1));
    uint16_t* dst = at<uint16_t>(p.state, kHeader);
    for (size_t t = 0; t < taps; ++t)
        for (size_t ch = 0; ch < c8; ++ch) dst[t * c8 + ch] = ch < c ? fp32_to_fp16(w[t * c + ch]) : 0;
}
void dw_run(const KernelArgs& a) {
    F16State* s = static_cast<F16State*>(a.state);
    depthwise_f16(s->g, input_as_f16(a, s->g), at<uint16_t>(a.state, s->weights_offset),
                  dw_bias(a.node) ? in_ptr<float>(a, 2) : nullptr, out_ptr<float>(a));
}

// ---- FullyConnected (input flattened to [batch, in]; weights [out, in] or [in, out]): a 1x1 convolution over
// batch items ----

bool fc_bias(const KernelNode& n) { return n.attr<FullyConnectedAttrs>().bias_enabled && has_input(n, 2); }

std::string fc_check(const KernelNode& n) {
    if (n.num_inputs() < 2 || n.num_outputs() != 1) return refuse16("unexpected operand count");
    if (in_info(n, 1).shape.rank != 2) return refuse16("weights not 2-D");
    const FcDims d = fc_dims(n);
    if (d.in == 0 || d.batch * d.in != in_info(n, 0).shape.num_elements() ||
        out_info(n).shape.num_elements() != d.batch * d.out)
        return refuse16("input/output sizes do not match the weights");
    const size_t max_dim = size_t(std::numeric_limits<int32_t>::max());
    if (d.batch > max_dim || d.in > max_dim || d.out > max_dim) return refuse16("dimension too large");
    return check_common(n, fc_bias(n), d.out);
}
size_t fc_state_bytes(const KernelNode& n) { return state_for(fc_geometry(fc_dims(n))); }
void fc_prepare(const PrepareArgs& p) {
    const FcDims d = fc_dims(p.node);
    F16State* s = init_state(p.state, fc_geometry(d));
    const bool t = p.node.attr<FullyConnectedAttrs>().transpose_weights;  // [out, in] when set
    conv2d_f16_pack(static_cast<const float*>(p.node.constant(1)), d.out, d.in, t ? d.in : 1, t ? 1 : d.out,
                    at<uint16_t>(p.state, s->weights_offset));
}
void fc_run(const KernelArgs& a) { run_engine(a, fc_bias(a.node)); }

}  // namespace

const Kernel kConvolution2dFp16{conv_check, input_f16_scratch, conv_run, conv_state_bytes, conv_prepare};
const Kernel kFullyConnectedFp16{fc_check, input_f16_scratch, fc_run, fc_state_bytes, fc_prepare};
const Kernel kDepthwiseConvolution2dFp16{dw_check, input_f16_scratch, dw_run, dw_state_bytes, dw_prepare};

}  // namespace npurun::kernels::neon

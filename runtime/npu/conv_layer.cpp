#include "runtime/npu/conv_layer.h"
#include "runtime/npu/requant_per_channel.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/align.h"
#include "core/error.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/passes/npu_limits.h"
#include "core/quantization.h"

namespace npurun::npu {

namespace {

// Integer value of a quantized constant element.
int32_t quantized_at(const TensorInfo& t, const void* data, size_t i) {
    switch (t.dtype) {
        case DataType::QAsymmU8: return static_cast<const uint8_t*>(data)[i];
        case DataType::QAsymmS8:
        case DataType::QSymmS8: return static_cast<const int8_t*>(data)[i];
        case DataType::Signed32: {
            int32_t v;
            std::memcpy(&v, static_cast<const uint8_t*>(data) + i * 4, 4);
            return v;
        }
        default: return 0;
    }
}

float float_at(const TensorInfo& t, const void* data, size_t i) {
    if (t.dtype == DataType::Float16) {
        uint16_t h;
        std::memcpy(&h, static_cast<const uint8_t*>(data) + i * 2, 2);
        return quant::fp16_to_fp32(h);
    }
    float f;
    std::memcpy(&f, static_cast<const uint8_t*>(data) + i * 4, 4);
    return f;
}

// OUT_CVT constants for a multiplier m: S / 2^shift ~= m with S in [2^14, 2^15] (15-bit mantissa, as
// Mesa programs it, reference §4.5).
bool out_convert_constants(double m, uint32_t* scale, uint32_t* shift, std::string* why) {
    if (!(m > 0.0) || !std::isfinite(m)) {
        *why = "requantization multiplier is not positive";
        return false;
    }
    int sh = 0;
    while (m * std::ldexp(1.0, sh) < 16384.0 && sh < 62) ++sh;
    const double s = std::round(m * std::ldexp(1.0, sh));
    if (s > 32768.0 || sh >= 62) {
        *why = "requantization multiplier " + std::to_string(m) + " outside the OUT_CVT range";
        return false;
    }
    *scale = static_cast<uint32_t>(s);
    *shift = static_cast<uint32_t>(sh);
    return true;
}

uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// The node's operands as the layer reads them.
struct ConvOperands {
    const TensorInfo* x = nullptr;  // input
    const TensorInfo* w = nullptr;  // weights (constant)
    const void* wdata = nullptr;
    const TensorInfo* b = nullptr;  // bias (constant) or nullptr
    const void* bdata = nullptr;
    const TensorInfo* y = nullptr;  // the layer's output: the fused activation's when there is one
};

Refusal conv_operands(const Graph& g, const Node& node, const Node* act, ConvOperands* o) {
    if (node.inputs.size() < 2 || node.inputs[1] == kNoTensor || !g.tensor(node.inputs[1]).is_constant())
        return Refusal::because("weights are not constant");
    o->x = &g.info(node.inputs[0]);
    o->w = &g.info(node.inputs[1]);
    o->wdata = g.tensor(node.inputs[1]).data;
    if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor) {
        o->b = &g.info(node.inputs[2]);
        o->bdata = g.tensor(node.inputs[2]).data;
        if (o->bdata == nullptr) return Refusal::because("bias is not constant");
    }
    o->y = &g.info(act ? act->outputs[0] : node.outputs[0]);
    return {};
}

// Index of weight element (output o, input channel i, ky, kx) in the node's constant, per op layout.
struct WeightIndex {
    OpKind op = OpKind::Convolution2d;
    uint32_t kh = 1, kw = 1, cin = 0, k = 0;  // the model's kernel
    bool transposed = false;                  // FullyConnected transpose_weights
    size_t operator()(uint32_t o, uint32_t i, uint32_t ky, uint32_t kx) const {
        switch (op) {
            case OpKind::DepthwiseConvolution2d: return (size_t(ky) * kw + kx) * k + o;
            case OpKind::FullyConnected: return transposed ? size_t(o) * cin + i : size_t(i) * k + o;
            default: return ((size_t(o) * kh + ky) * kw + kx) * cin + i;
        }
    }
};

WeightIndex weight_index(const Node& node, const ConvLayer& L) {
    WeightIndex wi;
    wi.op = node.op;
    wi.kh = L.kh, wi.kw = L.kw, wi.cin = L.c, wi.k = L.k;
    if (node.op == OpKind::FullyConnected) wi.transposed = node.attr<FullyConnectedAttrs>().transpose_weights;
    return wi;
}

// Kernel [., kh, kw, .] and dilation (dx, dy) (ConvLayer): the CNA runs the kh x kw taps with its atrous fields,
// which hold dilation - 1 (drv/sim/sim_conv.cpp states the assumption), so the dilation must fit them.
Refusal set_kernel(uint32_t dx, uint32_t dy, const TensorInfo& wi, ConvLayer* L) {
    if (dx < 1 || dy < 1) return Refusal::because("dilation 0");
    if (dx > npu_limits::kConvMaxDilation || dy > npu_limits::kConvMaxDilation)
        return Refusal::because("dilation " + std::to_string(dy) + "x" + std::to_string(dx) + " exceeds " +
                                std::to_string(npu_limits::kConvMaxDilation) + " (CONV_CON3 atrous fields)");
    if (wi.shape[1] > npu_limits::kConvMaxKernel || wi.shape[2] > npu_limits::kConvMaxKernel)
        return Refusal::because("kernel " + std::to_string(wi.shape[1]) + "x" + std::to_string(wi.shape[2]) +
                                " exceeds " + std::to_string(npu_limits::kConvMaxKernel) +
                                " taps (WEIGHT_SIZE2 field)");
    L->kh = wi.shape[1], L->kw = wi.shape[2], L->dil_x = dx, L->dil_y = dy;
    return {};
}

// Op-specific geometry: kernel, strides, left/top padding, and the weight shape against the channels.
Refusal conv_op_geometry(const Node& node, const TensorInfo& wi, const FeatureGeometry& gi, ConvLayer* L) {
    if (node.op == OpKind::Convolution2d) {
        const auto& a = node.attr<Convolution2dAttrs>();
        if (a.layout != DataLayout::NHWC) return Refusal::because("NCHW convolution is not lowered (NHWC only)");
        if (Refusal r = set_kernel(a.dilation_x, a.dilation_y, wi, L); r.refused()) return r;
        L->sx = a.stride_x, L->sy = a.stride_y;
        L->pad_left = a.pad_left, L->pad_top = a.pad_top;
        if (wi.shape[0] != L->k || wi.shape[3] != L->c)
            return Refusal::because("weights " + wi.shape.str() + " do not match the input/output channels");
        return {};
    }
    if (node.op == OpKind::DepthwiseConvolution2d) {
        const auto& a = node.attr<DepthwiseConvolution2dAttrs>();
        if (a.layout != DataLayout::NHWC) return Refusal::because("NCHW depthwise convolution is not lowered (NHWC only)");
        if (L->k != L->c) return Refusal::because("depth multiplier != 1");
        L->depthwise = true;
        if (Refusal r = set_kernel(a.dilation_x, a.dilation_y, wi, L); r.refused()) return r;
        L->sx = a.stride_x, L->sy = a.stride_y;
        L->pad_left = a.pad_left, L->pad_top = a.pad_top;
        return {};
    }
    if (node.op == OpKind::FullyConnected) {
        const auto& a = node.attr<FullyConnectedAttrs>();
        if (gi.h != 1 || gi.w != 1) return Refusal::because("fully connected input is not one pixel");
        const bool t = a.transpose_weights;
        if (wi.shape.rank != 2 || (t ? wi.shape[0] : wi.shape[1]) != L->k || (t ? wi.shape[1] : wi.shape[0]) != L->c)
            return Refusal::because("weights " + wi.shape.str() + " do not match the features");
        return {};
    }
    return Refusal::because(std::string(to_string(node.op)) + " is not a convolution");
}

Refusal conv_geometry(const Node& node, const ConvOperands& o, NpuDomain d, ConvLayer* L) {
    FeatureGeometry gi, go;
    std::string why;
    if (!feature_geometry(*o.x, d, &gi, &why) || !feature_geometry(*o.y, d, &go, &why)) return Refusal::because(why);
    L->c = gi.c, L->h = gi.h, L->w = gi.w, L->k = go.c, L->ho = go.h, L->wo = go.w;
    if (Refusal r = conv_op_geometry(node, *o.w, gi, L); r.refused()) return r;
    if (L->sx < 1 || L->sy < 1 || L->sx > npu_limits::kConvMaxStride || L->sy > npu_limits::kConvMaxStride)
        return Refusal::because("stride outside 1.." + std::to_string(npu_limits::kConvMaxStride));
    // Output size the registers imply must be the tensor's.
    const int64_t sw = L->span_w(), sh = L->span_h();
    const int64_t pr = int64_t(L->wo - 1) * L->sx + sw - L->w - L->pad_left;
    const int64_t pb = int64_t(L->ho - 1) * L->sy + sh - L->h - L->pad_top;
    if (pr >= sw || pb >= sh || pr < -int64_t(L->sx - 1) || pb < -int64_t(L->sy - 1) || L->pad_left >= sw ||
        L->pad_top >= sh)
        return Refusal::because("padding larger than the kernel is not lowered");
    const uint32_t bpe = L->elem_bytes(), c2 = 16 / bpe;
    L->ca = align_up(L->c, c2);
    // Output channels the CORE produces: a multiple of 16 in both precisions (the fp16 MAC array's
    // kernel group is 16; every vendor fp16 capture programs align16(Co)-1), real count in ORIG_CHANNEL.
    L->coa = align_up(L->depthwise ? L->ca : L->k, 16);
    // CBUF_CON1.DATA_ENTRIES is written as ceil(row bytes / 64) (conv_regcmd.cpp): it must fit the field.
    if ((uint64_t{L->w} * L->ca * bpe + 63) / 64 > npu_limits::kMaxRowEntries)
        return Refusal::because("input row exceeds the CBUF_CON1 DATA_ENTRIES field");
    return {};
}

// The fused activation: ReLU, or ReLU-X (BoundedReLu with lower bound 0) whose bound is returned.
Refusal conv_activation(const Node* act, ConvLayer* L, float* relux_real) {
    if (!act) return {};
    const auto& aa = act->attr<ActivationAttrs>();
    if (aa.function == ActivationFunction::ReLu) {
        L->relu = true;
    } else if (aa.function == ActivationFunction::BoundedReLu && aa.b == 0.0f && aa.a > 0.0f) {
        L->relu = true;
        L->relux = true;
        *relux_real = aa.a;
    } else {
        return Refusal::because("fused activation is not ReLu or BoundedReLu with lower bound 0");
    }
    return {};
}

// int8 zero points in the signed domain.
struct Int8Points {
    bool u8w = false;
    int32_t wz = 0, wz_s = 0, zx_s = 0, zo_s = 0;
};

Int8Points int8_points(const ConvOperands& o) {
    Int8Points p;
    p.u8w = o.w->dtype == DataType::QAsymmU8;
    p.wz = o.w->quant.per_axis() ? 0 : o.w->quant.offset;
    p.wz_s = p.u8w ? p.wz - 128 : p.wz;
    p.zx_s = o.x->dtype == DataType::QAsymmU8 ? o.x->quant.offset - 128 : o.x->quant.offset;
    p.zo_s = o.y->dtype == DataType::QAsymmU8 ? o.y->quant.offset - 128 : o.y->quant.offset;
    return p;
}

// Per-output-channel requantization multipliers M_c (the CPU's) and their maximum.
std::vector<double> multipliers(const ConvOperands& o, uint32_t k, double* mmax) {
    std::vector<double> m(k);
    *mmax = 0.0;
    for (uint32_t c = 0; c < k; ++c) {
        m[c] = quant::multiplier(o.x->quant.scale(), o.w->quant.scale(c), o.y->quant.scale());
        *mmax = std::max(*mmax, m[c]);
    }
    return m;
}

// The CPU's accumulator bias of output channel c (0 without a bias).
int64_t accumulator_bias(const ConvOperands& o, uint32_t c) {
    if (o.b == nullptr) return 0;
    return quant::accumulator_bias(quantized_at(*o.b, o.bdata, c), o.b->quant.scale(c), o.x->quant.scale(),
                                   o.w->quant.scale(c));
}

// bias' of output channel c: bias_acc - zx * sum over taps and real channels of (w - wz).
int64_t corrected_bias(const ConvOperands& o, const ConvLayer& L, const WeightIndex& widx, const Int8Points& p,
                       uint32_t c) {
    int64_t sumw = 0;
    for (uint32_t cc = 0; cc < L.c; ++cc) {
        if (L.depthwise && cc != c) continue;
        for (uint32_t ky = 0; ky < L.kh; ++ky)
            for (uint32_t kx = 0; kx < L.kw; ++kx) sumw += quantized_at(*o.w, o.wdata, widx(c, cc, ky, kx)) - p.wz;
    }
    return accumulator_bias(o, c) - int64_t{p.zx_s} * sumw;
}

// The largest magnitude channel c's NPU accumulator can take: sum (w - wz) * x over int8 inputs |x| <= 128,
// plus bias' (the per-channel requantization keeps its intermediates in range for it).
std::vector<double> accumulator_bounds(const ConvOperands& o, const ConvLayer& L, const WeightIndex& widx,
                                       const Int8Points& p) {
    std::vector<double> bound(L.k);
    for (uint32_t c = 0; c < L.k; ++c) {
        int64_t sum_abs = 0;
        for (uint32_t cc = 0; cc < L.c; ++cc) {
            if (L.depthwise && cc != c) continue;
            for (uint32_t ky = 0; ky < L.kh; ++ky)
                for (uint32_t kx = 0; kx < L.kw; ++kx)
                    sum_abs += std::abs(quantized_at(*o.w, o.wdata, widx(c, cc, ky, kx)) - p.wz);
        }
        bound[c] = 128.0 * static_cast<double>(sum_abs) + std::fabs(static_cast<double>(corrected_bias(o, L, widx, p, c)));
    }
    return bound;
}

bool fits_int32(int64_t v) { return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max(); }

// Refuses when a corrected bias leaves int32. |sum (w - wz)| <= taps * channels * 255, so the exact sum is
// only needed (read from the weights, nothing packed) when that bound does not already fit.
Refusal check_bias_range(const Node& node, const ConvOperands& o, const ConvLayer& L, const Int8Points& p) {
    const int64_t taps_channels = int64_t{L.kh} * L.kw * (L.depthwise ? 1 : L.c);
    const int64_t bound_w = int64_t{std::abs(p.zx_s)} * taps_channels * 255;
    const WeightIndex widx = weight_index(node, L);
    for (uint32_t c = 0; c < L.k; ++c) {
        const int64_t bias = accumulator_bias(o, c);
        if (fits_int32(bias + bound_w) && fits_int32(bias - bound_w)) continue;
        if (!fits_int32(corrected_bias(o, L, widx, p, c))) return Refusal::because("bias correction overflows int32");
    }
    return {};
}

Refusal check_int8_constants(const Graph& g, const Node& node, const Node* act, const ConvOperands& o,
                             float relux_real, ConvLayer* L) {
    const TensorInfo& wi = *o.w;
    if (wi.dtype != DataType::QAsymmU8 && wi.dtype != DataType::QAsymmS8 && wi.dtype != DataType::QSymmS8)
        return Refusal::because(std::string("weights are ") + to_string(wi.dtype));
    const Int8Points p = int8_points(o);
    if (p.zx_s < -128 || p.zx_s > 127 || p.zo_s < -128 || p.zo_s > 127 || p.wz_s < -128 || p.wz_s > 127)
        return Refusal::because("zero point outside the signed int8 range");
    L->pad_value = static_cast<uint32_t>(p.zx_s);
    L->ow_op = -p.wz_s;
    L->out_offset = p.zo_s;
    double mmax = 0.0;
    const std::vector<double> m = multipliers(o, L->k, &mmax);
    L->per_channel = wi.quant.per_axis();
    const double mref = L->per_channel ? mmax : m[0];
    std::string why;
    if (!out_convert_constants(mref, &L->out_scale, &L->out_shift, &why)) return Refusal::because(why);
    PerChannelRequant pcr;
    double relux_unit = static_cast<double>(o.y->quant.scale()) * mref;  // real value of one RELUX_CMP unit
    if (L->per_channel && per_channel_requant_layer(m, accumulator_bounds(o, *L, weight_index(node, *L), p), &pcr)) {
        L->bn_factor = true;
        L->bs_mul_shift = pcr.bs_shift;
        L->bn_mul_shift = pcr.bn_shift;
        L->out_scale = pcr.out_scale;
        L->out_shift = pcr.out_shift;
        // RELUX compares BN's output x2; OUT_CVT maps one unit of it to scale / 2^shift output LSBs.
        relux_unit = static_cast<double>(o.y->quant.scale()) * std::ldexp(double(pcr.out_scale), -static_cast<int>(pcr.out_shift));
    }
    L->use_bs = true;
    L->bs_data_use = L->per_channel ? 5 : 1;
    if (Refusal r = check_bias_range(node, o, *L, p); r.refused()) return r;
    if (act) {
        // The CPU path stores the convolution's own output (its quantization clamps the real value to
        // [(qmin - z) s, (qmax - z) s]) before the activation reads it: the fused layer clamps there too.
        const TensorInfo& mid = g.info(node.outputs[0]);
        const double ms = mid.quant.scale();
        const double hi = (quant::type_max(mid.dtype) - mid.quant.offset) * ms;
        const double lo = (quant::type_min(mid.dtype) - mid.quant.offset) * ms;
        if (lo > 0.0) return Refusal::because("the intermediate quantization clamps above 0, which the fused ReLU cannot express");
        relux_real = static_cast<float>(L->relux ? std::min<double>(relux_real, hi) : hi);
        L->relux = true;
    }
    if (L->relux) {
        const double u = std::round(relux_real / relux_unit);
        L->relux_bits = static_cast<uint32_t>(static_cast<int32_t>(std::min(u, 2147483647.0)));
    }
    return {};
}

Refusal check_fp16_constants(const ConvOperands& o, float relux_real, ConvLayer* L) {
    if (o.w->dtype != DataType::Float32 && o.w->dtype != DataType::Float16)
        return Refusal::because(std::string("weights are ") + to_string(o.w->dtype));
    L->use_bs = o.b != nullptr || L->relu;
    L->bs_data_use = 1;
    if (L->relux) L->relux_bits = float_bits(relux_real);
    return {};
}

std::atomic<uint64_t> g_weight_packs{0};

}  // namespace

Refusal check_conv_layer(const Graph& g, const Node& node, const Node* act, NpuDomain d, ConvLayer* out) {
    ConvLayer L;
    L.domain = d;
    ConvOperands o;
    if (Refusal r = conv_operands(g, node, act, &o); r.refused()) return r;
    if (Refusal r = conv_geometry(node, o, d, &L); r.refused()) return r;
    float relux_real = 0.0f;
    if (Refusal r = conv_activation(act, &L, &relux_real); r.refused()) return r;
    const Refusal r = d == NpuDomain::Int8 ? check_int8_constants(g, node, act, o, relux_real, &L)
                                           : check_fp16_constants(o, relux_real, &L);
    if (r.refused()) return r;
    *out = L;
    return {};
}

void write_conv_weights(const Graph& g, const Node& node, const ConvLayer& L, uint8_t* dst) {
    ++g_weight_packs;
    ConvOperands o;
    if (conv_operands(g, node, nullptr, &o).refused()) fail(ErrorKind::Internal, node.describe() + ": weights vanished after the check");
    const WeightIndex widx = weight_index(node, L);
    const uint32_t bpe = L.elem_bytes(), taps = L.kh * L.kw;
    // Where element (k, c, ky, kx) goes (simulator / reference §6.2 group layout; partial groups dense).
    auto packed_index = [&](uint32_t kk, uint32_t cc, uint32_t ky, uint32_t kx) -> size_t {
        if (L.depthwise) {
            const uint32_t G = 64 / bpe, cg = cc / G, cin = cc % G, csz = std::min(G, L.ca - cg * G);
            return size_t(cg) * G * taps + (size_t(ky) * L.kw + kx) * csz + cin;
        }
        const uint32_t KG = bpe == 1 ? 32 : 16;
        const uint32_t kg = kk / KG, kin = kk % KG, ksz = std::min(KG, L.k - kg * KG);
        const uint32_t cg = cc / 32, cin = cc % 32, csz = std::min(32u, L.ca - cg * 32);
        return size_t(kg) * KG * taps * L.ca + size_t(cg) * 32 * taps * ksz + (size_t(ky) * L.kw + kx) * ksz * csz +
               size_t(kin) * csz + cin;
    };
    const uint32_t kernels = L.depthwise ? 1 : L.k;
    const Int8Points p = L.domain == NpuDomain::Int8 ? int8_points(o) : Int8Points{};
    for (uint32_t kk = 0; kk < kernels; ++kk)
        for (uint32_t cc = 0; cc < L.ca; ++cc)
            for (uint32_t ky = 0; ky < L.kh; ++ky)
                for (uint32_t kx = 0; kx < L.kw; ++kx) {
                    const size_t at = packed_index(kk, cc, ky, kx);
                    if (L.domain == NpuDomain::Int8) {
                        int32_t v = p.wz_s;  // padding channels: wz_s, effective weight 0
                        if (cc < L.c) {
                            const int32_t q = quantized_at(*o.w, o.wdata, widx(L.depthwise ? cc : kk, cc, ky, kx));
                            v = p.u8w ? q - 128 : q;
                        }
                        dst[at] = static_cast<uint8_t>(static_cast<int8_t>(v));
                    } else {
                        uint16_t h = 0;
                        if (cc < L.c)
                            h = quant::fp32_to_fp16(float_at(*o.w, o.wdata, widx(L.depthwise ? cc : kk, cc, ky, kx)));
                        std::memcpy(dst + at * 2, &h, 2);
                    }
                }
}

void write_conv_bs_stream(const Graph& g, const Node& node, const Node* act, const ConvLayer& L, uint8_t* dst) {
    if (!L.use_bs) return;
    ConvOperands o;
    if (conv_operands(g, node, act, &o).refused()) fail(ErrorKind::Internal, node.describe() + ": bias vanished after the check");
    std::memset(dst, 0, L.bs_stream_bytes());
    if (L.domain != NpuDomain::Int8) {
        for (uint32_t c = 0; c < L.k && o.b != nullptr; ++c) {
            // fp32 bias as the CPU adds it (the NPU accumulates fp16 products in fp32).
            const float b = (o.b->dtype == DataType::Float32 || o.b->dtype == DataType::Float16) ? float_at(*o.b, o.bdata, c) : 0.0f;
            std::memcpy(dst + size_t(c) * 4, &b, 4);
        }
        return;
    }
    const Int8Points p = int8_points(o);
    const WeightIndex widx = weight_index(node, L);
    double mmax = 0.0;
    const std::vector<double> m = multipliers(o, L.k, &mmax);
    const size_t per = L.per_channel ? 6 : 4;
    PerChannelRequant pcr;
    if (L.bn_factor && !per_channel_requant(m, accumulator_bounds(o, L, widx, p), &pcr)) throw std::logic_error("per-channel requantization changed since the check");
    uint8_t* bn = dst + size_t{L.coa} * per;  // the BN stream follows the BS stream
    for (uint32_t c = 0; c < L.k; ++c) {
        const int32_t b32 = static_cast<int32_t>(corrected_bias(o, L, widx, p, c));  // range checked by the check
        std::memcpy(dst + c * per, &b32, 4);
        if (L.per_channel) {
            const auto mc = L.bn_factor ? pcr.bs_mul[c] : static_cast<int16_t>(std::lround(m[c] / mmax * 16384.0));
            std::memcpy(dst + c * per + 4, &mc, 2);
        }
        if (L.bn_factor) std::memcpy(bn + size_t{c} * 2, &pcr.bn_mul[c], 2);
    }
}

void write_conv_constants(const Graph& g, const Node& node, const Node* act, const ConvLayer& L, uint8_t* block) {
    write_conv_weights(g, node, L, block);
    write_conv_bs_stream(g, node, act, L, block + conv_bs_stream_offset(L));
}

uint64_t conv_weight_packs() { return g_weight_packs.load(); }

}  // namespace npurun::npu

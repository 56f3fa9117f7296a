#include "runtime/npu/conv_layer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "runtime/npu/feature_layout.h"
#include "core/quantization.h"

namespace npurun::npu {

namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

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

}  // namespace

bool prepare_conv_layer(const Graph& g, const Node& node, const Node* act, NpuDomain d, ConvLayer* out,
                        std::string* why) {
    ConvLayer L;
    L.domain = d;
    if (node.inputs.size() < 2 || node.inputs[1] == kNoTensor || !g.tensor(node.inputs[1]).is_constant()) {
        *why = "weights are not constant";
        return false;
    }
    const TensorInfo& xi = g.info(node.inputs[0]);
    const TensorInfo& wi = g.info(node.inputs[1]);
    const void* wdata = g.tensor(node.inputs[1]).data;
    const bool has_bias = node.inputs.size() > 2 && node.inputs[2] != kNoTensor;
    const TensorInfo* bi = has_bias ? &g.info(node.inputs[2]) : nullptr;
    const void* bdata = has_bias ? g.tensor(node.inputs[2]).data : nullptr;
    if (has_bias && bdata == nullptr) {
        *why = "bias is not constant";
        return false;
    }
    const TensorId out_id = act ? act->outputs[0] : node.outputs[0];
    const TensorInfo& yi = g.info(out_id);

    FeatureGeometry gi, go;
    if (!feature_geometry(xi, d, &gi, why) || !feature_geometry(yi, d, &go, why)) return false;
    L.c = gi.c, L.h = gi.h, L.w = gi.w, L.k = go.c, L.ho = go.h, L.wo = go.w;

    // Weight element (o, i, ky, kx) -> index into the constant, per op layout.
    std::function<size_t(uint32_t, uint32_t, uint32_t, uint32_t)> widx;
    if (node.op == OpKind::Convolution2d) {
        const auto& a = node.attr<Convolution2dAttrs>();
        if (a.layout != DataLayout::NHWC) {
            *why = "NCHW convolution is not lowered (NHWC only)";
            return false;
        }
        if (a.dilation_x != 1 || a.dilation_y != 1) {
            *why = "dilation is not lowered";
            return false;
        }
        L.kh = wi.shape[1], L.kw = wi.shape[2], L.sx = a.stride_x, L.sy = a.stride_y;
        L.pad_left = a.pad_left, L.pad_top = a.pad_top;
        const uint32_t kh = L.kh, kw = L.kw, cin = L.c;
        if (wi.shape[0] != L.k || wi.shape[3] != cin) {
            *why = "weights " + wi.shape.str() + " do not match the input/output channels";
            return false;
        }
        widx = [=](uint32_t o, uint32_t i, uint32_t ky, uint32_t kx) { return ((size_t(o) * kh + ky) * kw + kx) * cin + i; };
    } else if (node.op == OpKind::DepthwiseConvolution2d) {
        const auto& a = node.attr<DepthwiseConvolution2dAttrs>();
        if (a.layout != DataLayout::NHWC) {
            *why = "NCHW depthwise convolution is not lowered (NHWC only)";
            return false;
        }
        if (a.dilation_x != 1 || a.dilation_y != 1) {
            *why = "dilation is not lowered";
            return false;
        }
        if (L.k != L.c) {
            *why = "depth multiplier != 1";
            return false;
        }
        L.depthwise = true;
        L.kh = wi.shape[1], L.kw = wi.shape[2], L.sx = a.stride_x, L.sy = a.stride_y;
        L.pad_left = a.pad_left, L.pad_top = a.pad_top;
        const uint32_t kw = L.kw, co = L.k;
        widx = [=](uint32_t o, uint32_t, uint32_t ky, uint32_t kx) { return (size_t(ky) * kw + kx) * co + o; };
    } else if (node.op == OpKind::FullyConnected) {
        const auto& a = node.attr<FullyConnectedAttrs>();
        if (gi.h != 1 || gi.w != 1) {
            *why = "fully connected input is not one pixel";
            return false;
        }
        const uint32_t in_f = L.c, out_f = L.k;
        const bool t = a.transpose_weights;
        if (wi.shape.rank != 2 || (t ? wi.shape[0] : wi.shape[1]) != out_f || (t ? wi.shape[1] : wi.shape[0]) != in_f) {
            *why = "weights " + wi.shape.str() + " do not match the features";
            return false;
        }
        widx = [=](uint32_t o, uint32_t i, uint32_t, uint32_t) { return t ? size_t(o) * in_f + i : size_t(i) * out_f + o; };
    } else {
        *why = std::string(to_string(node.op)) + " is not a convolution";
        return false;
    }
    if (L.sx < 1 || L.sy < 1 || L.sx > 7 || L.sy > 7) {
        *why = "stride outside 1..7";
        return false;
    }
    // Output size the registers imply must be the tensor's.
    const int64_t pr = int64_t(L.wo - 1) * L.sx + L.kw - L.w - L.pad_left;
    const int64_t pb = int64_t(L.ho - 1) * L.sy + L.kh - L.h - L.pad_top;
    if (pr >= int64_t(L.kw) || pb >= int64_t(L.kh) || pr < -int64_t(L.sx - 1) || pb < -int64_t(L.sy - 1) ||
        L.pad_left >= L.kw || L.pad_top >= L.kh) {
        *why = "padding larger than the kernel is not lowered";
        return false;
    }

    const uint32_t bpe = L.elem_bytes(), c2 = 16 / bpe;
    L.ca = align_up(L.c, c2);
    // Output channels the CORE produces: a multiple of 16 in both precisions (the fp16 MAC array's
    // kernel group is 16; every vendor fp16 capture programs align16(Co)-1), real count in ORIG_CHANNEL.
    L.coa = align_up(L.depthwise ? L.ca : L.k, 16);
    const uint32_t taps = L.kh * L.kw;
    if (uint64_t{L.w} * L.ca * bpe / 64 >= 16384) {
        *why = "input row exceeds the CBUF_CON1 DATA_ENTRIES field";
        return false;
    }

    // Fused activation.
    float relux_real = 0.0f;
    if (act) {
        const auto& aa = act->attr<ActivationAttrs>();
        if (aa.function == ActivationFunction::ReLu) {
            L.relu = true;
        } else if (aa.function == ActivationFunction::BoundedReLu && aa.b == 0.0f && aa.a > 0.0f) {
            L.relu = true;
            L.relux = true;
            relux_real = aa.a;
        } else {
            *why = "fused activation is not ReLu or BoundedReLu with lower bound 0";
            return false;
        }
    }

    // WEIGHT_SIZE0: kernels x taps x aligned channels (one "kernel" of all channels for depthwise).
    L.weights.assign(size_t(L.depthwise ? 1 : L.k) * taps * L.ca * bpe, 0);

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
    const uint32_t chans = L.ca;

    if (d == NpuDomain::Int8) {
        if (wi.dtype != DataType::QAsymmU8 && wi.dtype != DataType::QAsymmS8 && wi.dtype != DataType::QSymmS8) {
            *why = std::string("weights are ") + to_string(wi.dtype);
            return false;
        }
        const bool u8w = wi.dtype == DataType::QAsymmU8;
        const int32_t wz = wi.quant.per_axis() ? 0 : wi.quant.offset;
        const int32_t wz_s = u8w ? wz - 128 : wz;
        const int32_t zx_s = xi.dtype == DataType::QAsymmU8 ? xi.quant.offset - 128 : xi.quant.offset;
        const int32_t zo_s = yi.dtype == DataType::QAsymmU8 ? yi.quant.offset - 128 : yi.quant.offset;
        if (zx_s < -128 || zx_s > 127 || zo_s < -128 || zo_s > 127 || wz_s < -128 || wz_s > 127) {
            *why = "zero point outside the signed int8 range";
            return false;
        }
        L.pad_value = static_cast<uint32_t>(zx_s);
        L.ow_op = -wz_s;
        L.out_offset = zo_s;
        // Weights (padding channels: wz_s, effective weight 0).
        for (uint32_t kk = 0; kk < kernels; ++kk)
            for (uint32_t cc = 0; cc < chans; ++cc)
                for (uint32_t ky = 0; ky < L.kh; ++ky)
                    for (uint32_t kx = 0; kx < L.kw; ++kx) {
                        int32_t v = wz_s;
                        if (cc < L.c) {
                            const int32_t q = quantized_at(wi, wdata, widx(L.depthwise ? cc : kk, cc, ky, kx));
                            v = u8w ? q - 128 : q;
                        }
                        L.weights[packed_index(kk, cc, ky, kx)] = static_cast<uint8_t>(static_cast<int8_t>(v));
                    }
        // Multipliers, bias stream.
        const float sx = xi.quant.scale(), so = yi.quant.scale();
        std::vector<double> m(L.k);
        double mmax = 0.0;
        for (uint32_t o = 0; o < L.k; ++o) {
            m[o] = quant::multiplier(sx, wi.quant.scale(o), so);
            mmax = std::max(mmax, m[o]);
        }
        L.per_channel = wi.quant.per_axis();
        const double mref = L.per_channel ? mmax : m[0];
        if (!out_convert_constants(mref, &L.out_scale, &L.out_shift, why)) return false;
        L.use_bs = true;
        L.bs_data_use = L.per_channel ? 5 : 1;
        const size_t per = L.per_channel ? 6 : 4;
        L.bs_stream.assign(size_t(L.coa) * per, 0);
        for (uint32_t o = 0; o < L.k; ++o) {
            int64_t sumw = 0;
            for (uint32_t cc = 0; cc < L.c; ++cc) {
                if (L.depthwise && cc != o) continue;
                for (uint32_t ky = 0; ky < L.kh; ++ky)
                    for (uint32_t kx = 0; kx < L.kw; ++kx) sumw += quantized_at(wi, wdata, widx(o, cc, ky, kx)) - wz;
            }
            int64_t bias = 0;
            if (has_bias) {
                bias = quant::accumulator_bias(quantized_at(*bi, bdata, o), bi->quant.scale(o), sx, wi.quant.scale(o));
            }
            const int64_t b = bias - int64_t{zx_s} * sumw;
            if (b < std::numeric_limits<int32_t>::min() || b > std::numeric_limits<int32_t>::max()) {
                *why = "bias correction overflows int32";
                return false;
            }
            const int32_t b32 = static_cast<int32_t>(b);
            std::memcpy(&L.bs_stream[o * per], &b32, 4);
            if (L.per_channel) {
                const auto mc = static_cast<int16_t>(std::lround(m[o] / mmax * 16384.0));
                std::memcpy(&L.bs_stream[o * per + 4], &mc, 2);
            }
        }
        if (act) {
            // The CPU path stores the convolution's own output (its quantization clamps the real value to
            // [(qmin - z) s, (qmax - z) s]) before the activation reads it: the fused layer clamps there too.
            const TensorInfo& mid = g.info(node.outputs[0]);
            const double ms = mid.quant.scale();
            const double hi = (quant::type_max(mid.dtype) - mid.quant.offset) * ms;
            const double lo = (quant::type_min(mid.dtype) - mid.quant.offset) * ms;
            if (lo > 0.0) {
                *why = "the intermediate quantization clamps above 0, which the fused ReLU cannot express";
                return false;
            }
            relux_real = static_cast<float>(L.relux ? std::min<double>(relux_real, hi) : hi);
            L.relux = true;
        }
        if (L.relux) {
            const double u = std::round(relux_real / (static_cast<double>(so) * mref));
            L.relux_bits = static_cast<uint32_t>(static_cast<int32_t>(std::min(u, 2147483647.0)));
        }
    } else {
        if (wi.dtype != DataType::Float32 && wi.dtype != DataType::Float16) {
            *why = std::string("weights are ") + to_string(wi.dtype);
            return false;
        }
        for (uint32_t kk = 0; kk < kernels; ++kk)
            for (uint32_t cc = 0; cc < chans; ++cc)
                for (uint32_t ky = 0; ky < L.kh; ++ky)
                    for (uint32_t kx = 0; kx < L.kw; ++kx) {
                        uint16_t h = 0;
                        if (cc < L.c) h = quant::fp32_to_fp16(float_at(wi, wdata, widx(L.depthwise ? cc : kk, cc, ky, kx)));
                        std::memcpy(&L.weights[packed_index(kk, cc, ky, kx) * 2], &h, 2);
                    }
        L.use_bs = has_bias || L.relu;
        L.bs_data_use = 1;
        if (L.use_bs) {
            L.bs_stream.assign(size_t(L.coa) * 4, 0);
            for (uint32_t o = 0; o < L.k && has_bias; ++o) {
                // fp32 bias as the CPU adds it (the NPU accumulates fp16 products in fp32).
                const float b = (bi->dtype == DataType::Float32 || bi->dtype == DataType::Float16) ? float_at(*bi, bdata, o) : 0.0f;
                std::memcpy(&L.bs_stream[size_t(o) * 4], &b, 4);
            }
        }
        if (L.relux) L.relux_bits = float_bits(relux_real);
    }
    *out = std::move(L);
    return true;
}

}  // namespace npurun::npu

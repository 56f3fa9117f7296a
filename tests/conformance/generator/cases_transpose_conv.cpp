// TransposeConvolution2d cases: strides, symmetric and asymmetric padding, with and without bias, both
// layouts, float and quantized.
//
// Weights follow the data layout with output channels first ([O, H, W, I] for NHWC, [O, I, H, W] for
// NCHW). Quantized schemes as in cases_conv.cpp: QAsymmU8 weights per tensor, QSymmS8 weights per
// output channel (axis 0), and QSymmS16 activations with QSymmS16 weights; biases Signed32 with
// scale = input scale * weight scale.
#include <cmath>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"

namespace conformance {
namespace {

using armnn::DataLayout;
using armnn::DataType;
using armnn::TensorInfo;
using armnn::TensorShape;

enum class Weights { Float, Half, U8PerTensor, S8PerAxis, S16PerTensor };

struct Scheme {
    TypeVariant act;
    Weights weights;
    const char* tag;
};

const Scheme kSchemes[] = {
    {kF32, Weights::Float, "f32"},
    {kF16, Weights::Half, "f16"},
    {kU8, Weights::U8PerTensor, "u8"},
    {kU8, Weights::S8PerAxis, "u8_perchannel"},
    {kS8, Weights::S8PerAxis, "s8_perchannel"},
    {kS16, Weights::S16PerTensor, "s16"},
};

constexpr float kInScale = 0.05f;

int32_t act_offset(const TypeVariant& v) { return v.type == DataType::QAsymmU8 ? 128 : 0; }

struct WeightInfos {
    TensorInfo weights, bias;
};

WeightInfos weight_infos(const Scheme& q, const TensorShape& wshape, unsigned channels) {
    switch (q.weights) {
        case Weights::Float: return {TensorInfo(wshape, DataType::Float32), TensorInfo({channels}, DataType::Float32)};
        case Weights::Half: return {TensorInfo(wshape, DataType::Float16), TensorInfo({channels}, DataType::Float16)};
        case Weights::U8PerTensor:
            return {TensorInfo(wshape, DataType::QAsymmU8, 0.01f, 127), TensorInfo({channels}, DataType::Signed32, kInScale * 0.01f, 0)};
        case Weights::S16PerTensor:
            return {TensorInfo(wshape, DataType::QSymmS16, 1.0f / 32767, 0),
                    TensorInfo({channels}, DataType::Signed32, kInScale / 32767, 0)};
        case Weights::S8PerAxis: break;
    }
    std::vector<float> ws(channels), bs(channels);
    for (unsigned c = 0; c < channels; ++c) {
        ws[c] = 0.004f * static_cast<float>(1 + c % 5);
        bs[c] = kInScale * ws[c];
    }
    return {TensorInfo(wshape, DataType::QSymmS8, ws, 0), TensorInfo({channels}, DataType::Signed32, bs, 0)};
}

struct P {
    const char* tag;
    unsigned n, h, w, c, o;
    unsigned kh, kw, sy, sx;
    unsigned pl, pr, pt, pb;
    DataLayout layout;
    bool bias;
};

const P kParams[] = {
    {"k3s1p1_nhwc", 1, 4, 5, 3, 2, 3, 3, 1, 1, 1, 1, 1, 1, DataLayout::NHWC, true},
    {"k3s2_nopad_nhwc_nobias", 1, 3, 4, 2, 3, 3, 3, 2, 2, 0, 0, 0, 0, DataLayout::NHWC, false},
    {"k4s2p1_nchw", 1, 3, 3, 4, 2, 4, 4, 2, 2, 1, 1, 1, 1, DataLayout::NCHW, true},
    {"k2x3s2x1_asympad_nhwc", 1, 4, 3, 2, 4, 2, 3, 2, 1, 0, 1, 1, 0, DataLayout::NHWC, true},
    // Batch 2: 20.08's shape inference gets the output channels wrong for batch > 1 (it infers 1 here),
    // so INetwork refuses the network; kept so that the index records it.
    {"k3s3_batch2_nchw_nobias", 2, 2, 3, 3, 2, 3, 3, 3, 3, 0, 0, 0, 0, DataLayout::NCHW, false},
    {"k3s3_nchw_nobias", 1, 2, 3, 3, 2, 3, 3, 3, 3, 0, 0, 0, 0, DataLayout::NCHW, false},

    {"k1s2_nhwc", 1, 3, 3, 5, 3, 1, 1, 2, 2, 0, 0, 0, 0, DataLayout::NHWC, true},
    {"k5x2s1x3_pad_nchw", 1, 2, 4, 1, 3, 5, 2, 1, 3, 1, 0, 2, 1, DataLayout::NCHW, true},
};

TensorShape image_shape(DataLayout l, unsigned n, unsigned h, unsigned w, unsigned c) {
    return l == DataLayout::NHWC ? TensorShape({n, h, w, c}) : TensorShape({n, c, h, w});
}

void add_transpose_conv(std::vector<CaseSpec>& out) {
    for (const Scheme& q : kSchemes)
        for (const P& p : kParams)
            out.push_back(make_case(std::string("transpose_conv2d_") + q.tag + "_" + p.tag, "TransposeConvolution2d", q.act, [q, p](Net& net) {
                const unsigned oh = (p.h - 1) * p.sy + p.kh - (p.pt + p.pb);
                const unsigned ow = (p.w - 1) * p.sx + p.kw - (p.pl + p.pr);
                const TensorShape wshape = p.layout == DataLayout::NHWC ? TensorShape({p.o, p.kh, p.kw, p.c})
                                                                         : TensorShape({p.o, p.c, p.kh, p.kw});
                const WeightInfos wi = weight_infos(q, wshape, p.o);
                const int32_t zp = act_offset(q.act);
                // QSymmS16 inputs are drawn from the range the 8-bit schemes cover (+-6.4), not +-1638.
                const ValueRange range = q.weights == Weights::S16PerTensor ? ValueRange{-6.4f, 6.4f} : ValueRange{};
                auto& in = net.input(q.act.info(image_shape(p.layout, p.n, p.h, p.w, p.c), kInScale, zp), range);
                armnn::TransposeConvolution2dDescriptor d;
                set_pads_strides(d, p.pl, p.pr, p.pt, p.pb, p.sx, p.sy);
                d.m_BiasEnabled = p.bias;
                d.m_DataLayout = p.layout;
                const armnn::ConstTensor weights = net.random_const(wi.weights);
                armnn::Optional<armnn::ConstTensor> bias;
                if (p.bias) bias = net.random_const(wi.bias);
                auto* layer = net.net().AddTransposeConvolution2dLayer(d, weights, bias, "transpose_conv");
                // An output sums at most ceil(kh/sy) * ceil(kw/sx) * c products: scale like a convolution
                // over that many terms (weights up to 1.27 per tensor, 0.5 per axis).
                const unsigned terms = ((p.kh + p.sy - 1) / p.sy) * ((p.kw + p.sx - 1) / p.sx) * p.c;
                const float w = q.weights == Weights::U8PerTensor ? 1.27f : 0.5f;
                const float amax = kInScale * 128 * w * std::sqrt(static_cast<float>(terms));
                float scale = amax / 100.0f;
                if (q.weights == Weights::S16PerTensor) scale = 4 * amax / 32767.0f;
                net.output(net.wire(layer, {&in}, q.act.info(image_shape(p.layout, p.n, oh, ow, p.o), scale, zp)));
            }));
}

}  // namespace

void add_transpose_conv_cases(std::vector<CaseSpec>& out) { add_transpose_conv(out); }

}  // namespace conformance

// Convolution2d, DepthwiseConvolution2d and FullyConnected cases.
//
// Quantized variants: QAsymmU8 activations with QAsymmU8 weights (per tensor) or QSymmS8 per-axis
// weights, and QAsymmS8 activations with QSymmS8 per-axis weights (the TFLite int8 scheme; 20.08 can
// write QSymmS8 constants, only QAsymmS8 constants are broken). Biases are Signed32 with
// scale = input scale * weight scale, as Arm NN requires.
#include <cmath>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/index_types.h"
#include "tests/conformance/generator/weight_schemes.h"

namespace conformance {
namespace {

using armnn::DataLayout;
using armnn::DataType;
using armnn::TensorInfo;
using armnn::TensorShape;

// Output scale chosen so that a sum of k random products mostly fits the 8-bit range.
float out_scale(const QuantScheme& q, unsigned k) {
    const float w = q.weights == Weights::U8PerTensor ? 1.27f : 0.5f;
    return 6.4f * w * std::sqrt(static_cast<float>(k)) / 100.0f;
}

struct ConvParams {
    const char* tag;
    unsigned n, h, w, c;  // input batch, height, width, channels
    unsigned o;           // output channels (conv) or depth multiplier (depthwise)
    unsigned kh, kw, sy, sx, dy, dx;
    unsigned pl, pr, pt, pb;
    DataLayout layout;
    bool bias;
};

const ConvParams kConv[] = {
    {"k3s1p1_nhwc", 1, 5, 5, 3, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, DataLayout::NHWC, true},
    {"k3x2s1x2_nopad_nhwc_nobias", 1, 7, 6, 2, 3, 3, 2, 1, 2, 1, 1, 0, 0, 0, 0, DataLayout::NHWC, false},
    {"k3d2p2_nhwc", 1, 9, 9, 3, 2, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, DataLayout::NHWC, true},
    {"k3s2_asympad_nchw", 1, 6, 5, 3, 2, 3, 3, 2, 2, 1, 1, 0, 1, 1, 0, DataLayout::NCHW, true},
    {"k1_batch2_nhwc", 2, 4, 4, 8, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, DataLayout::NHWC, true},
    {"k5x3s3x2d1x2_odd_nchw", 1, 11, 7, 1, 3, 5, 3, 3, 2, 1, 2, 2, 1, 1, 2, DataLayout::NCHW, true},
};

unsigned out_dim(unsigned in, unsigned k, unsigned s, unsigned d, unsigned p0, unsigned p1) {
    const unsigned eff = (k - 1) * d + 1;
    return (in + p0 + p1 - eff) / s + 1;
}

template <typename Desc>
Desc conv_desc(const ConvParams& p) {
    Desc d;
    set_pads_strides(d, p.pl, p.pr, p.pt, p.pb, p.sx, p.sy);
    d.m_DilationX = p.dx;
    d.m_DilationY = p.dy;
    d.m_BiasEnabled = p.bias;
    d.m_DataLayout = p.layout;
    return d;
}

void add_conv2d(std::vector<CaseSpec>& out) {
    add_scheme_cases(
        out, kSchemes, kConv, "conv2d_", "Convolution2d", [](Net& net, const QuantScheme& q, const ConvParams& p) {
            const unsigned oh = out_dim(p.h, p.kh, p.sy, p.dy, p.pt, p.pb);
            const unsigned ow = out_dim(p.w, p.kw, p.sx, p.dx, p.pl, p.pr);
            const WeightInfos wi = weight_infos(q, conv_weight_shape(p.layout, p.o, p.kh, p.kw, p.c), p.o, 0);
            const int32_t zp = act_offset(q.act);
            auto& in = net.input(q.act.info(image_shape(p.layout, p.n, p.h, p.w, p.c), kInScale, zp));
            const RandomWeights w = random_weights(net, wi, p.bias);
            auto* layer = net.net().AddConvolution2dLayer(conv_desc<armnn::Convolution2dDescriptor>(p), w.weights,
                                                          w.bias, "conv");
            const TensorInfo oi =
                q.act.info(image_shape(p.layout, p.n, oh, ow, p.o), out_scale(q, p.kh * p.kw * p.c), zp);
            net.output(net.wire(layer, {&in}, oi));
        });
}

// Depthwise: `o` is the depth multiplier M; 20.08 takes weights as [M, C, H, W] in both layouts.
const ConvParams kDepthwise[] = {
    {"m1k3s1p1_nhwc", 1, 6, 6, 4, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, DataLayout::NHWC, true},
    {"m2k3s2_nopad_nhwc", 1, 7, 8, 3, 2, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, DataLayout::NHWC, true},
    {"m1k3d2p2_nchw", 1, 8, 7, 2, 1, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, DataLayout::NCHW, true},
    {"m4c1k3x2_asympad_nhwc_nobias", 2, 5, 6, 1, 4, 3, 2, 1, 1, 1, 1, 1, 0, 0, 1, DataLayout::NHWC, false},
    {"m3k5s2x3_odd_nchw", 1, 11, 10, 2, 3, 5, 5, 2, 3, 1, 1, 2, 2, 1, 1, DataLayout::NCHW, true},
};

void add_depthwise(std::vector<CaseSpec>& out) {
    add_scheme_cases(
        out, kSchemes, kDepthwise, "dwconv2d_", "DepthwiseConvolution2d",
        [](Net& net, const QuantScheme& q, const ConvParams& p) {
            const unsigned oh = out_dim(p.h, p.kh, p.sy, p.dy, p.pt, p.pb);
            const unsigned ow = out_dim(p.w, p.kw, p.sx, p.dx, p.pl, p.pr);
            const unsigned oc = p.c * p.o;
            // CpuRef 20.08 wants per-axis weights quantized along dimension 0 (M of [M, C, H, W]) and
            // as many weight scales as bias scales (C*M): only C == 1 satisfies both. The other
            // shapes are still built and left to CpuRef to reject, so the index records why.
            const bool along_c = false;
            WeightInfos wi = weight_infos(q, TensorShape({p.o, p.c, p.kh, p.kw}), along_c ? p.c : p.o, along_c ? 1 : 0);
            if (q.weights == Weights::S8PerAxis) {
                // Output channel k = c*M + m.
                std::vector<float> bs(oc);
                const std::vector<float> ws = wi.weights.GetQuantizationScales();
                for (unsigned k = 0; k < oc; ++k) bs[k] = kInScale * ws[along_c ? k / p.o : k % p.o];
                wi.bias = TensorInfo({oc}, DataType::Signed32, bs, 0);
            } else {
                wi.bias.SetShape({oc});
            }
            const int32_t zp = act_offset(q.act);
            auto& in = net.input(q.act.info(image_shape(p.layout, p.n, p.h, p.w, p.c), kInScale, zp));
            const RandomWeights w = random_weights(net, wi, p.bias);
            auto* layer = net.net().AddDepthwiseConvolution2dLayer(
                conv_desc<armnn::DepthwiseConvolution2dDescriptor>(p), w.weights, w.bias, "dwconv");
            const TensorInfo oi = q.act.info(image_shape(p.layout, p.n, oh, ow, oc), out_scale(q, p.kh * p.kw), zp);
            net.output(net.wire(layer, {&in}, oi));
        });
}

struct FcParams {
    const char* tag;
    TensorShape input;
    unsigned batch, in, out;
    bool transpose, bias;
};

void add_fully_connected(std::vector<CaseSpec>& out) {
    const FcParams params[] = {
        {"1x8to5_transposed", TensorShape({1, 8}), 1, 8, 5, true, true},
        {"3x7to4_nobias", TensorShape({3, 7}), 3, 7, 4, false, false},
        {"4d_1x2x3x4to6", TensorShape({1, 2, 3, 4}), 1, 24, 6, true, true},
        {"2x33to17_odd", TensorShape({2, 33}), 2, 33, 17, false, true},
    };
    add_scheme_cases(
        out, kSchemes, params, "fully_connected_", "FullyConnected",
        [](Net& net, const QuantScheme& q, const FcParams& p) {
            const TensorShape wshape = p.transpose ? TensorShape({p.out, p.in}) : TensorShape({p.in, p.out});
            const WeightInfos wi = weight_infos(q, wshape, p.out, p.transpose ? 0 : 1);
            const int32_t zp = act_offset(q.act);
            auto& in = net.input(q.act.info(p.input, kInScale, zp));
            armnn::FullyConnectedDescriptor d;
            d.m_BiasEnabled = p.bias;
            d.m_TransposeWeightMatrix = p.transpose;
            const RandomWeights w = random_weights(net, wi, p.bias);
            auto* layer = net.net().AddFullyConnectedLayer(d, w.weights, w.bias, "fc");
            net.output(net.wire(layer, {&in}, q.act.info({p.batch, p.out}, out_scale(q, p.in), zp)));
        });
}

}  // namespace

void add_conv_cases(std::vector<CaseSpec>& out) {
    add_conv2d(out);
    add_depthwise(out);
    add_fully_connected(out);
}

}  // namespace conformance

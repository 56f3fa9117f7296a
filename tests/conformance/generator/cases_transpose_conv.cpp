// TransposeConvolution2d cases: strides, symmetric and asymmetric padding, with and without bias, both
// layouts, float and quantized.
//
// Weights follow the data layout with output channels first ([O, H, W, I] for NHWC, [O, I, H, W] for
// NCHW). Quantized schemes as in cases_conv.cpp: QAsymmU8 weights per tensor, QSymmS8 weights per
// output channel (axis 0), and QSymmS16 activations with QSymmS16 weights; biases Signed32 with
// scale = input scale * weight scale.
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/index_types.h"
#include "tests/conformance/generator/weight_schemes.h"

namespace conformance {
namespace {

using armnn::DataLayout;
using armnn::DataType;
using armnn::TensorShape;

// The schemes of every weighted layer, then QSymmS16 activations with QSymmS16 weights.
std::vector<QuantScheme> schemes() {
    std::vector<QuantScheme> v(std::begin(kSchemes), std::end(kSchemes));
    v.push_back({kS16, Weights::S16PerTensor, "s16"});
    return v;
}

struct TransposeConvCase {
    const char* tag;
    unsigned n, h, w, c, o;
    unsigned kh, kw, sy, sx;
    unsigned pl, pr, pt, pb;
    DataLayout layout;
    bool bias;
};

const TransposeConvCase kTransposeConvCases[] = {
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

void add_transpose_conv(std::vector<CaseSpec>& out) {
    add_scheme_cases(
        out, schemes(), kTransposeConvCases, "transpose_conv2d_", "TransposeConvolution2d",
        [](Net& net, const QuantScheme& q, const TransposeConvCase& p) {
            const unsigned oh = (p.h - 1) * p.sy + p.kh - (p.pt + p.pb);
            const unsigned ow = (p.w - 1) * p.sx + p.kw - (p.pl + p.pr);
            const WeightInfos wi = weight_infos(q, conv_weight_shape(p.layout, p.o, p.kh, p.kw, p.c), p.o, 0);
            const int32_t zp = act_offset(q.act);
            // QSymmS16 inputs are drawn from the range the 8-bit schemes cover (+-6.4), not +-1638.
            const ValueRange range = q.weights == Weights::S16PerTensor ? ValueRange{-6.4f, 6.4f} : ValueRange{};
            auto& in = net.input(q.act.info(image_shape(p.layout, p.n, p.h, p.w, p.c), kInScale, zp), range);
            armnn::TransposeConvolution2dDescriptor d;
            set_pads_strides(d, p.pl, p.pr, p.pt, p.pb, p.sx, p.sy);
            d.m_BiasEnabled = p.bias;
            d.m_DataLayout = p.layout;
            const RandomWeights rw = random_weights(net, wi, p.bias);
            auto* layer = net.net().AddTransposeConvolution2dLayer(d, rw.weights, rw.bias, "transpose_conv");
            // An output sums at most ceil(kh/sy) * ceil(kw/sx) * c products: scale like a convolution
            // over that many terms (weights up to 1.27 per tensor, 0.5 per axis).
            const unsigned terms = ((p.kh + p.sy - 1) / p.sy) * ((p.kw + p.sx - 1) / p.sx) * p.c;
            const float w = q.weights == Weights::U8PerTensor ? 1.27f : 0.5f;
            const float amax = kInScale * 128 * w * std::sqrt(static_cast<float>(terms));
            float scale = amax / 100.0f;
            if (q.weights == Weights::S16PerTensor) scale = 4 * amax / 32767.0f;
            net.output(net.wire(layer, {&in}, q.act.info(image_shape(p.layout, p.n, oh, ow, p.o), scale, zp)));
        });
}

}  // namespace

void add_transpose_conv_cases(std::vector<CaseSpec>& out) { add_transpose_conv(out); }

}  // namespace conformance

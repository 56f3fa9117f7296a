// The quantization schemes of the weighted layers' cases (Convolution2d, DepthwiseConvolution2d,
// FullyConnected, TransposeConvolution2d): the activation type each goes with, the weight and bias infos it
// gives, and the random constants drawn from them.
#pragma once

#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"

namespace conformance {

enum class Weights { Float, Half, U8PerTensor, S8PerAxis, S16PerTensor };

struct QuantScheme {
    TypeVariant act;
    Weights weights;
    const char* tag;  // part of the case names
};

// The schemes every weighted layer's cases run in (TransposeConvolution2d adds S16PerTensor).
inline constexpr QuantScheme kSchemes[] = {
    {kF32, Weights::Float, "f32"},
    {kF16, Weights::Half, "f16"},
    {kU8, Weights::U8PerTensor, "u8"},
    {kU8, Weights::S8PerAxis, "u8_perchannel"},
    {kS8, Weights::S8PerAxis, "s8_perchannel"},
};

// The input scale of every quantized weighted case; biases are quantized at input scale * weight scale.
constexpr float kInScale = 0.05f;

inline int32_t act_offset(const TypeVariant& v) { return v.type == armnn::DataType::QAsymmU8 ? 128 : 0; }

struct WeightInfos {
    armnn::TensorInfo weights, bias;
};

// Weight info for `channels` output channels (per-axis scales along `axis`), and the matching bias info.
inline WeightInfos weight_infos(const QuantScheme& q, const armnn::TensorShape& wshape, unsigned channels,
                                unsigned axis) {
    using armnn::DataType;
    using armnn::TensorInfo;
    switch (q.weights) {
        case Weights::Float: return {TensorInfo(wshape, DataType::Float32), TensorInfo({channels}, DataType::Float32)};
        case Weights::Half: return {TensorInfo(wshape, DataType::Float16), TensorInfo({channels}, DataType::Float16)};
        case Weights::U8PerTensor:
            return {TensorInfo(wshape, DataType::QAsymmU8, 0.01f, 127),
                    TensorInfo({channels}, DataType::Signed32, kInScale * 0.01f, 0)};
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
    return {TensorInfo(wshape, DataType::QSymmS8, ws, axis), TensorInfo({channels}, DataType::Signed32, bs, 0)};
}

// Convolution weights with output channels first, following the data layout: [O, H, W, I] for NHWC,
// [O, I, H, W] for NCHW.
inline armnn::TensorShape conv_weight_shape(armnn::DataLayout layout, unsigned o, unsigned kh, unsigned kw,
                                            unsigned c) {
    return layout == armnn::DataLayout::NHWC ? armnn::TensorShape({o, kh, kw, c}) : armnn::TensorShape({o, c, kh, kw});
}

// The random constants of a weighted layer: its weights and, when `with_bias`, its bias, drawn in that order.
struct RandomWeights {
    armnn::ConstTensor weights;
    armnn::Optional<armnn::ConstTensor> bias;
};

inline RandomWeights random_weights(Net& net, const WeightInfos& wi, bool with_bias) {
    RandomWeights r{net.random_const(wi.weights), {}};
    if (with_bias) r.bias = net.random_const(wi.bias);
    return r;
}

// One case per scheme and parameter set, scheme-major: named `prefix` + scheme tag + "_" + parameter tag, built
// by `build(net, scheme, params)`.
template <class Schemes, class Params, class Build>
void add_scheme_cases(std::vector<CaseSpec>& out, const Schemes& schemes, const Params& params, const char* prefix,
                      const char* layer, Build build) {
    for (const QuantScheme& q : schemes)
        for (const auto& p : params)
            out.push_back(make_case(std::string(prefix) + q.tag + "_" + p.tag, layer, q.act,
                                    [q, p, build](Net& net) { build(net, q, p); }));
}

}  // namespace conformance

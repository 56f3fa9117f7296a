#include "runtime/npu/channel_expansion.h"

#include <cstring>
#include <string>

#include "runtime/npu/conv_regcmd.h"
#include "runtime/passes/npu_limits.h"

namespace npurun::npu {

namespace {

// The convolution y = x * ones: x [1,H,W,1], y [1,H,W,C] with x's type and quantization, weights [C,1,1,1].
std::shared_ptr<const Graph> ones_convolution(const TensorInfo& source, uint32_t channels, NpuDomain d) {
    auto g = std::make_shared<Graph>();
    Tensor x;
    x.name = "channel expansion:x";
    x.info = source;
    Tensor y = x;
    y.name = "channel expansion:y";
    y.info.shape = Shape{1, source.shape[1], source.shape[2], channels};
    Tensor w;
    w.name = "channel expansion:ones";
    w.info.shape = Shape{channels, 1, 1, 1};
    if (d == NpuDomain::Int8) {
        w.info.dtype = DataType::QSymmS8;
        w.info.quant.scales = {1.0f};
        int8_t* one = reinterpret_cast<int8_t*>(g->allocate_owned(channels));
        std::memset(one, 1, channels);
        w.data = one;
    } else {
        w.info.dtype = DataType::Float32;
        float* one = reinterpret_cast<float*>(g->allocate_owned(size_t{channels} * sizeof(float)));
        for (uint32_t k = 0; k < channels; ++k) one[k] = 1.0f;
        w.data = one;
    }
    g->add_tensor(std::move(x));
    g->add_tensor(std::move(y));
    g->add_tensor(std::move(w));
    Node conv;
    conv.op = OpKind::Convolution2d;
    conv.name = "channel expansion";
    conv.inputs = {0, 2};
    conv.outputs = {1};
    Convolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    conv.attrs = a;
    g->nodes.push_back(std::move(conv));
    return g;
}

}  // namespace

Refusal ChannelExpansion::make(const TensorInfo& source, uint32_t channels, NpuDomain d, ChannelExpansion* out) {
    if (source.shape.rank != 4 || source.shape[0] != 1 || source.shape[3] != 1)
        return Refusal::because("channel expansion of " + source.shape.str() + ", not a one-channel [1,H,W,1] map");
    if (channels < 2) return Refusal::because("channel expansion to fewer than 2 channels");
    // Checked before the weights are allocated: `channels` comes from the model (placement asks this for every
    // candidate node, before any memory budget is applied).
    if (channels > npu_limits::kCubeMaxDim)
        return Refusal::because("channel expansion to " + std::to_string(channels) + " channels, above " +
                                std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    if (d == NpuDomain::Int8 && source.quant.per_axis())
        return Refusal::because("channel expansion of a per-axis quantized map");
    ChannelExpansion e;
    e.graph_ = ones_convolution(source, channels, d);
    if (Refusal r = check_conv_layer(*e.graph_, e.graph_->nodes[0], nullptr, d, &e.layer_); r.refused())
        return Refusal::because("channel expansion (a 1x1 convolution to " + std::to_string(channels) +
                                " channels): " + r.reason());
    std::string why;
    if (!plan_conv_tiling(e.layer_, &e.tiling_, &why))
        return Refusal::because("channel expansion (a 1x1 convolution to " + std::to_string(channels) +
                                " channels): " + why);
    if (!feature_geometry(e.expanded(), d, &e.geometry_, &why)) return Refusal::because(why);
    *out = std::move(e);
    return {};
}

uint64_t ChannelExpansion::constant_bytes() const { return conv_constant_bytes(layer_); }

void ChannelExpansion::write_constants(uint8_t* block) const {
    write_conv_constants(*graph_, graph_->nodes[0], nullptr, layer_, block);
}

uint32_t ChannelExpansion::emit(npudrv::regcmd::RegcmdWriter& w, uint32_t input, uint32_t scratch,
                                uint32_t constants) const {
    return emit_conv_tasks(w, layer_, tiling_, conv_addresses(layer_, input, scratch, constants));
}

}  // namespace npurun::npu

// Writes a MobileNetV2-1.0-224-shaped int8 network (.armnn) with the project's model writer, for make bench:
// the published layer shapes (stem 3x3/2 to 32, the 17 inverted-residual blocks with expansion 6 and their
// residual additions, 1x1 to 1280, a 7x7 pooling step, 1280 -> 1000 classifier), TFLite-int8 style
// quantization (QAsymmS8 activations, per-channel QSymmS8 weights, Signed32 biases), ReLU6 as BoundedReLu
// layers. Weights are a fixed pseudo-random pattern (no trained model needed to count work); the 7x7 average
// pool is a 7x7 depthwise convolution with equal weights (the model writer has no pooling layer; same work).
// Also writes a fixed pseudo-random 1x224x224x3 int8 input.
//
// --armnn-20.08 writes the same network (same weights, same quantization) in the encoding Arm NN 20.08 reads,
// so that its CpuAcc backend (Arm Compute Library) can be counted on the same file as npurun: featureVersions
// {bindingIdsScheme 1} only, Addition layers instead of ElementwiseBinary (a 23.05 layer), and depthwise weights
// in the legacy [M, I, H, W] layout, and classifier weights with one scale as QAsymmS8 (Arm Compute Library 20.08's
// fully connected layer takes no per-channel weights). npurun reads both files.
//
// Usage: make-mobilenet-v2 [--armnn-20.08] OUT.armnn INPUT.bin
#include <cstdio>
#include <random>
#include <string>

#include "tools/modelwriter/model_writer.h"

namespace mw = npurun::modelwriter;
namespace fb = mw::fb;

namespace {

constexpr float kActScale = 0.05f;
constexpr int32_t kActZero = -10;

struct Net {
    mw::ModelWriter w;
    std::mt19937 rng{2024};
    int id = 0;
    bool legacy = false;  // Arm NN 20.08's encoding (see the file comment)

    mw::TensorDesc act(uint32_t h, uint32_t c) { return mw::tensor({1, h, h, c}, fb::DataType::QAsymmS8, kActScale, kActZero); }

    // Per-channel int8 weights of `dims` (output channel on `axis`), random codes in [-40, 40].
    mw::ConstDesc weights(std::vector<uint32_t> dims, uint32_t oc, uint32_t axis, std::vector<float>* scales) {
        size_t n = 1;
        for (uint32_t d : dims) n *= d;
        std::vector<int8_t> v(n);
        for (auto& x : v) x = int8_t(int(rng() % 81) - 40);
        scales->assign(oc, 0.0f);
        for (auto& s : *scales) s = 0.002f + 0.002f * float(rng() % 100) / 100.0f;
        mw::ConstDesc c = mw::const_i8(dims, v, 0.0f, 0, fb::DataType::QSymmS8);
        c.info.scales = *scales;
        c.info.axis = axis;
        return c;
    }
    mw::ConstDesc bias(const std::vector<float>& ws) {
        std::vector<int32_t> b(ws.size());
        for (auto& x : b) x = int32_t(rng() % 2001) - 1000;
        mw::ConstDesc c = mw::const_i32({uint32_t(ws.size())}, b, 0.0f);
        for (float s : ws) c.info.scales.push_back(kActScale * s);
        return c;
    }
    uint32_t relu6(uint32_t in, uint32_t h, uint32_t c) {
        return w.add_activation("relu6_" + std::to_string(id++), in, act(h, c), fb::ActivationFunction::BoundedReLu, 6.0f, 0.0f);
    }
    uint32_t add(uint32_t a, uint32_t b, uint32_t h, uint32_t c) {
        const std::string name = "add_" + std::to_string(id++);
        if (legacy) return w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, name, {a, b}, {act(h, c)});
        return w.add_elementwise_binary(name, a, b, act(h, c), fb::BinaryOperation::Add);
    }
    uint32_t conv(uint32_t in, uint32_t ic, uint32_t oc, uint32_t k, uint32_t stride, uint32_t oh) {
        mw::Conv2dParams p;
        p.stride_x = p.stride_y = stride;
        p.pad_left = p.pad_top = k / 2;
        p.pad_right = p.pad_bottom = k / 2;
        if (stride == 2 && k == 3) p.pad_left = p.pad_top = 0;  // TF "SAME" for even inputs: pad right/bottom only
        std::vector<float> ws;
        const mw::ConstDesc wt = weights({oc, k, k, ic}, oc, 0, &ws);
        return w.add_convolution2d("conv_" + std::to_string(id++), in, act(oh, oc), p, wt, bias(ws));
    }
    uint32_t depthwise(uint32_t in, uint32_t c, uint32_t k, uint32_t stride, uint32_t oh, bool pool = false) {
        mw::Conv2dParams p;
        p.stride_x = p.stride_y = stride;
        if (!pool) {
            p.pad_left = p.pad_top = stride == 2 ? 0 : 1;
            p.pad_right = p.pad_bottom = 1;
        }
        std::vector<float> ws;
        mw::ConstDesc wt = weights({1, k, k, c}, c, 3, &ws);
        if (pool)
            for (auto& b : wt.bytes) b = 1;
        if (legacy) wt = mw::depthwise_weights_to_legacy(wt, 1);
        return w.add_depthwise_convolution2d("dw_" + std::to_string(id++), in, act(oh, c), p, wt, bias(ws));
    }
};

std::vector<uint8_t> build(bool legacy) {
    Net n;
    n.legacy = legacy;
    uint32_t x = n.w.add_input("input", n.act(224, 3), 0);
    x = n.relu6(n.conv(x, 3, 32, 3, 2, 112), 112, 32);
    uint32_t h = 112, c = 32;
    struct Stage { uint32_t t, c, n, s; };
    const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    for (const Stage& st : stages)
        for (uint32_t i = 0; i < st.n; ++i) {
            const uint32_t s = i == 0 ? st.s : 1, oh = h / s, e = c * st.t;
            uint32_t y = x;
            if (st.t != 1) y = n.relu6(n.conv(y, c, e, 1, 1, h), h, e);
            y = n.relu6(n.depthwise(y, e, 3, s, oh), oh, e);
            y = n.conv(y, e, st.c, 1, 1, oh);
            if (s == 1 && c == st.c) y = n.add(x, y, oh, st.c);
            x = y;
            h = oh;
            c = st.c;
        }
    x = n.relu6(n.conv(x, c, 1280, 1, 1, h), h, 1280);
    x = n.depthwise(x, 1280, 7, 1, 1, true);
    std::vector<float> ws;
    mw::ConstDesc fc = n.weights({1000, 1280}, 1000, 0, &ws);
    if (legacy) {
        // Arm Compute Library 20.08's fully connected layer wants weights of the input's type, one scale.
        ws.assign(ws.size(), ws[0]);
        fc.info = mw::tensor(fc.info.dims, fb::DataType::QAsymmS8, ws[0], 0);
    }
    mw::ConstDesc fc_bias = n.bias(ws);
    if (legacy) fc_bias.info = mw::tensor(fc_bias.info.dims, fb::DataType::Signed32, kActScale * ws[0], 0);
    x = n.w.add_fully_connected("classifier", x, mw::tensor({1, 1000}, fb::DataType::QAsymmS8, 0.1f, 0), fc, fc_bias, true);
    n.w.add_output("logits", x, 0);
    mw::WriteOptions o;
    if (legacy) o.features = mw::Features::BindingOnly;
    return n.w.finish(o);
}

}  // namespace

int main(int argc, char** argv) {
    const bool legacy = argc == 4 && std::string(argv[1]) == "--armnn-20.08";
    if (argc != 3 && !legacy) {
        std::fprintf(stderr, "usage: make-mobilenet-v2 [--armnn-20.08] OUT.armnn INPUT.bin\n");
        return 2;
    }
    argv += legacy ? 1 : 0;
    mw::write_file(argv[1], build(legacy));
    std::mt19937 rng(7);
    std::vector<uint8_t> input(224 * 224 * 3);
    for (auto& b : input) b = uint8_t(rng());
    mw::write_file(argv[2], input);
    return 0;
}

#include "tools/modelwriter/yolo_silu_style.h"

#include <cmath>
#include <random>
#include <string>

#include "tools/modelwriter/model_writer.h"

namespace npurun::modelwriter {
namespace {

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

struct Map {
    uint32_t layer, h, w, c;
};

class YoloWriter {
public:
    mw::ModelWriter w;

    Map input(uint32_t size) { return {w.add_input("image", f32({1, size, size, 3}), 0), size, size, 3}; }
    // Convolution k x k / s with TfLite SAME padding, bias, no activation.
    Map conv(const Map& x, uint32_t co, uint32_t k, uint32_t s) {
        mw::Conv2dParams p;
        p.stride_x = p.stride_y = s;
        const uint32_t oh = (x.h + s - 1) / s, ow = (x.w + s - 1) / s;
        const uint32_t th = pad_total(x.h, oh, k, s), tw = pad_total(x.w, ow, k, s);
        p.pad_top = th / 2, p.pad_bottom = th - th / 2, p.pad_left = tw / 2, p.pad_right = tw - tw / 2;
        const uint32_t id = w.add_convolution2d(name("conv"), x.layer, f32({1, oh, ow, co}), p,
                                                mw::const_f32({co, k, k, x.c}, random(size_t{co} * k * k * x.c, k * k * x.c)),
                                                mw::const_f32({co}, random(co, 16)));
        return {id, oh, ow, co};
    }
    Map sigmoid(const Map& x) {
        return {w.add_activation(name("sigmoid"), x.layer, f32(dims(x)), fb::ActivationFunction::Sigmoid), x.h, x.w, x.c};
    }
    // SiLU as the TfLite export has it: x * sigmoid(x).
    Map silu(const Map& x) {
        const Map s = sigmoid(x);
        return {w.add_plain(fb::Layer::MultiplicationLayer, fb::LayerType::Multiplication, name("silu"), {x.layer, s.layer},
                            {f32(dims(x))}),
                x.h, x.w, x.c};
    }
    Map cbs(const Map& x, uint32_t co, uint32_t k, uint32_t s) { return silu(conv(x, co, k, s)); }
    Map add(const Map& a, const Map& b) {
        return {w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, name("add"), {a.layer, b.layer}, {f32(dims(a))}),
                a.h, a.w, a.c};
    }
    Map concat(const std::vector<Map>& parts) {
        uint32_t c = 0;
        std::vector<mw::Port> ids;
        std::vector<uint32_t> offsets;
        for (const Map& m : parts) ids.push_back(mw::Port(m.layer)), offsets.push_back(c), c += m.c;
        const Map& f = parts[0];
        const uint32_t id = w.add_layer(fb::Layer::ConcatLayer, fb::LayerType::Concat, name("concat"), ids, {f32({1, f.h, f.w, c})},
                                        [offsets](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                            std::vector<flatbuffers::Offset<fb::UintVector>> v;
                                            for (uint32_t o : offsets)
                                                v.push_back(fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{0, 0, 0, o})));
                                            return fb::CreateConcatLayer(b, base, fb::CreateOriginsDescriptor(
                                                b, 3, static_cast<uint32_t>(offsets.size()), 4, b.CreateVector(v))).Union();
                                        });
        return {id, f.h, f.w, c};
    }
    // C3: cv1 -> n bottlenecks (1x1, 3x3, + residual), cv2 beside it, concat, cv3.
    Map c3(const Map& x, uint32_t co, uint32_t n) {
        Map a = cbs(x, co / 2, 1, 1);
        for (uint32_t i = 0; i < n; ++i) a = add(a, cbs(cbs(a, co / 2, 1, 1), co / 2, 3, 1));
        return cbs(concat({a, cbs(x, co / 2, 1, 1)}), co, 1, 1);
    }
    Map maxpool5(const Map& x) {
        const uint32_t id = w.add_layer(fb::Layer::Pooling2dLayer, fb::LayerType::Pooling2d, name("maxpool"), {x.layer}, {f32(dims(x))},
                                        [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                            return fb::CreatePooling2dLayer(b, base, fb::CreatePooling2dDescriptor(
                                                b, fb::PoolingAlgorithm::Max, 2, 2, 2, 2, 5, 5, 1, 1,
                                                fb::OutputShapeRounding::Floor, fb::PaddingMethod::Exclude, fb::DataLayout::NHWC)).Union();
                                        });
        return {id, x.h, x.w, x.c};
    }
    Map sppf(const Map& x, uint32_t co) {
        const Map a = cbs(x, x.c / 2, 1, 1);
        const Map p1 = maxpool5(a), p2 = maxpool5(p1), p3 = maxpool5(p2);
        return cbs(concat({a, p1, p2, p3}), co, 1, 1);
    }

private:
    std::mt19937 rng_{11};
    uint32_t count_ = 0;

    static mw::TensorDesc f32(std::vector<uint32_t> d) { return mw::tensor(std::move(d), fb::DataType::Float32); }
    static std::vector<uint32_t> dims(const Map& m) { return {1, m.h, m.w, m.c}; }
    static uint32_t pad_total(uint32_t in, uint32_t out, uint32_t k, uint32_t s) {
        const int64_t t = int64_t(out - 1) * s + k - in;
        return uint32_t(t > 0 ? t : 0);
    }
    std::string name(const char* what) { return std::string(what) + std::to_string(count_++); }
    // Uniform weights of variance 2 / fan_in (activations stay O(1) through the network).
    std::vector<float> random(size_t n, uint32_t fan_in) {
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        const float scale = std::sqrt(6.0f / float(fan_in));
        std::vector<float> v(n);
        for (auto& e : v) e = d(rng_) * scale;
        return v;
    }
};

}  // namespace

std::vector<uint8_t> yolo_silu_style(uint32_t size, uint32_t classes) {
    YoloWriter y;
    Map x = y.cbs(y.input(size), 16, 3, 2);  // size/2
    x = y.c3(y.cbs(x, 32, 3, 2), 32, 1);     // size/4
    const Map p3 = y.c3(y.cbs(x, 64, 3, 2), 64, 2);    // size/8
    const Map p4 = y.c3(y.cbs(p3, 128, 3, 2), 128, 2);  // size/16
    const Map p5 = y.sppf(y.c3(y.cbs(p4, 256, 3, 2), 256, 1), 256);  // size/32
    const uint32_t no = 3 * (5 + classes);
    const Map heads[3] = {y.sigmoid(y.conv(p3, no, 1, 1)), y.sigmoid(y.conv(p4, no, 1, 1)), y.sigmoid(y.conv(p5, no, 1, 1))};
    for (int32_t i = 0; i < 3; ++i) y.w.add_output("p" + std::to_string(i + 3), heads[i].layer, i);
    return y.w.finish();
}

}  // namespace npurun::modelwriter

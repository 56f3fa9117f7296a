#include "tools/modelwriter/float_net_writer.h"

#include <cmath>

namespace npurun::modelwriter {

namespace fb = armnnSerializer;

Map FloatNetWriter::input(const std::string& n, uint32_t h, uint32_t wd, uint32_t c) {
    return {w.add_input(n, f32({1, h, wd, c}), 0), h, wd, c};
}

Map FloatNetWriter::conv(const Map& x, uint32_t co, uint32_t k, uint32_t s) {
    const Conv2dParams p = same(x, k, s);
    const uint32_t oh = (x.h + s - 1) / s, ow = (x.w + s - 1) / s;
    const uint32_t id = w.add_convolution2d(name("conv"), x.layer, f32({1, oh, ow, co}), p,
                                            const_f32({co, k, k, x.c}, random(size_t{co} * k * k * x.c, k * k * x.c)),
                                            const_f32({co}, random(co, 16)));
    return {id, oh, ow, co};
}

Map FloatNetWriter::depthwise(const Map& x, uint32_t k, uint32_t s) {
    const Conv2dParams p = same(x, k, s);
    const uint32_t oh = (x.h + s - 1) / s, ow = (x.w + s - 1) / s;
    const uint32_t id = w.add_depthwise_convolution2d(name("dw"), x.layer, f32({1, oh, ow, x.c}), p,
                                                      const_f32({1, k, k, x.c}, random(size_t{k} * k * x.c, k * k)),
                                                      const_f32({x.c}, random(x.c, 16)));
    return {id, oh, ow, x.c};
}

Map FloatNetWriter::act(const Map& x, fb::ActivationFunction f, float a, const char* what) {
    return {w.add_activation(name(what), x.layer, f32(dims(x)), f, a), x.h, x.w, x.c};
}

Map FloatNetWriter::binary(fb::Layer l, fb::LayerType t, const Map& a, uint32_t b, const char* what) {
    return {w.add_plain(l, t, name(what), {a.layer, b}, {f32(dims(a))}), a.h, a.w, a.c};
}
Map FloatNetWriter::add(const Map& a, uint32_t b, const char* what) {
    return binary(fb::Layer::AdditionLayer, fb::LayerType::Addition, a, b, what);
}
Map FloatNetWriter::mul(const Map& a, uint32_t b, const char* what) {
    return binary(fb::Layer::MultiplicationLayer, fb::LayerType::Multiplication, a, b, what);
}

std::vector<float> FloatNetWriter::random(size_t n, uint32_t fan_in) {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    const float scale = std::sqrt(6.0f / float(fan_in));
    std::vector<float> v(n);
    for (auto& e : v) e = d(rng_) * scale;
    return v;
}

Conv2dParams FloatNetWriter::same(const Map& x, uint32_t k, uint32_t s) {
    Conv2dParams p;
    p.stride_x = p.stride_y = s;
    const auto total = [&](uint32_t in) {
        const uint32_t out = (in + s - 1) / s;
        const int64_t t = int64_t(out - 1) * s + k - in;
        return uint32_t(t > 0 ? t : 0);
    };
    p.pad_top = total(x.h) / 2, p.pad_bottom = total(x.h) - total(x.h) / 2;
    p.pad_left = total(x.w) / 2, p.pad_right = total(x.w) - total(x.w) / 2;
    return p;
}

}  // namespace npurun::modelwriter

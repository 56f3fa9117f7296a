// What the float test networks written in code share (ssd_v3_style.h, yolo_silu_style.h): feature maps as
// (layer, h, w, c), Convolution2d with TfLite SAME padding and bias, activations and element-wise layers of
// one map's shape, and fixed pseudo-random weights of variance 2 / fan_in (activations stay O(1) through the
// network), drawn in the order the layers are added.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tools/modelwriter/model_writer.h"

namespace npurun::modelwriter {

struct Map {
    uint32_t layer, h, w, c;
};

class FloatNetWriter {
public:
    explicit FloatNetWriter(uint32_t seed) : rng_(seed) {}

    ModelWriter w;

    Map input(const std::string& name, uint32_t h, uint32_t wd, uint32_t c);
    // Convolution k x k / s with TfLite SAME padding (the extra row / column at the end) and a bias.
    Map conv(const Map& x, uint32_t co, uint32_t k, uint32_t s);
    Map depthwise(const Map& x, uint32_t k, uint32_t s);
    Map act(const Map& x, armnnSerializer::ActivationFunction f, float a = 0.0f, const char* what = "act");
    // An element-wise layer of a's shape on a and the output of layer b.
    Map binary(armnnSerializer::Layer l, armnnSerializer::LayerType t, const Map& a, uint32_t b, const char* what = "ew");
    Map add(const Map& a, uint32_t b, const char* what = "ew");
    Map mul(const Map& a, uint32_t b, const char* what = "ew");

    static TensorDesc f32(std::vector<uint32_t> d) { return tensor(std::move(d), armnnSerializer::DataType::Float32); }
    static std::vector<uint32_t> dims(const Map& m) { return {1, m.h, m.w, m.c}; }
    // A layer name unique in the model: what + a running count.
    std::string name(const char* what) { return std::string(what) + std::to_string(count_++); }

private:
    std::mt19937 rng_;
    uint32_t count_ = 0;

    std::vector<float> random(size_t n, uint32_t fan_in);
    static Conv2dParams same(const Map& x, uint32_t k, uint32_t s);
};

}  // namespace npurun::modelwriter

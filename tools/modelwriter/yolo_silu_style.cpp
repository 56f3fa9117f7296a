#include "tools/modelwriter/yolo_silu_style.h"

#include <string>
#include <vector>

#include "tools/modelwriter/float_net_writer.h"

namespace npurun::modelwriter {
namespace {

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

class YoloWriter : public FloatNetWriter {
public:
    YoloWriter() : FloatNetWriter(11) {}

    Map input(uint32_t size) { return FloatNetWriter::input("image", size, size, 3); }
    Map sigmoid(const Map& x) { return act(x, fb::ActivationFunction::Sigmoid, 0.0f, "sigmoid"); }
    // SiLU as the TfLite export has it: x * sigmoid(x).
    Map silu(const Map& x) { return mul(x, sigmoid(x).layer, "silu"); }
    Map cbs(const Map& x, uint32_t co, uint32_t k, uint32_t s) { return silu(conv(x, co, k, s)); }
    Map add(const Map& a, const Map& b) { return FloatNetWriter::add(a, b.layer, "add"); }
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

#include "tools/modelwriter/ssd_v3_style.h"

#include <string>
#include <vector>

#include "tools/modelwriter/float_net_writer.h"

namespace npurun::modelwriter {
namespace {

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

class V3Writer : public FloatNetWriter {
public:
    V3Writer() : FloatNetWriter(7) {}

    Map input(uint32_t h, uint32_t wd, uint32_t c) { return FloatNetWriter::input("image", h, wd, c); }
    Map dw(const Map& x, uint32_t k, uint32_t s) { return depthwise(x, k, s); }
    uint32_t scalar(float v) { return w.add_constant(name("k"), mw::const_f32({1, 1, 1, 1}, {v})); }
    // TfLite's hard-sigmoid after Arm NN 20.08: Addition(+3) with the fused ReLU6 as its own layer, Multiplication(1/6).
    Map hard_sigmoid(const Map& x) { return mul(act(add(x, scalar(3.0f)), fb::ActivationFunction::BoundedReLu, 6.0f), scalar(1.0f / 6.0f)); }
    Map squeeze_excite(const Map& x, uint32_t squeeze) {
        const uint32_t gap = w.add_layer(fb::Layer::Pooling2dLayer, fb::LayerType::Pooling2d, name("gap"), {x.layer}, {f32({1, 1, 1, x.c})},
                                         [x](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                             return fb::CreatePooling2dLayer(b, base, fb::CreatePooling2dDescriptor(
                                                 b, fb::PoolingAlgorithm::Average, 0, 0, 0, 0, x.w, x.h, x.w, x.h,
                                                 fb::OutputShapeRounding::Floor, fb::PaddingMethod::Exclude, fb::DataLayout::NHWC)).Union();
                                         });
        Map s = act(conv({gap, 1, 1, x.c}, squeeze, 1, 1), fb::ActivationFunction::ReLu);
        return mul(x, hard_sigmoid(conv(s, x.c, 1, 1)).layer);
    }
    // expand 1x1 -> depthwise k x k -> (squeeze-excite) -> project 1x1 (+ residual).
    Map block(const Map& x, uint32_t expand, uint32_t out, uint32_t k, uint32_t s, bool se, bool hswish) {
        const auto a = [&](const Map& m) { return hswish ? act(m, fb::ActivationFunction::HardSwish) : act(m, fb::ActivationFunction::ReLu); };
        Map y = a(dw(a(conv(x, expand, 1, 1)), k, s));
        if (se) y = squeeze_excite(y, expand / 4);
        y = conv(y, out, 1, 1);
        return (s == 1 && out == x.c) ? add(y, x.layer) : y;
    }
    // SSD head: 1x1 conv to anchors*n, reshaped to [1, h*w*anchors, n].
    uint32_t head(const Map& x, uint32_t anchors, uint32_t n) {
        const Map c = conv(x, anchors * n, 1, 1);
        const uint32_t rows = x.h * x.w * anchors;
        return w.add_layer(fb::Layer::ReshapeLayer, fb::LayerType::Reshape, name("reshape"), {c.layer}, {f32({1, rows, n})},
                           [rows, n](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                               auto d = b.CreateVector(std::vector<uint32_t>{1, rows, n});
                               return fb::CreateReshapeLayer(b, base, fb::CreateReshapeDescriptor(b, d)).Union();
                           });
    }
    uint32_t concat(uint32_t a, uint32_t b, uint32_t rows_a, uint32_t rows_b, uint32_t n) {
        return w.add_layer(fb::Layer::ConcatLayer, fb::LayerType::Concat, name("concat"), {a, b}, {f32({1, rows_a + rows_b, n})},
                           [rows_a](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                               std::vector<flatbuffers::Offset<fb::UintVector>> v{
                                   fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{0, 0, 0})),
                                   fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{0, rows_a, 0}))};
                               return fb::CreateConcatLayer(b, base, fb::CreateOriginsDescriptor(b, 1, 2, 3, b.CreateVector(v))).Union();
                           });
    }
};

}  // namespace

std::vector<uint8_t> ssd_mobilenet_v3_style(uint32_t size) {
    V3Writer v;
    Map x = v.act(v.conv(v.input(size, size, 3), 16, 3, 2), fb::ActivationFunction::HardSwish);  // size/2
    x = v.block(x, 16, 16, 3, 1, false, false);
    x = v.block(x, 64, 24, 3, 2, false, false);    // size/4
    x = v.block(x, 72, 24, 3, 1, false, false);
    x = v.block(x, 72, 40, 5, 2, true, true);      // size/8
    const Map c4 = v.block(x, 120, 40, 5, 1, true, true);
    x = v.block(c4, 240, 80, 3, 2, false, true);   // size/16
    const Map c5 = v.block(x, 200, 80, 3, 1, true, true);
    const uint32_t a4 = c4.h * c4.w * 3, a5 = c5.h * c5.w * 3;
    const uint32_t boxes = v.concat(v.head(c4, 3, 4), v.head(c5, 3, 4), a4, a5, 4);
    const uint32_t cls = v.concat(v.head(c4, 3, 4), v.head(c5, 3, 4), a4, a5, 4);
    const uint32_t scores = v.w.add_activation("scores", cls, mw::tensor({1, a4 + a5, 4}), fb::ActivationFunction::Sigmoid);
    v.w.add_output("boxes", boxes, 0);
    v.w.add_output("scores", scores, 1);
    return v.w.finish();
}

}  // namespace npurun::modelwriter

// Model files that are tiny on disk but declare enormous tensors: the memory-budget and fuzz regression
// inputs. Written with the project's model writer, so the bytes are what a hostile file would hold.
#pragma once

#include <cstdint>
#include <vector>

#include "tools/modelwriter/model_writer.h"

namespace npurun::reliability_test {

namespace mw = npurun::modelwriter;

// The pipeline fuzz finding of issue 17: a Resize (NCHW) whose input is declared 1x2x3x989855747 Float32,
// i.e. 23.76 GB of activation arena, resized to a small 1x2x4x6 output. The file is a few hundred bytes.
inline std::vector<uint8_t> huge_resize_model() {
    mw::ModelWriter w;
    const uint32_t x = w.add_input("x", mw::tensor({1, 2, 3, 989855747}), 0);
    const uint32_t r = w.add_layer(mw::fb::Layer::ResizeLayer, mw::fb::LayerType::Resize, "resize", {x},
                                   {mw::tensor({1, 2, 4, 6})},
                                   [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<mw::fb::LayerBase> base) {
                                       auto d = mw::fb::CreateResizeDescriptor(b, 4, 6, mw::fb::ResizeMethod::Bilinear,
                                                                               mw::fb::DataLayout::NCHW, false, false);
                                       return mw::fb::CreateResizeLayer(b, base, d).Union();
                                   });
    w.add_output("y", r, 0);
    return w.finish();
}

// A float Abs over [1, 1, 1, n]: arena = 2 * 4 * n bytes (input and output both live for the whole run).
inline std::vector<uint8_t> abs_model(uint32_t n) {
    mw::ModelWriter w;
    const uint32_t x = w.add_input("x", mw::tensor({1, 1, 1, n}), 0);
    const uint32_t a = w.add_elementwise_unary("abs", x, mw::tensor({1, 1, 1, n}), mw::fb::UnaryOperation::Abs);
    w.add_output("y", a, 0);
    return w.finish();
}

}  // namespace npurun::reliability_test

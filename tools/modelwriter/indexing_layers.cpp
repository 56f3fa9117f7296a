// ModelWriter: the layer types Arm NN's schema gained after ElementwiseBinary (ReverseV2, Tile, ScatterNd).
#include "tools/modelwriter/model_writer.h"

namespace npurun::modelwriter {

uint32_t ModelWriter::add_reverse_v2(const std::string& name, Port in, Port axes, const TensorDesc& out) {
    return add_layer(fb::Layer::ReverseV2Layer, fb::LayerType::ReverseV2, name, {in, axes}, {out},
                     [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         return fb::CreateReverseV2Layer(b, base).Union();
                     });
}

uint32_t ModelWriter::add_tile(const std::string& name, Port in, const TensorDesc& out, const std::vector<uint32_t>& multiples) {
    return add_layer(fb::Layer::TileLayer, fb::LayerType::Tile, name, {in}, {out},
                     [multiples](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         auto d = fb::CreateTileDescriptor(b, b.CreateVector(multiples));
                         return fb::CreateTileLayer(b, base, d).Union();
                     });
}

uint32_t ModelWriter::add_scatter_nd(const std::string& name, Port data_or_shape, Port indices, Port updates,
                                     const TensorDesc& out, fb::ScatterNdFunction f, bool input_enabled, bool axis_enabled,
                                     int32_t axis) {
    return add_layer(fb::Layer::ScatterNdLayer, fb::LayerType::ScatterNd, name, {data_or_shape, indices, updates}, {out},
                     [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         auto d = fb::CreateScatterNdDescriptor(b, f, input_enabled, axis, axis_enabled);
                         return fb::CreateScatterNdLayer(b, base, d).Union();
                     });
}

}  // namespace npurun::modelwriter

// Layer mapping, the layer types Arm NN's schema gained after ElementwiseBinary: ReverseV2 (70), Tile (71),
// ScatterNd (72); numbering from Arm NN's ArmnnSchema.fbs (see schemas/ArmnnSchema.fbs).
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

// No descriptor: the axes are input 1 (a Signed32 tensor), as Arm NN's deserializer reads it.
void reverse_v2(LayerContext& c, const fb::ReverseV2Layer*) {
    expect_io(c.n, 2, 1);
    set_op(c.n, OpKind::ReverseV2, std::monostate{});
}

void tile(LayerContext& c, const fb::TileDescriptor* d) {
    expect_io(c.n, 1, 1);
    TileAttrs a;
    a.multiples = uints(d->multiples());
    check_count(a.multiples.size(), input_rank(c.g, c.n, 0), "multiples");
    set_op(c.n, OpKind::Tile, std::move(a));
}

void scatter_nd(LayerContext& c, const fb::ScatterNdDescriptor* d) {
    expect_io(c.n, 3, 1);
    check_enum(d->function(), 4, "ScatterNd function");
    // Arm NN's reference workload throws for an enabled axis; there is no defined meaning to follow.
    if (d->axisEnabled()) bad("ScatterNd with axisEnabled (axis " + std::to_string(d->axis()) + ") is not supported");
    ScatterNdAttrs a;
    a.function = static_cast<ScatterNdFunction>(enum_value(d->function()));
    a.input_enabled = d->inputEnabled();
    set_op(c.n, OpKind::ScatterNd, a);
}

}  // namespace

std::vector<LayerMapper> indexing_layers() {
    return {layer_row<fb::ReverseV2Layer, reverse_v2>(), descriptor_row<fb::TileLayer, tile>(),
            descriptor_row<fb::ScatterNdLayer, scatter_nd>()};
}

}  // namespace npurun::armnn::mapping

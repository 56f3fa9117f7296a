// Per-layer translation. Unlike Arm NN's deserializer, which silently falls back for unknown enum values
// (an unknown DataLayout becomes NCHW, an unknown Comparison becomes NotEqual, SoftReLu becomes Sigmoid),
// every enum here is range-checked and an unknown value is an error: a misread model computing the wrong
// thing is worse than a model that refuses to load.
//
// Schema defaults are used exactly as FlatBuffers delivers them when a field is absent (e.g. Softmax beta
// 0, convolution stride 0, dataLayout NCHW where the schema says so, NHWC (0) where it gives no default).
// A missing descriptor table means "all fields at their defaults".
#include "runtime/loaders/armnn/layer_mapping.h"

#include <array>
#include <string>
#include <vector>

#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn {

namespace {

using Table = std::array<void (*)(mapping::LayerContext&, const void*), 256>;

// The rows of every family, indexed by union type. A type listed twice is a programming error, caught on
// first use rather than silently mapped by whichever family comes first.
Table build_table() {
    Table t{};
    const std::vector<mapping::LayerMapper> families[] = {
        mapping::io_layers(),      mapping::elementwise_layers(),   mapping::reduce_layers(),
        mapping::conv_layers(),    mapping::normalization_layers(), mapping::movement_layers(),
        mapping::shape_layers(),   mapping::control_layers(),       mapping::lstm_layers(),
        mapping::pooling_layers(), mapping::indexing_layers(),
    };
    for (const auto& rows : families)
        for (const mapping::LayerMapper& r : rows) {
            auto& slot = t[static_cast<uint8_t>(r.type)];
            if (slot)
                fail(ErrorKind::Internal,
                     "Arm NN layer type " + std::to_string(static_cast<int>(r.type)) + " is mapped twice");
            slot = r.map;
        }
    return t;
}

}  // namespace

void map_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    static const Table table = build_table();
    const auto map = table[static_cast<uint8_t>(layer->layer_type())];
    if (!map) mapping::bad("unsupported layer type " + std::to_string(static_cast<int>(layer->layer_type())));
    mapping::LayerContext c{g, fv, n};
    map(c, layer->layer());
}

}  // namespace npurun::armnn

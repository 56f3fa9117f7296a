// Per-layer translation. Unlike Arm NN's deserializer, which silently falls back for unknown enum values
// (an unknown DataLayout becomes NCHW, an unknown Comparison becomes NotEqual, SoftReLu becomes Sigmoid),
// every enum here is range-checked and an unknown value is an error: a misread model computing the wrong
// thing is worse than a model that refuses to load.
//
// Schema defaults are used exactly as FlatBuffers delivers them when a field is absent (e.g. Softmax beta
// 0, convolution stride 0, dataLayout NCHW where the schema says so, NHWC (0) where it gives no default).
// A missing descriptor table means "all fields at their defaults".
#include "runtime/loaders/armnn/layer_mapping.h"

#include <string>

#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn {

// Each family mapper (map_<family>.cpp) takes only its own layer types.
void map_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using Mapper = bool (*)(Graph&, const FeatureVersions&, const fb::AnyLayer*, Node&);
    static const Mapper families[] = {mapping::map_io_layer, mapping::map_elementwise_layer, mapping::map_reduce_layer, mapping::map_conv_layer, mapping::map_normalization_layer, mapping::map_movement_layer, mapping::map_shape_layer, mapping::map_control_layer, mapping::map_lstm_layer, mapping::map_pooling_layer};
    for (Mapper m : families)
        if (m(g, fv, layer, n)) return;
    mapping::bad("unsupported layer type " + std::to_string(static_cast<int>(layer->layer_type())));
}

}  // namespace npurun::armnn

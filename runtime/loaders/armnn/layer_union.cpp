#include "runtime/loaders/armnn/layer_union.h"

#include <string>

namespace npurun::armnn {

using armnnSerializer::Layer;

const armnnSerializer::LayerBase* layer_base(const armnnSerializer::AnyLayer* layer) {
    if (!layer || !layer->layer()) return nullptr;
    switch (layer->layer_type()) {
#define NPURUN_BASE_CASE(T) \
    case Layer::T: return static_cast<const armnnSerializer::T*>(layer->layer())->base();
        NPURUN_ARMNN_PLAIN_LAYERS(NPURUN_BASE_CASE)
#undef NPURUN_BASE_CASE
        case Layer::InputLayer: {
            const auto* b = layer->layer_as_InputLayer()->base();
            return b ? b->base() : nullptr;
        }
        case Layer::OutputLayer: {
            const auto* b = layer->layer_as_OutputLayer()->base();
            return b ? b->base() : nullptr;
        }
        default: break;
    }
    return nullptr;
}

std::string layer_type_name(Layer t) {
    if (!is_known_layer_type(t)) return "type " + std::to_string(static_cast<int>(t));
    std::string n = armnnSerializer::EnumNameLayer(t);
    const std::string suffix = "Layer";
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
        n.resize(n.size() - suffix.size());
    return n;
}

}  // namespace npurun::armnn

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

const armnnSerializer::LayerBase* unknown_layer_base(const uint8_t* buf, size_t size,
                                                     const armnnSerializer::AnyLayer* layer) {
    if (!layer || !layer->layer()) return nullptr;
    const auto* table = static_cast<const flatbuffers::Table*>(layer->layer());
    flatbuffers::Verifier v(buf, size);
    // Field 0 of every layer table is `base` (vtable offset 4).
    constexpr flatbuffers::voffset_t kBaseField = 4;
    if (!table->VerifyTableStart(v) || !table->VerifyOffset(v, kBaseField)) return nullptr;
    const auto* base = table->GetPointer<const armnnSerializer::LayerBase*>(kBaseField);
    if (!base || !v.VerifyTable(base)) return nullptr;
    return base;
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

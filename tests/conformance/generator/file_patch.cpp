#include "tests/conformance/generator/file_patch.h"

#include <flatbuffers/flatbuffers.h>

#include <stdexcept>
#include <string>

namespace conformance {
namespace {

// FlatBuffers vtable slot of field `id` (the schema's declaration order).
constexpr flatbuffers::voffset_t field(unsigned id) { return static_cast<flatbuffers::voffset_t>(4 + 2 * id); }

// Arm NN schema facts used here: SerializedGraph.layers is field 0; AnyLayer.layer is a union (type in
// field 0, value in field 1); ActivationLayer is union member 1, with descriptor in field 1;
// ActivationDescriptor.activationFunction is field 0 (a byte).
constexpr uint8_t kActivationLayerMember = 1;

}  // namespace

void patch_activation_function(Bytes& file, uint8_t from, uint8_t to) {
    if (from == 0) throw std::runtime_error("patch_activation_function: the default function is not stored in the file");
    // The file comes from Arm NN's own serializer in this process, so it is trusted here.
    if (file.size() < 8) throw std::runtime_error("patch_activation_function: file too short");
    auto* graph = flatbuffers::GetMutableRoot<flatbuffers::Table>(file.data());
    auto* layers = graph->GetPointer<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::Table>>*>(field(0));
    if (!layers) throw std::runtime_error("patch_activation_function: no layers");
    unsigned patched = 0;
    for (flatbuffers::uoffset_t i = 0; i < layers->size(); ++i) {
        auto* any = const_cast<flatbuffers::Table*>(layers->Get(i));
        if (any->GetField<uint8_t>(field(0), 0) != kActivationLayerMember) continue;
        auto* layer = any->GetPointer<flatbuffers::Table*>(field(1));
        auto* descriptor = layer ? layer->GetPointer<flatbuffers::Table*>(field(1)) : nullptr;
        if (!descriptor || descriptor->GetField<uint8_t>(field(0), 0) != from) continue;
        if (!descriptor->SetField<uint8_t>(field(0), to, 0))
            throw std::runtime_error("patch_activation_function: activationFunction not stored");
        ++patched;
    }
    if (patched == 0) throw std::runtime_error("patch_activation_function: no Activation layer with function " +
                                               std::to_string(from));
}

}  // namespace conformance

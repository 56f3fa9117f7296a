// Maps one Arm NN layer table to an IR node: op kind, typed attributes, operand list.
#pragma once

#include <cstdint>
#include <string>

#include "ArmnnSchema_generated.h"
#include "ir/graph.h"

namespace npurun::armnn {

// FeatureCompatibilityVersions of the file; an absent table means all zeros (files before 20.02).
struct FeatureVersions {
    uint32_t binding_ids_scheme = 0;
    uint32_t weights_layout_scheme = 0;       // 0: depthwise weights [M,I,H,W]; 1: [1,H,W,I*M]
    uint32_t constant_tensors_as_inputs = 0;  // informational only: weights placement is decided per layer
};

// On entry `node` holds name/source_index, the tensors of the layer's input slots (in slot order) in
// `inputs` and of its output slots in `outputs`. map_layer sets op and attrs, appends embedded constants
// (weights, biases, batch-norm statistics, anchors, LSTM parameters) as constant input tensors, reorders
// operands where the IR prescribes an order, and checks operand counts and enum values.
// Throws Error(BadModel) with a message that does not name the layer (the caller adds that).
void map_layer(Graph& g, const FeatureVersions& fv, const armnnSerializer::AnyLayer* layer, Node& node);

}  // namespace npurun::armnn

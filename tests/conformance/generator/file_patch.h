// Byte-level edits of a serialized .armnn file, for encodings Arm NN 20.08's writer cannot produce.
//
// The generator links Arm NN's FlatBuffers code for namespace armnnSerializer, so it cannot include
// npurun's generated schema header: these functions walk the file with FlatBuffers' schema-less Table
// API and the field numbers of the Arm NN schema (`schemas/ArmnnSchema.fbs`), and edit only fields
// that are present (an in-place write keeps the buffer valid).
#pragma once

#include <cstdint>

#include "tests/conformance/generator/armnn_runner.h"

namespace conformance {

// Sets ActivationDescriptor.activationFunction of every Activation layer whose function is `from` to
// `to`. `from` must not be the schema default (Sigmoid, 0): a default field is absent from the file and
// cannot be written in place. Throws std::runtime_error when no layer matched.
void patch_activation_function(Bytes& file, uint8_t from, uint8_t to);

}  // namespace conformance

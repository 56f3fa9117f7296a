// What both FlatBuffers loaders (Arm NN, MNN) do with the model bytes before reading them: keep them
// readable in place for the graph's lifetime and verify them with the same limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <flatbuffers/flatbuffers.h>

#include "ir/graph.h"

namespace npurun {

// FlatBuffers accessors read scalars in place, so the buffer start must be aligned for the widest one
// (8 bytes); and without a keepalive the caller's buffer may go away, so constants must not point into
// it. In either case the bytes are copied into `g` and `data` is moved to the copy; otherwise `g` keeps
// `keepalive` and `data` is unchanged.
void hold_model_bytes(Graph& g, const uint8_t*& data, size_t size, std::shared_ptr<ConstantStorage> keepalive);

// The verifier limits for an untrusted model: the schemas nest about 8 deep (anything far deeper is
// malicious), real models have a few thousand tables (mobilenet: about 1000), and the table bound caps
// the verifier's time; alignment is checked because accessors read in place.
flatbuffers::Verifier::Options model_verifier_options();

}  // namespace npurun

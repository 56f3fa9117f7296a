// Loader for MNN models (.mnn): the FlatBuffers container of Alibaba's MNN, mapped to the npurun IR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ir/graph.h"
#include "runtime/loaders/load_options.h"

namespace npurun {

// True when `data` verifies as an MNN Net with ops and tensor names (MNN files carry no identifier, so
// this is how the format is recognised from content).
bool looks_like_mnn(const uint8_t* data, size_t size);

// Builds the graph of an .mnn file. The file is untrusted: the FlatBuffers verifier runs first, then every
// tensor index, op order, dimension and data length is checked; sizes are overflow-checked, cycles are
// rejected. Shapes are inferred op by op (MNN files store none except the inputs'). Every failure is an
// Error with a one-line message naming the op ("op 12 'conv1' (Convolution): ...").
Graph load_mnn(const uint8_t* data, size_t size, std::shared_ptr<ConstantStorage> keepalive,
               const LoadOptions& options);

}  // namespace npurun

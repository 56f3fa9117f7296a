// Loader for Arm NN serialized graphs (.armnn, FlatBuffers, schemas/ArmnnSchema.fbs), every release since
// 19.02: with or without the "ARMN" identifier, 2019 and current data-type numbers, featureVersions absent,
// {1} or {1,1,1}, deprecated layers, layers in any order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ir/graph.h"

namespace npurun {

// Builds the IR graph from the bytes of an .armnn file. Constant tensors point into `data` where their
// alignment allows (the graph then holds `keepalive`, which must own `data`), otherwise into copies owned
// by the graph. When `keepalive` is null every constant is copied, so `data` may be freed after the call.
// Nodes come out in a deterministic topological order (ties broken by position in the file); bindings in
// the order of the file's inputIds/outputIds.
// Throws Error(BadModel) with a one-line message naming the layer and the problem.
Graph load_armnn(const uint8_t* data, size_t size, std::shared_ptr<ConstantStorage> keepalive);

}  // namespace npurun

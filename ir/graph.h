// The graph IR: tensors (values) and nodes (operations), plus the model's input/output bindings.
//
// A Graph is immutable once a loader has built and validated it; passes produce derived structures
// (placement, plan) rather than editing it in place. Constant data is a view: into the memory-mapped
// model file where alignment allows, otherwise into storage the Graph owns (converted or realigned data).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ir/ops.h"
#include "core/types.h"

namespace npurun {

using TensorId = uint32_t;
constexpr TensorId kNoTensor = std::numeric_limits<TensorId>::max();

struct Tensor {
    std::string name;        // producer layer name + ":" + slot, for messages
    TensorInfo info;
    const void* data = nullptr;  // constant data (nullptr for values computed at run time)
    bool is_constant() const { return data != nullptr; }
};

struct Node {
    OpKind op = OpKind::Input;
    std::string name;             // layer name from the file (may be empty)
    uint32_t source_index = 0;    // the layer's index in the file (LayerBase.index), for messages
    std::vector<TensorId> inputs;   // kNoTensor for an absent optional operand
    std::vector<TensorId> outputs;
    OpAttrs attrs;

    template <class T> const T& attr() const { return std::get<T>(attrs); }
    // "layer 12 'conv1' (Convolution2d)" — the prefix of every error message about this node
    std::string describe() const;
};

struct Binding {
    std::string name;    // layer name (Arm NN looks bindings up by name)
    int32_t id = 0;      // layerBindingId
    TensorId tensor = kNoTensor;
};

// Keeps alive whatever the constant views point into (the mapped file, owned buffers).
class ConstantStorage {
public:
    virtual ~ConstantStorage() = default;
};

struct Graph {
    std::vector<Tensor> tensors;
    std::vector<Node> nodes;  // in a valid topological order once the loader has finished
    std::vector<Binding> inputs;   // in binding order (the order INPUT files are given on the command line)
    std::vector<Binding> outputs;  // in binding order

    // Owned copies of constant data (converted layouts, widened types, realigned data).
    std::vector<std::unique_ptr<uint8_t[]>> owned;
    std::shared_ptr<ConstantStorage> file;  // the mapped model file, when views point into it

    const Tensor& tensor(TensorId id) const { return tensors.at(id); }
    const TensorInfo& info(TensorId id) const { return tensors.at(id).info; }
    TensorId add_tensor(Tensor t);
    // Allocates owned, 64-byte aligned storage for `bytes` bytes and returns it (zeroed).
    uint8_t* allocate_owned(size_t bytes);
};

}  // namespace npurun

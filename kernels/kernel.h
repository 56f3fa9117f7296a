// The contract between the executor and a CPU kernel implementation (kernels/ref, kernels/neon).
//
// Kernels see no graph: a node reaches them as a KernelNode, a plain view of its op, attributes and one
// tensor descriptor (shape, data type, quantization) per operand, plus the bytes of its constant operands.
// The runtime builds these views from the graph (runtime/exec/kernel_node_view.h). A kernel is looked up
// once per node at plan time, never during Session::run.
//
// Two phases, so that run() only computes:
// - prepare (once, when the Session is created): everything that depends only on the node's shapes,
//   quantization and constant operands (packed or transposed constant weights, requantization
//   multipliers, bias terms, lookup tables, geometry) is computed into `state`, state_bytes() bytes of
//   persistent memory the memory plan sized and placed before anything was allocated.
// - run (every Session::run): receives one data pointer per input (constants point at their data; absent
//   optional operands are nullptr) and per output, a scratch area whose size it declared at plan time, and
//   its state. It may refresh the parts of the state that depend on run-time operands (e.g. the bias
//   terms of a non-constant bias), never allocates, never throws for inputs that passed `check`, and is
//   deterministic.
#pragma once

#include <cstddef>
#include <string>
#include <variant>

#include "core/types.h"
#include "ir/ops.h"

namespace npurun::kernels {

struct KernelNode {
    OpKind op = OpKind::Input;
    const OpAttrs* attrs = nullptr;
    size_t inputs = 0, outputs = 0;                  // operand counts (absent optional inputs included)
    const TensorInfo* const* input_infos = nullptr;  // [inputs]; nullptr for an absent optional operand
    const TensorInfo* const* output_infos = nullptr; // [outputs]
    const void* const* constants = nullptr;          // [inputs]; a constant operand's bytes, else nullptr

    template <class T> const T& attr() const { return std::get<T>(*attrs); }
    size_t num_inputs() const { return inputs; }
    size_t num_outputs() const { return outputs; }
    bool has_input(size_t i) const { return i < inputs && input_infos[i] != nullptr; }
    const TensorInfo& in(size_t i) const { return *input_infos[i]; }
    const TensorInfo& out(size_t i = 0) const { return *output_infos[i]; }
    // The operand's bytes when it is a constant of the model (known at prepare time), else nullptr.
    const void* constant(size_t i) const { return i < inputs ? constants[i] : nullptr; }
    bool is_constant(size_t i) const { return constant(i) != nullptr; }
};

struct KernelArgs {
    const KernelNode& node;
    const void* const* inputs;  // node.num_inputs() entries
    void* const* outputs;       // node.num_outputs() entries
    void* scratch;              // scratch_bytes() bytes, 64-byte aligned (nullptr when 0)
    void* state = nullptr;      // state_bytes() bytes filled by prepare, 64-byte aligned (nullptr when 0)
};

// What prepare sees: the node (its constant operands' bytes through node.constant(i)) and its state.
struct PrepareArgs {
    const KernelNode& node;
    void* state;  // state_bytes() bytes, 64-byte aligned, zeroed
};

struct Kernel {
    // Empty when this implementation can run the node; otherwise the reason it cannot
    // (e.g. "QSymmS16 input not supported"). Called at plan time.
    std::string (*check)(const KernelNode& node);
    size_t (*scratch_bytes)(const KernelNode& node);  // may be nullptr: none needed
    void (*run)(const KernelArgs& args);
    // Persistent per-node state: its size (nullptr or 0: none) and the function filling it (called once,
    // after check passed, before the first run).
    size_t (*state_bytes)(const KernelNode& node) = nullptr;
    void (*prepare)(const PrepareArgs& args) = nullptr;
};

}  // namespace npurun::kernels

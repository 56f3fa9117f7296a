// The contract between the executor and a CPU kernel implementation (kernels/ref, kernels/neon).
//
// A kernel is looked up once per node at plan time, never during Session::run. It receives the node,
// the graph (for tensor descriptors and attributes), one data pointer per node input (constants point
// at their data; absent optional operands are nullptr) and per output, a scratch area whose size it
// declared at plan time, and its prepared state.
//
// Two phases, so that run() only computes:
// - prepare (once, when the Session is created): everything that depends only on the node's shapes,
//   quantization and constant operands (packed or transposed constant weights, requantization
//   multipliers, bias terms, lookup tables, geometry) is computed into `state`, state_bytes() bytes of
//   persistent memory the memory plan sized and placed before anything was allocated.
// - run (every Session::run): reads `state`; it may refresh the parts of it that depend on run-time
//   operands (e.g. the bias terms of a non-constant bias), never allocates, never throws for inputs that
//   passed `check`, and is deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace npurun::kernels {

struct KernelArgs {
    const Node& node;
    const Graph& graph;
    const void* const* inputs;  // node.inputs.size() entries
    void* const* outputs;       // node.outputs.size() entries
    void* scratch;              // scratch_bytes() bytes, 64-byte aligned (nullptr when 0)
    void* state = nullptr;      // state_bytes() bytes filled by prepare, 64-byte aligned (nullptr when 0)
};

// What prepare sees: the node, and its constant operands' data (nullptr for run-time and absent operands:
// their bytes do not exist yet).
struct PrepareArgs {
    const Node& node;
    const Graph& graph;
    const void* const* constant_inputs;  // node.inputs.size() entries
    void* state;                         // state_bytes() bytes, 64-byte aligned, zeroed
};

struct Kernel {
    // Empty when this implementation can run the node; otherwise the reason it cannot
    // (e.g. "QSymmS16 input not supported"). Called at plan time.
    std::string (*check)(const Node& node, const Graph& graph);
    size_t (*scratch_bytes)(const Node& node, const Graph& graph);  // may be nullptr: none needed
    void (*run)(const KernelArgs& args);
    // Persistent per-node state: its size (nullptr or 0: none) and the function filling it (called once,
    // after check passed, before the first run).
    size_t (*state_bytes)(const Node& node, const Graph& graph) = nullptr;
    void (*prepare)(const PrepareArgs& args) = nullptr;
};

// Runs k's prepare for a node outside a Session (tests, benchmarks), its constant operands taken from the
// graph. `storage` holds the state; returns the pointer to pass as KernelArgs::state (nullptr: none).
inline void* prepare_standalone(const Kernel& k, const Node& node, const Graph& graph, std::vector<uint8_t>& storage) {
    const size_t bytes = k.state_bytes != nullptr && k.prepare != nullptr ? k.state_bytes(node, graph) : 0;
    if (bytes == 0) return nullptr;
    storage.assign(bytes + 64, 0);
    const uintptr_t p = reinterpret_cast<uintptr_t>(storage.data());
    void* state = reinterpret_cast<void*>((p + 63) & ~uintptr_t(63));
    std::vector<const void*> constants;
    for (TensorId id : node.inputs)
        constants.push_back(id != kNoTensor && id < graph.tensors.size() && graph.tensors[id].is_constant()
                                ? graph.tensors[id].data
                                : nullptr);
    k.prepare(PrepareArgs{node, graph, constants.data(), state});
    return state;
}

}  // namespace npurun::kernels

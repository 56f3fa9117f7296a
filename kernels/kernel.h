// The contract between the executor and a CPU kernel implementation (kernels/ref, kernels/neon).
//
// A kernel is looked up once per node at plan time, never during Session::run. It receives the node,
// the graph (for tensor descriptors and attributes), one data pointer per node input (constants point
// at their data; absent optional operands are nullptr) and per output, and a scratch area whose size it
// declared at plan time. A kernel must not allocate, must not throw on the run path for inputs that
// passed `check`, and must be deterministic.
#pragma once

#include <cstddef>
#include <string>

#include "ir/graph.h"

namespace npurun::kernels {

struct KernelArgs {
    const Node& node;
    const Graph& graph;
    const void* const* inputs;  // node.inputs.size() entries
    void* const* outputs;       // node.outputs.size() entries
    void* scratch;              // scratch_bytes() bytes, 64-byte aligned (nullptr when 0)
};

struct Kernel {
    // Empty when this implementation can run the node; otherwise the reason it cannot
    // (e.g. "QSymmS16 input not supported"). Called at plan time.
    std::string (*check)(const Node& node, const Graph& graph);
    size_t (*scratch_bytes)(const Node& node, const Graph& graph);  // may be nullptr: none needed
    void (*run)(const KernelArgs& args);
};

}  // namespace npurun::kernels

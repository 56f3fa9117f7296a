// The static memory plan of a graph: every run-time tensor and every kernel's scratch area gets a fixed
// offset in one arena, computed once when a session is created.
//
// Steps are the graph's nodes in their stored (topological) order. A tensor is live from the step that
// produces it to the last step that reads it; model inputs and outputs are live for the whole run (inputs
// are written before run() and may be reused by the next run; outputs must stay readable after it).
// Constant tensors live in the model, not in the arena. A Reshape's output aliases its input (same bytes,
// new descriptor), so that node needs no step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace npurun::plan {

struct MemoryPlan {
    static constexpr size_t kNotInArena = SIZE_MAX;

    std::vector<size_t> tensor_offsets;   // per TensorId; kNotInArena for constants and unused tensors
    std::vector<size_t> scratch_offsets;  // per node; kNotInArena when the node needs no scratch
    std::vector<bool> aliased_nodes;      // per node; true for a Reshape whose output shares its input's
                                          // buffer: it needs no step
    size_t arena_bytes = 0;               // size of the arena all offsets point into
    size_t naive_bytes = 0;               // what one buffer per tensor/scratch (no sharing) would need
    size_t num_buffers = 0;               // distinct buffers in the arena (tensors, scratch areas)
};

// The nodes whose output can alias their input (Reshape of a run-time tensor): they need no kernel.
std::vector<bool> find_aliased_nodes(const Graph& graph);

// `scratch_bytes` has one entry per node (or is empty: no node needs scratch). Throws Error(BadModel) for
// a graph whose tensors are not produced exactly once before use, or whose sizes overflow.
MemoryPlan plan_memory(const Graph& graph, const std::vector<size_t>& scratch_bytes);

}  // namespace npurun::plan

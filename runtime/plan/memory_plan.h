// The static memory plan of a graph: every run-time tensor and every kernel's scratch area gets a fixed
// offset in one arena, computed once when a session is created.
//
// Steps are the graph's nodes in their stored (topological) order, or in a given schedule (another
// topological order, e.g. one that groups NPU segments: runtime/passes/segment_schedule.h). A tensor is live from the step that
// produces it to the last step that reads it; model inputs and outputs are live for the whole run (inputs
// are written before run() and may be reused by the next run; outputs must stay readable after it).
// Constant tensors live in the model, not in the arena. A Reshape's output aliases its input (same bytes,
// new descriptor), so that node needs no step.
//
// Kernels' prepared state (kernel.h: packed weights, requantization tables, ...) is persistent: it lives
// for the whole session, so each node's state gets its own region after the arena, never shared. Both
// sizes are known here, before anything is allocated, so a memory budget can be checked against
// total_bytes().
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
    std::vector<size_t> state_offsets;    // per node, from the start of the state region; kNotInArena: none
    std::vector<bool> aliased_nodes;      // per node; true for a Reshape whose output shares its input's
                                          // buffer: it needs no step
    size_t arena_bytes = 0;               // size of the arena all offsets point into
    size_t naive_bytes = 0;               // what one buffer per tensor/scratch (no sharing) would need
    size_t num_buffers = 0;               // distinct buffers in the arena (tensors, scratch areas)
    size_t state_bytes = 0;               // the persistent state region (every node's prepared state)

    // One allocation holds the arena, then (64-byte aligned) the state region.
    size_t state_region_offset() const { return (arena_bytes + kAlignment - 1) / kAlignment * kAlignment; }
    size_t total_bytes() const { return state_region_offset() + state_bytes; }
    static constexpr size_t kAlignment = 64;
};

// The nodes whose output can alias their input (Reshape of a run-time tensor): they need no kernel.
std::vector<bool> find_aliased_nodes(const Graph& graph);

// `scratch_bytes` and `state_bytes` have one entry per node (or are empty: no node needs any). Throws
// Error(BadModel) for a graph whose tensors are not produced exactly once before use, or whose sizes overflow.
// `order` (empty: the stored order) lists every node index once, in the order the steps run.
MemoryPlan plan_memory(const Graph& graph, const std::vector<size_t>& scratch_bytes,
                       const std::vector<size_t>& state_bytes = {}, const std::vector<uint32_t>& order = {});

}  // namespace npurun::plan

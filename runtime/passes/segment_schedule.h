// The order nodes run in, chosen so NPU work groups into few segments.
//
// A segment is a run of NPU nodes of one arithmetic domain in schedule order, and every segment edge costs a
// layout conversion, a submit and a CPU round trip. The loader's order is one valid topological order; a
// detection network's heads (Reshape / Concat / Softmax on the CPU after every box and class convolution)
// interleave CPU nodes with the backbone in it, cutting the backbone into one segment per head. Any other
// topological order computes the same values (every node reads only what its producers wrote), so the
// schedule may move a CPU node later, past NPU work it does not feed.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace npurun {

// What a node is for scheduling: Neutral (Input / Output / Constant: never breaks a run), Cpu, or an NPU
// run class (one per arithmetic domain: nodes of one class can share a segment).
struct ScheduleClass {
    static constexpr int kNeutral = -2;
    static constexpr int kCpu = -1;
};

// A topological order of `graph`'s nodes that keeps each class's work together: among the nodes whose
// inputs are all produced, it takes the lowest-index one of the class it is running, and switches class
// only when that class has nothing ready (then to the lowest-index ready node's class). Neutral nodes run as
// soon as they are ready. `node_class[i]` is node i's class (ScheduleClass or an NPU class >= 0). Ties go to
// the lowest index, so the result is deterministic. Throws Error(BadModel) when the graph has a cycle or
// reads a tensor nothing produces (the memory planner's checks would name it later otherwise).
std::vector<uint32_t> schedule_by_class(const Graph& graph, const std::vector<int>& node_class);

// The number of runs of NPU classes in `order` (what the placement would make segments of).
size_t count_npu_runs(const std::vector<uint32_t>& order, const std::vector<int>& node_class);

}  // namespace npurun

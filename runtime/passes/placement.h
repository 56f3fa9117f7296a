// Placement: which device runs each node, which activations fold into the NPU layer before them, and
// how NPU nodes group into segments (one job submission each).
//
// Layout (NHWC <-> NC1HWC2) and quantization conversions happen only at segment edges: inside a segment
// tensors stay in the NPU's native layout.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "runtime/passes/npu_support.h"

namespace npurun {

enum class Placed { Cpu, Npu, Fused };  // Fused: executed as part of the NPU node `fused_into`
const char* to_string(Placed p);

struct NodePlacement {
    Placed device = Placed::Cpu;
    std::string reason;        // why not on the NPU (empty when on the NPU)
    std::string note;          // NPU nodes: how the backend lowers it, when it says (lowering_note)
    int fused_into = -1;       // node index, when device == Fused
    int segment = -1;          // segment index, for Npu and Fused nodes
    NpuDomain domain = NpuDomain::Int8;
};

struct Segment {
    std::vector<uint32_t> nodes;     // node indices in schedule order (fused activations included)
    std::vector<TensorId> inputs;    // runtime tensors read from outside the segment
    std::vector<TensorId> outputs;   // tensors produced inside and read outside (or model outputs)
    NpuDomain domain = NpuDomain::Int8;
};

struct PlacementOptions {
    bool use_npu = false;  // false: everything on the CPU (--device cpu)
    NpuPolicy policy;
    // The backend's own answer for a node the checker accepts, e.g. an op it has no lowering for yet
    // (the NPU backend: its operation units' cheap checks, runtime/npu/npu_op.h). Unset: every accepted
    // node is taken.
    std::function<Refusal(const Graph&, const Node&, NpuDomain)> lowering_refusal;
    // The backend's remark on an NPU node whose main input comes from the host (a segment input read by no
    // other node of its segment), for `npurun --explain`; "" for none. Unset: no remarks.
    std::function<std::string(const Graph&, const Node&, NpuDomain)> lowering_note;
};

struct Placement {
    std::vector<NodePlacement> nodes;  // one per graph node
    std::vector<Segment> segments;
    // The schedule: node indices in the order they run (a topological order; segment_schedule.h). Each
    // segment is a run of it. The graph's own order unless reordering makes fewer segments.
    std::vector<uint32_t> order;
};

Placement place(const Graph& graph, const PlacementOptions& options);

// The `npurun --explain` table: one line per node: index, name, op, device, reason (CPU) or note (NPU).
std::string explain(const Graph& graph, const Placement& placement);

// The last line of explain(): "NPU share of MACs: X%" (one decimal; runtime/passes/layer_macs.h defines MACs).
std::string npu_mac_share_line(const Graph& graph, const Placement& placement);

}  // namespace npurun

// The NPU backend of a session: opens the device, places the graph (support checker + what this backend
// can lower), compiles every segment at load and hands the executor one step per segment.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/exec/executor.h"
#include "runtime/npu/compiled_segment.h"
#include "runtime/npu/npu_context.h"
#include "runtime/passes/placement.h"

namespace npurun::npu {

// Placement options for an NPU session: the checker's policy plus this backend's lowering refusals.
PlacementOptions npu_placement_options(bool fp16);

class NpuBackend {
public:
    // kind: Npu or Sim. cores: NPU cores a large convolution may be split over (0 = auto, 1..3).
    // Throws Error(Device) when the device cannot be opened.
    NpuBackend(const Graph& g, DeviceKind kind, bool fp16, unsigned cores = 0);

    // The graph the session runs: the model's, or its rewrite with Lstm layers decomposed into NPU operations
    // (runtime/passes/lstm_lowering.h). Placement, segments and the executor all use this one.
    const Graph& graph() const { return graph_; }
    const Placement& placement() const { return placement_; }
    // The executor's external steps; the segments are compiled when the executor calls build().
    const exec::ExternalSteps& external_steps() const { return external_; }
    const std::vector<std::unique_ptr<CompiledSegment>>& segments() const { return segments_; }
    // The one segment that reads model input `t` (output: writes model output `t`) in its own NPU buffer
    // (zero-copy binding), or Error(BadInput) naming why `t` cannot be bound (CPU reader, view, ...).
    CompiledSegment& native_segment(TensorId t, bool output);
    NpuContext& context() { return *context_; }
    const NpuContext& context() const { return *context_; }

private:
    std::unique_ptr<NpuContext> context_;  // opened first: no device, no work on the graph
    std::unique_ptr<Graph> lowered_;       // before graph_, which may refer to it
    const Graph& graph_;
    Placement placement_;
    exec::ExternalSteps external_;
    std::vector<std::unique_ptr<CompiledSegment>> segments_;
};

// Writes every compiled segment's regcmd buffer to `dir` (created if missing): seg<N>.regcmd holds the
// raw little-endian qwords (readable with `regcmd-dump`), seg<N>.txt the task table (address, entries,
// op_en) and the decoder's one-line description of every task. Throws Error(Runtime) on I/O failure.
void dump_regcmd(const NpuBackend& backend, const std::string& dir);

}  // namespace npurun::npu

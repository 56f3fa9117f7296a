// The executor: a graph turned into a flat list of kernel calls over one pre-planned arena.
//
// Everything that can be decided before run() is decided in the constructor: which kernel runs each node,
// where every tensor, scratch area and prepared kernel state lives, every kernel's prepare (once), every
// pointer a kernel will receive. run() then walks a flat
// vector of steps; it allocates nothing and never looks at the graph's structure. Backends plug in through
// the KernelSelector (reference kernels today; NEON and NPU steps later use the same Step shape).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "kernels/kernel.h"
#include "runtime/exec/kernel_node_view.h"
#include "ir/graph.h"
#include "runtime/plan/memory_budget.h"
#include "runtime/plan/memory_plan.h"

namespace npurun::exec {

// A kernel implementation for a node, or nullptr when the backend has none for its op.
using KernelSelector = std::function<const kernels::Kernel*(const Node&, const Graph&)>;

// Nodes that only name memory (model inputs/outputs bind arena tensors, constants point into the model):
// they get no step.
bool is_structural(OpKind op);

struct Step {
    void (*run)(const kernels::KernelArgs&);
    kernels::KernelArgs args;  // every pointer resolved at construction
    uint32_t node_index;
    int32_t external = -1;     // >= 0: runs ExternalStep #external instead of `run`
    uint32_t profile_begin = 0, profile_count = 1;  // its rows in profile()
};

class Executor;

// A step another backend runs for a group of nodes (an NPU segment: copy in, submit, wait, copy out).
struct ExternalStep {
    uint32_t first_node = 0;                                  // runs where this node would
    std::function<void()> run;
    // Profile rows (one per layer of the group), refreshed after each profiled run; `microseconds` is
    // filled by the executor: the step's time shared among the rows in proportion to their MACs.
    std::function<std::vector<LayerProfile>()> profile_rows;
    // Timeline spans of the last run (conversions, submit, wait, tasks), appended after the step's own span;
    // `origin` is the start of Executor::run(). Optional; called by Executor::trace(), after the run.
    std::function<void(std::chrono::steady_clock::time_point origin, std::vector<TraceSpan>& out)> trace;
};

// Nodes some backend takes over. `handled[i]`: node i gets no kernel; `build` is called once the arena
// exists (so the backend can resolve its boundary tensors' storage) and returns the steps.
struct ExternalSteps {
    std::vector<bool> handled;
    // The order the nodes run in (every node index once, a topological order), or empty: the graph's own.
    // The NPU backend's placement may reorder to keep segments whole (runtime/passes/segment_schedule.h).
    std::vector<uint32_t> order;
    std::function<std::vector<ExternalStep>(Executor&)> build;
};

class Executor {
public:
    // Throws Error(Unsupported) naming the first node without a usable kernel, Error(BadModel) for
    // a graph the planner rejects. `device_name` labels the profile rows. `budget` (optional, must outlive
    // the executor): the arena is reserved in it before it is allocated (Error(Unsupported) when too large);
    // external backends reserve their buffers through memory_budget().
    Executor(const Graph& graph, const KernelSelector& select, bool profile, std::string device_name,
             const ExternalSteps* external = nullptr, plan::MemoryBudget* budget = nullptr);

    void run();

    // Where a run-time tensor lives in the arena (constants: their data); nullptr if it has no storage.
    void* tensor_data(TensorId id);
    const plan::MemoryPlan& plan() const { return plan_; }
    const std::vector<Step>& steps() const { return steps_; }
    const std::vector<LayerProfile>& profile() const { return profile_; }
    plan::MemoryBudget* memory_budget() const { return budget_; }
    // The last profiled run as timeline spans (empty before one); built here from the times run() stored.
    std::vector<TraceSpan> trace() const;

private:
    // The constructor's steps, in order.
    void choose_kernels(const KernelSelector& select, const std::string& device_name, const ExternalSteps* external);
    void allocate();
    void prepare_kernels();
    void build_steps(const std::string& device_name, const ExternalSteps* external);
    void add_external_step(size_t node_index, size_t external_index);
    void* state_of(size_t node);  // the node's prepared state, nullptr when it has none

    const Graph& graph_;
    std::vector<uint32_t> order_;  // node indices in run order
    plan::MemoryBudget* budget_ = nullptr;
    std::vector<const kernels::Kernel*> chosen_;  // per node, nullptr: no kernel step
    std::vector<std::unique_ptr<KernelNodeView>> views_;  // per node with a kernel: what the kernel sees
    std::vector<size_t> scratch_sizes_, state_sizes_;  // per node
    plan::MemoryPlan plan_;
    std::unique_ptr<uint8_t[]> arena_storage_;  // arena + state region, over-allocated so `arena_` can be 64-byte aligned
    uint8_t* arena_ = nullptr;
    std::vector<const void*> input_pointers_;   // the pools the steps' pointer arrays point into
    std::vector<void*> output_pointers_;
    std::vector<Step> steps_;
    std::vector<ExternalStep> externals_;
    bool profiling_ = false;
    std::vector<LayerProfile> profile_;  // one row per step, preallocated; run() only stores times
    std::vector<std::pair<double, double>> step_times_;  // profiling: start (us from origin_) and duration per step
    std::chrono::steady_clock::time_point origin_{};     // start of the last profiled run
};

}  // namespace npurun::exec

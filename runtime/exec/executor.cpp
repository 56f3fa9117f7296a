#include "runtime/exec/executor.h"

#include <cstring>

#include "core/checked_math.h"
#include "core/error.h"
#include "kernels/neon/thread_pool.h"
#include "runtime/plan/arena_allocator.h"
#include "core/checked_math.h"

namespace npurun::exec {

bool is_structural(OpKind op) { return op == OpKind::Input || op == OpKind::Output || op == OpKind::Constant; }

Executor::Executor(const Graph& graph, const KernelSelector& select, bool profile, std::string device_name,
                   const ExternalSteps* external, plan::MemoryBudget* budget)
    : graph_(graph), budget_(budget), profiling_(profile) {
    if (external != nullptr && !external->order.empty()) {
        order_ = external->order;  // plan_memory checks it lists every node once
    } else {
        order_.resize(graph.nodes.size());
        for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
    }
    choose_kernels(select, device_name, external);
    allocate();
    prepare_kernels();
    build_steps(device_name, external);
}

// A kernel for every computing node, checked now so run() cannot meet an unsupported layer; its scratch and
// prepared-state sizes.
void Executor::choose_kernels(const KernelSelector& select, const std::string& device_name, const ExternalSteps* external) {
    const Graph& graph = graph_;
    auto handled = [&](size_t i) { return external != nullptr && i < external->handled.size() && external->handled[i]; };
    chosen_.assign(graph.nodes.size(), nullptr);
    views_.resize(graph.nodes.size());
    scratch_sizes_.assign(graph.nodes.size(), 0);
    state_sizes_.assign(graph.nodes.size(), 0);
    const std::vector<bool> aliased = plan::find_aliased_nodes(graph);  // Reshapes: no kernel, no step
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& node = graph.nodes[i];
        if (is_structural(node.op) || aliased[i] || handled(i)) continue;
        const kernels::Kernel* k = select(node, graph);
        if (k == nullptr || k->run == nullptr)
            fail(ErrorKind::Unsupported, node.describe() + ": no " + device_name + " kernel for this layer type");
        views_[i] = std::make_unique<KernelNodeView>(node, graph);
        const kernels::KernelNode& view = *views_[i];
        if (k->check != nullptr) {
            const std::string reason = k->check(view);
            if (!reason.empty()) fail(ErrorKind::Unsupported, node.describe() + ": not supported on " + device_name + ": " + reason);
        }
        if (k->scratch_bytes != nullptr) scratch_sizes_[i] = k->scratch_bytes(view);
        if (k->state_bytes != nullptr && k->prepare != nullptr) state_sizes_[i] = k->state_bytes(view);
        chosen_[i] = k;
    }
}

// The memory plan, then the one allocation it sizes: the arena and the prepared-state region after it
// (zeroed, so even a kernel bug reads deterministic bytes).
void Executor::allocate() {
    plan_ = plan::plan_memory(graph_, scratch_sizes_, state_sizes_, order_);
    size_t bytes = 0;  // + alignment slack; the plan checked total_bytes() itself
    if (!checked_add(plan_.total_bytes(), plan::kArenaAlignment, &bytes))
        fail(ErrorKind::BadModel, "memory plan: arena and prepared state size overflow");
    if (budget_ != nullptr)
        budget_->reserve(bytes, "the activation arena and the kernels' prepared state (" + std::to_string(plan_.num_buffers) +
                                    " tensors and kernel scratch areas)");
    arena_storage_.reset(new uint8_t[bytes]);
    std::memset(arena_storage_.get(), 0, bytes);
    const uintptr_t base = reinterpret_cast<uintptr_t>(arena_storage_.get());
    arena_ = arena_storage_.get() + ((plan::kArenaAlignment - base % plan::kArenaAlignment) % plan::kArenaAlignment);
}

void* Executor::state_of(size_t node) {
    const size_t off = plan_.state_offsets.empty() ? plan::MemoryPlan::kNotInArena : plan_.state_offsets[node];
    return off == plan::MemoryPlan::kNotInArena ? nullptr : arena_ + plan_.state_region_offset() + off;
}

// Each kernel's prepare, once (its view carries the constant operands' bytes; run-time tensors have none yet).
void Executor::prepare_kernels() {
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
        if (chosen_[i] == nullptr || chosen_[i]->prepare == nullptr || state_sizes_[i] == 0) continue;
        chosen_[i]->prepare(kernels::PrepareArgs{*views_[i], state_of(i)});
    }
}

// The flat step list. The pools are sized first so the pointers into them stay valid.
void Executor::build_steps(const std::string& device_name, const ExternalSteps* external) {
    const Graph& graph = graph_;
    size_t num_in = 0, num_out = 0, num_steps = 0;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        if (chosen_[i] == nullptr) continue;
        num_in += graph.nodes[i].inputs.size();
        num_out += graph.nodes[i].outputs.size();
        ++num_steps;
    }
    if (external != nullptr && external->build) externals_ = external->build(*this);
    input_pointers_.reserve(num_in);
    output_pointers_.reserve(num_out);
    steps_.reserve(num_steps + externals_.size());
    for (const uint32_t i : order_) {
        for (size_t e = 0; e < externals_.size(); ++e)
            if (externals_[e].first_node == i) add_external_step(i, e);
        if (chosen_[i] == nullptr) continue;
        const Node& node = graph.nodes[i];
        const size_t in_begin = input_pointers_.size(), out_begin = output_pointers_.size();
        for (TensorId id : node.inputs) input_pointers_.push_back(id == kNoTensor ? nullptr : tensor_data(id));
        for (TensorId id : node.outputs) {
            if (id != kNoTensor && graph.tensors[id].is_constant())
                fail(ErrorKind::BadModel, node.describe() + ": writes into constant tensor '" + graph.tensors[id].name + "'");
            output_pointers_.push_back(id == kNoTensor ? nullptr : tensor_data(id));
        }
        void* scratch_ptr = plan_.scratch_offsets[i] == plan::MemoryPlan::kNotInArena ? nullptr
                                                                                       : arena_ + plan_.scratch_offsets[i];
        steps_.push_back(Step{chosen_[i]->run,
                              kernels::KernelArgs{*views_[i], input_pointers_.data() + in_begin,
                                                  output_pointers_.data() + out_begin, scratch_ptr, state_of(i)},
                              uint32_t(i)});
        steps_.back().profile_begin = uint32_t(profile_.size());
        if (profiling_) {
            LayerProfile row;
            row.name = node.name.empty() ? node.describe() : node.name;
            row.type = to_string(node.op);
            row.device = device_name;
            if (!node.outputs.empty() && node.outputs[0] != kNoTensor) row.output_shape = graph.info(node.outputs[0]).shape;
            profile_.push_back(std::move(row));
        }
    }
}

void Executor::add_external_step(size_t node_index, size_t e) {
    static const kernels::KernelNode kNoKernelNode{};  // an external step runs no kernel
    Step st{nullptr, kernels::KernelArgs{kNoKernelNode, nullptr, nullptr, nullptr}, uint32_t(node_index)};
    st.external = int32_t(e);
    st.profile_begin = uint32_t(profile_.size());
    st.profile_count = 0;
    if (profiling_ && externals_[e].profile_rows) {
        for (LayerProfile& row : externals_[e].profile_rows()) profile_.push_back(std::move(row));
        st.profile_count = uint32_t(profile_.size()) - st.profile_begin;
    }
    steps_.push_back(st);
}

void* Executor::tensor_data(TensorId id) {
    if (id >= graph_.tensors.size()) return nullptr;
    const Tensor& t = graph_.tensors[id];
    // Constant views are handed to kernels as read-only inputs; the cast only satisfies the pointer type.
    if (t.is_constant()) return const_cast<void*>(t.data);
    const size_t off = plan_.tensor_offsets[id];
    return off == plan::MemoryPlan::kNotInArena ? nullptr : arena_ + off;
}

std::vector<TraceSpan> Executor::trace() const {
    std::vector<TraceSpan> spans;
    if (!profiling_ || step_times_.size() != steps_.size()) return spans;
    for (size_t si = 0; si < steps_.size(); ++si) {
        const Step& s = steps_[si];
        const auto [start, us] = step_times_[si];
        if (s.external < 0) {
            const LayerProfile& row = profile_[s.profile_begin];
            spans.push_back(TraceSpan{row.name, "cpu", "cpu", start, us, {{"type", row.type}, {"output", row.output_shape.str()}}});
            continue;
        }
        spans.push_back(TraceSpan{"npu segment " + std::to_string(s.external), "npu segment",
                                  "npu segment " + std::to_string(s.external), start, us,
                                  {{"layers", std::to_string(s.profile_count)}}});
        const ExternalStep& e = externals_[size_t(s.external)];
        if (e.trace) e.trace(origin_, spans);
    }
    return spans;
}

void Executor::run() {
    if (!profiling_) {
        for (const Step& s : steps_) {
            if (s.external >= 0)
                externals_[size_t(s.external)].run();
            else
                s.run(s.args);
        }
        return;
    }
    // Only times are stored here (the trace is assembled by trace(), after the run): run() allocates nothing.
    const auto origin = std::chrono::steady_clock::now();
    origin_ = origin;
    step_times_.resize(steps_.size());  // sized once; no allocation after the first run
    for (size_t si = 0; si < steps_.size(); ++si) {
        const Step& s = steps_[si];
        kernels::neon::reset_parallel_stats();
        const auto t0 = std::chrono::steady_clock::now();
        if (s.external >= 0)
            externals_[size_t(s.external)].run();
        else
            s.run(s.args);
        const auto t1 = std::chrono::steady_clock::now();
        const double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
        step_times_[si] = {std::chrono::duration<double, std::micro>(t0 - origin).count(), us};
        if (s.external < 0) {
            profile_[s.profile_begin].microseconds = us;
            profile_[s.profile_begin].threads = kernels::neon::parallel_stats().max_threads;
            continue;
        }
        const ExternalStep& e = externals_[size_t(s.external)];
        if (!e.profile_rows || s.profile_count == 0) continue;
        std::vector<LayerProfile> rows = e.profile_rows();
        uint64_t total_macs = 0;
        for (const LayerProfile& r : rows) total_macs += r.macs;
        for (uint32_t k = 0; k < s.profile_count && k < rows.size(); ++k) {
            rows[k].microseconds = total_macs ? us * double(rows[k].macs) / double(total_macs) : us / double(s.profile_count);
            profile_[s.profile_begin + k] = std::move(rows[k]);
        }
    }
}

}  // namespace npurun::exec

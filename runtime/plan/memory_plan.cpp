#include "runtime/plan/memory_plan.h"

#include <algorithm>
#include <string>

#include "core/error.h"
#include "runtime/plan/arena_allocator.h"
#include "core/checked_math.h"

namespace npurun::plan {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;

struct Lifetime {
    uint32_t producer = kUnset;  // step (position in the schedule) that writes the tensor
    uint32_t last_use = kUnset;  // last step that reads it
    uint32_t producer_node = kUnset;  // the node at step `producer`, for messages
    bool bound_input = false;    // written by the user before run() and reused by later runs: always live
    bool bound_output = false;   // read by the user after run(): live from its producer to the end
};

std::string tensor_label(const Graph& g, TensorId id) {
    const std::string& name = g.tensors[id].name;
    return name.empty() ? "tensor " + std::to_string(id) : "tensor '" + name + "'";
}

void check_id(const Graph& g, const Node& node, TensorId id) {
    if (id >= g.tensors.size())
        fail(ErrorKind::BadModel, node.describe() + ": refers to tensor " + std::to_string(id) + " of " +
                                      std::to_string(g.tensors.size()));
}

// Every node's prepared state, one after the other (persistent: nothing is shared), 64-byte aligned.
void place_states(const std::vector<size_t>& state_bytes, const std::vector<bool>& aliased, MemoryPlan* plan) {
    plan->state_offsets.assign(plan->scratch_offsets.size(), MemoryPlan::kNotInArena);
    size_t end = 0;
    for (size_t step = 0; step < state_bytes.size(); ++step) {
        if (state_bytes[step] == 0 || aliased[step]) continue;
        plan->state_offsets[step] = end;
        if (!checked_align_up(state_bytes[step], MemoryPlan::kAlignment, &end) ||
            !checked_add(plan->state_offsets[step], end, &end))
            fail(ErrorKind::BadModel, "memory plan: total prepared kernel state size overflows");
    }
    plan->state_bytes = end;
    size_t total = 0;
    if (!checked_align_up(plan->arena_bytes, MemoryPlan::kAlignment, &total) || !checked_add(total, end, &total))
        fail(ErrorKind::BadModel, "memory plan: arena and prepared state size overflow");
}

}  // namespace

std::vector<bool> find_aliased_nodes(const Graph& graph) {
    // A Reshape changes only the descriptor, never the bytes, and no kernel writes into its inputs: its
    // output can share its input's buffer, which then lives as long as either needs it.
    std::vector<bool> bound_input(graph.tensors.size(), false);
    for (const Binding& b : graph.inputs)
        if (b.tensor < graph.tensors.size()) bound_input[b.tensor] = true;
    std::vector<bool> aliased(graph.nodes.size(), false);
    for (size_t step = 0; step < graph.nodes.size(); ++step) {
        const Node& node = graph.nodes[step];
        if (node.op != OpKind::Reshape || node.inputs.empty() || node.outputs.size() != 1) continue;
        const TensorId x = node.inputs[0], y = node.outputs[0];
        if (x >= graph.tensors.size() || y >= graph.tensors.size()) continue;  // plan_memory reports these
        if (graph.tensors[x].is_constant() || graph.tensors[y].is_constant() || bound_input[y]) continue;
        if (graph.tensors[x].info.num_bytes() != graph.tensors[y].info.num_bytes()) continue;
        aliased[step] = true;
    }
    return aliased;
}

MemoryPlan plan_memory(const Graph& graph, const std::vector<size_t>& scratch_bytes, const std::vector<size_t>& state_bytes,
                       const std::vector<uint32_t>& order_in) {
    const size_t num_nodes = graph.nodes.size();
    // The schedule: node_at[step] is the node that runs at that step.
    std::vector<uint32_t> node_at = order_in;
    if (node_at.empty()) {
        node_at.resize(num_nodes);
        for (uint32_t i = 0; i < num_nodes; ++i) node_at[i] = i;
    } else {
        std::vector<bool> seen(num_nodes, false);
        if (node_at.size() != num_nodes) fail(ErrorKind::Internal, "memory plan: the schedule must list every node once");
        for (uint32_t i : node_at) {
            if (i >= num_nodes || seen[i]) fail(ErrorKind::Internal, "memory plan: the schedule must list every node once");
            seen[i] = true;
        }
    }
    if (!scratch_bytes.empty() && scratch_bytes.size() != num_nodes)
        fail(ErrorKind::Internal, "memory plan: one scratch size per node expected");
    if (!state_bytes.empty() && state_bytes.size() != num_nodes)
        fail(ErrorKind::Internal, "memory plan: one state size per node expected");
    if (num_nodes >= kUnset) fail(ErrorKind::BadModel, "memory plan: too many layers");
    const uint32_t last_step = num_nodes == 0 ? 0 : uint32_t(num_nodes - 1);

    std::vector<Lifetime> life(graph.tensors.size());
    for (const Binding& b : graph.inputs) {
        if (b.tensor >= graph.tensors.size()) fail(ErrorKind::BadModel, "input binding '" + b.name + "' has no tensor");
        life[b.tensor].bound_input = true;
    }
    for (const Binding& b : graph.outputs) {
        if (b.tensor >= graph.tensors.size()) fail(ErrorKind::BadModel, "output binding '" + b.name + "' has no tensor");
        life[b.tensor].bound_output = true;
    }

    for (uint32_t step = 0; step < num_nodes; ++step) {
        const Node& node = graph.nodes[node_at[step]];
        for (TensorId id : node.inputs) {
            if (id == kNoTensor) continue;
            check_id(graph, node, id);
            if (graph.tensors[id].is_constant()) continue;
            Lifetime& l = life[id];
            if (l.producer == kUnset && !l.bound_input)
                fail(ErrorKind::BadModel, node.describe() + ": reads " + tensor_label(graph, id) +
                                              " before any layer produces it");
            l.last_use = step;
        }
        for (TensorId id : node.outputs) {
            if (id == kNoTensor) continue;
            check_id(graph, node, id);
            if (graph.tensors[id].is_constant()) continue;
            Lifetime& l = life[id];
            if (l.producer != kUnset)
                fail(ErrorKind::BadModel, node.describe() + ": " + tensor_label(graph, id) +
                                              " is already produced by " + graph.nodes[l.producer_node].describe());
            l.producer = step;
            l.producer_node = node_at[step];
        }
    }

    // storage[id] is the tensor whose buffer `id` uses: itself, or for an aliased Reshape's output the
    // storage of its input (final already: the input precedes it in the schedule, a topological order).
    std::vector<bool> aliased = find_aliased_nodes(graph);
    std::vector<TensorId> storage(graph.tensors.size());
    for (TensorId id = 0; id < storage.size(); ++id) storage[id] = id;
    for (uint32_t step = 0; step < num_nodes; ++step) {
        const uint32_t i = node_at[step];
        if (aliased[i]) storage[graph.nodes[i].outputs[0]] = storage[graph.nodes[i].inputs[0]];
    }

    // Per buffer (indexed by its storage tensor): the union of its tensors' lifetimes.
    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> first(graph.tensors.size(), kNone), last(graph.tensors.size(), 0);
    size_t naive = 0;
    for (TensorId id = 0; id < graph.tensors.size(); ++id) {
        const Lifetime& l = life[id];
        if (graph.tensors[id].is_constant()) continue;
        if (!l.bound_input && l.producer == kUnset) {
            if (l.bound_output) fail(ErrorKind::BadModel, "output binding " + tensor_label(graph, id) + " is never produced");
            continue;  // not part of the computation
        }
        if (l.bound_input && l.producer != kUnset && !(graph.nodes[l.producer_node].op == OpKind::Input))
            fail(ErrorKind::BadModel, "input binding " + tensor_label(graph, id) + " is overwritten by " +
                                          graph.nodes[l.producer_node].describe());
        uint32_t f, e;
        if (l.bound_input) {
            f = 0;
            e = last_step;
        } else if (l.bound_output) {
            f = l.producer;
            e = last_step;
        } else {
            f = l.producer;
            e = l.last_use == kUnset ? l.producer : std::max(l.last_use, l.producer);
        }
        const TensorId root = storage[id];
        first[root] = std::min(first[root], f);
        last[root] = std::max(last[root], e);
        // What one buffer per tensor would cost, aliases included: the baseline the plan is compared to.
        size_t rounded = 0;
        if (!checked_align_up(graph.tensors[id].info.num_bytes(), kArenaAlignment, &rounded) ||
            !checked_add(naive, rounded, &naive))
            fail(ErrorKind::BadModel, "memory plan: total tensor size overflows");
    }

    // One request per arena buffer: first the tensors, then the scratch areas.
    std::vector<BufferRequest> requests;
    std::vector<TensorId> request_tensor;  // kNoTensor for scratch
    std::vector<uint32_t> request_node;
    for (TensorId id = 0; id < graph.tensors.size(); ++id) {
        if (first[id] == kNone) continue;  // not a buffer of its own (aliased, constant or unused)
        requests.push_back({graph.tensors[id].info.num_bytes(), first[id], last[id]});
        request_tensor.push_back(id);
        request_node.push_back(kUnset);
    }
    for (uint32_t step = 0; step < scratch_bytes.size(); ++step) {
        const uint32_t i = node_at[step];  // a scratch area lives during its node's step only
        if (scratch_bytes[i] == 0 || aliased[i]) continue;
        requests.push_back({scratch_bytes[i], step, step});
        request_tensor.push_back(kNoTensor);
        request_node.push_back(i);
        size_t rounded = 0;
        if (!checked_align_up(scratch_bytes[i], kArenaAlignment, &rounded) || !checked_add(naive, rounded, &naive))
            fail(ErrorKind::BadModel, "memory plan: total scratch size overflows");
    }

    const ArenaLayout layout = assign_offsets(requests);

    MemoryPlan plan;
    plan.tensor_offsets.assign(graph.tensors.size(), MemoryPlan::kNotInArena);
    plan.scratch_offsets.assign(num_nodes, MemoryPlan::kNotInArena);
    for (size_t i = 0; i < requests.size(); ++i) {
        if (request_tensor[i] != kNoTensor)
            plan.tensor_offsets[request_tensor[i]] = layout.offsets[i];
        else
            plan.scratch_offsets[request_node[i]] = layout.offsets[i];
    }
    for (TensorId id = 0; id < graph.tensors.size(); ++id)
        if (storage[id] != id) plan.tensor_offsets[id] = plan.tensor_offsets[storage[id]];
    plan.arena_bytes = layout.arena_bytes;
    place_states(state_bytes, aliased, &plan);
    plan.aliased_nodes = std::move(aliased);
    plan.naive_bytes = naive;
    plan.num_buffers = requests.size();
    return plan;
}

}  // namespace npurun::plan

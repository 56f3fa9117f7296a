#include "runtime/plan/memory_plan.h"

#include <algorithm>
#include <string>

#include "runtime/graph/error.h"
#include "runtime/plan/arena_allocator.h"

namespace npurun::plan {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;

struct Lifetime {
    uint32_t producer = kUnset;  // node index that writes the tensor
    uint32_t last_use = kUnset;  // last node index that reads it
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

}  // namespace

MemoryPlan plan_memory(const Graph& graph, const std::vector<size_t>& scratch_bytes) {
    const size_t num_nodes = graph.nodes.size();
    if (!scratch_bytes.empty() && scratch_bytes.size() != num_nodes)
        fail(ErrorKind::Internal, "memory plan: one scratch size per node expected");
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
        const Node& node = graph.nodes[step];
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
                                              " is already produced by " + graph.nodes[l.producer].describe());
            l.producer = step;
        }
    }

    // One request per arena buffer: first the tensors, then the scratch areas.
    std::vector<BufferRequest> requests;
    std::vector<TensorId> request_tensor;  // kNoTensor for scratch
    std::vector<uint32_t> request_node;
    for (TensorId id = 0; id < graph.tensors.size(); ++id) {
        const Lifetime& l = life[id];
        if (graph.tensors[id].is_constant()) continue;
        if (!l.bound_input && l.producer == kUnset) {
            if (l.bound_output) fail(ErrorKind::BadModel, "output binding " + tensor_label(graph, id) + " is never produced");
            continue;  // not part of the computation
        }
        if (l.bound_input && l.producer != kUnset && !(graph.nodes[l.producer].op == OpKind::Input))
            fail(ErrorKind::BadModel, "input binding " + tensor_label(graph, id) + " is overwritten by " +
                                          graph.nodes[l.producer].describe());
        BufferRequest r;
        r.bytes = graph.tensors[id].info.num_bytes();
        if (l.bound_input) {
            r.first_step = 0;
            r.last_step = last_step;
        } else if (l.bound_output) {
            r.first_step = l.producer;
            r.last_step = last_step;
        } else {
            r.first_step = l.producer;
            r.last_step = l.last_use == kUnset ? l.producer : std::max(l.last_use, l.producer);
        }
        requests.push_back(r);
        request_tensor.push_back(id);
        request_node.push_back(kUnset);
    }
    for (uint32_t step = 0; step < scratch_bytes.size(); ++step) {
        if (scratch_bytes[step] == 0) continue;
        requests.push_back({scratch_bytes[step], step, step});
        request_tensor.push_back(kNoTensor);
        request_node.push_back(step);
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
    plan.arena_bytes = layout.arena_bytes;
    plan.naive_bytes = layout.naive_bytes;
    plan.num_buffers = requests.size();
    return plan;
}

}  // namespace npurun::plan

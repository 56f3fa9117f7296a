#include "runtime/passes/segment_schedule.h"

#include <set>

#include "core/error.h"

namespace npurun {

std::vector<uint32_t> schedule_by_class(const Graph& g, const std::vector<int>& node_class) {
    const size_t n = g.nodes.size();
    if (node_class.size() != n) fail(ErrorKind::Internal, "schedule: one class per node expected");
    // Producer of every run-time tensor, then each node's number of distinct producer nodes not yet run.
    std::vector<uint32_t> producer(g.tensors.size(), UINT32_MAX);
    for (uint32_t i = 0; i < n; ++i)
        for (TensorId t : g.nodes[i].outputs)
            if (t != kNoTensor && t < producer.size()) producer[t] = i;
    std::vector<std::vector<uint32_t>> dependents(n);
    std::vector<uint32_t> waiting(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        std::set<uint32_t> deps;
        for (TensorId t : g.nodes[i].inputs) {
            if (t == kNoTensor || t >= producer.size() || producer[t] == UINT32_MAX) continue;
            if (producer[t] != i) deps.insert(producer[t]);
        }
        waiting[i] = uint32_t(deps.size());
        for (uint32_t d : deps) dependents[d].push_back(i);
    }
    // One ready set per class, ordered by node index; classes are -2 (neutral), -1 (CPU), 0.. (NPU).
    std::vector<std::set<uint32_t>> ready;
    auto slot = [](int cls) { return size_t(cls + 2); };
    for (int c : node_class) {
        if (c < ScheduleClass::kNeutral) fail(ErrorKind::Internal, "schedule: bad node class");
        if (slot(c) >= ready.size()) ready.resize(slot(c) + 1);
    }
    if (ready.empty()) ready.resize(1);
    for (uint32_t i = 0; i < n; ++i)
        if (waiting[i] == 0) ready[slot(node_class[i])].insert(i);

    std::vector<uint32_t> order;
    order.reserve(n);
    int current = ScheduleClass::kNeutral;
    while (order.size() < n) {
        std::set<uint32_t>* from = &ready[slot(ScheduleClass::kNeutral)];
        if (from->empty()) from = current == ScheduleClass::kNeutral ? nullptr : &ready[slot(current)];
        if (from == nullptr || from->empty()) {  // switch to the class of the lowest-index ready node
            from = nullptr;
            for (size_t s = 0; s < ready.size(); ++s)
                if (!ready[s].empty() && (from == nullptr || *ready[s].begin() < *from->begin())) from = &ready[s];
            if (from == nullptr) fail(ErrorKind::BadModel, "the graph's layers form a cycle");
            current = node_class[*from->begin()];
        }
        const uint32_t i = *from->begin();
        from->erase(from->begin());
        order.push_back(i);
        for (uint32_t d : dependents[i])
            if (--waiting[d] == 0) ready[slot(node_class[d])].insert(d);
    }
    return order;
}

size_t count_npu_runs(const std::vector<uint32_t>& order, const std::vector<int>& node_class) {
    size_t runs = 0;
    int current = ScheduleClass::kCpu;
    for (uint32_t i : order) {
        const int c = node_class[i];
        if (c == ScheduleClass::kNeutral) continue;
        if (c >= 0 && c != current) ++runs;
        current = c;
    }
    return runs;
}

}  // namespace npurun

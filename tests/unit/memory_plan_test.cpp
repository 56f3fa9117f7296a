// Planner invariants: no two buffers that are live at the same step overlap, offsets are aligned, the
// arena never exceeds the naive sum, and the result is deterministic. Checked exhaustively (every pair)
// on seeded random lifetimes and on random graphs built in code.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/error.h"
#include "runtime/plan/arena_allocator.h"
#include "runtime/plan/memory_plan.h"
#include "runtime/passes/segment_schedule.h"
#include "tests/common/graph_builders.h"

using namespace npurun;
using namespace npurun::plan;
using namespace npurun::testing;

namespace {

size_t rounded(size_t b) { return (b + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

bool ranges_overlap(size_t a_off, size_t a_bytes, size_t b_off, size_t b_bytes) {
    if (a_bytes == 0 || b_bytes == 0) return false;
    return a_off < b_off + b_bytes && b_off < a_off + a_bytes;
}

void expect_valid_layout(const std::vector<BufferRequest>& req, const ArenaLayout& lay) {
    ASSERT_EQ(lay.offsets.size(), req.size());
    size_t naive = 0;
    for (size_t i = 0; i < req.size(); ++i) {
        naive += rounded(req[i].bytes);
        EXPECT_EQ(lay.offsets[i] % kArenaAlignment, 0u);
        EXPECT_LE(lay.offsets[i] + req[i].bytes, lay.arena_bytes);
        for (size_t j = i + 1; j < req.size(); ++j) {
            if (!lifetimes_overlap(req[i], req[j])) continue;
            EXPECT_FALSE(ranges_overlap(lay.offsets[i], req[i].bytes, lay.offsets[j], req[j].bytes))
                << "buffers " << i << " and " << j << " are live together and overlap";
        }
    }
    EXPECT_EQ(lay.naive_bytes, naive);
    EXPECT_LE(lay.arena_bytes, lay.naive_bytes);
}

}  // namespace

TEST(ArenaAllocator, RandomLifetimesNeverOverlap) {
    std::mt19937 rng(1234);
    for (int trial = 0; trial < 300; ++trial) {
        const size_t n = 1 + rng() % 40;
        const uint32_t steps = 1 + rng() % 25;
        std::vector<BufferRequest> req(n);
        for (auto& r : req) {
            r.bytes = rng() % 5 == 0 ? 0 : (rng() % 4 == 0 ? 64 * (1 + rng() % 4) : 1 + rng() % 5000);
            uint32_t a = rng() % steps, b = rng() % steps;
            r.first_step = std::min(a, b);
            r.last_step = std::max(a, b);
        }
        const ArenaLayout lay = assign_offsets(req);
        expect_valid_layout(req, lay);
        const ArenaLayout again = assign_offsets(req);
        EXPECT_EQ(again.offsets, lay.offsets);
        EXPECT_EQ(again.arena_bytes, lay.arena_bytes);
    }
}

TEST(ArenaAllocator, DisjointLifetimesShareOneBuffer) {
    std::vector<BufferRequest> req = {{1000, 0, 0}, {1000, 1, 1}, {1000, 2, 2}};
    const ArenaLayout lay = assign_offsets(req);
    EXPECT_EQ(lay.arena_bytes, 1024u);
    EXPECT_EQ(lay.naive_bytes, 3072u);
}

TEST(ArenaAllocator, BestFitPicksTheSmallestGap) {
    // Two long-lived buffers leave a 128-byte gap and a 256-byte gap; a short 100-byte buffer must take
    // the 128-byte one.
    std::vector<BufferRequest> req = {
        {1024, 0, 0},  // placed first at 0, frees the low region after step 0
        {128, 1, 3},   // gap of 128 at 0
        {64, 0, 3},
    };
    const ArenaLayout lay = assign_offsets(req);
    expect_valid_layout(req, lay);
    EXPECT_EQ(lay.offsets[0], 0u);
}

TEST(ArenaAllocator, RejectsInvertedLifetime) {
    EXPECT_THROW(assign_offsets({{64, 3, 1}}), Error);
}

TEST(ArenaAllocator, OverflowIsAnError) {
    std::vector<BufferRequest> req = {{SIZE_MAX / 2, 0, 0}, {SIZE_MAX / 2, 0, 0}, {SIZE_MAX / 2, 0, 0}};
    EXPECT_THROW(assign_offsets(req), Error);
}

namespace {

// Builds a random DAG: inputs, then nodes each reading 1..3 earlier values (or constants) and writing
// 1..2 new ones; some values become outputs.
Graph random_graph(std::mt19937& rng, std::vector<size_t>* scratch) {
    Graph g;
    std::vector<TensorId> values;
    const int num_inputs = 1 + rng() % 3;
    for (int i = 0; i < num_inputs; ++i) {
        TensorId t = add_value(g, "in" + std::to_string(i), Shape{1, 1 + uint32_t(rng() % 50)});
        add_input(g, "in" + std::to_string(i), t, i);
        values.push_back(t);
    }
    const int num_ops = 1 + rng() % 30;
    for (int k = 0; k < num_ops; ++k) {
        std::vector<TensorId> in, out;
        const int nin = 1 + rng() % 3;
        for (int j = 0; j < nin; ++j) {
            if (rng() % 6 == 0)
                in.push_back(add_constant(g, "c", Shape{2}, {1.0f, 2.0f}));
            else
                in.push_back(values[rng() % values.size()]);
        }
        const int nout = 1 + rng() % 2;
        for (int j = 0; j < nout; ++j) {
            TensorId t = add_value(g, "v" + std::to_string(k) + "_" + std::to_string(j),
                                   Shape{1 + uint32_t(rng() % 3), 1 + uint32_t(rng() % 300)});
            out.push_back(t);
            values.push_back(t);
        }
        add_node(g, OpKind::Activation, "op" + std::to_string(k), in, out, ActivationAttrs{});
        if (rng() % 4 == 0) {  // a Reshape of some earlier value: its output aliases that value's buffer
            const TensorId src = values[rng() % values.size()];
            const Shape& s = g.info(src).shape;
            TensorId r = add_value(g, "r" + std::to_string(k), Shape{uint32_t(s.num_elements())});
            add_node(g, OpKind::Reshape, "reshape" + std::to_string(k), {src}, {r}, ReshapeAttrs{});
            values.push_back(r);
        }
    }
    const int num_outputs = 1 + rng() % 3;
    for (int i = 0; i < num_outputs; ++i) add_output(g, "out" + std::to_string(i), values[values.size() - 1 - i % values.size()], i);
    scratch->assign(g.nodes.size(), 0);
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].op == OpKind::Activation && rng() % 3 == 0) (*scratch)[i] = 1 + rng() % 2000;
    return g;
}

struct Live {
    size_t offset, bytes;
    uint32_t first, last;
    std::string what;
};

}  // namespace

// Each random graph is planned twice: in its stored order, and in another topological order (the schedule
// the NPU placement may choose, runtime/passes/segment_schedule.h, here with random node classes).
TEST(MemoryPlan, RandomGraphsNeverShareLiveMemory) {
    std::mt19937 rng(99);
    for (int trial = 0; trial < 400; ++trial) {
        std::vector<size_t> scratch;
        const Graph g = random_graph(rng, &scratch);
        std::vector<uint32_t> order(g.nodes.size());
        for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        if (trial % 2 == 1) {
            std::vector<int> cls(g.nodes.size());
            for (int& c : cls) c = int(rng() % 3) - 1;  // CPU or one of two NPU classes
            order = schedule_by_class(g, cls);
        }
        const MemoryPlan plan = trial % 2 == 1 ? plan_memory(g, scratch, {}, order) : plan_memory(g, scratch);
        const uint32_t last = uint32_t(g.nodes.size() - 1);

        // Reshape outputs share their source's buffer: group them (the group's lifetime is the union).
        std::vector<TensorId> group(g.tensors.size());
        for (TensorId id = 0; id < group.size(); ++id) group[id] = id;
        for (const Node& n : g.nodes)
            if (n.op == OpKind::Reshape) group[n.outputs[0]] = group[n.inputs[0]];
        for (size_t s = 0; s < g.nodes.size(); ++s) EXPECT_EQ(plan.aliased_nodes[s], g.nodes[s].op == OpKind::Reshape);

        // Lifetimes recomputed here from the graph, independently of the planner's own bookkeeping.
        std::vector<Live> live;
        std::vector<TensorId> live_group;
        for (TensorId id = 0; id < g.tensors.size(); ++id) {
            if (g.tensors[id].is_constant()) {
                EXPECT_EQ(plan.tensor_offsets[id], MemoryPlan::kNotInArena);
                continue;
            }
            if (group[id] != id) {
                EXPECT_EQ(plan.tensor_offsets[id], plan.tensor_offsets[group[id]]);
            }
            uint32_t first = UINT32_MAX, end = 0;
            bool used = false;
            for (uint32_t s = 0; s < g.nodes.size(); ++s) {  // s: the step, order[s] the node that runs at it
                for (TensorId o : g.nodes[order[s]].outputs)
                    if (o == id) first = std::min(first, s), end = std::max(end, s), used = true;
                for (TensorId i : g.nodes[order[s]].inputs)
                    if (i == id) end = std::max(end, s), used = true;
            }
            for (const Binding& b : g.inputs)
                if (b.tensor == id) first = 0, end = last;
            for (const Binding& b : g.outputs)
                if (b.tensor == id) end = last;
            ASSERT_TRUE(used);
            ASSERT_NE(plan.tensor_offsets[id], MemoryPlan::kNotInArena);
            live.push_back({plan.tensor_offsets[id], g.tensors[id].info.num_bytes(), first, end, g.tensors[id].name});
            live_group.push_back(group[id]);
        }
        for (uint32_t s = 0; s < scratch.size(); ++s) {
            const uint32_t i = order[s];
            if (scratch[i] == 0) {
                EXPECT_EQ(plan.scratch_offsets[i], MemoryPlan::kNotInArena);
                continue;
            }
            live.push_back({plan.scratch_offsets[i], scratch[i], s, s, "scratch of " + g.nodes[i].name});
            live_group.push_back(kNoTensor);
        }
        for (size_t i = 0; i < live.size(); ++i) {
            EXPECT_EQ(live[i].offset % kArenaAlignment, 0u);
            EXPECT_LE(live[i].offset + live[i].bytes, plan.arena_bytes);
            for (size_t j = i + 1; j < live.size(); ++j) {
                if (live[i].first > live[j].last || live[j].first > live[i].last) continue;
                if (live_group[i] != kNoTensor && live_group[i] == live_group[j]) continue;  // one buffer by design
                EXPECT_FALSE(ranges_overlap(live[i].offset, live[i].bytes, live[j].offset, live[j].bytes))
                    << "trial " << trial << ": " << live[i].what << " and " << live[j].what;
            }
        }
        EXPECT_LE(plan.arena_bytes, plan.naive_bytes);
        std::set<TensorId> buffers;
        size_t scratch_buffers = 0;
        for (TensorId grp : live_group) grp == kNoTensor ? void(++scratch_buffers) : void(buffers.insert(grp));
        EXPECT_EQ(plan.num_buffers, buffers.size() + scratch_buffers);
    }
}

TEST(MemoryPlan, ChainReusesMemory) {
    // in -> a -> b -> c -> out, 4 KiB each: `in` and `c` live throughout (or to the end); a and b alternate,
    // so at most three buffers are ever live at once.
    Graph g;
    TensorId in = add_value(g, "in", Shape{1024});
    add_input(g, "in", in, 0);
    TensorId a = add_value(g, "a", Shape{1024}), b = add_value(g, "b", Shape{1024}), c = add_value(g, "c", Shape{1024});
    TensorId d = add_value(g, "d", Shape{1024});
    add_node(g, OpKind::Activation, "A", {in}, {a}, ActivationAttrs{});
    add_node(g, OpKind::Activation, "B", {a}, {b}, ActivationAttrs{});
    add_node(g, OpKind::Activation, "C", {b}, {c}, ActivationAttrs{});
    add_node(g, OpKind::Activation, "D", {c}, {d}, ActivationAttrs{});
    add_output(g, "out", d, 0);
    const MemoryPlan plan = plan_memory(g, {});
    EXPECT_EQ(plan.naive_bytes, 5u * 4096u);
    EXPECT_EQ(plan.arena_bytes, 3u * 4096u);
    EXPECT_NE(plan.tensor_offsets[a], plan.tensor_offsets[b]);
    EXPECT_NE(plan.tensor_offsets[in], plan.tensor_offsets[c]);
}

TEST(MemoryPlan, PreparedStateIsPersistentAndAfterTheArena) {
    // Same chain; nodes A and C (steps 2 and 4) have prepared kernel state. States are never shared (they
    // live for the whole session), each 64-byte aligned, and the arena itself is unchanged by them.
    Graph g;
    TensorId in = add_value(g, "in", Shape{1024});
    add_input(g, "in", in, 0);
    TensorId a = add_value(g, "a", Shape{1024}), b = add_value(g, "b", Shape{1024}), c = add_value(g, "c", Shape{1024});
    add_node(g, OpKind::Activation, "A", {in}, {a}, ActivationAttrs{});
    add_node(g, OpKind::Activation, "B", {a}, {b}, ActivationAttrs{});
    add_node(g, OpKind::Activation, "C", {b}, {c}, ActivationAttrs{});
    add_output(g, "out", c, 0);
    std::vector<size_t> state(g.nodes.size(), 0);
    state[1] = 100;  // node A (node 0 is the Input)
    state[3] = 256;  // node C
    const MemoryPlan without = plan_memory(g, {});
    const MemoryPlan plan = plan_memory(g, {}, state);
    EXPECT_EQ(plan.arena_bytes, without.arena_bytes);
    EXPECT_EQ(plan.state_bytes, 128u + 256u);
    EXPECT_EQ(plan.state_offsets[1], 0u);
    EXPECT_EQ(plan.state_offsets[3], 128u);
    EXPECT_EQ(plan.state_offsets[2], MemoryPlan::kNotInArena);
    EXPECT_EQ(plan.state_region_offset() % 64, 0u);
    EXPECT_GE(plan.state_region_offset(), plan.arena_bytes);
    EXPECT_EQ(plan.total_bytes(), plan.state_region_offset() + plan.state_bytes);
    EXPECT_THROW(plan_memory(g, {}, std::vector<size_t>(2, 0)), Error);  // one size per node
    state[3] = SIZE_MAX - 8;
    EXPECT_THROW(plan_memory(g, {}, state), Error);  // the state sizes overflow
}

TEST(MemoryPlan, ReadingAnUnproducedTensorIsABadModel) {
    Graph g;
    TensorId x = add_value(g, "x", Shape{4}), y = add_value(g, "y", Shape{4});
    add_node(g, OpKind::Activation, "A", {x}, {y}, ActivationAttrs{});
    add_output(g, "out", y, 0);
    try {
        plan_memory(g, {});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::BadModel);
        EXPECT_NE(std::string(e.what()).find("'A'"), std::string::npos) << e.what();
    }
}

TEST(MemoryPlan, TwoProducersIsABadModel) {
    Graph g;
    TensorId x = add_value(g, "x", Shape{4}), y = add_value(g, "y", Shape{4});
    add_input(g, "in", x, 0);
    add_node(g, OpKind::Activation, "A", {x}, {y}, ActivationAttrs{});
    add_node(g, OpKind::Activation, "B", {x}, {y}, ActivationAttrs{});
    add_output(g, "out", y, 0);
    EXPECT_THROW(plan_memory(g, {}), Error);
}

TEST(MemoryPlan, OutOfRangeTensorIdIsABadModel) {
    Graph g;
    TensorId x = add_value(g, "x", Shape{4});
    add_input(g, "in", x, 0);
    add_node(g, OpKind::Activation, "A", {x}, {TensorId(77)}, ActivationAttrs{});
    EXPECT_THROW(plan_memory(g, {}), Error);
}

TEST(MemoryPlan, ReshapeOutputAliasesItsInput) {
    Graph g;
    TensorId in = add_value(g, "in", Shape{1, 8});
    add_input(g, "in", in, 0);
    TensorId a = add_value(g, "a", Shape{1, 8}), r = add_value(g, "r", Shape{2, 4}), b = add_value(g, "b", Shape{2, 4});
    add_node(g, OpKind::Activation, "A", {in}, {a}, ActivationAttrs{});
    add_node(g, OpKind::Reshape, "R", {a}, {r}, ReshapeAttrs{Shape{2, 4}});
    add_node(g, OpKind::Activation, "B", {r}, {b}, ActivationAttrs{});
    add_output(g, "out", b, 0);
    const MemoryPlan plan = plan_memory(g, {});
    EXPECT_EQ(plan.tensor_offsets[r], plan.tensor_offsets[a]);
    EXPECT_TRUE(plan.aliased_nodes[2]);
    EXPECT_FALSE(plan.aliased_nodes[1]);
    // a (and so r) is live while b is written: they must not share memory.
    EXPECT_NE(plan.tensor_offsets[b], plan.tensor_offsets[a]);
    EXPECT_EQ(plan.num_buffers, 3u);
    EXPECT_EQ(plan.naive_bytes, 4u * 64u);
}

TEST(MemoryPlan, ReshapeOfAConstantIsNotAliased) {
    Graph g;
    TensorId c = add_constant(g, "c", Shape{4}, {1, 2, 3, 4});
    TensorId r = add_value(g, "r", Shape{2, 2});
    add_node(g, OpKind::Reshape, "R", {c}, {r}, ReshapeAttrs{Shape{2, 2}});
    add_output(g, "out", r, 0);
    const MemoryPlan plan = plan_memory(g, {});
    EXPECT_FALSE(plan.aliased_nodes[0]);
    EXPECT_NE(plan.tensor_offsets[r], MemoryPlan::kNotInArena);
}

// Gather on the simulated NPU (runtime/npu/ops/gather_op.cpp): rows (axis H) and columns (axis W) selected by
// constant indices, in uint8, int8 and fp16, against the CPU reference (a raw copy: exact in int8, fp16
// rounding of the input only); the task count the runs of consecutive indices give; and the refusals
// (channel axis, run-time or out-of-range indices, differing quantization) with their reasons.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/npu/npu_graphs.h"

using namespace npurun;
using namespace npurun::npu_test;

namespace {

constexpr uint32_t kGatherH = 5, kGatherW = 6,
                   kGatherC = 40;  // 40 channels: 3 int8 / 5 fp16 channel planes, the last partial

struct GatherSpec {
    DataType dt = DataType::QAsymmU8;
    int32_t axis = 1;
    std::vector<int32_t> indices;
    bool runtime_indices = false;
    float out_scale = 0.05f;
};

std::shared_ptr<const Model> gather_model(const GatherSpec& s) {
    Graph g;
    const bool q = s.dt != DataType::Float32;
    TensorId x = value(g, "x", Shape{1, kGatherH, kGatherW, kGatherC}, s.dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    const auto n = static_cast<uint32_t>(s.indices.size());
    TensorId i = s.runtime_indices ? value(g, "i", Shape{n}, DataType::Signed32)
                                   : constant(g, "i", Shape{n}, DataType::Signed32, s.indices.data(), n * 4);
    Shape os{1, kGatherH, kGatherW, kGatherC};
    const int32_t axis = s.axis < 0 ? s.axis + 4 : s.axis;
    os[static_cast<uint32_t>(axis)] = n;
    TensorId y = value(g, "y", os, s.dt, q ? s.out_scale : 0.0f, q ? 118 : 0);
    GatherAttrs a;
    a.axis = s.axis;
    node(g, OpKind::Gather, "gather", {x, i}, {y}, a);
    io(g, x, y);
    for (uint32_t k = 0; k < g.nodes.size(); ++k) g.nodes[k].source_index = k;
    return std::make_shared<const Model>(std::move(g), "gather");
}

NodePlacement gather_placement(const GatherSpec& s) {
    return placement_of(*gather_model(s), OpKind::Gather, s.dt == DataType::Float32);
}

void expect_refused(const GatherSpec& s, const std::string& reason_part) {
    const NodePlacement p = gather_placement(s);
    EXPECT_EQ(p.device, Placed::Cpu);
    EXPECT_NE(p.reason.find(reason_part), std::string::npos) << p.reason;
}

}  // namespace

TEST(NpuGather, RowsOneTaskPerRunOfConsecutiveIndices) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        const bool fp16 = dt == DataType::Float32;
        // Runs: {4}, {0,1,2}, {2}, {1}: four tasks.
        const Compared r = compare_cpu_sim(gather_model({dt, 1, {4, 0, 1, 2, 2, 1}}), fp16);
        ASSERT_EQ(r.npu_layers.size(), 1u) << to_string(dt);
        EXPECT_EQ(r.npu_tasks[0], 4u);
        EXPECT_LE(r.max_diff, fp16 ? 2e-3 : 0.0) << to_string(dt);
        std::printf("[ gather rows %s ] %zu outputs, max |npu-cpu| = %.5f\n", to_string(dt), r.elements, r.max_diff);
    }
}

TEST(NpuGather, ColumnsOneTaskPerRowAndRun) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        const bool fp16 = dt == DataType::Float32;
        // Runs {5}, {2,3}, {0}, {0}, {3}, {1} along axis -2 (W): 5 rows x 6 runs.
        const Compared r = compare_cpu_sim(gather_model({dt, -2, {5, 2, 3, 0, 0, 3, 1}}), fp16);
        ASSERT_EQ(r.npu_layers.size(), 1u) << to_string(dt);
        EXPECT_EQ(r.npu_tasks[0], kGatherH * 6u);
        EXPECT_LE(r.max_diff, fp16 ? 2e-3 : 0.0) << to_string(dt);
        std::printf("[ gather columns %s ] %zu outputs, max |npu-cpu| = %.5f\n", to_string(dt), r.elements, r.max_diff);
    }
}

TEST(NpuGather, BatchIndexZeroIsOneCopy) {
    const Compared r = compare_cpu_sim(gather_model({DataType::QAsymmS8, 0, {0}}), false);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 1u);
    EXPECT_EQ(r.max_diff, 0.0);
}

TEST(NpuGather, RefusalsNameTheLimit) {
    EXPECT_EQ(gather_placement({DataType::QAsymmU8, 2, {1, 0}}).device, Placed::Npu);
    expect_refused({DataType::QAsymmU8, 3, {1, 0}}, "NPU lowering: Gather along the channel axis");
    expect_refused({DataType::QAsymmU8, 1, {0, 5}}, "NPU lowering: Gather index 5 outside [0, 5)");
    expect_refused({DataType::QAsymmU8, 1, {0, -1}}, "Gather index -1 outside [0, 5)");
    expect_refused({DataType::QAsymmU8, 1, {0, 1}, false, 0.1f}, "Gather input and output quantization differ");
    expect_refused({DataType::QAsymmU8, 1, {0, 1}, true}, "Signed32");
    // Float32 without --fp16 stays on the CPU (support checker).
    const NodePlacement f32 = placement_of(*gather_model({DataType::Float32, 1, {0}}), OpKind::Gather, false);
    EXPECT_NE(f32.reason.find("use --fp16"), std::string::npos) << f32.reason;
}

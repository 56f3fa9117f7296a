// Global pooling over a plane above the 7x7 limit, as two PPU passes (pool_layer.h split_global_pool) on the
// simulated NPU against the CPU; planes that do not split stay on the CPU with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "runtime/npu/npu_backend.h"
#include "runtime/passes/npu_limits.h"
#include "runtime/passes/placement.h"
#include "tests/npu/npu_graphs.h"

using namespace npurun;
using namespace npurun::npu_test;

namespace {

std::shared_ptr<const Model> global_pool(DataType dt, bool max, uint32_t h, uint32_t w, uint32_t c) {
    Graph g;
    const bool q = dt != DataType::Float32;
    const int32_t zp = dt == DataType::QAsymmU8 ? 118 : (q ? 4 : 0);
    TensorId x = value(g, "x", Shape{1, h, w, c}, dt, q ? 0.05f : 0.0f, zp);
    TensorId y = value(g, "y", Shape{1, 1, 1, c}, dt, q ? 0.05f : 0.0f, zp);
    Pooling2dAttrs a;
    a.algorithm = max ? PoolingAlgorithm::Max : PoolingAlgorithm::Average;
    a.pool_height = h, a.pool_width = w;
    a.stride_x = w, a.stride_y = h;
    a.layout = DataLayout::NHWC;
    node(g, OpKind::Pooling2d, "gap", {x}, {y}, a);
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "gap");
}

}  // namespace

TEST(NpuLimits, GlobalPoolSplit) {
    EXPECT_EQ(npu_limits::global_pool_split(7), 1u);
    EXPECT_EQ(npu_limits::global_pool_split(12), 6u);  // 6x6 windows -> 2
    EXPECT_EQ(npu_limits::global_pool_split(14), 7u);
    EXPECT_EQ(npu_limits::global_pool_split(20), 5u);  // 5 -> 4
    EXPECT_EQ(npu_limits::global_pool_split(49), 7u);
    EXPECT_EQ(npu_limits::global_pool_split(13), 0u);  // prime
    EXPECT_EQ(npu_limits::global_pool_split(56), 0u);  // 8 x 7: a window of 8 is above the limit
}

TEST(NpuGlobalPool, AboveTheLimitRunsAsTwoPasses) {
    for (DataType dt : {DataType::Float32, DataType::QAsymmU8, DataType::QAsymmS8})
        for (bool max : {false, true})
            for (auto hw : {std::pair<uint32_t, uint32_t>{12, 12}, {14, 10}, {20, 7}}) {
                const bool fp16 = dt == DataType::Float32;
                const Compared r = compare_cpu_sim(global_pool(dt, max, hw.first, hw.second, 40), fp16);
                const std::string what = std::string(max ? "max " : "avg ") + to_string(dt) + " " + std::to_string(hw.first) + "x" +
                                         std::to_string(hw.second);
                ASSERT_EQ(r.npu_layers.size(), 1u) << what;
                EXPECT_EQ(r.npu_tasks[0], 2u) << what;
                // int8: 1 (the intermediate's rounding and the final one); fp16: inputs, intermediate, result rounded.
                const double tol = fp16 ? 3.0 * std::ldexp(1.0, -11) * std::max(1.0, r.max_ref) : 1.0;
                EXPECT_LE(r.max_diff, tol) << what;
                std::printf("[ %s ] max |sim-cpu| = %.5f\n", what.c_str(), r.max_diff);
            }
}

TEST(NpuGlobalPool, PlaneThatDoesNotSplitStaysOnTheCpu) {
    const auto m = global_pool(DataType::QAsymmU8, false, 13, 12, 16);
    const Placement p = place(m->graph(), npu::npu_placement_options(false));
    for (uint32_t i = 0; i < m->graph().nodes.size(); ++i) {
        if (m->graph().nodes[i].name != "gap") continue;
        EXPECT_EQ(p.nodes[i].device, Placed::Cpu);
        EXPECT_NE(p.nodes[i].reason.find("does not split into two passes"), std::string::npos) << p.nodes[i].reason;
    }
}

// Global pooling over a plane above the 7x7 limit, as two or more PPU passes (pool_layer.h global_pool_passes) on
// the simulated NPU against the CPU; planes that do not split, and int8 averages that would round more than twice,
// stay on the CPU with the reason.
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

TEST(NpuLimits, GlobalPoolPasses) {
    auto windows = [](uint32_t n) {
        const npu_limits::GlobalPoolPasses p = npu_limits::global_pool_passes(n);
        if (!p.possible) return std::string("no");
        std::string s;
        for (uint32_t i = 0; i < p.count; ++i) s += std::to_string(p.window[i]) + ",";
        return s + "global " + std::to_string(p.last);
    };
    EXPECT_EQ(windows(7), "global 7");
    EXPECT_EQ(windows(12), "6,global 2");
    EXPECT_EQ(windows(14), "7,global 2");
    EXPECT_EQ(windows(20), "5,global 4");
    EXPECT_EQ(windows(49), "7,global 7");
    EXPECT_EQ(windows(40), "5,4,global 2");  // an SE block's 40x40 map
    EXPECT_EQ(windows(56), "7,4,global 2");
    EXPECT_EQ(windows(8192), "4,4,4,4,4,4,global 2");
    EXPECT_EQ(windows(13), "no");  // prime
    EXPECT_EQ(windows(22), "no");  // 2 x 11
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
        EXPECT_NE(p.nodes[i].reason.find("does not split into passes of windows <= 7"), std::string::npos)
            << p.nodes[i].reason;
    }
}

// Planes that need more than one windowed pass: 40 = 5 x 4 x 2, 32 = 4 x 4 x 2, 56 x 20 = (7 x 4 x 2) x (5 x 4).
TEST(NpuGlobalPool, MorePassesWhereEachRoundingStaysWithinTolerance) {
    struct Case {
        DataType dt;
        bool max;
        uint32_t h, w;
    };
    for (const Case& k : {Case{DataType::Float32, false, 40, 40}, Case{DataType::Float32, true, 56, 20},
                          Case{DataType::Float32, false, 56, 20}, Case{DataType::QAsymmU8, true, 32, 32},
                          Case{DataType::QAsymmS8, true, 40, 40}}) {
        const bool fp16 = k.dt == DataType::Float32;
        const Compared r = compare_cpu_sim(global_pool(k.dt, k.max, k.h, k.w, 40), fp16);
        const std::string what = std::string(k.max ? "max " : "avg ") + to_string(k.dt) + " " + std::to_string(k.h) +
                                 "x" + std::to_string(k.w);
        ASSERT_EQ(r.npu_layers.size(), 1u) << what;
        EXPECT_EQ(r.npu_tasks[0], 3u) << what;
        // fp16: the input and each of the 3 results rounded (u = 2^-11 each), the reciprocals 65536/k rounded
        // (below 2^-14 relative each); int8 max: exact.
        const double tol = fp16 ? 5.0 * std::ldexp(1.0, -11) * std::max(1.0, r.max_ref) : 0.0;
        EXPECT_LE(r.max_diff, tol) << what;
        std::printf("[ %s ] 3 passes, max |sim-cpu| = %.5f\n", what.c_str(), r.max_diff);
    }
    // An int8 average would round three times where the CPU rounds once.
    const auto m = global_pool(DataType::QAsymmU8, false, 40, 40, 16);
    const Placement p = place(m->graph(), npu::npu_placement_options(false));
    for (uint32_t i = 0; i < m->graph().nodes.size(); ++i)
        if (m->graph().nodes[i].name == "gap") {
            EXPECT_EQ(p.nodes[i].device, Placed::Cpu);
            EXPECT_NE(p.nodes[i].reason.find("needs 3 passes, each rounding"), std::string::npos) << p.nodes[i].reason;
        }
}

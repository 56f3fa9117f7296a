// mobilenet_v1_0.25_128_quant (../shared/models) end to end: every convolution on the simulated NPU,
// the rest on the CPU; top-1 equal to the CPU path, and the max difference printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

#include "runtime/passes/placement.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/npu_backend.h"
#include "tests/npu/npu_graphs.h"

using namespace npurun;

namespace {

std::string model_path() {
    const char* s = std::getenv("NPURUN_SHARED");
    return std::string(s ? s : "../shared") + "/models/armnn/mobilenet_v1_0.25_128_quant.armnn";
}

bool exists(const std::string& p) {
    struct stat st{};
    return ::stat(p.c_str(), &st) == 0;
}

}  // namespace

TEST(Mobilenet, EveryConvolutionOnTheNpuAndTop1AsOnTheCpu) {
    if (!exists(model_path())) GTEST_SKIP() << model_path() << " absent (../shared not available)";
    const auto model = Model::load(model_path());
    const Graph& g = model->graph();
    size_t convs = 0;
    for (const Node& n : g.nodes)
        if (n.op == OpKind::Convolution2d || n.op == OpKind::DepthwiseConvolution2d) ++convs;
    ASSERT_GT(convs, 0u);

    const Placement p = place(g, npu::npu_placement_options(false));
    size_t convs_on_npu = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const OpKind op = g.nodes[i].op;
        if ((op == OpKind::Convolution2d || op == OpKind::DepthwiseConvolution2d) && p.nodes[i].device == Placed::Npu)
            ++convs_on_npu;
    }
    EXPECT_EQ(convs_on_npu, convs) << explain(g, p);

    for (uint32_t seed : {1u, 2u}) {
        const npu_test::Compared r = npu_test::compare_cpu_sim(model, false, seed);
        // Top-1 of both runs.
        npu_test::CpuSimRun run(model, npu_test::sim_options(), seed);
        Session& cpu = run.cpu;
        Session& sim = run.sim;
        const auto* a = static_cast<const uint8_t*>(cpu.output(0).data);
        const auto* b = static_cast<const uint8_t*>(sim.output(0).data);
        const size_t n = cpu.output(0).info.shape.num_elements();
        const size_t top_a = size_t(std::max_element(a, a + n) - a), top_b = size_t(std::max_element(b, b + n) - b);
        EXPECT_EQ(top_a, top_b);
        // 28 chained layers, each within 1 of the CPU in its integer output: the softmax scores drift by a
        // few codes (measured: 5 and 1 for these inputs). A bound, to catch a broken layer.
        EXPECT_LE(r.max_diff, 8.0);
        size_t conv_rows = 0;
        for (const std::string& t : r.npu_layers) conv_rows += t.find("Convolution2d") != std::string::npos;
        EXPECT_EQ(conv_rows, convs);
        std::printf("[ mobilenet seed %u ] top-1 cpu %zu (%u) sim %zu (%u); max |sim-cpu| over %zu outputs = %.0f; "
                    "%zu layers on the NPU, %zu on the CPU\n",
                    seed, top_a, a[top_a], top_b, b[top_b], n, r.max_diff, r.npu_layers.size(), r.cpu_layers.size());
    }
}

// Weights are packed once per compile: placement asks the convolution unit's cheap check (nothing packed),
// the segment packs each NPU convolution's weights once, straight into the constants buffer.
TEST(Mobilenet, EachConvolutionsWeightsArePackedOncePerCompile) {
    if (!exists(model_path())) GTEST_SKIP() << model_path() << " absent (../shared not available)";
    const auto model = Model::load(model_path());
    size_t convs = 0;
    for (const Node& n : model->graph().nodes)
        if (n.op == OpKind::Convolution2d || n.op == OpKind::DepthwiseConvolution2d) ++convs;
    const uint64_t before_placement = npu::conv_weight_packs();
    const Placement p = place(model->graph(), npu::npu_placement_options(false));
    EXPECT_EQ(npu::conv_weight_packs(), before_placement) << "placement packed weights";
    const uint64_t before = npu::conv_weight_packs();
    SessionOptions so;
    so.device = DeviceKind::Sim;
    Session sim(model, so);
    const uint64_t packs = npu::conv_weight_packs() - before;
    EXPECT_EQ(packs, convs);
    std::printf("[ mobilenet ] %zu convolutions on the NPU, weights packed %llu times while creating the session\n", convs,
                static_cast<unsigned long long>(packs));
}

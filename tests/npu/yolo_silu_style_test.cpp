// A float YOLOv5-style detector (tools/modelwriter/yolo_silu_style.h: SiLU as Sigmoid x Multiplication after
// every convolution, C3 and SPPF blocks, Sigmoid heads) with --fp16 on the simulated NPU against the CPU. Every
// SiLU's Sigmoid goes through the DPU lookup table, folded into its Mul (two DPU tasks per SiLU), so the whole
// network is one NPU segment; before the lookup table each Sigmoid was a CPU layer and cut the network into one
// segment per convolution.
// NPURUN_YOLO_MODEL=path keeps the written model for `npurun --explain`.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <unistd.h>

#include "include/npurun/npurun.hpp"
#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/npu/npu_graphs.h"
#include "tools/modelwriter/model_writer.h"
#include "tools/modelwriter/yolo_silu_style.h"

namespace mw = npurun::modelwriter;
using namespace npurun;

TEST(YoloSiluStyle, Fp16IsOneSegmentAndMatchesTheCpu) {
    const char* keep = std::getenv("NPURUN_YOLO_MODEL");
    const std::string path = keep ? keep : "/tmp/npurun-yolo-style-" + std::to_string(::getpid()) + ".armnn";
    mw::write_file(path, mw::yolo_silu_style(128, 3));
    auto model = Model::load(path);
    if (!keep) ::unlink(path.c_str());
    const Graph& g = model->graph();
    const Placement p = place(g, npu::npu_placement_options(true));
    const std::string table = explain(g, p);
    std::printf("%s", table.substr(table.rfind(" layers on the NPU") - 12).c_str());
    size_t sigmoids = 0;
    for (const Node& n : g.nodes) sigmoids += n.op == OpKind::Activation;
    EXPECT_EQ(sigmoids, 34u);  // the network is what it claims: a Sigmoid per convolution (31) and head (3)
    // The 31 SiLU Sigmoids fold into their Mul as its gate (two DPU tasks per SiLU); the 3 head Sigmoids are layers.
    size_t gates = 0, layers = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        if (g.nodes[i].op != OpKind::Activation) continue;
        EXPECT_NE(p.nodes[i].device, Placed::Cpu) << g.nodes[i].name << ": " << p.nodes[i].reason;
        gates += p.nodes[i].device == Placed::Fused;
        layers += p.nodes[i].device == Placed::Npu;
    }
    EXPECT_EQ(gates, 31u);
    EXPECT_EQ(layers, 3u);
    EXPECT_EQ(p.segments.size(), 1u);
    EXPECT_NE(table.find("NPU share of MACs: 100.0%"), std::string::npos) << table;

    const npu_test::CpuSimRun run(model, npu_test::sim_options(true), 5);  // --fp16, inputs uniform in [-1, 1)
    const std::vector<npu_test::Difference> diffs = npu_test::output_differences(run);
    ASSERT_EQ(diffs.size(), 3u);
    for (size_t o = 0; o < diffs.size(); ++o) {
        // As for the MobileNet-v3-style network: twice one fp16 layer's tolerance (2^-7) for the whole chain.
        EXPECT_LE(diffs[o].max_diff, std::ldexp(1.0, -6) * std::max(1.0, diffs[o].max_ref)) << "output " << o;
    }
}

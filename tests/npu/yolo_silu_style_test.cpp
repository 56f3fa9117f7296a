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

    SessionOptions co, so;
    co.device = DeviceKind::Cpu;
    so.device = DeviceKind::Sim;
    so.fp16 = true;
    Session cpu(model, co), sim(model, so);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    TensorBinding& in = cpu.input(0);
    for (size_t k = 0; k < in.info.shape.num_elements(); ++k) static_cast<float*>(in.data)[k] = d(rng);
    std::memcpy(sim.input(0).data, in.data, in.info.num_bytes());
    cpu.run();
    sim.run();
    ASSERT_EQ(cpu.num_outputs(), 3u);
    for (size_t o = 0; o < cpu.num_outputs(); ++o) {
        const size_t n = cpu.output(o).info.shape.num_elements();
        const npu_test::Difference diff = npu_test::difference(cpu.output(o), sim.output(o), n);
        std::printf("output %zu: %zu values, max |sim-cpu| = %.5f, max |cpu| = %.4f\n", o, n, diff.max_diff, diff.max_ref);
        // As for the MobileNet-v3-style network: twice one fp16 layer's tolerance (2^-7) for the whole chain.
        EXPECT_LE(diff.max_diff, std::ldexp(1.0, -6) * std::max(1.0, diff.max_ref)) << "output " << o;
    }
}

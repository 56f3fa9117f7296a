// Pow by a constant exponent on the simulated NPU (seed 003 Pow; Arm NN's ElementwiseBinary Power with a
// constant second input), lowered as an activation of its base (runtime/npu/ops/activation_op.cpp): int8 every
// exponent of the seed's list through the DPU lookup table, bit-exact with the CPU for every input code; fp16
// x^1 (a copy), x^2 (one task) and x^3 (two tasks) within fp16 rounding; and the refusals, each naming its limit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/npu/npu_graphs.h"

using namespace npurun;
using namespace npurun::npu_test;

namespace {

constexpr uint32_t kPowH = 5, kPowW = 7, kPowC = 24;

struct PowSpec {
    float exponent = 2.0f;
    DataType dt = DataType::Float32;
    DataType exponent_dt = DataType::Float32;  // the constant's type (quantized with scale 0.5, or Signed32)
    Shape exponent_shape = Shape{1};
};

std::shared_ptr<const Model> pow_model(const PowSpec& s) {
    Graph g;
    const bool q = s.dt != DataType::Float32;
    TensorId x = value(g, "x", Shape{1, kPowH, kPowW, kPowC}, s.dt, q ? 0.05f : 0.0f,
                       q ? (s.dt == DataType::QAsymmU8 ? 128 : 0) : 0);
    // The output grid holds the range of x^e for |x| <= 6.4 (e <= 3: 262; roots: 2.5).
    const float out_scale = s.exponent >= 1.0f ? std::pow(6.4f, s.exponent) / 120.0f : 0.02f;
    TensorId y = value(g, "y", Shape{1, kPowH, kPowW, kPowC}, s.dt, q ? out_scale : 0.0f,
                       q ? (s.dt == DataType::QAsymmU8 ? 128 : 0) : 0);
    const size_t n = s.exponent_shape.num_elements();
    TensorId k;
    if (s.exponent_dt == DataType::Float32) {
        const std::vector<float> v(n, s.exponent);
        k = constant(g, "e", s.exponent_shape, DataType::Float32, v.data(), 4 * n);
    } else if (s.exponent_dt == DataType::Signed32) {
        const std::vector<int32_t> v(n, static_cast<int32_t>(s.exponent));
        k = constant(g, "e", s.exponent_shape, DataType::Signed32, v.data(), 4 * n);
    } else {
        const std::vector<uint8_t> v(n, static_cast<uint8_t>(std::lround(s.exponent * 2.0f) + 10));
        k = constant(g, "e", s.exponent_shape, DataType::QAsymmU8, v.data(), n, {0.5f}, 10);
    }
    ElementwiseBinaryAttrs a;
    a.op = BinaryOp::Power;
    node(g, OpKind::ElementwiseBinary, "pow", {x, k}, {y}, a);
    io(g, x, y);
    for (uint32_t i = 0; i < g.nodes.size(); ++i) g.nodes[i].source_index = i;
    return std::make_shared<const Model>(std::move(g), "pow");
}

NodePlacement placed(const PowSpec& s) {
    return placement_of(*pow_model(s), OpKind::ElementwiseBinary, s.dt == DataType::Float32);  // the model's one node
}

void expect_refused(const PowSpec& s, const std::string& reason_part) {
    const NodePlacement n = placed(s);
    EXPECT_EQ(n.device, Placed::Cpu) << s.exponent;
    EXPECT_NE(n.reason.find(reason_part), std::string::npos) << n.reason;
}

struct PowRun {
    Compared c;
    bool identical = false;
};

// The CPU and the simulated NPU (profiled; --fp16 for a float model) on an input `fill` writes.
template <class Fill> PowRun run_on(const PowSpec& s, Fill fill) {
    const auto m = pow_model(s);
    SessionOptions so = sim_options(s.dt == DataType::Float32);
    so.profile = true;
    Session cpu(m, cpu_options()), sim(m, so);
    TensorBinding& in = cpu.input(0);
    fill(in);
    std::memcpy(sim.input(0).data, in.data, in.info.num_bytes());
    cpu.run();
    sim.run();
    return {compare_runs(cpu, sim), std::memcmp(cpu.output(0).data, sim.output(0).data, cpu.output(0).info.num_bytes()) == 0};
}

PowRun float_sweep(const PowSpec& s, float lim) {
    return run_on(s, [lim](TensorBinding& in) {
        auto* x = static_cast<float*>(in.data);
        const size_t n = in.info.shape.num_elements();
        for (size_t i = 0; i < n; ++i) x[i] = -lim + 2.0f * lim * static_cast<float>(i) / static_cast<float>(n - 1);
        x[0] = 0.0f, x[1] = -0.0f, x[2] = 1.0f, x[3] = -1.0f;
    });
}

}  // namespace

// int8: x^e for every exponent of the seed's list, one table entry per input code built with the reference's own
// pow: every code of the input (uint8 and int8), byte for byte the CPU's output, one DPU task. The roots of
// negative values are NaN on both paths, which both quantize to the zero point.
TEST(NpuPow, Int8EveryExponentThroughTheLookupTableIsExact) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8}) {
        for (float e : {0.0f, 1.0f, 2.0f, 3.0f, 0.5f, -0.5f}) {
            const PowRun r = run_on(PowSpec{e, dt}, [](TensorBinding& in) {
                auto* x = static_cast<uint8_t*>(in.data);
                for (size_t i = 0; i < in.info.num_bytes(); ++i) x[i] = static_cast<uint8_t>(i * 7);  // every code
            });
            ASSERT_EQ(r.c.npu_layers.size(), 1u) << e << " " << to_string(dt);
            EXPECT_EQ(r.c.npu_tasks[0], 1u);
            EXPECT_TRUE(r.identical) << "x^" << e << " " << to_string(dt) << ": max |npu-cpu| " << r.c.max_diff;
        }
    }
}

// The exponent's own type does not matter, only the value the CPU reads: quantized (dequantized) and Signed32.
TEST(NpuPow, ExponentOfAnyNumericTypeAndBroadcastShape) {
    for (DataType edt : {DataType::QAsymmU8, DataType::Signed32}) {
        const NodePlacement n = placed(PowSpec{3.0f, DataType::QAsymmS8, edt});
        EXPECT_EQ(n.device, Placed::Npu) << to_string(edt) << ": " << n.reason;
    }
    const NodePlacement n4 = placed(PowSpec{2.0f, DataType::Float32, DataType::Float32, Shape{1, 1, 1, 1}});
    EXPECT_EQ(n4.device, Placed::Npu) << n4.reason;
}

// fp16: x^1 a copy (exact on fp16 values), x^2 one task (EW multiply by itself), x^3 two (the square, then times
// x in place). x^3 rounds x^2 to fp16 in between: two fp16 roundings beyond the input's, |x|^3 2^-11 each.
TEST(NpuPow, Fp16OneTwoAndThree) {
    for (float e : {1.0f, 2.0f, 3.0f}) {
        const PowRun r = float_sweep(PowSpec{e}, 30.0f);
        ASSERT_EQ(r.c.npu_layers.size(), 1u) << e;
        EXPECT_EQ(r.c.npu_tasks[0], e == 3.0f ? 2u : 1u) << e;
        // The input's fp16 rounding moves x^e by e * 2^-11 relative; each fp16 result by 2^-11 more.
        EXPECT_LE(r.c.max_scaled, (e + 2.0f) * std::ldexp(1.0, -11)) << e;
        EXPECT_GE(r.c.max_ref, std::pow(30.0, e) * 0.99) << e;
        std::printf("[ fp16 x^%g, x in [-30, 30] ] max |npu-cpu| / max(1, |cpu|) = %.6f\n", e, r.c.max_scaled);
    }
}

// fp16 x^0: 1 everywhere, also for 0, -0, infinities and NaN (pow's definition), because the NPU writes a map of
// ones without reading x: a row from the constants, then rows doubled (H 5: 1 + 3 copies). Byte-identical.
TEST(NpuPow, Fp16ZeroIsAMapOfOnes) {
    const PowRun r = run_on(PowSpec{0.0f}, [](TensorBinding& in) {
        auto* x = static_cast<float*>(in.data);
        const size_t n = in.info.shape.num_elements();
        for (size_t i = 0; i < n; ++i) x[i] = -40.0f + 80.0f * static_cast<float>(i) / static_cast<float>(n - 1);
        x[0] = 0.0f, x[1] = -0.0f, x[2] = INFINITY, x[3] = -INFINITY, x[4] = NAN, x[5] = 1e30f;
    });
    ASSERT_EQ(r.c.npu_layers.size(), 1u);
    EXPECT_EQ(r.c.npu_tasks[0], 1u + 3u);
    EXPECT_TRUE(r.identical);
}

TEST(NpuPow, RefusalsNameTheirLimit) {
    expect_refused(PowSpec{4.0f, DataType::QAsymmU8}, "Pow exponent 4 is not one of 0, 1, 2, 3, 0.5, -0.5 (seed 003)");
    expect_refused(PowSpec{2.5f}, "Pow exponent 2.5 is not one of");
    expect_refused(PowSpec{2.0f, DataType::Float32, DataType::Float32, Shape{1, 1, 1, kPowC}},
                   "Pow exponent has 24 elements");
    expect_refused(PowSpec{0.5f}, "fp16 Pow exponent 0.5 has no NPU lowering: a square root");
    expect_refused(PowSpec{-0.5f}, "fp16 Pow exponent -0.5 has no NPU lowering");
}

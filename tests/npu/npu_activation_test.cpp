// Standalone fp16 activations on the simulated NPU (runtime/npu/ops/activation_op.cpp): LeakyReLu (BS
// multiplier with BS_MUL_PRELU), Square (EW multiply by the same map; seed 003's Pow with exponent 2), and the
// lookup-table curves Sigmoid and TanH (activation_lut.h) over inputs that reach both tables and saturation,
// against the CPU reference; a conv > activation > conv chain stays one segment; and the refusals (the
// curves without an fp16 table, multipliers fp16 cannot hold) with their reasons; and int8, where every function
// goes through the lookup table exactly.
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

constexpr uint32_t kActH = 5, kActW = 7, kActC = 24;  // 24 channels: 3 fp16 channel planes

struct ActSpec {
    ActivationFunction f = ActivationFunction::LeakyReLu;
    float a = 0.1f;
    DataType dt = DataType::Float32;
    bool conv_around = false;  // conv > activation > conv
    float b = 0.0f;            // TanH: a * tanh(b * x)
};

std::shared_ptr<const Model> act_model(const ActSpec& s) {
    Graph g;
    const bool q = s.dt != DataType::Float32;
    TensorId x = value(g, "x", Shape{1, kActH, kActW, kActC}, s.dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    TensorId in = x;
    ConvSpec cs;
    cs.dt = s.dt, cs.h = kActH, cs.w = kActW, cs.c = kActC, cs.k = kActC, cs.kh = cs.kw = 1, cs.pad = 0;
    if (s.conv_around) in = add_conv(g, cs, x, "conv0");
    TensorId y = value(g, "y", Shape{1, kActH, kActW, kActC}, s.dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    ActivationAttrs a;
    a.function = s.f;
    a.a = s.a;
    a.b = s.b;
    node(g, OpKind::Activation, "act", {in}, {y}, a);
    TensorId out = y;
    if (s.conv_around) {
        cs.seed = 2;
        out = add_conv(g, cs, y, "conv1");
    }
    io(g, x, out);
    for (uint32_t k = 0; k < g.nodes.size(); ++k) g.nodes[k].source_index = k;
    return std::make_shared<const Model>(std::move(g), "activation");
}

Placement act_placement(const ActSpec& s, NodePlacement* act) {
    const auto m = act_model(s);
    const Graph& g = m->graph();
    Placement p = place(g, npu::npu_placement_options(s.dt == DataType::Float32));
    for (uint32_t k = 0; k < g.nodes.size(); ++k)
        if (g.nodes[k].op == OpKind::Activation) *act = p.nodes[k];
    return p;
}

void expect_refused(const ActSpec& s, const std::string& reason_part) {
    const NodePlacement n = placement_of(*act_model(s), OpKind::Activation, s.dt == DataType::Float32);
    EXPECT_EQ(n.device, Placed::Cpu);
    EXPECT_NE(n.reason.find(reason_part), std::string::npos) << n.reason;
}

}  // namespace

TEST(NpuActivation, LeakyReluOneTaskWithinFp16Rounding) {
    for (float alpha : {0.1f, 0.01f, 0.2f, 1.5f}) {
        const Compared r = compare_cpu_sim(act_model({ActivationFunction::LeakyReLu, alpha}), true);
        ASSERT_EQ(r.npu_layers.size(), 1u) << alpha;
        EXPECT_EQ(r.npu_tasks[0], 1u);
        // Inputs in [-1, 1]: fp16 input and output rounding (2 x 4.9e-4 relative) and alpha as fp16.
        EXPECT_LE(r.max_diff, 2e-3) << alpha;
        EXPECT_GT(r.max_ref, 0.5);
        std::printf("[ leakyrelu a=%g ] %zu outputs, max |npu-cpu| = %.6f\n", alpha, r.elements, r.max_diff);
    }
}

TEST(NpuActivation, SquareOneTaskWithinFp16Rounding) {
    const Compared r = compare_cpu_sim(act_model({ActivationFunction::Square, 0.0f}), true);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 1u);
    EXPECT_LE(r.max_diff, 2e-3);
    EXPECT_GT(r.max_ref, 0.5);
    std::printf("[ square ] %zu outputs, max |npu-cpu| = %.6f\n", r.elements, r.max_diff);
}

TEST(NpuActivation, ConvLeakyReluConvIsOneSegment) {
    NodePlacement n;
    const Placement p = act_placement({ActivationFunction::LeakyReLu, 0.1f, DataType::Float32, true}, &n);
    EXPECT_EQ(n.device, Placed::Npu) << n.reason;
    EXPECT_EQ(p.segments.size(), 1u);
    const Compared r = compare_cpu_sim(act_model({ActivationFunction::LeakyReLu, 0.1f, DataType::Float32, true}), true);
    EXPECT_EQ(r.npu_layers.size(), 3u);
    EXPECT_LE(r.max_diff, 2e-3 * std::max(1.0, r.max_ref));
    std::printf("[ conv>leakyrelu>conv ] max |npu-cpu| = %.6f (max |cpu| %.3f)\n", r.max_diff, r.max_ref);
}

namespace {

// The CPU and the simulated NPU (profiled; --fp16 for a float model) on one input that `fill` writes into the
// CPU session's binding 0 (then copied to the simulator's): output 0 compared, and whether its bytes are equal.
struct ActRun {
    Compared c;
    bool identical = false;
};
template <class Fill> ActRun run_on(const ActSpec& s, Fill fill) {
    const auto m = act_model(s);
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

// A float input sweeping [-lim, lim] in kActH*kActW*kActC steps (channel-fastest, so every channel plane sees the whole
// range), with 0, the tables' ends and +-65504 in it.
Compared sweep(const ActSpec& s, float lim) {
    return run_on(s, [lim](TensorBinding& in) {
               auto* x = static_cast<float*>(in.data);
               const size_t n = in.info.shape.num_elements();
               for (size_t i = 0; i < n; ++i) x[i] = -lim + 2.0f * lim * static_cast<float>(i) / static_cast<float>(n - 1);
               const float special[] = {0.0f, -0.0f, 8.0f, -8.0f, 16.0f, -16.0f, 65504.0f, -65504.0f, 1e-4f, -1e-4f};
               for (size_t k = 0; k < sizeof(special) / sizeof(special[0]); ++k) x[k * 53 % n] = special[k];
           }).c;
}

}  // namespace

// Error budget (activation_lut.h): interpolation < 2.5e-5, entries 3.1e-5, the fp16 intermediate 2.4e-4, the
// input's fp16 rounding |x f'(x)| 2^-12 < 1.1e-4: under 4.2e-4 for |f| <= 1.
TEST(NpuActivation, SigmoidTwoTasksThroughTheLookupTable) {
    const Compared r = sweep({ActivationFunction::Sigmoid, 0.0f}, 20.0f);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 2u);
    EXPECT_LE(r.max_diff, 5e-4);
    EXPECT_GT(r.max_ref, 0.99);
    std::printf("[ sigmoid, x in [-20, 20] ] %zu outputs, max |npu-cpu| = %.6f\n", r.elements, r.max_diff);
}

TEST(NpuActivation, TanhTwoTasksThroughTheLookupTable) {
    const Compared r = sweep({ActivationFunction::TanH, 1.0f, DataType::Float32, false, 1.0f}, 12.0f);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 2u);
    EXPECT_LE(r.max_diff, 5e-4);
    EXPECT_GT(r.max_ref, 0.99);
    std::printf("[ tanh, x in [-12, 12] ] %zu outputs, max |npu-cpu| = %.6f\n", r.elements, r.max_diff);
}

// a * tanh(b * x): b scales the index, a the entries (LeCun's 1.7159 tanh(2x/3); a negative b).
TEST(NpuActivation, TanhScalesFoldIntoTheMultipliers) {
    for (const auto& ab : {std::pair<float, float>{1.7159f, 0.6666667f}, std::pair<float, float>{1.0f, -3.0f}}) {
        const Compared r = sweep({ActivationFunction::TanH, ab.first, DataType::Float32, false, ab.second}, 12.0f);
        ASSERT_EQ(r.npu_layers.size(), 1u) << ab.first;
        // a's fp16 rounding adds |a| * 4.9e-4 relative at most; the rest scales with |a|.
        EXPECT_LE(r.max_diff, 5e-4 * std::fabs(ab.first) + 1e-3 * std::fabs(ab.first)) << ab.first << " " << ab.second;
        EXPECT_GT(r.max_ref, 0.99 * std::fabs(ab.first));
        std::printf("[ %g tanh(%g x) ] max |npu-cpu| = %.6f\n", ab.first, ab.second, r.max_diff);
    }
}

TEST(NpuActivation, ConvSigmoidConvIsOneSegment) {
    const ActSpec s{ActivationFunction::Sigmoid, 0.0f, DataType::Float32, true};
    NodePlacement n;
    const Placement p = act_placement(s, &n);
    EXPECT_EQ(n.device, Placed::Npu) << n.reason;
    EXPECT_EQ(p.segments.size(), 1u);
    const Compared r = compare_cpu_sim(act_model(s), true);
    EXPECT_EQ(r.npu_layers.size(), 3u);
    EXPECT_LE(r.max_diff, 2e-3 * std::max(1.0, r.max_ref));
    std::printf("[ conv>sigmoid>conv ] max |npu-cpu| = %.6f (max |cpu| %.3f)\n", r.max_diff, r.max_ref);
}

// Curves that grow like x: relu(x) + a bounded remainder from the table, three tasks. Error against the CPU,
// absolute below 1 and relative above (max_scaled): the input's and output's fp16 rounding (2^-11 relative each),
// the remainder's interpolation (Elu: h^2/8 |alpha| = 1.2e-4 |alpha|), entries (3.1e-5) and fp16 intermediate
// (2.4e-4 |alpha|): under 1.5e-3 for |alpha| <= 1, plus 4.9e-4 |alpha| (its fp16 multiplier) above.
TEST(NpuActivation, EluAndSoftReluAreReluPlusABoundedRemainder) {
    const ActSpec specs[] = {{ActivationFunction::Elu, 1.0f},  {ActivationFunction::Elu, 0.25f},
                             {ActivationFunction::Elu, 3.0f},  {ActivationFunction::Elu, -0.5f},
                             {ActivationFunction::SoftReLu, 0.0f}};
    for (const ActSpec& s : specs) {
        const Compared r = sweep(s, 24.0f);
        ASSERT_EQ(r.npu_layers.size(), 1u) << to_string(s.f) << " " << s.a;
        EXPECT_EQ(r.npu_tasks[0], 3u);
        EXPECT_LE(r.max_scaled, 1.5e-3 * std::max(1.0f, std::fabs(s.a))) << to_string(s.f) << " " << s.a;
        EXPECT_GE(r.max_ref, 65504.0 * 0.999);  // +-65504 is in the sweep: relu(x) carries it through
        std::printf("[ %s alpha %g, x in [-24, 24] and +-65504 ] max |npu-cpu| / max(1, |cpu|) = %.6f\n", to_string(s.f), s.a,
                    r.max_scaled);
    }
}

// Gelu = x * Phi(x): the gate's table, then the entry scale times x (as SiLU's second task): two tasks.
TEST(NpuActivation, GeluIsXTimesTheNormalCdfInTwoTasks) {
    const Compared r = sweep({ActivationFunction::Gelu, 0.0f}, 12.0f);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 2u);
    EXPECT_LE(r.max_scaled, 1.5e-3);
    std::printf("[ gelu, x in [-12, 12] and +-65504 ] max |npu-cpu| / max(1, |cpu|) = %.6f\n", r.max_scaled);
}

// Abs = max(-x, x): one task, and exact (negation and max round nothing; the fp16 input rounding is the CPU
// reference's own error against the fp16 map, so compare with the input's fp16 value).
TEST(NpuActivation, AbsIsOneTaskAndExactOnFp16Values) {
    const ActRun r = run_on({ActivationFunction::Abs, 0.0f}, [](TensorBinding& in) {
        auto* x = static_cast<float*>(in.data);
        const size_t n = in.info.shape.num_elements();
        // Values fp16 holds exactly: the result is exact on both paths.
        for (size_t i = 0; i < n; ++i) x[i] = (static_cast<float>(i % 97) - 48.0f) * 0.125f;
        x[0] = 65504.0f, x[1] = -65504.0f, x[2] = -0.0f;
    });
    ASSERT_EQ(r.c.npu_layers.size(), 1u);
    EXPECT_EQ(r.c.npu_tasks[0], 1u);
    EXPECT_EQ(r.c.max_diff, 0.0);
}

// Linear a * x + b as (x + b / a) * a in the BS stage: one task. Error: x's and y's fp16 rounding (2^-11 relative
// of |a x| and of |y|), a held as fp16 a' (the result is y * a' / a: under 4.9e-4 relative of |y|, e.g. 0.025 of
// 0.1 x - 100's 0.056); b / a in fp32 adds under 1e-7 of |b|.
TEST(NpuActivation, LinearIsOneBsTaskWithinFp16Rounding) {
    const std::pair<float, float> slopes_offsets[] = {
        {2.0f, 0.5f}, {-0.75f, 3.0f}, {1.0f, 0.0f}, {0.1f, -100.0f}, {1e-3f, 7.0f}};
    constexpr float kLim = 8.0f;
    for (const auto& ab : slopes_offsets) {
        const ActRun r =
            run_on({ActivationFunction::Linear, ab.first, DataType::Float32, false, ab.second}, [](TensorBinding& in) {
                auto* x = static_cast<float*>(in.data);
                const size_t n = in.info.shape.num_elements();
                for (size_t i = 0; i < n; ++i)
                    x[i] = -kLim + 2.0f * kLim * static_cast<float>(i) / static_cast<float>(n - 1);
            });
        ASSERT_EQ(r.c.npu_layers.size(), 1u) << ab.first;
        EXPECT_EQ(r.c.npu_tasks[0], 1u);
        const double bound = 1.5e-3 * (std::fabs(ab.first) * kLim + std::fabs(ab.second)) + 1e-6;
        EXPECT_LE(r.c.max_diff, bound) << ab.first << " x + " << ab.second;
        EXPECT_GE(r.c.max_ref, std::fabs(ab.first) * kLim * 0.99 - std::fabs(ab.second) * 1.01);
        std::printf("[ %g x + %g, x in [-8, 8] ] max |npu-cpu| = %.6f (bound %.6f)\n", ab.first, ab.second,
                    r.c.max_diff, bound);
    }
}

// int8: every function through the lookup table, one entry per input code, built with the reference's own
// quantize(f(dequantize(q))): the NPU's output must equal the CPU's byte for byte, for every input code, in
// uint8 and int8, also when the output scale differs from the input's.
TEST(NpuActivation, Int8EveryFunctionThroughTheLookupTableIsExact) {
    const ActivationFunction fs[] = {ActivationFunction::Sigmoid, ActivationFunction::TanH,   ActivationFunction::Elu,
                                     ActivationFunction::SoftReLu, ActivationFunction::HardSwish, ActivationFunction::LeakyReLu,
                                     ActivationFunction::Square,  ActivationFunction::Abs,    ActivationFunction::Sqrt,
                                     ActivationFunction::Gelu,    ActivationFunction::Linear};
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8}) {
        for (ActivationFunction f : fs) {
            const ActRun r = run_on(ActSpec{f, 0.5f, dt, false, 0.75f}, [](TensorBinding& in) {
                auto* x = static_cast<uint8_t*>(in.data);
                for (size_t i = 0; i < in.info.num_bytes(); ++i) x[i] = static_cast<uint8_t>(i * 7);  // every code, 7 coprime to 256
            });
            ASSERT_EQ(r.c.npu_layers.size(), 1u) << to_string(f);
            EXPECT_EQ(r.c.npu_tasks[0], 1u);
            EXPECT_TRUE(r.identical) << to_string(f) << " " << to_string(dt) << ": max |npu-cpu| " << r.c.max_diff;
        }
    }
}

TEST(NpuActivation, RefusalsNameTheirReason) {
    expect_refused({ActivationFunction::Sqrt, 0.0f}, "fp16 Sqrt has no NPU lowering: it neither saturates nor grows like x");
    expect_refused({ActivationFunction::Linear, 0.0f, DataType::Float32, false, 1.0f}, "fp16 Linear with slope 0");
    // 1e-6 is an fp16 subnormal (too few bits); 1e5 is above fp16's 65504.
    expect_refused({ActivationFunction::Linear, 1e-6f, DataType::Float32, false, 1.0f}, "not an fp16 multiplier");
    expect_refused({ActivationFunction::Linear, 1e5f, DataType::Float32, false, 1.0f}, "not an fp16 multiplier");
    // 1e-7 is below fp16's smallest subnormal: the held multiplier would be 0.
    expect_refused({ActivationFunction::LeakyReLu, 1e-7f}, "not an fp16 value");
    // b = 100 makes the index scale 204800, above fp16's 65504; a = 1e-3 makes the entry scale subnormal.
    expect_refused({ActivationFunction::TanH, 1.0f, DataType::Float32, false, 100.0f}, "fp16 multipliers");
    expect_refused({ActivationFunction::TanH, 1e-3f, DataType::Float32, false, 1.0f}, "fp16 multipliers");
    // A standalone ReLu stays a fused activation only, in either domain.
    expect_refused({ActivationFunction::ReLu, 0.0f, DataType::QAsymmU8}, "only fused into the layer before it");
}

namespace {

enum class SiluShape { Gate, GateFirst, OtherFactor, SigmoidAlsoOutput, CpuBetween };

// conv -> x; s = sigmoid(x); y = x * s (or s * x, or z * s with z another map), with variants that must not fold.
// CpuBetween: a Softmax of x (not an NPU operation) stored between the Sigmoid and the Mul, whose output a
// convolution reads: the schedule keeps the loader's order (grouping gains no segment), so the CPU layer sits
// between gate and host.
std::shared_ptr<const Model> silu_model(SiluShape shape, DataType dt = DataType::Float32) {
    Graph g;
    const bool q = dt != DataType::Float32;
    const Shape sh{1, kActH, kActW, kActC};
    TensorId in = value(g, "in", sh, dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    ConvSpec cs;
    cs.dt = dt, cs.h = kActH, cs.w = kActW, cs.c = kActC, cs.k = kActC, cs.kh = cs.kw = 1, cs.pad = 0;
    const TensorId x = add_conv(g, cs, in, "conv0");
    cs.seed = 3;
    const TensorId z = shape == SiluShape::OtherFactor ? add_conv(g, cs, in, "conv1") : x;
    const TensorId s = value(g, "s", sh, dt, q ? 1.0f / 256 : 0.0f, q ? 0 : 0);
    ActivationAttrs a;
    a.function = ActivationFunction::Sigmoid;
    node(g, OpKind::Activation, "sigmoid", {x}, {s}, a);
    TensorId soft = kNoTensor;
    if (shape == SiluShape::CpuBetween) {
        soft = value(g, "soft", sh, dt);
        node(g, OpKind::Softmax, "softmax", {x}, {soft}, SoftmaxAttrs{});
    }
    const TensorId y = value(g, "y", sh, dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    ElementwiseBinaryAttrs m;
    m.op = BinaryOp::Mul;
    node(g, OpKind::ElementwiseBinary, "mul", shape == SiluShape::GateFirst ? std::vector<TensorId>{s, z} : std::vector<TensorId>{z, s},
         {y}, m);
    io(g, in, y);
    if (shape == SiluShape::SigmoidAlsoOutput) add_output_binding(g, "s", 1, s);
    if (shape == SiluShape::CpuBetween) {
        cs.seed = 4;
        add_output_binding(g, "c", 1, add_conv(g, cs, soft, "conv2"));
    }
    for (uint32_t k = 0; k < g.nodes.size(); ++k) g.nodes[k].source_index = k;
    return std::make_shared<const Model>(std::move(g), "silu");
}

Placed sigmoid_placement(const std::shared_ptr<const Model>& m, bool fp16) {
    return placement_of(*m, OpKind::Activation, fp16).device;  // silu_model's one Activation is the sigmoid
}

}  // namespace

// x * sigmoid(x) with fp16: the Sigmoid folds into the Mul, two DPU tasks (lookup into y, then y * 2^-14 * x).
TEST(NpuSilu, GateFoldsIntoTheMulInTwoTasks) {
    for (SiluShape sh : {SiluShape::Gate, SiluShape::GateFirst}) {
        const auto m = silu_model(sh);
        EXPECT_EQ(sigmoid_placement(m, true), Placed::Fused);
        const Compared r = compare_cpu_sim(m, true);
        ASSERT_EQ(r.npu_layers.size(), 2u);  // conv0, SiLU
        EXPECT_EQ(r.npu_layers[1], "SiLU:Sigmoid+ElementwiseBinary");
        EXPECT_EQ(r.npu_tasks[1], 2u);
        // fp16: x, the sigmoid's intermediate and the product rounded (2^-11 each) plus the table's 6e-5.
        EXPECT_LE(r.max_diff, 4.0 * std::ldexp(1.0, -11) * std::max(1.0, r.max_ref));
        EXPECT_GT(r.max_ref, 0.5);
        std::printf("[ silu ] %zu outputs, max |npu-cpu| = %.6f (max |cpu| %.3f)\n", r.elements, r.max_diff, r.max_ref);
    }
}

TEST(NpuSilu, GateStaysALayerWhenItIsNotASilu) {
    // z * sigmoid(x), a Sigmoid also read as a model output, a CPU layer between: the Sigmoid is its own NPU layer.
    for (SiluShape sh : {SiluShape::OtherFactor, SiluShape::SigmoidAlsoOutput, SiluShape::CpuBetween}) {
        const auto m = silu_model(sh);
        EXPECT_EQ(sigmoid_placement(m, true), Placed::Npu) << int(sh);
        const Compared r = compare_cpu_sim(m, true);
        EXPECT_LE(r.max_diff, 4.0 * std::ldexp(1.0, -11) * std::max(1.0, r.max_ref)) << int(sh);
    }
    // int8: the Sigmoid's table gives its output codes, the Mul requantizes: two layers.
    EXPECT_EQ(sigmoid_placement(silu_model(SiluShape::Gate, DataType::QAsymmU8), false), Placed::Npu);
}

// Lstm on the simulated NPU as its parts (runtime/passes/lstm_lowering.h): every output within fp16 rounding of the
// CPU's Lstm kernel, the gate products on the NPU, and the refusals that keep an Lstm whole on the CPU, each
// naming its reason. (The Arm NN 20.08 Lstm files of the conformance suite run through conformance-npu as well.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "core/fp16.h"
#include "runtime/loaders/load_model.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/passes/lstm_lowering.h"
#include "runtime/session/session_factory.h"
#include "tests/npu/npu_graphs.h"
#include "tools/modelwriter/model_writer.h"

using namespace npurun;
using namespace npurun::npu_test;

namespace {

struct LstmSpec {
    uint32_t batch = 3, in = 5, cell = 16, out = 16;
    bool cifg = false, peephole = true, projection = false, layer_norm = false;
    uint32_t activation = 4;
    float clip_cell = 0.0f, clip_proj = 0.0f;
    DataType dt = DataType::Float32;
    // A UnidirectionalSequenceLstm of `steps` steps (0: a one-step Lstm), with the 22.05+ three outputs or one.
    uint32_t steps = 0;
    bool time_major = false, three_outputs = true;
};

std::shared_ptr<const Model> lstm_model(const LstmSpec& s) {
    Graph g;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-0.6f, 0.6f);
    // Constants of the Lstm's own type (an Arm NN Float16 Lstm has Float16 weights).
    auto random_constant = [&](const std::string& name, Shape shape) {
        std::vector<float> v(shape.num_elements());
        for (float& x : v) x = u(rng);
        if (s.dt != DataType::Float16) return constant(g, name, shape, DataType::Float32, v.data(), 4 * v.size());
        std::vector<uint16_t> h(v.size());
        for (size_t k = 0; k < v.size(); ++k) h[k] = fp32_to_fp16(v[k]);
        return constant(g, name, shape, DataType::Float16, h.data(), 2 * h.size());
    };
    auto matrix = [&](const std::string& name, uint32_t rows, uint32_t cols) {
        return random_constant(name, Shape{rows, cols});
    };
    auto vec = [&](const std::string& name, uint32_t n) { return random_constant(name, Shape{n}); };
    const bool seq = s.steps > 0;
    const TensorId x = value(g, "x",
                             !seq           ? Shape{s.batch, s.in}
                             : s.time_major ? Shape{s.steps, s.batch, s.in}
                                            : Shape{s.batch, s.steps, s.in},
                             s.dt);
    const TensorId h = value(g, "h", Shape{s.batch, s.out}, s.dt);
    const TensorId c = value(g, "c", Shape{s.batch, s.cell}, s.dt);
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    in[kLstmInput] = x, in[kLstmOutputStateIn] = h, in[kLstmCellStateIn] = c;
    const uint32_t gates[4][5] = {
        {kInputToInputWeights, kRecurrentToInputWeights, kInputGateBias, kCellToInputWeights, kInputLayerNormWeights},
        {kInputToForgetWeights, kRecurrentToForgetWeights, kForgetGateBias, kCellToForgetWeights,
         kForgetLayerNormWeights},
        {kInputToCellWeights, kRecurrentToCellWeights, kCellBias, 0, kCellLayerNormWeights},
        {kInputToOutputWeights, kRecurrentToOutputWeights, kOutputGateBias, kCellToOutputWeights,
         kOutputLayerNormWeights}};
    for (uint32_t k = 0; k < 4; ++k) {
        if (k == 0 && s.cifg) continue;
        const std::string n = std::to_string(k);
        in[gates[k][0]] = matrix("wx" + n, s.cell, s.in);
        in[gates[k][1]] = matrix("wh" + n, s.cell, s.out);
        in[gates[k][2]] = vec("b" + n, s.cell);
        if (s.peephole && gates[k][3]) in[gates[k][3]] = vec("p" + n, s.cell);
        if (s.layer_norm) in[gates[k][4]] = vec("ln" + n, s.cell);
    }
    if (s.projection) {
        in[kProjectionWeights] = matrix("wp", s.out, s.cell);
        in[kProjectionBias] = vec("bp", s.out);
    }
    const uint32_t n_gates = s.cifg ? 3 : 4;
    std::vector<TensorId> out;
    if (!seq) {
        out = {value(g, "scratch", Shape{s.batch, s.cell * n_gates}, s.dt),
               value(g, "h_out", Shape{s.batch, s.out}, s.dt), value(g, "c_out", Shape{s.batch, s.cell}, s.dt),
               value(g, "y", Shape{s.batch, s.out}, s.dt)};
    } else {
        const TensorId y =
            value(g, "y", s.time_major ? Shape{s.steps, s.batch, s.out} : Shape{s.batch, s.steps, s.out}, s.dt);
        out = s.three_outputs ? std::vector<TensorId>{value(g, "h_out", Shape{s.batch, s.out}, s.dt),
                                                      value(g, "c_out", Shape{s.batch, s.cell}, s.dt), y}
                              : std::vector<TensorId>{y};
    }
    LstmAttrs a;
    a.activation = s.activation;
    a.clip_cell = s.clip_cell;
    a.clip_proj = s.clip_proj;
    a.cifg = s.cifg;
    a.peephole = s.peephole;
    a.projection = s.projection;
    a.layer_norm = s.layer_norm;
    a.time_major = s.time_major;
    add_input_binding(g, "x", 0, x, 0);
    add_input_binding(g, "h", 1, h, 1);
    add_input_binding(g, "c", 2, c, 2);
    node(g, seq ? OpKind::UnidirectionalSequenceLstm : OpKind::Lstm, "lstm", in, out, a);
    for (uint32_t k = 0; k < out.size(); ++k) add_output_binding(g, "out" + std::to_string(k), int32_t(k), out[k]);
    for (uint32_t i = 0; i < g.nodes.size(); ++i) g.nodes[i].source_index = i;
    return std::make_shared<const Model>(std::move(g), "lstm");
}

std::string kept_reason(const LstmSpec& s, bool fp16) {
    const auto m = lstm_model(s);
    const Graph& g = m->graph();
    for (const Node& n : g.nodes)
        if (is_lowerable_lstm(n.op)) return lstm_lowering_refusal(g, n, npu::npu_placement_options(fp16)).reason();
    return "no Lstm";
}

void fill(Session& s, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (size_t i = 0; i < s.num_inputs(); ++i) {
        TensorBinding& b = s.input(i);
        for (size_t k = 0; k < b.info.shape.num_elements(); ++k) {
            const float v = d(rng);
            if (b.info.dtype == DataType::Float16) {
                const uint16_t bits = fp32_to_fp16(v);
                std::memcpy(static_cast<uint8_t*>(b.data) + 2 * k, &bits, 2);
            } else {
                static_cast<float*>(b.data)[k] = v;
            }
        }
    }
}

double value_at(const TensorBinding& t, size_t k) {
    if (t.info.dtype == DataType::Float16) {
        uint16_t bits;
        std::memcpy(&bits, static_cast<const uint8_t*>(t.data) + 2 * k, 2);
        return fp16_to_fp32(bits);
    }
    return static_cast<const float*>(t.data)[k];
}

// Runs `s` on the CPU (the Lstm kernel) and on the simulator (its parts); the largest scaled difference over all
// outputs; `npu_convs` gets the number of Convolution2d parts the simulator ran.
double run_both(const std::shared_ptr<const Model>& m, size_t* npu_convs) {
    Session cpu(m, cpu_options());
    SessionOptions so = sim_options(true);
    so.profile = true;
    Session sim(m, so);
    fill(cpu, 5);
    for (size_t i = 0; i < cpu.num_inputs(); ++i)
        std::memcpy(sim.input(i).data, cpu.input(i).data, cpu.input(i).info.num_bytes());
    cpu.run();
    sim.run();
    double worst = 0;
    for (size_t o = 0; o < cpu.num_outputs(); ++o)
        for (size_t k = 0; k < cpu.output(o).info.shape.num_elements(); ++k) {
            const double a = value_at(cpu.output(o), k), b = value_at(sim.output(o), k);
            worst = std::max(worst, std::fabs(a - b) / std::max(1.0, std::fabs(a)));
        }
    *npu_convs = 0;
    for (const LayerProfile& p : sim.profile()) *npu_convs += p.device == "sim" && p.type.find("Convolution2d") == 0;
    const npu::NpuBackend* backend = SessionFactory::npu_backend(sim);
    for (const Node& n : backend->graph().nodes) {
        EXPECT_NE(n.op, OpKind::Lstm) << "the session kept the Lstm whole";
        EXPECT_NE(n.op, OpKind::UnidirectionalSequenceLstm) << "the session kept the sequence whole";
    }
    return worst;
}

double run_both(const LstmSpec& s, size_t* npu_convs) { return run_both(lstm_model(s), npu_convs); }

}  // namespace

// fp16's relative rounding is 2^-11; a gate sums I + O products and each step rounds once more.
constexpr double kTolerance = 4e-3;

TEST(NpuLstm, PeepholeMatchesTheCpuKernel) {
    size_t convs = 0;
    EXPECT_LE(run_both(LstmSpec{}, &convs), kTolerance);
    EXPECT_EQ(convs, 8u);  // 4 gates x (input, recurrent)
}

TEST(NpuLstm, CifgProjectionAndClippingMatchTheCpuKernel) {
    LstmSpec s;
    s.cifg = true;
    s.projection = true;
    s.out = 8;
    s.clip_cell = 0.5f;
    s.clip_proj = 0.3f;
    size_t convs = 0;
    EXPECT_LE(run_both(s, &convs), kTolerance);
    EXPECT_EQ(convs, 7u);  // 3 gates x 2, and the projection
}

TEST(NpuLstm, ReluSigmoidAndNoActivationMatchTheCpuKernel) {
    for (uint32_t act : {0u, 1u, 3u, 6u}) {
        LstmSpec s;
        s.activation = act;
        s.batch = 1;
        s.dt = DataType::Float16;
        size_t convs = 0;
        EXPECT_LE(run_both(s, &convs), kTolerance) << "activation " << act;
        EXPECT_EQ(convs, 8u) << "activation " << act;
    }
}

TEST(NpuLstm, KeptWholeWithItsReason) {
    LstmSpec ln;
    ln.layer_norm = true;
    EXPECT_NE(kept_reason(ln, true).find("layer normalization"), std::string::npos) << kept_reason(ln, true);
    EXPECT_NE(kept_reason(LstmSpec{}, false).find("use --fp16"), std::string::npos) << kept_reason(LstmSpec{}, false);
    LstmSpec q;
    q.dt = DataType::QSymmS16;
    EXPECT_NE(kept_reason(q, true).find("QSymmS16"), std::string::npos) << kept_reason(q, true);
    EXPECT_TRUE(kept_reason(LstmSpec{}, true).empty()) << kept_reason(LstmSpec{}, true);
    // The CPU placement never rewrites the graph.
    EXPECT_EQ(lower_lstm_layers(lstm_model(LstmSpec{})->graph(), PlacementOptions{}), nullptr);
}

TEST(NpuLstm, ExplainNamesTheKeptLstmsReason) {
    LstmSpec ln;
    ln.layer_norm = true;
    const auto m = lstm_model(ln);
    const Placement p = place(m->graph(), npu::npu_placement_options(true));
    for (size_t i = 0; i < m->graph().nodes.size(); ++i)
        if (m->graph().nodes[i].op == OpKind::Lstm) {
            EXPECT_EQ(p.nodes[i].device, Placed::Cpu);
            EXPECT_NE(p.nodes[i].reason.find("not decomposed for the NPU: layer normalization"), std::string::npos)
                << p.nodes[i].reason;
        }
}

// A sequence unrolled: T steps of the same parts, each step's output the next one's h, in both input orders.
TEST(NpuLstm, SequenceMatchesTheCpuKernelBatchMajorAndTimeMajor) {
    for (bool time_major : {false, true}) {
        LstmSpec s;
        s.steps = 4;
        s.time_major = time_major;
        size_t convs = 0;
        EXPECT_LE(run_both(s, &convs), kTolerance) << "time-major " << time_major;
        EXPECT_EQ(convs, 4u * 8u) << "time-major " << time_major;  // per step: 4 gates x (input, recurrent)
    }
}

TEST(NpuLstm, SequenceWithOneOutputCifgAndProjectionMatchesTheCpuKernel) {
    LstmSpec s;
    s.steps = 3;
    s.batch = 1;
    s.three_outputs = false;
    s.cifg = true;
    s.projection = true;
    s.out = 8;
    s.clip_proj = 0.4f;
    s.dt = DataType::Float16;
    size_t convs = 0;
    EXPECT_LE(run_both(s, &convs), kTolerance);
    EXPECT_EQ(convs, 3u * 7u);
}

TEST(NpuLstm, SequenceKeptWholeWithItsReason) {
    LstmSpec many;
    many.steps = 129;
    many.batch = 1;
    EXPECT_NE(kept_reason(many, true).find("129 time steps"), std::string::npos) << kept_reason(many, true);
    LstmSpec ln;
    ln.steps = 2;
    ln.layer_norm = true;
    EXPECT_NE(kept_reason(ln, true).find("layer normalization"), std::string::npos) << kept_reason(ln, true);
    LstmSpec ok;
    ok.steps = 2;
    EXPECT_TRUE(kept_reason(ok, true).empty()) << kept_reason(ok, true);
}

// A UnidirectionalSequenceLstm as an Arm NN 22.05+ file writes it (three outputs, time-major here), through the
// loader: the same rewrite as for a graph built in memory.
TEST(NpuLstm, SequenceFromAnArmnnFileMatchesTheCpuKernel) {
    namespace mw = npurun::modelwriter;
    const uint32_t T = 5, B = 2, I = 3, C = 8;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    auto random = [&](std::vector<uint32_t> dims) {
        size_t n = 1;
        for (uint32_t d : dims) n *= d;
        std::vector<float> v(n);
        for (float& e : v) e = u(rng);
        return mw::const_f32(std::move(dims), v);
    };
    mw::LstmParams p;
    p.time_major = true;
    p.input_to_input = random({C, I}), p.input_to_forget = random({C, I});
    p.input_to_cell = random({C, I}), p.input_to_output = random({C, I});
    p.recurrent_to_input = random({C, C}), p.recurrent_to_forget = random({C, C});
    p.recurrent_to_cell = random({C, C}), p.recurrent_to_output = random({C, C});
    p.input_gate_bias = random({C}), p.forget_gate_bias = random({C});
    p.cell_bias = random({C}), p.output_gate_bias = random({C});
    mw::ModelWriter w;
    const uint32_t x = w.add_input("x", mw::tensor({T, B, I}), 0);
    const uint32_t h = w.add_input("h", mw::tensor({B, C}), 1);
    const uint32_t c = w.add_input("c", mw::tensor({B, C}), 2);
    const uint32_t l = w.add_unidirectional_sequence_lstm("seq", x, h, c,
                                                          {mw::tensor({B, C}), mw::tensor({B, C}), mw::tensor({T, B, C})}, p);
    for (uint32_t k = 0; k < 3; ++k) w.add_output("out" + std::to_string(k), mw::Port(l, k), int32_t(k));
    const std::vector<uint8_t> bytes = w.finish();
    Graph g = load_model_memory(bytes.data(), bytes.size(), "sequence.armnn");
    const auto m = std::make_shared<const Model>(std::move(g), "sequence");
    size_t convs = 0;
    EXPECT_LE(run_both(m, &convs), kTolerance);
    EXPECT_EQ(convs, T * 8u);
}

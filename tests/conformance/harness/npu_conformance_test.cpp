// The NPU path against the CPU path on every conformance case the NPU could take (issue 6, evidence):
// each quantized (QAsymmU8 / QAsymmS8 / QSymmS16) and Float16 case, and each Float32 case run with the
// fp16 option, is loaded into a CPU session and a `sim` session (functional simulator behind the fake
// kernel). A case whose layers the support checker all refuses is skipped with the checker's reasons.
// Otherwise every tensor the NPU hands back (segment outputs) and every model output must match the CPU:
//   quantized: at most 1 apart in the integer value;
//   Float16 model: within one fp16 rounding of the CPU result, |npu - cpu| <= 2^-10 * max(1, |cpu|);
//   Float32 run as fp16: inputs, weights and the result are each rounded to fp16, so the bound is the
//   fp16 rounding of those operands: |npu - cpu| <= 2^-7 * max(1, |cpu|) (see kFp32AsFp16Tolerance).
// Models with several NPU layers (the real networks): every NPU layer is also run alone on the CPU's
// value of its inputs and must meet the rule above; end to end, a value that went through N NPU layers
// may differ by N times the rule (each layer adds its rounding), and a classifier's probabilities
// computed on the CPU after the NPU must keep the CPU's top-1.
// Ends with "npu-conformance: N cases, A with NPU layers, P passed, F failed".
//
// Environment (set by meson): NPURUN_CONFORMANCE_INDEX, NPURUN_CONFORMANCE_CASES.
// Links the npurun library only, never Arm NN (see tests/conformance/meson.build).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/session/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "tests/conformance/harness/compare.h"
#include "tests/conformance/harness/manifest.h"

using namespace conformance;

namespace {

// One fp16 rounding relative to the value (2^-11 half an ulp, 2^-10 one ulp: the two paths sum in a
// different order before the one rounding, so they can land on neighbouring fp16 values).
constexpr float kFloat16Tolerance = 1.0f / 1024.0f;
// Float32 models on the NPU: every input and weight is rounded to fp16 (relative error 2^-11 each) before
// the products, so a sum of K products carries up to about 2^-10 of sum |x w|; the conformance cases keep
// |x|, |w| around 1 and K small, and 2^-7 relative to max(1, |cpu|) bounds what that rounding can do here.
constexpr float kFp32AsFp16Tolerance = 1.0f / 128.0f;

struct NpuCase {
    ConformanceCase c;
    bool fp16_option = false;  // a Float32 case run with SessionOptions::fp16
    std::string test_name;
};

void PrintTo(const NpuCase& c, std::ostream* os) { *os << c.test_name; }

std::string env_or_empty(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::string g_load_error;

bool is_quantized_dtype(const std::string& d) { return d == "QAsymmU8" || d == "QAsymmS8" || d == "QSymmS16" || d == "QSymmS8"; }

std::vector<NpuCase> load_cases() {
    const std::string index = env_or_empty("NPURUN_CONFORMANCE_INDEX");
    const std::string dir = env_or_empty("NPURUN_CONFORMANCE_CASES");
    if (index.empty() || dir.empty()) {
        g_load_error = "NPURUN_CONFORMANCE_INDEX / NPURUN_CONFORMANCE_CASES not set (run through meson test)";
        return {};
    }
    std::vector<NpuCase> out;
    try {
        for (ConformanceCase& c : read_cases(index, dir)) {
            if (c.skipped()) continue;  // no model file: Arm NN could not write or run it
            if (is_quantized_dtype(c.dtype) || c.dtype == "Float16") {
                out.push_back({c, false, c.name});
            } else if (c.dtype == "Float32") {
                out.push_back({c, true, c.name + "_fp16"});
            }
        }
    } catch (const std::exception& e) {
        g_load_error = e.what();
        return {};
    }
    return out;
}

const std::vector<NpuCase>& npu_cases() {
    static const std::vector<NpuCase> cases = load_cases();
    return cases;
}

// Session slot of a manifest binding: by unique name, else by binding id (as conformance_test.cpp).
size_t input_slot(npurun::Session& s, const ManifestBinding& m, const std::vector<ManifestBinding>& all) {
    size_t same_name = 0;
    for (const auto& other : all) same_name += other.name == m.name;
    if (!m.name.empty() && same_name == 1)
        for (size_t i = 0; i < s.num_inputs(); ++i)
            if (s.input(i).name == m.name) return i;
    for (size_t i = 0; i < s.num_inputs(); ++i)
        if (s.input(i).binding_id == m.id) return i;
    return s.num_inputs();
}

// Copies the case's input files into the session; records a failure and returns false on a mismatch.
bool fill_inputs(const ConformanceCase& c, npurun::Session& s) {
    for (const ManifestBinding& m : c.inputs) {
        const size_t i = input_slot(s, m, c.inputs);
        if (i == s.num_inputs()) {
            ADD_FAILURE() << "no input named '" << m.name << "' (id " << m.id << ")";
            return false;
        }
        const std::vector<uint8_t> bytes = read_bytes(c.dir + "/" + m.file);
        if (bytes.size() != s.input(i).info.num_bytes()) {
            ADD_FAILURE() << "input '" << m.name << "': " << bytes.size() << " bytes on disk, npurun wants " << s.input(i).info.num_bytes();
            return false;
        }
        std::memcpy(s.input(i).data, bytes.data(), bytes.size());
    }
    return true;
}


// A model over the same graph whose outputs are the original outputs followed by every NPU segment
// output that is not already a model output (constants and the original model stay alive through it).
struct ProbeModel {
    std::shared_ptr<const npurun::Model> original;
    std::shared_ptr<const npurun::Model> model;
    size_t model_outputs = 0;  // the first model_outputs outputs are the original ones
};

// g: the graph the sim session placed (the model's, or its rewrite with Lstm layers decomposed, whose constants
// the session keeps alive: the probe must not outlive it).
ProbeModel probe_model(const std::shared_ptr<const npurun::Model>& m, const npurun::Graph& g,
                       const npurun::Placement& p) {
    npurun::Graph probe;
    probe.tensors = g.tensors;  // constant data stays where it is: in `m`, kept alive by ProbeModel
    probe.nodes = g.nodes;
    probe.inputs = g.inputs;
    probe.outputs = g.outputs;
    probe.file = g.file;
    std::set<npurun::TensorId> bound;
    int32_t next_id = 1 << 30;
    for (const auto& b : g.outputs) bound.insert(b.tensor);
    for (const npurun::Segment& s : p.segments)
        for (npurun::TensorId t : s.outputs)
            if (bound.insert(t).second) probe.outputs.push_back({"npu:" + g.tensor(t).name, next_id++, t});
    ProbeModel r;
    r.original = m;
    r.model_outputs = g.outputs.size();
    r.model = std::make_shared<const npurun::Model>(std::move(probe), m->path());
    return r;
}

bool produced_by_npu(const npurun::Placement& p, npurun::TensorId t) {
    for (const npurun::Segment& s : p.segments)
        for (npurun::TensorId o : s.outputs)
            if (o == t) return true;
    return false;
}

// Runs `probe` on the CPU and on the simulator with the case's inputs and compares every output:
// tensors the NPU produced under the rule of the file comment; model outputs that CPU layers compute
// from NPU results (e.g. a Softmax after the last convolution, which turns a 1-code difference of a
// logit into several codes of probability) are compared too, under the case's own conformance rule
// when it has one that is looser (classifiers: same top-1, ties allowed, within its bound).
void compare_sessions(const ConformanceCase& c, const ProbeModel& probe, bool fp16_option, const npurun::Placement& p,
                      int npu_layers) {
    npurun::SessionOptions cpu_opt;
    cpu_opt.device = npurun::DeviceKind::Cpu;
    npurun::SessionOptions sim_opt;
    sim_opt.device = npurun::DeviceKind::Sim;
    sim_opt.fp16 = fp16_option;
    npurun::Session cpu(probe.model, cpu_opt);
    npurun::Session sim(probe.model, sim_opt);
    if (!fill_inputs(c, cpu) || !fill_inputs(c, sim)) return;
    try {
        cpu.run();
        sim.run();
    } catch (const npurun::Error& e) {
        FAIL() << "run failed: " << e.what();
    }
    ASSERT_EQ(cpu.num_outputs(), sim.num_outputs());
    const npurun::Graph& g = probe.model->graph();
    for (size_t k = 0; k < cpu.num_outputs(); ++k) {
        const npurun::TensorBinding& want_b = cpu.output(k);
        const npurun::TensorBinding& got_b = sim.output(k);
        const npurun::TensorId t = g.outputs[k].tensor;
        const bool npu_made = produced_by_npu(p, t);
        const std::string dtype = npurun::to_string(want_b.info.dtype);
        ASSERT_EQ(want_b.info.num_bytes(), got_b.info.num_bytes());
        const auto* wp = static_cast<const uint8_t*>(want_b.data);
        const auto* gp = static_cast<const uint8_t*>(got_b.data);
        const std::vector<double> want = decode_values(dtype, std::vector<uint8_t>(wp, wp + want_b.info.num_bytes()));
        const std::vector<double> got = decode_values(dtype, std::vector<uint8_t>(gp, gp + got_b.info.num_bytes()));
        // One layer's rounding per NPU layer the value went through (each is checked alone to the strict
        // rule by compare_each_layer); a classifier's probabilities after a CPU Softmax keep their top-1.
        const float layers = static_cast<float>(std::max(1, npu_layers));
        std::string diff;
        if (!npu_made && c.compare == CompareMode::Top1) {
            diff = compare_values(CompareMode::Top1, INFINITY, got, want);
        } else if (is_quantized_dtype(dtype)) {
            diff = compare_values(CompareMode::Quantized, layers, got, want);
        } else {
            diff = compare_values(CompareMode::Float, layers * (fp16_option ? kFp32AsFp16Tolerance : kFloat16Tolerance), got, want);
        }
        double max_diff = 0;
        for (size_t i = 0; i < got.size() && i < want.size(); ++i) max_diff = std::max(max_diff, std::fabs(got[i] - want[i]));
        std::printf("  %s '%s' %s %s: max |npu - cpu| %g\n", npu_made ? "NPU output" : "model output (CPU after NPU)",
                    want_b.name.c_str(), dtype.c_str(), want_b.info.shape.str().c_str(), max_diff);
        // compare_values labels the expected values "CpuRef"; here they are npurun's own CPU path.
        EXPECT_TRUE(diff.empty()) << (npu_made ? "NPU output '" : "model output '") << want_b.name << "' (" << dtype << " "
                                  << want_b.info.shape.str() << ") differs from the CPU path (\"CpuRef\" below = CPU): " << diff;
    }
}


// Reshape / Concat: on the NPU views of other layers' buffers (runtime/npu/buffer_alias.h), no arithmetic.
bool is_view(npurun::OpKind op) { return op == npurun::OpKind::Reshape || op == npurun::OpKind::Concat; }

// Compares two output buffers of one dtype under the rule for an NPU-computed tensor (file comment).
std::string compare_strict(const std::string& dtype, bool fp16_option, const void* got_p, const void* want_p, size_t bytes) {
    const auto* wp = static_cast<const uint8_t*>(want_p);
    const auto* gp = static_cast<const uint8_t*>(got_p);
    const std::vector<double> want = decode_values(dtype, std::vector<uint8_t>(wp, wp + bytes));
    const std::vector<double> got = decode_values(dtype, std::vector<uint8_t>(gp, gp + bytes));
    if (is_quantized_dtype(dtype)) return compare_values(CompareMode::Quantized, 1.0f, got, want);
    return compare_values(CompareMode::Float, fp16_option ? kFp32AsFp16Tolerance : kFloat16Tolerance, got, want);
}

// Every NPU layer on its own, fed the CPU path's value of its inputs: the NPU's per-layer arithmetic,
// free of differences earlier layers handed it. A chain of N layers can drift by more than 1 code at the
// end even when each layer is within 1 (the last convolution of MobileNet: 2 codes); this isolates each.
// Returns how many layers were checked.
int compare_each_layer(const ConformanceCase& c, const std::shared_ptr<const npurun::Model>& model,
                       const npurun::Graph& g, const npurun::Placement& p, bool fp16_option) {
    struct Layer {
        std::vector<uint32_t> nodes;
        std::vector<npurun::TensorId> inputs;
        npurun::TensorId output = npurun::kNoTensor;
    };
    std::vector<Layer> layers;
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
        // Views (Reshape, Concat) compute nothing and never run alone on the NPU: the end-to-end check covers them.
        if (p.nodes[i].device != npurun::Placed::Npu || is_view(g.nodes[i].op)) continue;
        Layer l;
        l.nodes = {i};
        l.output = g.nodes[i].outputs.at(0);
        for (uint32_t j = 0; j < g.nodes.size(); ++j)
            if (p.nodes[j].device == npurun::Placed::Fused && p.nodes[j].fused_into == int(i)) {
                l.nodes.push_back(j);
                l.output = g.nodes[j].outputs.at(0);
            }
        for (npurun::TensorId t : g.nodes[i].inputs)
            if (t != npurun::kNoTensor && !g.tensor(t).is_constant() &&
                std::find(l.inputs.begin(), l.inputs.end(), t) == l.inputs.end())
                l.inputs.push_back(t);
        layers.push_back(std::move(l));
    }
    // The CPU's value of every layer input: model inputs from the case, the others bound as extra outputs.
    // Every field but `owned`, which is not copyable.
    npurun::Graph probe{g.tensors, g.nodes, g.inputs, g.outputs, {}, g.file};
    std::set<npurun::TensorId> bound;
    for (const auto& b : g.inputs) bound.insert(b.tensor);
    for (const auto& b : g.outputs) bound.insert(b.tensor);
    int32_t next_id = 1 << 30;
    for (const Layer& l : layers)
        for (npurun::TensorId t : l.inputs)
            if (bound.insert(t).second) probe.outputs.push_back({"in:" + g.tensor(t).name, next_id++, t});
    auto probe_model = std::make_shared<const npurun::Model>(std::move(probe), model->path());
    npurun::SessionOptions cpu_opt;
    cpu_opt.device = npurun::DeviceKind::Cpu;
    npurun::Session cpu(probe_model, cpu_opt);
    if (!fill_inputs(c, cpu)) return 0;
    cpu.run();
    std::map<npurun::TensorId, std::vector<uint8_t>> values;
    auto keep = [&](npurun::TensorId t, const void* data, size_t n) {
        const auto* b = static_cast<const uint8_t*>(data);
        values[t].assign(b, b + n);
    };
    for (size_t i = 0; i < cpu.num_inputs(); ++i) keep(g.inputs[i].tensor, cpu.input(i).data, cpu.input(i).info.num_bytes());
    for (size_t i = 0; i < cpu.num_outputs(); ++i)
        keep(probe_model->graph().outputs[i].tensor, cpu.output(i).data, cpu.output(i).info.num_bytes());

    int checked = 0;
    for (const Layer& l : layers) {
        npurun::Graph one;
        one.tensors = g.tensors;
        one.file = g.file;
        for (size_t k = 0; k < l.inputs.size(); ++k) {
            npurun::Node in;
            in.op = npurun::OpKind::Input;
            in.name = "in" + std::to_string(k);
            in.outputs = {l.inputs[k]};
            in.attrs = npurun::BindingAttrs{int32_t(k)};
            one.nodes.push_back(in);
            one.inputs.push_back({in.name, int32_t(k), l.inputs[k]});
        }
        for (uint32_t n : l.nodes) one.nodes.push_back(g.nodes[n]);
        npurun::Node out;
        out.op = npurun::OpKind::Output;
        out.name = "out";
        out.inputs = {l.output};
        out.attrs = npurun::BindingAttrs{0};
        one.nodes.push_back(out);
        one.outputs.push_back({"out", 0, l.output});
        const std::string what = std::string(npurun::to_string(g.nodes[l.nodes[0]].op)) + " '" + g.nodes[l.nodes[0]].name + "'";
        auto m = std::make_shared<const npurun::Model>(std::move(one), model->path());
        npurun::SessionOptions sim_opt;
        sim_opt.device = npurun::DeviceKind::Sim;
        sim_opt.fp16 = fp16_option;
        npurun::Session lc(m, cpu_opt), ls(m, sim_opt);
        const npurun::npu::NpuBackend* b = npurun::SessionFactory::npu_backend(ls);
        if (b == nullptr || b->placement().segments.empty()) {
            ADD_FAILURE() << what << " is not on the NPU when alone";
            continue;
        }
        for (size_t k = 0; k < l.inputs.size(); ++k) {
            const std::vector<uint8_t>& v = values.at(l.inputs[k]);
            EXPECT_EQ(v.size(), lc.input(k).info.num_bytes());
            std::memcpy(lc.input(k).data, v.data(), std::min(v.size(), lc.input(k).info.num_bytes()));
            std::memcpy(ls.input(k).data, v.data(), std::min(v.size(), ls.input(k).info.num_bytes()));
        }
        lc.run();
        ls.run();
        const std::string dtype = npurun::to_string(lc.output(0).info.dtype);
        const std::string diff = compare_strict(dtype, fp16_option, ls.output(0).data, lc.output(0).data, lc.output(0).info.num_bytes());
        EXPECT_TRUE(diff.empty()) << what << " alone, on the CPU's input, differs from the CPU (\"CpuRef\" below = CPU): " << diff;
        ++checked;
    }
    return checked;
}

// Per-suite counts for the summary.
int g_with_npu = 0;

class NpuConformance : public ::testing::TestWithParam<NpuCase> {};

TEST_P(NpuConformance, SimulatorMatchesCpu) {
    const NpuCase& nc = GetParam();
    const ConformanceCase& c = nc.c;
    std::shared_ptr<const npurun::Model> model;
    try {
        model = npurun::Model::load(c.model);
    } catch (const npurun::Error& e) {
        FAIL() << "npurun cannot load the model: " << e.what();
    }
    npurun::SessionOptions cpu_opt;
    cpu_opt.device = npurun::DeviceKind::Cpu;
    npurun::SessionOptions sim_opt;
    sim_opt.device = npurun::DeviceKind::Sim;
    sim_opt.fp16 = nc.fp16_option;
    std::unique_ptr<npurun::Session> cpu, sim;
    try {
        cpu = std::make_unique<npurun::Session>(model, cpu_opt);
    } catch (const npurun::Error& e) {
        GTEST_SKIP() << "the CPU path does not run this case: " << e.what();
    }
    try {
        sim = std::make_unique<npurun::Session>(model, sim_opt);
    } catch (const npurun::Error& e) {
        FAIL() << "the sim session fails where the CPU session loads: " << e.what();
    }
    const npurun::npu::NpuBackend* backend = npurun::SessionFactory::npu_backend(*sim);
    ASSERT_NE(backend, nullptr);
    const npurun::Graph& g = backend->graph();  // an Lstm is placed as its parts (runtime/passes/lstm_lowering.h)
    const npurun::Placement& p = backend->placement();
    std::set<std::string> reasons;
    std::string placed;
    size_t on_npu = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const npurun::Node& n = g.nodes[i];
        if (n.op == npurun::OpKind::Input || n.op == npurun::OpKind::Output || n.op == npurun::OpKind::Constant) continue;
        if (p.nodes[i].device == npurun::Placed::Cpu) {
            reasons.insert(std::string(npurun::to_string(n.op)) + ": " + p.nodes[i].reason);
        } else {
            ++on_npu;
            placed += std::string(placed.empty() ? "" : ", ") + npurun::to_string(n.op);
        }
    }
    if (on_npu == 0) {
        std::string why;
        for (const auto& r : reasons) why += (why.empty() ? "" : "; ") + r;
        GTEST_SKIP() << "no layer on the NPU: " << why;
    }
    ++g_with_npu;
    RecordProperty("npu_layers", placed);

    // The same model with every tensor the NPU hands back (segment outputs) bound as an extra output, so
    // that the NPU's own results are compared, not only what CPU layers after it make of them.
    int npu_layers = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) npu_layers += p.nodes[i].device == npurun::Placed::Npu && !is_view(g.nodes[i].op);
    // The model as the user runs it (its own memory plan), then with the NPU's results bound as outputs.
    ASSERT_NO_FATAL_FAILURE(compare_sessions(c, ProbeModel{model, model, model->graph().outputs.size()}, nc.fp16_option, p, npu_layers));
    auto probe = probe_model(model, g, p);
    ASSERT_NO_FATAL_FAILURE(compare_sessions(c, probe, nc.fp16_option, p, npu_layers));
    if (npu_layers > 1) {
        const int checked = compare_each_layer(c, model, g, p, nc.fp16_option);
        std::printf("  %d NPU layers, each alone within the per-layer rule: %s\n", checked, HasFailure() ? "no" : "yes");
    }
}

std::string test_name(const ::testing::TestParamInfo<NpuCase>& info) { return info.param.test_name; }

INSTANTIATE_TEST_SUITE_P(Sim, NpuConformance, ::testing::ValuesIn(npu_cases()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(NpuConformance);

TEST(NpuConformanceSetup, IndexIsReadableAndHasNpuCandidates) {
    EXPECT_TRUE(g_load_error.empty()) << g_load_error;
    EXPECT_FALSE(npu_cases().empty()) << "no quantized, Float16 or Float32 conformance cases";
}

// "npu-conformance: N cases, A with NPU layers, P passed, F failed" (P and F among the A cases).
class Summary : public ::testing::EmptyTestEventListener {
    void OnTestProgramEnd(const ::testing::UnitTest& unit) override {
        int total = 0, passed = 0, failed = 0;
        for (int s = 0; s < unit.total_test_suite_count(); ++s) {
            const ::testing::TestSuite* suite = unit.GetTestSuite(s);
            if (std::string(suite->name()) != "Sim/NpuConformance") continue;
            for (int t = 0; t < suite->total_test_count(); ++t) {
                const ::testing::TestInfo* info = suite->GetTestInfo(t);
                if (!info->should_run()) continue;
                ++total;
                const ::testing::TestResult* r = info->result();
                if (r->Skipped()) continue;
                if (r->Failed()) ++failed;
                else ++passed;
            }
        }
        std::printf("npu-conformance: %d cases, %d with NPU layers, %d passed, %d failed\n", total, g_with_npu, passed, failed);
    }
};

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new Summary);
    return RUN_ALL_TESTS();
}

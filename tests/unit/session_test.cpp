// The executor and Session over test kernels of known behaviour (the real kernels are tested in
// kernels/ref's own suite): pointers, arena sharing, repeated runs, profiling, errors, no allocation.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "include/npurun/npurun.hpp"
#include "runtime/exec/executor.h"
#include "runtime/session/session_factory.h"
#include "tests/unit/allocation_counter.h"
#include "tests/common/graph_builders.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

size_t count(const kernels::KernelNode& n) { return n.out(0).shape.num_elements(); }

// ElementwiseBinary Add, same shapes.
void add_run(const kernels::KernelArgs& a) {
    const float* x = static_cast<const float*>(a.inputs[0]);
    const float* y = static_cast<const float*>(a.inputs[1]);
    float* out = static_cast<float*>(a.outputs[0]);
    for (size_t i = 0, n = count(a.node); i < n; ++i) out[i] = x[i] + y[i];
}
const kernels::Kernel kAdd{nullptr, nullptr, add_run};

// Activation "double": goes through its scratch area to prove scratch is usable and private.
size_t double_scratch(const kernels::KernelNode& n) { return n.out(0).num_bytes(); }
void double_run(const kernels::KernelArgs& a) {
    const size_t n = count(a.node);
    float* tmp = static_cast<float*>(a.scratch);
    const float* x = static_cast<const float*>(a.inputs[0]);
    for (size_t i = 0; i < n; ++i) tmp[i] = 2.0f * x[i];
    std::memcpy(a.outputs[0], tmp, n * sizeof(float));
}
const kernels::Kernel kDouble{nullptr, double_scratch, double_run};

std::string refuse_check(const kernels::KernelNode&) { return "Float16 input not supported"; }
const kernels::Kernel kRefuse{refuse_check, nullptr, add_run};

// ElementwiseBinary Add whose prepare copies its constant second operand into the state: run then reads
// the state, never the operand. Counts prepare calls, to prove they happen once per session.
int g_prepare_calls = 0;
size_t add_state_bytes(const kernels::KernelNode& n) { return n.in(1).num_bytes(); }
void add_prepare(const kernels::PrepareArgs& a) {
    ++g_prepare_calls;
    ASSERT_TRUE(a.node.is_constant(1));
    ASSERT_EQ(reinterpret_cast<uintptr_t>(a.state) % 64, 0u);
    std::memcpy(a.state, a.node.constant(1), a.node.in(1).num_bytes());
}
void add_prepared_run(const kernels::KernelArgs& a) {
    const float* x = static_cast<const float*>(a.inputs[0]);
    const float* c = static_cast<const float*>(a.state);
    float* out = static_cast<float*>(a.outputs[0]);
    for (size_t i = 0, n = count(a.node); i < n; ++i) out[i] = x[i] + c[i];
}
const kernels::Kernel kPreparedAdd{nullptr, nullptr, add_prepared_run, add_state_bytes, add_prepare};

const kernels::Kernel* test_kernels(const Node& n, const Graph&) {
    if (n.op == OpKind::ElementwiseBinary) return &kAdd;
    if (n.op == OpKind::Activation) return &kDouble;
    if (n.op == OpKind::Floor) return &kRefuse;
    return nullptr;
}

// out = 2*(2*(in + c)) + in, with c a constant [10, 20, 30, 40]
std::shared_ptr<const Model> small_model(OpKind middle = OpKind::Activation) {
    Graph g;
    TensorId in = add_value(g, "input", Shape{1, 4});
    add_input(g, "input", in, 0);
    TensorId c = add_constant(g, "c", Shape{1, 4}, {10, 20, 30, 40});
    TensorId s = add_value(g, "sum", Shape{1, 4});
    TensorId d1 = add_value(g, "d1", Shape{1, 4});
    TensorId d2 = add_value(g, "d2", Shape{1, 4});
    TensorId out = add_value(g, "out", Shape{1, 4});
    add_node(g, OpKind::ElementwiseBinary, "add", {in, c}, {s}, ElementwiseBinaryAttrs{});
    add_node(g, middle, "double1", {s}, {d1}, ActivationAttrs{});
    add_node(g, OpKind::Activation, "double2", {d1}, {d2}, ActivationAttrs{});
    add_node(g, OpKind::ElementwiseBinary, "add2", {d2, in}, {out}, ElementwiseBinaryAttrs{});
    add_output(g, "result", out, 0);
    return std::make_shared<const Model>(std::move(g), "in-memory");
}

void set_input(Session& s, std::vector<float> v) {
    ASSERT_EQ(s.input(0).info.num_bytes(), v.size() * sizeof(float));
    std::memcpy(s.input(0).data, v.data(), v.size() * sizeof(float));
}

std::vector<float> get_output(const Session& s) {
    const auto& o = s.output(0);
    const float* p = static_cast<const float*>(o.data);
    return std::vector<float>(p, p + o.info.shape.num_elements());
}

}  // namespace

TEST(Session, ReshapeNeedsNoStepAndSharesMemory) {
    Graph g;
    TensorId in = add_value(g, "input", Shape{1, 4});
    add_input(g, "input", in, 0);
    TensorId d = add_value(g, "d", Shape{1, 4}), r = add_value(g, "r", Shape{2, 2});
    add_node(g, OpKind::Activation, "double", {in}, {d}, ActivationAttrs{});
    add_node(g, OpKind::Reshape, "reshape", {d}, {r}, ReshapeAttrs{Shape{2, 2}});
    add_output(g, "result", r, 0);
    auto session = SessionFactory::create(std::make_shared<const Model>(std::move(g), "m"), {}, test_kernels);
    set_input(*session, {1, -2, 3, 4});
    session->run();
    EXPECT_EQ(session->output(0).info.shape, (Shape{2, 2}));
    EXPECT_EQ(get_output(*session), (std::vector<float>{2, -4, 6, 8}));
    exec::Executor ex(session->model().graph(), test_kernels, false, "cpu");
    EXPECT_EQ(ex.steps().size(), 1u);
    EXPECT_EQ(ex.tensor_data(r), ex.tensor_data(d));
}

TEST(Session, RunsTheStepsInOrderAndKeepsOutputs) {
    auto session = SessionFactory::create(small_model(), {}, test_kernels);
    ASSERT_EQ(session->num_inputs(), 1u);
    ASSERT_EQ(session->num_outputs(), 1u);
    EXPECT_EQ(session->input(0).name, "input");
    EXPECT_EQ(session->output(0).name, "result");
    EXPECT_EQ(session->device(), DeviceKind::Cpu);
    set_input(*session, {1, 2, 3, 4});
    session->run();
    EXPECT_EQ(get_output(*session), (std::vector<float>{45, 90, 135, 180}));
    // A second run with the same input gives the same result: the input survived the first run.
    session->run();
    EXPECT_EQ(get_output(*session), (std::vector<float>{45, 90, 135, 180}));
    set_input(*session, {0, 0, 0, 0});
    session->run();
    EXPECT_EQ(get_output(*session), (std::vector<float>{40, 80, 120, 160}));
}

TEST(Session, PrepareRunsOnceAndItsStateIsPlanned) {
    // The first Add (constant operand) gets the prepared kernel; the second (two run-time operands) kAdd.
    const auto select = [](const Node& n, const Graph& g) -> const kernels::Kernel* {
        if (n.op == OpKind::ElementwiseBinary && g.tensors[n.inputs[1]].is_constant()) return &kPreparedAdd;
        return test_kernels(n, g);
    };
    g_prepare_calls = 0;
    auto model = small_model();
    auto session = SessionFactory::create(model, {}, select);
    EXPECT_EQ(g_prepare_calls, 1);
    for (int r = 0; r < 3; ++r) {
        set_input(*session, {1, 2, 3, 4});
        session->run();
        EXPECT_EQ(get_output(*session), (std::vector<float>{45, 90, 135, 180}));
    }
    EXPECT_EQ(g_prepare_calls, 1);  // runs do not prepare again
    exec::Executor ex(model->graph(), select, false, "cpu");
    EXPECT_EQ(ex.plan().state_bytes, 64u);  // 16 bytes of state, 64-byte aligned
    EXPECT_EQ(ex.plan().state_offsets[1], 0u);
    EXPECT_EQ(ex.steps()[0].args.state != nullptr, true);
    EXPECT_EQ(ex.steps()[3].args.state, nullptr);
}

TEST(Session, StepListSkipsStructuralNodesAndResolvesPointers) {
    auto model = small_model();
    exec::Executor ex(model->graph(), test_kernels, false, "cpu");
    ASSERT_EQ(ex.steps().size(), 4u);  // Input and Output nodes get no step
    const Graph& g = model->graph();
    const exec::Step& first = ex.steps()[0];
    EXPECT_EQ(first.args.inputs[1], g.tensors[g.nodes[1].inputs[1]].data);  // the constant, in place
    EXPECT_EQ(first.args.scratch, nullptr);
    EXPECT_NE(ex.steps()[1].args.scratch, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(ex.steps()[1].args.scratch) % 64, 0u);
}

TEST(Session, RunAllocatesNothing) {
    auto session = SessionFactory::create(small_model(), {DeviceKind::Auto, 1, true, false}, test_kernels);
    set_input(*session, {1, 2, 3, 4});
    session->run();  // warm-up
    const size_t before = allocation_count();
    session->run();
    session->run();
    EXPECT_EQ(allocation_count(), before);
}

TEST(Session, ProfileHasOneRowPerStep) {
    auto session = SessionFactory::create(small_model(), {DeviceKind::Cpu, 1, true, false}, test_kernels);
    set_input(*session, {1, 2, 3, 4});
    session->run();
    const auto& rows = session->profile();
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].name, "add");
    EXPECT_EQ(rows[0].type, "ElementwiseBinary");
    EXPECT_EQ(rows[0].device, "cpu");
    EXPECT_EQ(rows[1].output_shape, (Shape{1, 4}));
    for (const auto& r : rows) EXPECT_GE(r.microseconds, 0.0);
}

TEST(Session, MemoryStatsShowSharing) {
    auto session = SessionFactory::create(small_model(), {}, test_kernels);
    const MemoryPlanStats st = session->memory_stats();
    // 5 run-time tensors + 2 scratch areas of 16 bytes, each rounded to 64.
    EXPECT_EQ(st.num_tensors, 7u);
    EXPECT_EQ(st.naive_bytes, 7u * 64u);
    EXPECT_LT(st.arena_bytes, st.naive_bytes);
}

namespace {

// SessionFactory::create refuses `model` with `options`: an Error of `kind` whose message holds `text`.
void expect_refused(std::shared_ptr<const Model> model, const SessionOptions& options, ErrorKind kind,
                    const std::string& text) {
    try {
        SessionFactory::create(std::move(model), options, test_kernels);
        FAIL() << "expected an error containing '" << text << "'";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind);
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(Session, NodeWithoutKernelIsUnsupportedAndNamed) {
    expect_refused(small_model(OpKind::Softmax), {}, ErrorKind::Unsupported, "'double1' (Softmax)");
}

TEST(Session, KernelRefusalCarriesItsReason) {
    expect_refused(small_model(OpKind::Floor), {}, ErrorKind::Unsupported, "Float16 input not supported");
}

TEST(Session, NpuWithoutABoardIsNamedAsUnavailable) {
    // No NPU on a build machine.
    expect_refused(small_model(), {DeviceKind::Npu, 1, false, false}, ErrorKind::Device, "npu");
}

TEST(Session, SimRunsLayersTheNpuDoesNotTakeOnTheCpuKernels) {
    // Float32 without --fp16: every layer stays on the given kernels, results as on the CPU.
    auto s = SessionFactory::create(small_model(), {DeviceKind::Sim, 1, false, false}, test_kernels);
    EXPECT_EQ(s->device(), DeviceKind::Sim);
    set_input(*s, {1, 2, 3, 4});
    s->run();
    const float* y = static_cast<const float*>(s->output(0).data);
    EXPECT_EQ(y[0], 4 * (1 + 10) + 1);
}

TEST(Session, ZeroThreadsIsABadInput) {
    SessionOptions o;
    o.threads = 0;
    EXPECT_THROW(SessionFactory::create(small_model(), o, test_kernels), Error);
}

TEST(Session, BindingIndexOutOfRangeIsAnError) {
    auto session = SessionFactory::create(small_model(), {}, test_kernels);
    EXPECT_THROW(session->input(1), Error);
    EXPECT_THROW(session->output(3), Error);
}

// The same promise with the real loader and reference kernels on a real model (../shared).
TEST(Session, RealModelRunAllocatesNothingAndIsDeterministic) {
    const char* shared = std::getenv("NPURUN_SHARED");
    const std::string path = std::string(shared ? shared : "") + "/models/armnn/mnist_uint8.armnn";
    if (!shared || ::access(path.c_str(), R_OK) != 0) GTEST_SKIP() << path << " not present";
    auto model = Model::load(path);
    Session session(model, {});
    TensorBinding& in = session.input(0);
    uint8_t* p = static_cast<uint8_t*>(in.data);
    for (size_t i = 0; i < in.info.num_bytes(); ++i) p[i] = uint8_t(i * 7 % 251);
    session.run();
    const TensorBinding& out = session.output(0);
    const std::vector<uint8_t> first(static_cast<const uint8_t*>(out.data),
                                     static_cast<const uint8_t*>(out.data) + out.info.num_bytes());
    const size_t before = allocation_count();
    session.run();
    EXPECT_EQ(allocation_count(), before);
    EXPECT_EQ(std::memcmp(out.data, first.data(), first.size()), 0);
    EXPECT_LE(session.memory_stats().arena_bytes, session.memory_stats().naive_bytes);
}

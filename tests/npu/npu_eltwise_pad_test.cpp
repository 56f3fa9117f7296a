// Element-wise ops with the broadcast patterns of seed 003, int8 Mul / MulRelu, fp16 Div and Pad on the
// simulated NPU against the CPU reference kernels (int8: at most 1 in the integer value; fp16: within fp16
// rounding of the float result), and the placement's accept / refuse verdicts with their reasons.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/npu/npu_graphs.h"

using namespace npurun;
using namespace npurun::npu_test;

namespace {

constexpr uint32_t kH = 5, kW = 6, kC = 40;  // 40 channels: 3 int8 / 5 fp16 channel planes, the last partial

// Model inputs bound in order (npu_graphs.h io() binds only one).
void bind(Graph& g, const std::vector<TensorId>& ins, TensorId out) {
    for (size_t i = 0; i < ins.size(); ++i) add_input_binding(g, "input" + std::to_string(i), int32_t(i), ins[i], i);
    for (uint32_t i = 0; i < g.nodes.size(); ++i) g.nodes[i].source_index = i;
    add_output_binding(g, "output", 0, out);
}

// Runs on the CPU and the simulated NPU with the same random inputs; float input i > 0 takes values of
// magnitude in [0.5, 2] when away_from_zero (a divisor).
Compared compare(const std::shared_ptr<const Model>& model, bool fp16, bool away_from_zero = false) {
    Session cpu(model, cpu_options());
    SessionOptions so = sim_options(fp16);
    so.profile = true;
    Session sim(model, so);
    std::mt19937 rng(11);
    for (size_t i = 0; i < cpu.num_inputs(); ++i) {
        TensorBinding& b = cpu.input(i);
        const size_t n = b.info.shape.num_elements();
        if (b.info.dtype == DataType::Float32) {
            std::uniform_real_distribution<float> d(-1.0f, 1.0f), m(0.5f, 2.0f);
            for (size_t k = 0; k < n; ++k) {
                float v = d(rng);
                if (away_from_zero && i > 0) v = (v < 0 ? -1.0f : 1.0f) * m(rng);
                static_cast<float*>(b.data)[k] = v;
            }
        } else {
            std::uniform_int_distribution<int> d(0, 255);
            for (size_t k = 0; k < n; ++k) static_cast<uint8_t*>(b.data)[k] = uint8_t(d(rng));
        }
        std::memcpy(sim.input(i).data, b.data, b.info.num_bytes());
    }
    cpu.run();
    sim.run();
    return compare_runs(cpu, sim);
}

// fp16 rounding: both inputs (|x| <= 1, or the divisor) and the result are rounded to fp16, each by at most
// u = 2^-11 relative (the op itself runs in fp32): 3u of max(1, |result|) covers every op here.
double fp16_tolerance(const Compared& r) { return 3.0 * std::ldexp(1.0, -11) * std::max(1.0, r.max_ref); }

// The operand's shape for each broadcast pattern (NHWC; NCHW name of seed 003 in the comment).
// Scalar and Pixels reach the NPU only as constants (expanded at load, runtime/npu/constant_broadcast.h), not being
// seed 003 Expand patterns; RowOfOne and ColumnOfOne, which are, run-time ones too (the channel expansion first).
enum class Pattern { Full, PerChannel, Rows, Columns, Scalar, Pixels, RowOfOne, ColumnOfOne };
const char* name(Pattern p) {
    switch (p) {
        case Pattern::Full: return "Full";
        case Pattern::PerChannel: return "PerChannel";  // [1,1,1,C] = [b,c,1,1]
        case Pattern::Rows: return "Rows";              // [1,1,W,C] = [b,c,1,w]
        case Pattern::Columns: return "Columns";        // [1,H,1,C] = [b,c,h,1]
        case Pattern::Scalar: return "Scalar";          // [1,1,1,1] = [b,1,1,1]
        case Pattern::Pixels: return "Pixels";          // [1,H,W,1] = [b,1,h,w]
        case Pattern::RowOfOne: return "RowOfOne";      // [1,1,W,1] = [b,1,1,w]
        case Pattern::ColumnOfOne: return "ColumnOfOne";  // [1,H,1,1] = [b,1,h,1]
    }
    return "?";
}
Shape operand_shape(Pattern p) {
    switch (p) {
        case Pattern::Full: return {1, kH, kW, kC};
        case Pattern::PerChannel: return {1, 1, 1, kC};
        case Pattern::Rows: return {1, 1, kW, kC};
        case Pattern::Columns: return {1, kH, 1, kC};
        case Pattern::Scalar: return {1, 1, 1, 1};
        case Pattern::Pixels: return {1, kH, kW, 1};
        case Pattern::RowOfOne: return {1, 1, kW, 1};
        case Pattern::ColumnOfOne: return {1, kH, 1, 1};
    }
    return {};
}

struct Quant {
    float sx, sy, so;
    int32_t zx, zy, zo;
};
Quant quant_for(DataType dt, BinaryOp op) {
    const bool u8 = dt == DataType::QAsymmU8;
    float so = 0.1f;
    if (op == BinaryOp::Mul) so = 0.25f;
    if (op == BinaryOp::Maximum || op == BinaryOp::Minimum) so = 0.05f;
    return {0.05f, 0.03f, so, u8 ? 118 : 4, u8 ? 100 : -10, u8 ? 128 : 3};
}

// out = op(x, y) (or op(y, x) when swapped), x full [1,H,W,C], y of the pattern's shape; both model inputs
// or y a constant. act: a ReLU / ReLU6 after the op.
std::shared_ptr<const Model> binary_model(DataType dt, BinaryOp op, Pattern p, bool swapped, bool constant_y = false,
                                          Act act = Act::None) {
    Graph g;
    const bool q = dt != DataType::Float32;
    const Quant qq = quant_for(dt, op);
    TensorId x = value(g, "x", Shape{1, kH, kW, kC}, dt, q ? qq.sx : 0.0f, q ? qq.zx : 0);
    TensorId y;
    const Shape ys = operand_shape(p);
    if (constant_y) {
        std::mt19937 rng(5);
        const size_t n = ys.num_elements();
        if (q) {
            std::uniform_int_distribution<int> d(0, 255);
            std::vector<uint8_t> v(n);
            for (auto& e : v) e = uint8_t(d(rng));
            y = constant(g, "y", ys, dt, v.data(), n, {qq.sy}, qq.zy);
        } else {
            std::uniform_real_distribution<float> d(-1.0f, 1.0f);
            std::vector<float> v(n);
            for (auto& e : v) e = d(rng);
            y = constant(g, "y", ys, dt, v.data(), n * 4);
        }
    } else {
        y = value(g, "y", ys, dt, q ? qq.sy : 0.0f, q ? qq.zy : 0);
    }
    TensorId o = value(g, "o", Shape{1, kH, kW, kC}, dt, q ? qq.so : 0.0f, q ? qq.zo : 0);
    ElementwiseBinaryAttrs ea;
    ea.op = op;
    node(g, OpKind::ElementwiseBinary, "ew", swapped ? std::vector<TensorId>{y, x} : std::vector<TensorId>{x, y}, {o}, ea);
    TensorId out = o;
    if (act != Act::None) {
        ActivationAttrs aa;
        aa.function = act == Act::Relu ? ActivationFunction::ReLu : ActivationFunction::BoundedReLu;
        aa.a = 6.0f;
        const int32_t zr = dt == DataType::QAsymmU8 ? 0 : (q ? -128 : 0);
        out = value(g, "r", Shape{1, kH, kW, kC}, dt, q ? qq.so : 0.0f, zr);
        node(g, OpKind::Activation, "relu", {o}, {out}, aa);
    }
    if (constant_y) bind(g, {x}, out); else bind(g, {x, y}, out);
    return std::make_shared<const Model>(std::move(g), "binary");
}

uint32_t expected_tasks(Pattern p, bool fp16) {
    switch (p) {
        case Pattern::Full:
        case Pattern::PerChannel:
        case Pattern::Scalar:  // expanded to [1,1,1,C]
        case Pattern::Pixels: return 1;  // expanded to the full map
        case Pattern::Rows: return kH;
        case Pattern::Columns: return kH * ((kC + (fp16 ? 7 : 15)) / (fp16 ? 8 : 16));
        // The channel expansion's one convolution task, then the task(s) of the pattern with C channels.
        case Pattern::RowOfOne: return 1 + kH;
        case Pattern::ColumnOfOne: return 1 + kH * ((kC + (fp16 ? 7 : 15)) / (fp16 ? 8 : 16));
    }
    return 0;
}

void expect_on_npu_and_equal(const std::shared_ptr<const Model>& m, bool fp16, uint32_t tasks, const std::string& what,
                             bool away_from_zero = false) {
    const Compared r = compare(m, fp16, away_from_zero);
    ASSERT_EQ(r.npu_layers.size(), 1u) << what << ": not on the NPU";
    EXPECT_EQ(r.npu_tasks[0], tasks) << what;
    const double tol = fp16 ? fp16_tolerance(r) : 1.0;
    EXPECT_LE(r.max_diff, tol) << what;
    std::printf("[ %s ] %zu outputs, %u tasks, max |npu-cpu| = %.4f\n", what.c_str(), r.elements, r.npu_tasks[0],
                r.max_diff);
}

using Case = std::tuple<BinaryOp, Pattern, DataType, bool>;

class NpuBroadcast : public ::testing::TestWithParam<Case> {};

TEST_P(NpuBroadcast, MatchesTheCpu) {
    const auto [op, p, dt, swapped] = GetParam();
    const bool fp16 = dt == DataType::Float32;
    const std::string what = std::string(to_string(op)) + " " + name(p) + (fp16 ? " fp16" : " " + std::string(to_string(dt))) +
                             (swapped ? " operand first" : "");
    expect_on_npu_and_equal(binary_model(dt, op, p, swapped), fp16, expected_tasks(p, fp16), what);
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
    const auto [op, p, dt, swapped] = i.param;
    return std::string(to_string(op)) + name(p) + (dt == DataType::Float32 ? "Fp16" : dt == DataType::QAsymmU8 ? "U8" : "S8") +
           (swapped ? "Swapped" : "");
}

INSTANTIATE_TEST_SUITE_P(
    Ops, NpuBroadcast,
    ::testing::Combine(::testing::Values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Maximum, BinaryOp::Minimum),
                       ::testing::Values(Pattern::Full, Pattern::PerChannel, Pattern::Rows, Pattern::Columns),
                       ::testing::Values(DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32),
                       ::testing::Values(false)),
    case_name);

// The broadcast operand as the first input: the DPU's main input is the full one, Sub negates it in BS.
INSTANTIATE_TEST_SUITE_P(
    OperandFirst, NpuBroadcast,
    ::testing::Combine(::testing::Values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Minimum),
                       ::testing::Values(Pattern::PerChannel, Pattern::Rows, Pattern::Columns),
                       ::testing::Values(DataType::QAsymmU8, DataType::Float32), ::testing::Values(true)),
    case_name);

// A run-time one-channel operand broadcast across the channels and along H or W (seed 003 [b,1,1,w], [b,1,h,1]):
// repeated across the channels by a 1x1 convolution with weights 1, then broadcast as Rows / Columns.
INSTANTIATE_TEST_SUITE_P(
    AcrossChannels, NpuBroadcast,
    ::testing::Combine(::testing::Values(BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Maximum,
                                         BinaryOp::Minimum),
                       ::testing::Values(Pattern::RowOfOne, Pattern::ColumnOfOne),
                       ::testing::Values(DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32), ::testing::Bool()),
    case_name);

}  // namespace

TEST(NpuDiv, Fp16EveryAllowedPattern) {
    for (Pattern p : {Pattern::Full, Pattern::PerChannel, Pattern::Rows, Pattern::Columns})
        expect_on_npu_and_equal(binary_model(DataType::Float32, BinaryOp::Div, p, false), true, expected_tasks(p, true),
                                std::string("Div ") + name(p) + " fp16", /*away_from_zero=*/true);
}

TEST(NpuMul, Int8ConstantPerChannelOperand) {
    expect_on_npu_and_equal(binary_model(DataType::QAsymmU8, BinaryOp::Mul, Pattern::PerChannel, false, true), false, 1,
                            "Mul const [1,1,1,C] uint8");
    expect_on_npu_and_equal(binary_model(DataType::QAsymmS8, BinaryOp::Mul, Pattern::Full, true, true), false, 1,
                            "Mul const full int8, constant first");
}

TEST(NpuAdd, Fp16ConstantRowOperand) {
    expect_on_npu_and_equal(binary_model(DataType::Float32, BinaryOp::Add, Pattern::Rows, false, true), true, kH,
                            "Add const [1,1,W,C] fp16");
}

// Constant operands broadcast across channels (x + 3, x * (1/6) of a hard-swish; a [b,1,h,w] constant map):
// expanded at load into a per-channel or full constant operand, one DPU task, equal to the CPU.
TEST(NpuBroadcast, ConstantScalarAndPixelOperandsAreExpanded) {
    for (Pattern p : {Pattern::Scalar, Pattern::Pixels})
        for (BinaryOp op : {BinaryOp::Add, BinaryOp::Mul, BinaryOp::Sub, BinaryOp::Maximum}) {
            const std::string what = std::string(to_string(op)) + " const " + name(p);
            expect_on_npu_and_equal(binary_model(DataType::Float32, op, p, false, true), true, 1, what + " fp16");
            expect_on_npu_and_equal(binary_model(DataType::QAsymmU8, op, p, false, true), false, 1, what + " uint8");
            expect_on_npu_and_equal(binary_model(DataType::QAsymmS8, op, p, true, true), false, 1, what + " int8, constant first");
        }
    expect_on_npu_and_equal(binary_model(DataType::Float32, BinaryOp::Div, Pattern::Scalar, false, true), true, 1,
                            "Div const Scalar fp16", /*away_from_zero=*/true);
}

TEST(NpuMulRelu, Int8AndFp16FuseIntoOneTask) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        for (Act act : {Act::Relu, Act::Relu6}) {
            const bool fp16 = dt == DataType::Float32;
            const Compared r = compare(binary_model(dt, BinaryOp::Mul, Pattern::PerChannel, false, false, act), fp16);
            ASSERT_EQ(r.npu_layers.size(), 1u);
            EXPECT_EQ(r.npu_layers[0], act == Act::Relu ? "ElementwiseBinary+ReLu" : "ElementwiseBinary+BoundedReLu");
            EXPECT_EQ(r.npu_tasks[0], 1u);
            EXPECT_LE(r.max_diff, fp16 ? fp16_tolerance(r) : 1.0);
            std::printf("[ MulRelu %s %s ] max |npu-cpu| = %.4f\n", to_string(dt), act == Act::Relu ? "ReLu" : "ReLu6", r.max_diff);
        }
    }
}

TEST(NpuBroadcast, SqueezeExciteInOneSegment) {
    // x -> global average pool [1,1,1,C] -> Mul(x, pool): the per-channel operand is produced inside the segment.
    for (DataType dt : {DataType::QAsymmU8, DataType::Float32}) {
        const bool q = dt != DataType::Float32;
        Graph g;
        TensorId x = value(g, "x", Shape{1, kH, kW, kC}, dt, q ? 0.05f : 0.0f, q ? 118 : 0);
        TensorId p = value(g, "p", Shape{1, 1, 1, kC}, dt, q ? 0.05f : 0.0f, q ? 118 : 0);
        Pooling2dAttrs pa;
        pa.algorithm = PoolingAlgorithm::Average;
        pa.pool_width = kW, pa.pool_height = kH;
        pa.layout = DataLayout::NHWC;
        node(g, OpKind::Pooling2d, "gap", {x}, {p}, pa);
        TensorId o = value(g, "o", Shape{1, kH, kW, kC}, dt, q ? 0.1f : 0.0f, q ? 128 : 0);
        ElementwiseBinaryAttrs ea;
        ea.op = BinaryOp::Mul;
        node(g, OpKind::ElementwiseBinary, "scale", {x, p}, {o}, ea);
        bind(g, {x}, o);
        const Compared r = compare(std::make_shared<const Model>(std::move(g), "se"), !q);
        EXPECT_EQ(r.npu_layers.size(), 2u);
        // The pooled value may be 1 off (one unit of 0.05); multiplied by x that moves the output by up to
        // max|x - zx| * sx * sp / so = 137 * 0.05 * 0.05 / 0.1 = 3.4 units, plus the Mul's own rounding (1).
        EXPECT_LE(r.max_diff, q ? 1.0 + 137 * 0.05 * 0.05 / 0.1 : fp16_tolerance(r));
        std::printf("[ squeeze-excite %s ] max |npu-cpu| = %.4f\n", to_string(dt), r.max_diff);
    }
}

// ---- Pad ----

namespace {

std::shared_ptr<const Model> pad_model(DataType dt, std::vector<std::pair<uint32_t, uint32_t>> pads, float pad_value,
                                       PaddingMode mode = PaddingMode::Constant) {
    Graph g;
    const bool q = dt != DataType::Float32;
    TensorId x = value(g, "x", Shape{1, kH, kW, kC}, dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    Shape os{1, kH + pads[1].first + pads[1].second, kW + pads[2].first + pads[2].second, kC + pads[3].first + pads[3].second};
    TensorId y = value(g, "y", os, dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    PadAttrs pa;
    pa.pads = std::move(pads);
    pa.value = pad_value;
    pa.mode = mode;
    node(g, OpKind::Pad, "pad", {x}, {y}, pa);
    bind(g, {x}, y);
    return std::make_shared<const Model>(std::move(g), "pad");
}

}  // namespace

TEST(NpuPad, RowsOnlyIsOneTask) {
    const Compared r = compare(pad_model(DataType::QAsymmU8, {{0, 0}, {2, 1}, {0, 0}, {0, 0}}, 118.0f), false);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 1u);
    EXPECT_EQ(r.max_diff, 0.0);  // a copy: exact
}

TEST(NpuPad, AllSidesOneTaskPerRow) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        const bool fp16 = dt == DataType::Float32;
        const Compared r = compare(pad_model(dt, {{0, 0}, {1, 3}, {2, 1}, {0, 0}}, fp16 ? -1.5f : 7.0f), fp16);
        ASSERT_EQ(r.npu_layers.size(), 1u) << to_string(dt);
        EXPECT_EQ(r.npu_tasks[0], kH);
        // int8: a raw copy (exact); fp16: the input's rounding to fp16 only.
        EXPECT_LE(r.max_diff, fp16 ? 1e-3 : 0.0) << to_string(dt);
        std::printf("[ pad %s ] %zu outputs, max |npu-cpu| = %.5f\n", to_string(dt), r.elements, r.max_diff);
    }
}

TEST(NpuPad, ReflectMirrorsColumnsThenRows) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        const bool fp16 = dt == DataType::Float32;
        const Compared r = compare(pad_model(dt, {{0, 0}, {2, 1}, {1, 3}, {0, 0}}, 0.0f, PaddingMode::Reflect), fp16);
        ASSERT_EQ(r.npu_layers.size(), 1u) << to_string(dt);
        // 5 interior rows + 5 rows x 4 mirrored pixels + 3 mirrored rows.
        EXPECT_EQ(r.npu_tasks[0], kH + kH * 4 + 3);
        EXPECT_LE(r.max_diff, fp16 ? 1e-3 : 0.0) << to_string(dt);
        std::printf("[ pad reflect %s ] %zu outputs, %u tasks, max |npu-cpu| = %.5f\n", to_string(dt), r.elements,
                    r.npu_tasks[0], r.max_diff);
    }
    // Rows only: one interior task + 2 mirrored rows.
    const Compared r =
        compare(pad_model(DataType::QAsymmU8, {{0, 0}, {1, 1}, {0, 0}, {0, 0}}, 0.0f, PaddingMode::Reflect), false);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 3u);
    EXPECT_EQ(r.max_diff, 0.0);
}

// ---- accept / refuse, with the reason `npurun --explain` prints ----

namespace {

NodePlacement placed(const std::shared_ptr<const Model>& m, const std::string& node_name, bool fp16 = false) {
    const Graph& g = m->graph();
    const Placement p = place(g, npu::npu_placement_options(fp16));
    std::printf("%s", explain(g, p).c_str());
    for (uint32_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].name == node_name) return p.nodes[i];
    ADD_FAILURE() << "no node " << node_name;
    return {};
}

std::shared_ptr<const Model> shapes_model(DataType dt, BinaryOp op, Shape a, Shape b) {
    Graph g;
    const bool q = dt != DataType::Float32;
    TensorId x = value(g, "x", a, dt, q ? 0.05f : 0.0f, 0);
    TensorId y = value(g, "y", b, dt, q ? 0.05f : 0.0f, 0);
    TensorId o = value(g, "o", Shape{1, kH, kW, kC}, dt, q ? 0.05f : 0.0f, 0);
    ElementwiseBinaryAttrs ea;
    ea.op = op;
    node(g, OpKind::ElementwiseBinary, "ew", {x, y}, {o}, ea);
    bind(g, {x, y}, o);
    return std::make_shared<const Model>(std::move(g), "shapes");
}

void expect_refused(const NodePlacement& p, const std::string& reason_part) {
    EXPECT_EQ(p.device, Placed::Cpu);
    EXPECT_NE(p.reason.find(reason_part), std::string::npos) << p.reason;
}

}  // namespace

TEST(NpuEltwisePlacement, AcceptsTheLoweredPatterns) {
    const Shape full{1, kH, kW, kC};
    for (Shape b : {full, Shape{1, 1, 1, kC}, Shape{1, 1, kW, kC}, Shape{1, kH, 1, kC}}) {
        EXPECT_EQ(placed(shapes_model(DataType::QAsymmS8, BinaryOp::Mul, full, b), "ew").device, Placed::Npu) << b.str();
        EXPECT_EQ(placed(shapes_model(DataType::Float32, BinaryOp::Div, full, b), "ew", true).device, Placed::Npu) << b.str();
    }
}

TEST(NpuEltwisePlacement, RefusalsNameThePattern) {
    const Shape full{1, kH, kW, kC};
    // Not an Expand pattern of seed 003 (support checker).
    expect_refused(placed(shapes_model(DataType::QAsymmU8, BinaryOp::Add, full, {1, 1, 1, 1}), "ew"),
                   "1x1x1x1 -> 1x5x6x40 ([b,1,1,1] -> [b,c,h,w]) is not one of the Expand patterns");
    expect_refused(placed(shapes_model(DataType::QAsymmU8, BinaryOp::Add, full, {1, kH, kW, 1}), "ew"), "([b,1,h,w] -> [b,c,h,w]) is not one of the Expand patterns");
    // The Expand patterns across channels are lowered (a channel expansion first); a Div by one does not fit the
    // expansion: the dividend must be the full-size operand.
    EXPECT_EQ(placed(shapes_model(DataType::QAsymmU8, BinaryOp::Maximum, full, {1, 1, kW, 1}), "ew").device,
              Placed::Npu);
    EXPECT_EQ(placed(shapes_model(DataType::Float32, BinaryOp::Div, full, {1, kH, 1, 1}), "ew", true).device,
              Placed::Npu);
    expect_refused(placed(shapes_model(DataType::Float32, BinaryOp::Div, {1, kH, 1, 1}, full), "ew", true), "dividend");
    // Both operands broadcast.
    expect_refused(placed(shapes_model(DataType::QAsymmS8, BinaryOp::Add, {1, kH, 1, kC}, {1, 1, kW, kC}), "ew"),
                   "both operands are broadcast");
    // Div: fp16 only; the dividend must be the full-size operand.
    expect_refused(placed(shapes_model(DataType::QAsymmS8, BinaryOp::Div, full, full), "ew"), "Div runs on the NPU only in float16");
    expect_refused(placed(shapes_model(DataType::Float32, BinaryOp::Div, {1, 1, 1, kC}, full), "ew", true), "dividend");
    // A constant full-size operand with a broadcast run-time one: the constant would have to be the main input.
    {
        Graph g;
        std::vector<uint8_t> bytes(size_t(kH) * kW * kC, 7);
        TensorId k = constant(g, "k", full, DataType::QAsymmU8, bytes.data(), bytes.size(), {0.05f}, 0);
        TensorId y = value(g, "y", Shape{1, 1, 1, kC}, DataType::QAsymmU8, 0.05f, 0);
        TensorId o = value(g, "o", full, DataType::QAsymmU8, 0.1f, 0);
        ElementwiseBinaryAttrs ea;
        ea.op = BinaryOp::Add;
        node(g, OpKind::ElementwiseBinary, "ew", {k, y}, {o}, ea);
        bind(g, {y}, o);
        expect_refused(placed(std::make_shared<const Model>(std::move(g), "const-main"), "ew"),
                       "the full-size operand is constant and the other broadcast");
    }
}

TEST(NpuPadPlacement, RefusalsNameTheMode) {
    EXPECT_EQ(placed(pad_model(DataType::QAsymmU8, {{0, 0}, {1, 1}, {1, 1}, {0, 0}}, 0.0f, PaddingMode::Reflect), "pad").device,
              Placed::Npu);
    expect_refused(placed(pad_model(DataType::QAsymmU8, {{0, 0}, {1, 1}, {0, kW}, {0, 0}}, 0.0f, PaddingMode::Reflect), "pad"),
                   "NPU lowering: Pad reflect of 6 elements on a side of a 5x6 map (at most size - 1)");
    expect_refused(placed(pad_model(DataType::QAsymmU8, {{0, 0}, {1, 1}, {1, 1}, {0, 0}}, 0.0f, PaddingMode::Symmetric), "pad"),
                   "symmetric");
    expect_refused(placed(pad_model(DataType::QAsymmU8, {{0, 0}, {0, 0}, {0, 0}, {0, 8}}, 0.0f), "pad"),
                   "NPU lowering: Pad along the channel axis");
    EXPECT_EQ(placed(pad_model(DataType::Float32, {{0, 0}, {1, 0}, {0, 2}, {0, 0}}, 0.0f), "pad", true).device, Placed::Npu);
}

TEST(NpuPlacement, PerRowLoweringsCapTheirTaskCount) {
    // (A Pad has at most 8192 rows, the cube limit, so at most 8192 tasks.)
    // A [1,H,1,C] operand: one task per output row and 16-channel group (4096 * 3).
    {
        Graph g;
        TensorId x = value(g, "x", Shape{1, 4096, 2, 48}, DataType::QAsymmS8, 0.05f, 0);
        TensorId c = value(g, "c", Shape{1, 4096, 1, 48}, DataType::QAsymmS8, 0.05f, 0);
        TensorId o = value(g, "o", Shape{1, 4096, 2, 48}, DataType::QAsymmS8, 0.1f, 0);
        ElementwiseBinaryAttrs ea;
        ea.op = BinaryOp::Add;
        node(g, OpKind::ElementwiseBinary, "ew", {x, c}, {o}, ea);
        bind(g, {x, c}, o);
        expect_refused(placed(std::make_shared<const Model>(std::move(g), "big-columns"), "ew"), "needs 12288 tasks");
    }
}

// ---- Pad before a convolution ----

namespace {

// "pad": x (QAsymmU8 [1,h,w,16], scale 0.05, zero point 118) padded by `pads` in H and W with `pad_value`
// into "p" of scale `p_scale`; returns p.
TensorId add_pad(Graph& g, TensorId x, std::pair<uint32_t, uint32_t> rows, std::pair<uint32_t, uint32_t> cols,
                 float pad_value, float p_scale = 0.05f) {
    const Shape xs = g.info(x).shape;
    const Shape ps{1, xs[1] + rows.first + rows.second, xs[2] + cols.first + cols.second, 16};
    TensorId p = value(g, "p", ps, DataType::QAsymmU8, p_scale, 118);
    PadAttrs pa;
    pa.pads = {{0, 0}, rows, cols, {0, 0}};
    pa.value = pad_value;
    node(g, OpKind::Pad, "pad", {x}, {p}, pa);
    return p;
}

// "conv": a 3x3 convolution (or depthwise) of `k` outputs without padding of its own, reading p [1,h,w,16].
TensorId add_unpadded_conv(Graph& g, TensorId p, uint32_t k, bool depthwise = false) {
    ConvSpec s;
    s.h = g.info(p).shape[1], s.w = g.info(p).shape[2], s.c = 16, s.k = k, s.pad = 0, s.depthwise = depthwise;
    return add_conv(g, s, p, "conv");
}

// x [1,8,8,16] -> Pad (1,2 rows / 2,1 columns) -> 3x3 convolution or depthwise without padding of its own.
std::shared_ptr<const Model> pad_conv_model(float pad_value, bool depthwise) {
    Graph g;
    TensorId x = value(g, "x", Shape{1, 8, 8, 16}, DataType::QAsymmU8, 0.05f, 118);
    TensorId y = add_unpadded_conv(g, add_pad(g, x, {1, 2}, {2, 1}, pad_value), 24, depthwise);
    bind(g, {x}, y);
    return std::make_shared<const Model>(std::move(g), "pad-conv");
}

}  // namespace

TEST(NpuPad, ZeroPointPadFoldsIntoTheConvolution) {
    for (bool dw : {false, true}) {
        // The TfLite pattern: explicit padding with the zero point (raw 118), then a "VALID" convolution.
        const auto m = pad_conv_model(118.0f, dw);
        EXPECT_EQ(placed(m, "pad").device, Placed::Fused);
        const Compared r = compare(m, false);
        ASSERT_EQ(r.npu_layers.size(), 1u);
        EXPECT_EQ(r.npu_layers[0], dw ? "Pad+DepthwiseConvolution2d" : "Pad+Convolution2d");
        EXPECT_LE(r.max_diff, 1.0);
        std::printf("[ pad folded into %s ] max |npu-cpu| = %.0f\n", dw ? "depthwise" : "conv", r.max_diff);
    }
}

TEST(NpuPad, OtherPadValueRunsAsItsOwnTasksBeforeTheConvolution) {
    const auto m = pad_conv_model(3.0f, false);  // not the zero point: the convolution must see 3s
    EXPECT_EQ(placed(m, "pad").device, Placed::Npu);
    const Compared r = compare(m, false);
    ASSERT_EQ(r.npu_layers.size(), 2u);
    EXPECT_EQ(r.npu_layers[0], "Pad");
    EXPECT_EQ(r.npu_tasks[0], 8u);  // one per input row (left/right padding)
    EXPECT_LE(r.max_diff, 1.0);
}

TEST(NpuPad, FoldingNeedsTheSameResult) {
    // Pad output also read by another layer: the Pad must exist, so it is not folded.
    {
        Graph g;
        TensorId x = value(g, "x", Shape{1, 8, 8, 16}, DataType::QAsymmU8, 0.05f, 118);
        TensorId p = add_pad(g, x, {1, 1}, {1, 1}, 118.0f);
        add_unpadded_conv(g, p, 16);
        TensorId m = value(g, "m", Shape{1, 10, 10, 16}, DataType::QAsymmU8, 0.05f, 118);
        node(g, OpKind::Pooling2d, "pool", {p}, {m}, max_pool_attrs(1, 1));
        bind(g, {x}, m);
        EXPECT_EQ(placed(std::make_shared<const Model>(std::move(g), "two-readers"), "pad").device, Placed::Npu);
    }
    // Pad output quantized differently from its input (the CPU copies raw codes): not folded.
    {
        Graph g;
        TensorId x = value(g, "x", Shape{1, 8, 8, 16}, DataType::QAsymmU8, 0.05f, 118);
        TensorId y = add_unpadded_conv(g, add_pad(g, x, {1, 1}, {1, 1}, 118.0f, 0.1f), 16);
        bind(g, {x}, y);
        const auto model = std::make_shared<const Model>(std::move(g), "requant-pad");
        EXPECT_EQ(placed(model, "pad").device, Placed::Npu);
        EXPECT_LE(compare(model, false).max_diff, 1.0);
    }
    // Folded padding beyond the CNA's 15 on top: the Pad stays its own tasks.
    {
        const Shape xs{1, 4, 4, 16};
        Graph g;
        TensorId x = value(g, "x", xs, DataType::QAsymmU8, 0.05f, 118);
        TensorId y = add_unpadded_conv(g, add_pad(g, x, {16, 0}, {0, 0}, 118.0f), 16);
        bind(g, {x}, y);
        const auto model = std::make_shared<const Model>(std::move(g), "deep-pad");
        EXPECT_EQ(placed(model, "pad").device, Placed::Npu);
        EXPECT_LE(compare(model, false).max_diff, 1.0);
    }
}

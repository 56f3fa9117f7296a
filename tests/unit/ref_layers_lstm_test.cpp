// Lstm, UnidirectionalSequenceLstm, QLstm, QuantizedLstm. Expected values come from an independent
// calculation of the formulas of reference/armnn-format.md §2 (a short Python transcription of the equations,
// kept out of the repository; QLstm's simulates CpuRef's requantize-at-every-write steps), never from the kernels.
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

// B = 1, I = 2, C = 2; gate order i, f, c, o.
const std::vector<float> kW[4] = {{0.1f, -0.2f, 0.3f, 0.05f}, {0.2f, 0.1f, -0.1f, 0.4f}, {0.3f, -0.3f, 0.2f, 0.1f}, {0.4f, 0.2f, -0.2f, 0.3f}};
const std::vector<float> kR[4] = {{0.05f, 0.1f, -0.1f, 0.2f}, {0.1f, 0.0f, 0.2f, -0.1f}, {-0.2f, 0.1f, 0.3f, 0.2f}, {0.1f, 0.1f, 0.0f, -0.3f}};
const std::vector<float> kB[4] = {{0.0f, 0.1f}, {1.0f, 0.5f}, {0.0f, -0.1f}, {0.2f, 0.0f}};
const std::vector<float> kPeep[4] = {{0.1f, -0.1f}, {0.2f, 0.3f}, {}, {-0.3f, 0.4f}};
const std::vector<float> kLn[4] = {{1.0f, 0.5f}, {0.8f, 1.2f}, {1.5f, 0.7f}, {0.9f, 1.1f}};

struct LstmCase {
    LstmAttrs a;
    uint32_t out_size = 2;
    std::vector<float> proj, proj_bias;
};

// Builds the node's operands (x, h, c are inputs; the rest constants) in the LstmOperand order.
std::vector<TensorId> lstm_operands(OneOp& t, const LstmCase& lc, Shape xs, std::vector<float> x, std::vector<float> h,
                                    std::vector<float> c) {
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    const uint32_t b = h.size() / lc.out_size;
    in[kLstmInput] = t.tensor(f32(xs), x);
    in[kLstmOutputStateIn] = t.tensor(f32({b, lc.out_size}), h);
    in[kLstmCellStateIn] = t.tensor(f32({b, 2}), c);
    const uint32_t in_w[4] = {kInputToInputWeights, kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights};
    const uint32_t rec_w[4] = {kRecurrentToInputWeights, kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights};
    const uint32_t bias[4] = {kInputGateBias, kForgetGateBias, kCellBias, kOutputGateBias};
    const uint32_t peep[4] = {kCellToInputWeights, kCellToForgetWeights, 0, kCellToOutputWeights};
    const uint32_t ln[4] = {kInputLayerNormWeights, kForgetLayerNormWeights, kCellLayerNormWeights, kOutputLayerNormWeights};
    for (int g = 0; g < 4; ++g) {
        if (g == 0 && lc.a.cifg) continue;
        in[in_w[g]] = t.tensor(f32({2, 2}), kW[g], true);
        std::vector<float> r = kR[g];
        if (lc.out_size == 1) r = {r[0], r[2]};  // [C, O=1]
        in[rec_w[g]] = t.tensor(f32({2, lc.out_size}), r, true);
        in[bias[g]] = t.tensor(f32({2}), kB[g], true);
        if (lc.a.peephole && g != 2) in[peep[g]] = t.tensor(f32({2}), kPeep[g], true);
        if (lc.a.layer_norm) in[ln[g]] = t.tensor(f32({2}), kLn[g], true);
    }
    if (lc.a.projection) {
        in[kProjectionWeights] = t.tensor(f32({lc.out_size, 2}), lc.proj, true);
        if (!lc.proj_bias.empty()) in[kProjectionBias] = t.tensor(f32({lc.out_size}), lc.proj_bias, true);
    }
    return in;
}

struct LstmResult {
    std::vector<float> out, cell, state, scratch;
};

LstmResult run_lstm(const LstmCase& lc, std::vector<float> h = {0.3f, -0.2f}) {
    OneOp t;
    auto in = lstm_operands(t, lc, {1, 2}, {1.0f, -0.5f}, h, {0.5f, -1.0f});
    auto scratch = t.output(f32({1, lc.a.cifg ? 6u : 8u}));
    auto hs = t.output(f32({1, lc.out_size}));
    auto cs = t.output(f32({1, 2}));
    auto out = t.output(f32({1, lc.out_size}));
    t.op(OpKind::Lstm, lc.a, in, {scratch, hs, cs, out});
    t.run();
    return {t.out<float>(3), t.out<float>(2), t.out<float>(1), t.out<float>(0)};
}

LstmAttrs attrs(bool cifg, uint32_t act = 4) {
    LstmAttrs a;
    a.cifg = cifg;
    a.activation = act;
    return a;
}

}  // namespace

TEST(RefLstm, BasicGates) {
    const LstmResult r = run_lstm({attrs(false), 2, {}, {}});
    EXPECT_FLOATS_NEAR(r.out, (std::vector<float>{0.3250510f, -0.2018616f}), 1e-6);
    EXPECT_FLOATS_NEAR(r.cell, (std::vector<float>{0.5766724f, -0.5121709f}), 1e-6);
    EXPECT_EQ(r.state, r.out);
}

TEST(RefLstm, CifgPeepholeAndCellClip) {
    LstmAttrs a = attrs(true);
    a.peephole = true;
    a.clip_cell = 0.3f;
    const LstmResult r = run_lstm({a, 2, {}, {}});
    EXPECT_FLOATS_NEAR(r.out, (std::vector<float>{0.1758023f, -0.1162081f}), 1e-6);
    EXPECT_FLOATS_NEAR(r.cell, (std::vector<float>{0.3f, -0.3f}), 1e-6);
    EXPECT_EQ(r.scratch.size(), 6u);  // CIFG: three gate buffers
}

TEST(RefLstm, ProjectionWithBiasAndClipAndWithout) {
    LstmAttrs a = attrs(false);
    a.projection = true;
    a.clip_proj = 0.2f;
    const LstmResult clipped = run_lstm({a, 1, {0.5f, -1.0f}, {0.1f}}, {0.3f});
    EXPECT_FLOATS_NEAR(clipped.out, (std::vector<float>{0.2f}), 1e-6);  // 0.4518664 clipped
    EXPECT_FLOATS_NEAR(clipped.cell, (std::vector<float>{0.5880381f, -0.4832109f}), 1e-6);
    a.clip_proj = 0.0f;
    EXPECT_FLOATS_NEAR(run_lstm({a, 1, {0.5f, -1.0f}, {0.1f}}, {0.3f}).out, (std::vector<float>{0.4518664f}), 1e-6);
    // No projection bias: accumulation starts at 0 (decision: CpuRef reads an uncleared buffer here).
    EXPECT_FLOATS_NEAR(run_lstm({a, 1, {0.5f, -1.0f}, {}}, {0.3f}).out, (std::vector<float>{0.3518664f}), 1e-6);
}

TEST(RefLstm, LayerNormAddsBiasAfterNormalization) {
    LstmAttrs a = attrs(false);
    a.layer_norm = true;
    const LstmResult r = run_lstm({a, 2, {}, {}});
    EXPECT_FLOATS_NEAR(r.out, (std::vector<float>{0.4401222f, -0.1601836f}), 1e-5);
    EXPECT_FLOATS_NEAR(r.cell, (std::vector<float>{0.6725063f, -0.7605518f}), 1e-5);
}

TEST(RefLstm, ActivationCodes) {
    // Code 0 keeps CpuRef's quirk: the output is o * g (the raw candidate), not o * c.
    EXPECT_FLOATS_NEAR(run_lstm({attrs(false, 0), 2, {}, {}}).out, (std::vector<float>{0.2311784f, 0.0428004f}), 1e-6);
    LstmAttrs relu = attrs(false, 1);
    relu.peephole = true;
    const LstmResult r = run_lstm({relu, 2, {}, {}});
    EXPECT_FLOATS_NEAR(r.out, (std::vector<float>{0.3483964f, 0.0f}), 1e-6);
    EXPECT_FLOATS_NEAR(r.cell, (std::vector<float>{0.5987747f, -0.4350113f}), 1e-6);
}

TEST(RefLstm, UnsupportedActivationCodeIsAModelError) {
    OneOp t;
    LstmCase lc{attrs(false, 2), 2, {}, {}};
    auto in = lstm_operands(t, lc, {1, 2}, {1, 0}, {0, 0}, {0, 0});
    std::vector<TensorId> outs{t.output(f32({1, 8})), t.output(f32({1, 2})), t.output(f32({1, 2})), t.output(f32({1, 2}))};
    t.op(OpKind::Lstm, lc.a, in, outs);
    EXPECT_NE(std::string(expect_error([&] { t.infer(); }).what()).find("activation function code 2"), std::string::npos);
}

// UnidirectionalSequenceLstm over T = 2 equals two Lstm steps chained (the Lstm kernel is verified above).
TEST(RefLstm, QSymmS16RoundsEveryWriteLikeCpuRef) {
    // Every tensor QSymmS16 at scale 0.25; B = I = C = O = 1, CIFG, tanh. x = 1, h = 0, c_prev = 0.75;
    // weights 1 (input) and 0 (recurrent); biases f 0, g 0.5, o 1. Rounding each write to 0.25 as CpuRef:
    //   f = q(sigmoid(1) = 0.731) = 0.75; g = q(tanh(1.5) = 0.905) = 1; o = q(sigmoid(2) = 0.881) = 1
    //   c = q(0.75 * 0.75) = 0.5; 1 - f = 0.25; c = q(0.5 + 1 * 0.25) = 0.75
    //   act(c) = q(tanh(0.75) = 0.635) = 0.75; h = q(1 * 0.75) = 0.75
    // (rounding once would give c = q(0.792) = 0.75 but h = q(0.881 * tanh(0.792) = 0.581) = 0.5).
    OneOp t;
    auto s16 = [](Shape sh) { return info(DataType::QSymmS16, sh, 0.25f, 0); };
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    in[kLstmInput] = t.tensor(s16({1, 1}), std::vector<int16_t>{4});
    in[kLstmOutputStateIn] = t.tensor(s16({1, 1}), std::vector<int16_t>{0});
    in[kLstmCellStateIn] = t.tensor(s16({1, 1}), std::vector<int16_t>{3});
    for (uint32_t op : {kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights})
        in[op] = t.tensor(s16({1, 1}), std::vector<int16_t>{4}, true);
    for (uint32_t op : {kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights})
        in[op] = t.tensor(s16({1, 1}), std::vector<int16_t>{0}, true);
    in[kForgetGateBias] = t.tensor(s16({1}), std::vector<int16_t>{0}, true);
    in[kCellBias] = t.tensor(s16({1}), std::vector<int16_t>{2}, true);
    in[kOutputGateBias] = t.tensor(s16({1}), std::vector<int16_t>{4}, true);
    auto scratch = t.output(s16({1, 3}));
    auto hs = t.output(s16({1, 1}));
    auto cs = t.output(s16({1, 1}));
    auto out = t.output(s16({1, 1}));
    LstmAttrs a;
    a.cifg = true;
    a.activation = 4;
    t.op(OpKind::Lstm, a, in, {scratch, hs, cs, out});
    t.run();
    EXPECT_EQ(t.out<int16_t>(0), (std::vector<int16_t>{3, 1, 3}));  // [act(c) | 1 - f | o * act(c)]
    EXPECT_EQ(t.out<int16_t>(1), (std::vector<int16_t>{3}));
    EXPECT_EQ(t.out<int16_t>(2), (std::vector<int16_t>{3}));
    EXPECT_EQ(t.out<int16_t>(3), (std::vector<int16_t>{3}));
}

TEST(RefUnidirectionalSequenceLstm, EqualsChainedLstmStepsInBothLayouts) {
    const std::vector<float> x0{1.0f, -0.5f}, x1{0.25f, 0.75f};
    LstmCase lc{attrs(false), 2, {}, {}};
    lc.a.peephole = true;
    // Two chained single steps.
    std::vector<float> h{0.3f, -0.2f}, c{0.5f, -1.0f}, step_out[2];
    for (int s = 0; s < 2; ++s) {
        OneOp t;
        auto in = lstm_operands(t, lc, {1, 2}, s == 0 ? x0 : x1, h, c);
        std::vector<TensorId> outs{t.output(f32({1, 8})), t.output(f32({1, 2})), t.output(f32({1, 2})), t.output(f32({1, 2}))};
        t.op(OpKind::Lstm, lc.a, in, outs);
        t.run();
        step_out[s] = t.out<float>(3);
        h = t.out<float>(1);
        c = t.out<float>(2);
    }
    for (bool time_major : {false, true}) {
        OneOp t;
        LstmCase sc = lc;
        sc.a.time_major = time_major;
        std::vector<float> xs = x0;
        xs.insert(xs.end(), x1.begin(), x1.end());  // B = 1: [1,2,2] and [2,1,2] hold the same order
        auto in = lstm_operands(t, sc, time_major ? Shape{2, 1, 2} : Shape{1, 2, 2}, xs, {0.3f, -0.2f}, {0.5f, -1.0f});
        auto hs = t.output(f32({1, 2}));
        auto cs = t.output(f32({1, 2}));
        auto out = t.output(f32(time_major ? Shape{2, 1, 2} : Shape{1, 2, 2}));
        t.op(OpKind::UnidirectionalSequenceLstm, sc.a, in, {hs, cs, out});
        t.run();
        std::vector<float> expect = step_out[0];
        expect.insert(expect.end(), step_out[1].begin(), step_out[1].end());
        EXPECT_FLOATS_NEAR(t.out<float>(2), expect, 1e-6);
        EXPECT_FLOATS_NEAR(t.out<float>(0), h, 1e-6);
        EXPECT_FLOATS_NEAR(t.out<float>(1), c, 1e-6);
    }
}

TEST(RefUnidirectionalSequenceLstm, BatchMajorInterleavesBatches) {
    // B = 2, T = 1 is one Lstm step on two batch rows; batch-major [2,1,2] and time-major [1,2,2] agree.
    LstmCase lc{attrs(false), 2, {}, {}};
    std::vector<float> outs[2];
    for (bool time_major : {false, true}) {
        OneOp t;
        LstmCase sc = lc;
        sc.a.time_major = time_major;
        auto in = lstm_operands(t, sc, time_major ? Shape{1, 2, 2} : Shape{2, 1, 2}, {1.0f, -0.5f, 0.2f, 0.1f},
                                {0.3f, -0.2f, 0, 0}, {0.5f, -1.0f, 0, 0});
        auto out = t.output(f32(time_major ? Shape{1, 2, 2} : Shape{2, 1, 2}));
        t.op(OpKind::UnidirectionalSequenceLstm, sc.a, in, {out});  // the 21.08 single-output form
        t.run();
        outs[time_major] = t.out<float>();
    }
    EXPECT_FLOATS_NEAR(std::vector<float>(outs[0].begin(), outs[0].begin() + 2),
                       (std::vector<float>{0.3250510f, -0.2018616f}), 1e-6);
    EXPECT_EQ(outs[0], outs[1]);
}

TEST(RefQLstm, CifgStepRequantizesLikeCpuRef) {
    OneOp t;
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    const float w = 0.01f;
    in[kLstmInput] = t.tensor(info(DataType::QAsymmS8, {1, 1}, 0.0078125f, 0), std::vector<int8_t>{64});
    in[kLstmOutputStateIn] = t.tensor(info(DataType::QAsymmS8, {1, 1}, 0.0078125f, 0), std::vector<int8_t>{32});
    in[kLstmCellStateIn] = t.tensor(info(DataType::QSymmS16, {1, 1}, 1.0f / 2048), std::vector<int16_t>{1024});
    in[kInputToForgetWeights] = t.tensor(info(DataType::QSymmS8, {1, 1}, w), std::vector<int8_t>{50}, true);
    in[kInputToCellWeights] = t.tensor(info(DataType::QSymmS8, {1, 1}, w), std::vector<int8_t>{100}, true);
    in[kInputToOutputWeights] = t.tensor(info(DataType::QSymmS8, {1, 1}, w), std::vector<int8_t>{-50}, true);
    in[kRecurrentToForgetWeights] = t.tensor(info(DataType::QSymmS8, {1, 1}, w), std::vector<int8_t>{20}, true);
    in[kRecurrentToCellWeights] = t.tensor(info(DataType::QSymmS8, {1, 1}, w), std::vector<int8_t>{-30}, true);
    in[kRecurrentToOutputWeights] = t.tensor(info(DataType::QSymmS8, {1, 1}, w), std::vector<int8_t>{10}, true);
    for (uint32_t b : {kForgetGateBias, kCellBias, kOutputGateBias})  // unused without layer norm (CpuRef)
        in[b] = t.tensor(info(DataType::Signed32, {1}, 0.001f), std::vector<int32_t>{100000}, true);
    auto hs = t.output(info(DataType::QAsymmS8, {1, 1}, 0.0078125f, 0));
    auto cs = t.output(info(DataType::QSymmS16, {1, 1}, 1.0f / 2048));
    auto out = t.output(info(DataType::QAsymmS8, {1, 1}, 0.0078125f, 0));
    QLstmAttrs a;
    a.forget_intermediate_scale = a.cell_intermediate_scale = a.output_intermediate_scale = 1.0f / 4096;
    a.input_intermediate_scale = 1.0f / 4096;
    a.hidden_state_scale = 0.0078125f;
    t.op(OpKind::QLstm, a, in, {hs, cs, out});
    t.run();
    EXPECT_EQ(t.out<int16_t>(1), (std::vector<int16_t>{938}));
    EXPECT_EQ(t.out<int8_t>(2), (std::vector<int8_t>{24}));
    EXPECT_EQ(t.out<int8_t>(0), (std::vector<int8_t>{24}));
}

TEST(RefQLstm, PeepholeLayerNormProjectionLikeCpuRef) {
    // No CIFG, B = 1, I = 1, C = 2, O = 1. Expected values: an independent float32 step-by-step simulation of
    // CpuRef's QLstm (requantize at every write; LN written at inputScale*lnScale*1024, then 1/4096, biases
    // at lnScale/1024).
    OneOp t;
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    in[kLstmInput] = t.tensor(info(DataType::QAsymmS8, {1, 1}, 1.0f / 128), std::vector<int8_t>{64});
    in[kLstmOutputStateIn] = t.tensor(info(DataType::QAsymmS8, {1, 1}, 1.0f / 128), std::vector<int8_t>{32});
    in[kLstmCellStateIn] = t.tensor(info(DataType::QSymmS16, {1, 2}, 1.0f / 2048), std::vector<int16_t>{1024, -512});
    const uint32_t in_w[4] = {kInputToInputWeights, kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights};
    const uint32_t rec_w[4] = {kRecurrentToInputWeights, kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights};
    const uint32_t bias[4] = {kInputGateBias, kForgetGateBias, kCellBias, kOutputGateBias};
    const uint32_t ln[4] = {kInputLayerNormWeights, kForgetLayerNormWeights, kCellLayerNormWeights, kOutputLayerNormWeights};
    const std::vector<int8_t> wx[4] = {{50, -30}, {40, 60}, {100, -80}, {-50, 70}};
    const std::vector<int8_t> wh[4] = {{20, 10}, {-10, 30}, {-30, 50}, {10, -20}};
    const std::vector<int16_t> lnw[4] = {{1024, 512}, {819, 1229}, {1536, 717}, {922, 1126}};
    const std::vector<int32_t> b[4] = {{0, 104858}, {1048576, 524288}, {0, -104858}, {209715, 0}};
    for (int g = 0; g < 4; ++g) {
        in[in_w[g]] = t.tensor(info(DataType::QSymmS8, {2, 1}, 0.01f), wx[g], true);
        in[rec_w[g]] = t.tensor(info(DataType::QSymmS8, {2, 1}, 0.01f), wh[g], true);
        in[bias[g]] = t.tensor(info(DataType::Signed32, {2}), b[g], true);
        in[ln[g]] = t.tensor(info(DataType::QSymmS16, {2}, 1.0f / 1024), lnw[g], true);
    }
    in[kCellToInputWeights] = t.tensor(info(DataType::QSymmS16, {2}, 0.001f), std::vector<int16_t>{100, -200}, true);
    in[kCellToForgetWeights] = t.tensor(info(DataType::QSymmS16, {2}, 0.001f), std::vector<int16_t>{300, 150}, true);
    in[kCellToOutputWeights] = t.tensor(info(DataType::QSymmS16, {2}, 0.001f), std::vector<int16_t>{-100, 250}, true);
    in[kProjectionWeights] = t.tensor(info(DataType::QSymmS8, {1, 2}, 0.01f), std::vector<int8_t>{50, -100}, true);
    in[kProjectionBias] = t.tensor(info(DataType::Signed32, {1}, 0.0001f), std::vector<int32_t>{1000}, true);
    auto hs = t.output(info(DataType::QAsymmS8, {1, 1}, 1.0f / 128));
    auto cs = t.output(info(DataType::QSymmS16, {1, 2}, 1.0f / 2048));
    auto out = t.output(info(DataType::QAsymmS8, {1, 1}, 1.0f / 128));
    QLstmAttrs a;
    a.cifg = false;
    a.peephole = a.layer_norm = a.projection = true;
    a.input_intermediate_scale = a.forget_intermediate_scale = a.cell_intermediate_scale =
        a.output_intermediate_scale = 1.0f / 4096;
    a.hidden_state_scale = 1.0f / 128;
    t.op(OpKind::QLstm, a, in, {hs, cs, out});
    t.run();
    EXPECT_EQ(t.out<int16_t>(1), (std::vector<int16_t>{1919, -980}));
    EXPECT_EQ(t.out<int8_t>(2), (std::vector<int8_t>{72}));
    EXPECT_EQ(t.out<int8_t>(0), (std::vector<int8_t>{72}));
}

TEST(RefQuantizedLstm, FloatMathOnDequantizedOperands) {
    OneOp t;
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    in[kLstmInput] = t.tensor(info(DataType::QAsymmU8, {1, 1}, 1.0f / 128, 128), std::vector<uint8_t>{192});
    in[1] = t.tensor(info(DataType::QSymmS16, {1, 1}, 1.0f / 2048), std::vector<int16_t>{1024});     // previous cell
    in[2] = t.tensor(info(DataType::QAsymmU8, {1, 1}, 1.0f / 128, 128), std::vector<uint8_t>{160});  // previous out
    const uint8_t wx[4] = {178, 178, 228, 78}, wh[4] = {148, 148, 98, 138};
    const uint32_t in_w[4] = {kInputToInputWeights, kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights};
    const uint32_t rec_w[4] = {kRecurrentToInputWeights, kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights};
    const uint32_t bias[4] = {kInputGateBias, kForgetGateBias, kCellBias, kOutputGateBias};
    for (int g = 0; g < 4; ++g) {
        in[in_w[g]] = t.tensor(info(DataType::QAsymmU8, {1, 1}, 0.01f, 128), std::vector<uint8_t>{wx[g]}, true);
        in[rec_w[g]] = t.tensor(info(DataType::QAsymmU8, {1, 1}, 0.01f, 128), std::vector<uint8_t>{wh[g]}, true);
        in[bias[g]] = t.tensor(info(DataType::Signed32, {1}, 0.01f / 128), std::vector<int32_t>{g == 1 ? 12800 : 0}, true);
    }
    auto cs = t.output(info(DataType::QSymmS16, {1, 1}, 1.0f / 2048));
    auto out = t.output(info(DataType::QAsymmU8, {1, 1}, 1.0f / 128, 128));
    t.op(OpKind::QuantizedLstm, std::monostate{}, in, {cs, out});
    t.run();
    // c = sig(1.3)*0.5 + sig(0.3)*tanh(0.425) = 0.6233461 -> 1276.61 -> 1277; h = sig(-0.225)*tanh(c) = 0.2457257
    EXPECT_EQ(t.out<int16_t>(0), (std::vector<int16_t>{1277}));
    EXPECT_EQ(t.out<uint8_t>(1), (std::vector<uint8_t>{159}));
}

// The prepare step of the conv-like NEON kernels (kernel.h, kernels/neon/conv_state.h): weights and biases that
// are run-time tensors instead of constants (the tables prepare cannot finish are refreshed by run), NCHW
// weights transposed once, and a state prepared once serving later runs whose run-time operands changed.
// Every case bit-exact with kernels/ref, on both accumulation paths.
#include "tests/neon/harness.h"

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::neontest::prepared_state {
namespace {

namespace nn = kernels::neon;

enum class Op { Conv, Depthwise, Fc };

struct Case {
    Op op;
    bool nchw;              // conv/depthwise layout
    bool fc_transpose;      // FC weights [out, in] (true) or [in, out]
    bool weights_constant, bias_constant;
    DataType x, w;
};
const Case kCases[] = {
    {Op::Conv, false, false, false, false, DataType::QAsymmU8, DataType::QAsymmU8},
    {Op::Conv, false, false, false, true, DataType::QAsymmS8, DataType::QSymmS8},
    {Op::Conv, false, false, true, false, DataType::QAsymmS8, DataType::QAsymmS8},
    {Op::Conv, true, false, true, true, DataType::QAsymmU8, DataType::QAsymmU8},    // NCHW: weights transposed by prepare
    {Op::Conv, true, false, false, false, DataType::QAsymmS8, DataType::QAsymmS8},  // NCHW: transposed per run
    {Op::Depthwise, false, false, false, false, DataType::QAsymmU8, DataType::QAsymmU8},
    {Op::Depthwise, true, false, true, false, DataType::QAsymmS8, DataType::QSymmS8},
    {Op::Fc, false, false, true, true, DataType::QAsymmU8, DataType::QAsymmU8},     // [in,out]: transposed by prepare
    {Op::Fc, false, false, false, false, DataType::QAsymmU8, DataType::QAsymmU8},   // [in,out]: transposed per run
    {Op::Fc, false, true, false, false, DataType::QAsymmS8, DataType::QSymmS8},
    {Op::Fc, false, true, false, true, DataType::QAsymmS8, DataType::QAsymmS8},
};

// Quantization and constant operands from `seed`; the run-time operands' data from `data_seed`.
OneNode make(const Case& c, uint32_t seed, uint32_t data_seed) {
    std::mt19937 rng(seed), data_rng(data_seed);
    const uint32_t n = 2, h = 7, w = 6, ic = 12, k = 3, oc = c.op == Op::Depthwise ? ic : 8;
    const uint32_t oh = h - k + 1 + 2, ow = w - k + 1 + 2;  // pad 1, stride 1
    const int32_t zx = c.x == DataType::QAsymmU8 ? 128 - int32_t(rng() % 40) : int32_t(rng() % 40) - 20;
    const int32_t zw = c.w == DataType::QSymmS8 ? 0 : c.w == DataType::QAsymmU8 ? 120 + int32_t(rng() % 16) : int32_t(rng() % 9) - 4;
    const int32_t zy = c.x == DataType::QAsymmU8 ? int32_t(rng() % 256) : int32_t(rng() % 256) - 128;
    const float sx = 0.02f, sy = 0.3f, sw = 0.004f;
    const auto image = [&](uint32_t ch, uint32_t hh, uint32_t ww) {
        return c.nchw ? Shape{n, ch, hh, ww} : Shape{n, hh, ww, ch};
    };
    Shape xs, ws, ys;
    uint32_t weight_axis = 0;
    if (c.op == Op::Fc) {
        xs = Shape{n, ic * 5};
        ws = c.fc_transpose ? Shape{oc, ic * 5} : Shape{ic * 5, oc};
        ys = Shape{n, oc};
        weight_axis = c.fc_transpose ? 0 : 1;
    } else {
        xs = image(ic, h, w);
        ys = image(oc, oh, ow);
        ws = c.op == Op::Depthwise ? Shape{1, k, k, oc} : c.nchw ? Shape{oc, ic, k, k} : Shape{oc, k, k, ic};
        weight_axis = c.op == Op::Depthwise ? 3 : 0;
    }
    // Every operand draws from both generators, so the constants do not depend on data_seed.
    const auto codes = [&](size_t count, bool constant) {
        auto fixed = random_ints<uint8_t>(rng, count, 0, 255), varying = random_ints<uint8_t>(data_rng, count, 0, 255);
        return to_bytes(constant ? fixed : varying);
    };
    const auto biases = [&](size_t count, bool constant) {
        auto fixed = random_ints<int32_t>(rng, count, -20000, 20000), varying = random_ints<int32_t>(data_rng, count, -20000, 20000);
        return to_bytes(constant ? fixed : varying);
    };
    std::vector<Operand> ins{
        {tinfo(c.x, xs, {sx}, zx), codes(xs.num_elements(), false)},
        {tinfo(c.w, ws, {sw}, zw, weight_axis), codes(ws.num_elements(), c.weights_constant), c.weights_constant},
        {tinfo(DataType::Signed32, {oc}, {sx * sw}), biases(oc, c.bias_constant), c.bias_constant}};
    const TensorInfo y = tinfo(c.x, ys, {sy}, zy);
    if (c.op == Op::Fc) {
        FullyConnectedAttrs a;
        a.transpose_weights = c.fc_transpose;
        a.bias_enabled = true;
        return OneNode(OpKind::FullyConnected, a, ins, {y});
    }
    const DataLayout layout = c.nchw ? DataLayout::NCHW : DataLayout::NHWC;
    if (c.op == Op::Depthwise) {
        DepthwiseConvolution2dAttrs a;
        a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = 1;
        a.bias_enabled = true;
        a.layout = layout;
        return OneNode(OpKind::DepthwiseConvolution2d, a, ins, {y});
    }
    Convolution2dAttrs a;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = 1;
    a.bias_enabled = true;
    a.layout = layout;
    return OneNode(OpKind::Convolution2d, a, ins, {y});
}

class PreparedState : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        saved_ = nn::use_dotprod();
        if (GetParam() && !nn::dotprod_available()) GTEST_SKIP() << "this CPU has no dot-product instructions";
        ASSERT_EQ(nn::set_dotprod(GetParam()), GetParam());
    }
    void TearDown() override {
        nn::set_dotprod(saved_);
        nn::set_num_threads(1);
    }
    bool saved_ = false;
};

TEST_P(PreparedState, RunTimeAndConstantOperandsBitExactWithReference) {
    uint32_t seed = 500;
    for (const auto& c : kCases) {
        const OneNode node = make(c, seed, seed + 1000);
        ++seed;
        ASSERT_EQ(node.neon_check(), "") << "case " << seed;
        ASSERT_EQ(node.graph().tensor(node.node().inputs[1]).is_constant(), c.weights_constant);
        const auto want = node.run_ref().at(0);
        for (unsigned t = 1; t <= 4; ++t) {
            nn::set_num_threads(t);
            EXPECT_EQ(node.run_neon().at(0), want) << "case " << seed << ", threads " << t;
        }
    }
}

// One prepare, then runs on new run-time operand values: the state must not keep the first run's
// run-time-derived tables (bias terms, sum_w, transposed weights).
TEST_P(PreparedState, StatePreparedOnceServesRunsWithNewRunTimeOperands) {
    uint32_t seed = 900;
    for (const auto& c : kCases) {
        const OneNode first = make(c, seed, 1);
        const kernels::Kernel* k = kernels::neon_kernel(first.node().op);
        ASSERT_NE(k, nullptr);
        std::vector<uint8_t> storage;
        const exec::KernelNodeView view(first.node(), first.graph());
        void* state = exec::prepare_standalone(*k, view, storage);
        EXPECT_EQ(first.run(k, &state).at(0), first.run_ref().at(0)) << "case " << seed << ", first run";
        // Same quantization and constants (the state holds what was derived from them), new run-time data.
        const OneNode second = make(c, seed, 2);
        const auto want = second.run_ref().at(0);
        ASSERT_NE(want, first.run_ref().at(0)) << "case " << seed << ": the new data must change the output";
        EXPECT_EQ(second.run(k, &state).at(0), want) << "case " << seed << ", second run";
        ++seed;
    }
}

INSTANTIATE_TEST_SUITE_P(Paths, PreparedState, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "dotprod" : "widening"; });

}  // namespace
}  // namespace npurun::neontest::prepared_state

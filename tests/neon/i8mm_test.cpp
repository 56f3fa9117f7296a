// The packed GEMM convolution on the i8mm micro-kernel (kernels/neon/conv1x1_i8mm.cpp): bit-exact with
// kernels/ref for 1..4 threads on shapes that hit every edge of its blocking: pixel counts that leave an odd
// row or a short pair tile, channel counts that leave a partial tile of 8, K not a multiple of 8 (direct rows
// of 4 modulo 8 codes, gathered windows padded to 8), both SMMLA (int8) and UMMLA (uint8) codes. Each case
// checks from the prepared state that the i8mm layout was packed, so the kernel under test really ran.
// i8mm exists on aarch64 builds only (SIMDe has no vmmlaq_*): elsewhere, and on CPUs without FEAT_I8MM
// (qemu-aarch64 -cpu max has it), the bit-exactness tests skip with a message. FullyConnected layers with a batch
// of 2 or more take the same GEMM (batch rows as pixels), covered here too.
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

#include "kernels/neon/conv_state.h"
#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"
#include "runtime/exec/kernel_node_view.h"

namespace npurun::neontest::i8mm {
namespace {

namespace nn = kernels::neon;

struct GemmCase {
    uint32_t n, h, w, ic, oc, k, s, pad;
    bool s8, bias;
};

const GemmCase kCases[] = {
    // n  h   w  ic  oc k s pad  s8    bias
    {1, 8, 8, 32, 32, 1, 1, 0, false, true},   // pointwise, K a multiple of 16
    {1, 5, 3, 12, 19, 1, 1, 0, true, true},    // 15 pixels (odd row), K = 12 (8 + 4), 3 channels past a tile
    {1, 7, 7, 20, 9, 1, 1, 0, false, false},   // 49 pixels, K = 20 (16 + 4), 1 channel past a tile
    {2, 3, 3, 4, 5, 1, 1, 0, true, true},      // batch 2, 18 pixels, K = 4 (one half-empty group), oc < 8
    {1, 1, 1, 36, 3, 1, 1, 0, false, true},    // a single pixel (one duplicated row), K = 36 (32 + 4)
    {1, 3, 2, 24, 8, 1, 1, 0, true, false},    // 6 pixels: a 2-pair tile, K = 24 (16 + 8)
    {1, 17, 17, 3, 8, 3, 2, 1, false, true},   // gathered stem: window 27, rows padded to 32
    {1, 9, 7, 5, 11, 3, 1, 1, true, true},     // gathered window 45 -> 48
    {1, 6, 6, 37, 6, 3, 1, 1, false, false},   // gathered window 333 -> 336 (16-code loop and a tail of 8)
    {1, 15, 15, 20, 8, 3, 2, 1, true, true},   // stride 2, window 180 -> 184
    {1, 32, 32, 64, 64, 1, 1, 0, false, true}, // large enough that 2..4 threads split it under the default policy too
};

OneNode make(const GemmCase& c, uint32_t seed) {
    std::mt19937 rng(seed);
    const QuantDraw q = draw_quant(rng, c.s8, c.oc);
    const uint32_t oh = (c.h + 2 * c.pad - c.k) / c.s + 1, ow = (c.w + 2 * c.pad - c.k) / c.s + 1;
    auto ins = quant_conv_operands(rng, q, Shape{c.n, c.h, c.w, c.ic}, Shape{c.oc, c.k, c.k, c.ic}, 0, c.bias);
    const TensorInfo y = tinfo(q.x, {c.n, oh, ow, c.oc}, {q.sy}, q.zy);
    return OneNode(OpKind::Convolution2d, window_attrs<Convolution2dAttrs>(c.pad, c.s, c.bias, DataLayout::NHWC), ins, {y});
}

struct FcCase {
    uint32_t batch, in, out;
    bool transpose, s8;
};
const FcCase kFc[] = {
    {2, 36, 19, false, false},  // [in, out] weights (transposed by prepare), K = 36 (32 + 4)
    {5, 33, 9, true, true},     // K = 33: gathered rows padded to 40; 5 rows (one odd)
    {3, 100, 64, true, true},   // K = 100 (96 + 4), per-channel int8
    {8, 256, 10, true, false},  // one full tile of 8 rows
};

OneNode make_fc(const FcCase& c, uint32_t seed) {
    std::mt19937 rng(seed);
    const QuantDraw q = draw_quant(rng, c.s8, c.out);
    const Shape w = c.transpose ? Shape{c.out, c.in} : Shape{c.in, c.out};
    auto ins = quant_conv_operands(rng, q, Shape{c.batch, c.in}, w, c.transpose ? 0 : 1, true);
    FullyConnectedAttrs a;
    a.transpose_weights = c.transpose;
    a.bias_enabled = true;
    return OneNode(OpKind::FullyConnected, a, ins, {tinfo(q.x, {c.batch, c.out}, {q.sy}, q.zy)});
}

// Prepares `node`, checks that its weights were packed for i8mm, then runs it with 1..4 threads against kernels/ref.
void expect_i8mm_exact(const OneNode& node, const std::string& what) {
    ASSERT_EQ(node.neon_check(), "") << what;
    const kernels::Kernel* k = kernels::neon_kernel(node.node().op);
    std::vector<uint8_t> storage;
    void* state = exec::prepare_standalone(*k, exec::KernelNodeView(node.node(), node.graph()), storage);
    const nn::ConvState* s = nn::conv_state(state);
    ASSERT_NE(s->gemm_offset, 0u) << what << ": not on the packed GEMM";
    ASSERT_EQ(s->gemm_kernel, nn::GemmKernel::I8mm) << what;
    const auto want = node.run_ref().at(0);
    for (unsigned t = 1; t <= 4; ++t) {
        nn::set_num_threads(t);
        EXPECT_EQ(node.run(k, &state).at(0), want) << what << ", threads " << t;
    }
}

class I8mmGemm : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = nn::use_i8mm();
        saved_dot_ = nn::use_dotprod();
        if (!nn::i8mm_available())
            GTEST_SKIP() << "no i8mm here (x86 builds through SIMDe, or an aarch64 CPU without FEAT_I8MM): "
                            "run under qemu-aarch64 -cpu max (make test-aarch64) to cover it";
        ASSERT_TRUE(nn::set_dotprod(true));  // i8mm refines the dot-product path (it needs it on)
        ASSERT_TRUE(nn::set_i8mm(true));
    }
    void TearDown() override {
        nn::set_i8mm(saved_);
        nn::set_dotprod(saved_dot_);
        nn::set_num_threads(1);
    }
    bool saved_ = false, saved_dot_ = false;
};

TEST_F(I8mmGemm, ConvolutionBitExactWithReferenceForOneToFourThreads) {
    uint32_t seed = 700;
    for (const auto& c : kCases) {
        const std::string what = "conv case " + std::to_string(seed);
        expect_i8mm_exact(make(c, seed++), what);
    }
}

TEST_F(I8mmGemm, FullyConnectedBitExactWithReferenceForOneToFourThreads) {
    uint32_t seed = 800;
    for (const auto& c : kFc) {
        const std::string what = "fc case " + std::to_string(seed);
        expect_i8mm_exact(make_fc(c, seed++), what);
    }
}

// A state packed for i8mm, run after the path was switched off, falls back (conv2d_quant) with the same result.
TEST_F(I8mmGemm, StatePackedForI8mmStillExactWithThePathSwitchedOff) {
    const OneNode node = make(kCases[1], 42);
    const kernels::Kernel* k = kernels::neon_kernel(node.node().op);
    std::vector<uint8_t> storage;
    void* state = exec::prepare_standalone(*k, exec::KernelNodeView(node.node(), node.graph()), storage);
    ASSERT_EQ(nn::conv_state(state)->gemm_kernel, nn::GemmKernel::I8mm);
    ASSERT_FALSE(nn::set_i8mm(false));
    EXPECT_EQ(node.run(k, &state).at(0), node.run_ref().at(0));
}

TEST(I8mmSwitch, ForcingOnIsHonouredOnlyWhereAvailable) {
    const bool saved = nn::use_i8mm();
    EXPECT_EQ(nn::set_i8mm(true), nn::i8mm_available());
    EXPECT_EQ(nn::use_i8mm(), nn::i8mm_available());
    EXPECT_FALSE(nn::set_i8mm(false));
    EXPECT_FALSE(nn::use_i8mm());
    nn::set_i8mm(saved);
}

}  // namespace
}  // namespace npurun::neontest::i8mm

// Known answers: hand-written streams (through the RegcmdWriter) run on the simulator over test buffers
// and compared with the reference (reference_ops.h); plus the named refusals.
#include "drv/regcmd/fields.h"
#include "drv/sim/npu_simulator.h"
#include "tests/sim/npu_test_streams.h"
#include "tests/sim/reference_ops.h"
#include "tests/sim/run_lists.h"
#include "tests/sim/test_memory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace npudrv;
using namespace npudrv::sim;
using namespace npudrv::sim::test;
using npurun::fp16_to_fp32;
using npurun::fp32_to_fp16;
using regcmd::RegcmdBuffer;
using regcmd::RegcmdWriter;

namespace {

constexpr uint32_t kRegcmd = 0x10000000, kIn = 0x20000000, kWeights = 0x30000000, kOut = 0x40000000, kBias = 0x50000000,
                   kIn2 = 0x60000000;

// An fp16 conv task from kIn and kWeights to kOut: C -> K channels with a k x k kernel, H x W in, Ho x Wo out.
ConvTaskSpec fp16_conv_spec(int C, int H, int W, int K, int k, int Ho, int Wo) {
    ConvTaskSpec s;
    s.precision = s.out_precision = 2;
    s.c = C, s.h = H, s.w = W, s.k = K, s.kh = s.kw = k, s.ho = Ho, s.wo = Wo;
    s.in_addr = kIn, s.weight_addr = kWeights, s.out_addr = kOut;
    return s;
}

// The one conv task `s`, run on `sim` over `mem`.
std::vector<HwResult> run_conv(NpuSimulator& sim, TestMemory& mem, const ConvTaskSpec& s) {
    RegcmdWriter w;
    write_conv_task(w, s);
    return run_all(sim, mem, w.finish(kRegcmd));
}

std::vector<int64_t> random_ints(size_t n, int lo, int hi, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int64_t> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}
std::vector<float> random_fp16_values(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = fp16_to_fp32(fp32_to_fp16(d(rng)));
    return v;
}
template <typename T>
std::vector<T> to(const std::vector<int64_t>& v) {
    return std::vector<T>(v.begin(), v.end());
}

}  // namespace

TEST(SimKnownAnswer, Int8Conv1x1WithBiasAndRequant) {
    const int C = 32, H = 5, W = 6, K = 48;
    const auto x = random_ints(size_t(C) * H * W, -30, 30, 1);
    const auto wt = random_ints(size_t(K) * C, -20, 20, 2);
    const auto bias = random_ints(K, -2000, 2000, 3);
    TestMemory mem;
    auto in = pack_feature(x, C, H, W, 1);
    mem.add_copy(kIn, in);
    auto wp = pack_weights(wt, K, C, 1, 1, 1);
    mem.add_copy(kWeights, wp);
    auto& b = mem.add(kBias, size_t(K) * 4);
    for (int k = 0; k < K; ++k) {
        const int32_t v = static_cast<int32_t>(bias[k]);
        std::memcpy(&b[size_t(k) * 4], &v, 4);
    }
    auto& out = mem.add(kOut, size_t(K / 16) * H * W * 16);
    ConvTaskSpec s;
    s.precision = 0;
    s.c = C; s.h = H; s.w = W; s.k = K; s.ho = H; s.wo = W;
    s.in_addr = kIn; s.weight_addr = kWeights; s.out_addr = kOut; s.bias_addr = kBias;
    s.out_precision = 0;
    s.out_scale = 0x5A3C;
    s.out_shift = 22;
    s.out_offset = -7;
    s.relu = true;
    NpuSimulator sim;
    const auto r = run_conv(sim, mem, s);
    ASSERT_EQ(r[0].error, "");
    EXPECT_TRUE(r[0].completed);
    EXPECT_EQ(r[0].int_status, regcmd::kIntDpu0);
    const ref::ConvShape shape{C, H, W, K, 1, 1, 1, 1, 0, 0, 0, 0};
    const auto acc = ref::conv_acc<int64_t, int64_t>(shape, x, wt);
    const auto got = unpack_feature(out.data(), K, H, W, 1, size_t(H) * W * 16);
    for (int k = 0; k < K; ++k)
        for (int i = 0; i < H * W; ++i)
            ASSERT_EQ(got[size_t(k) * H * W + i], ref::requant(acc[size_t(k) * H * W + i], bias[k], s.out_scale, s.out_shift, -7, true))
                << "k " << k << " pixel " << i;
    const TaskCounters& cnt = sim.last_counters();
    EXPECT_EQ(cnt.macs, uint64_t(H) * W * K * C);
    EXPECT_EQ(cnt.dma_read_bytes, uint64_t(C / 16) * H * W * 16 + wp.size() + K * 4);
    EXPECT_EQ(cnt.dma_write_bytes, uint64_t(K / 16) * H * W * 16);
    EXPECT_EQ(cnt.cbuf_data_banks, 4u);
    EXPECT_EQ(cnt.cbuf_weight_banks, 8u);
}

TEST(SimKnownAnswer, Fp16Conv3x3Pad1) {
    const int C = 16, H = 7, W = 5, K = 24;
    const auto x = random_fp16_values(size_t(C) * H * W, 4);
    const auto wt = random_fp16_values(size_t(K) * C * 9, 5);
    TestMemory mem;
    auto in = pack_feature(fp16_bits(x), C, H, W, 2);
    mem.add_copy(kIn, in);
    auto wp = pack_weights(fp16_bits(wt), K, C, 3, 3, 2);
    mem.add_copy(kWeights, wp);
    auto& out = mem.add(kOut, size_t(K / 8) * H * W * 16);
    ConvTaskSpec s = fp16_conv_spec(C, H, W, K, 3, H, W);
    s.pad_left = 1;
    s.pad_top = 1;
    NpuSimulator sim;
    const auto r = run_conv(sim, mem, s);
    ASSERT_EQ(r[0].error, "");
    const ref::ConvShape shape{C, H, W, K, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto expect = ref::conv_acc<float, float>(shape, x, wt);
    const auto got = unpack_feature(out.data(), K, H, W, 2, size_t(H) * W * 16);
    for (size_t i = 0; i < expect.size(); ++i) {
        const float g = fp16_to_fp32(static_cast<uint16_t>(got[i]));
        ASSERT_NEAR(g, expect[i], 1e-3f + std::fabs(expect[i]) * 1e-3f) << i;  // one fp16 rounding
    }
}

TEST(SimKnownAnswer, Int8Depthwise3x3Stride2) {
    const int C = 32, H = 9, W = 8;
    const int Ho = (H + 1 + 1 - 3) / 2 + 1, Wo = (W + 1 + 0 - 3) / 2 + 1;  // pad l1 t1, implied r0 b1
    const auto x = random_ints(size_t(C) * H * W, -50, 50, 6);
    const auto wt = random_ints(size_t(C) * 9, -30, 30, 7);
    TestMemory mem;
    auto in = pack_feature(x, C, H, W, 1);
    mem.add_copy(kIn, in);
    auto wp = pack_dw_weights(wt, C, 3, 3, 1);
    mem.add_copy(kWeights, wp);
    auto& out = mem.add(kOut, size_t(C / 16) * Ho * Wo * 16);
    ConvTaskSpec s;
    s.precision = 0; s.out_precision = 0; s.depthwise = true;
    s.c = C; s.h = H; s.w = W; s.k = C; s.kh = 3; s.kw = 3; s.stride = 2; s.pad_left = 1; s.pad_top = 1; s.ho = Ho; s.wo = Wo;
    s.in_addr = kIn; s.weight_addr = kWeights; s.out_addr = kOut;
    s.out_scale = 1;
    s.out_shift = 6;
    NpuSimulator sim;
    const auto r = run_conv(sim, mem, s);
    ASSERT_EQ(r[0].error, "");
    const ref::ConvShape shape{C, H, W, C, 3, 3, 2, 2, 1, 1, 1, 0, true};
    ASSERT_EQ(shape.ho(), Ho);
    ASSERT_EQ(shape.wo(), Wo);
    const auto acc = ref::conv_acc<int64_t, int64_t>(shape, x, wt);
    const auto got = unpack_feature(out.data(), C, Ho, Wo, 1, size_t(Ho) * Wo * 16);
    for (size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(got[i], ref::requant(acc[i], 0, 1, 6, 0, false)) << i;
    EXPECT_EQ(sim.last_counters().macs, uint64_t(Ho) * Wo * C * 9);
}

TEST(SimKnownAnswer, Fp16ElementwiseAdd) {
    const int C = 16, H = 3, W = 10;
    const auto a = random_fp16_values(size_t(C) * H * W, 8);
    const auto b = random_fp16_values(size_t(C) * H * W, 9);
    TestMemory mem;
    auto pa = pack_feature(fp16_bits(a), C, H, W, 2);
    auto pb = pack_feature(fp16_bits(b), C, H, W, 2);
    mem.add_copy(kIn, pa);
    mem.add_copy(kIn2, pb);
    auto& out = mem.add(kOut, pa.size());
    RegcmdWriter w;
    write_ew_add_fp16(w, C, H, W, kIn, kIn2, kOut);
    NpuSimulator sim;
    const auto r = run_all(sim, mem, w.finish(kRegcmd));
    ASSERT_EQ(r[0].error, "");
    EXPECT_EQ(r[0].int_status, regcmd::kIntDpu0);
    const auto expect = ref::add(a, b);
    const auto got = unpack_feature(out.data(), C, H, W, 2, size_t(H) * W * 16);
    for (size_t i = 0; i < expect.size(); ++i) {
        EXPECT_EQ(static_cast<uint16_t>(got[i]), fp32_to_fp16(expect[i])) << i;  // exact: one rounding of an exact sum
    }
    EXPECT_EQ(sim.last_counters().macs, 0u);
    EXPECT_EQ(sim.last_counters().dma_read_bytes, 2 * pa.size());
}

TEST(SimKnownAnswer, Int8MaxPool2x2ChainedAfterConv) {
    // A conv task chained to a pool task in one buffer; the PC follows the tail (run_chain).
    const int C = 16, H = 6, W = 6;
    const auto x = random_ints(size_t(C) * H * W, -100, 100, 10);
    TestMemory mem;
    auto in = pack_feature(x, C, H, W, 1);
    mem.add_copy(kIn, in);
    // identity 1x1 conv (weight 1 on the diagonal) writes to kIn2, the pool reads kIn2.
    std::vector<int64_t> eye(size_t(C) * C, 0);
    for (int c = 0; c < C; ++c) eye[size_t(c) * C + c] = 1;
    auto wp = pack_weights(eye, C, C, 1, 1, 1);
    mem.add_copy(kWeights, wp);
    mem.add(kIn2, in.size());
    auto& out = mem.add(kOut, size_t(3 * 3 * 16));
    ConvTaskSpec s;
    s.c = C; s.h = H; s.w = W; s.k = C; s.ho = H; s.wo = W;
    s.in_addr = kIn; s.weight_addr = kWeights; s.out_addr = kIn2;
    RegcmdWriter w;
    write_conv_task(w, s);
    write_max_pool_int8(w, C, H, W, 2, 2, kIn2, kOut);
    const RegcmdBuffer b = w.finish(kRegcmd);
    mem.add(b.base_addr, b.size_bytes());
    mem.put_qwords(b.base_addr, b.qwords);
    NpuSimulator sim;
    const auto r = sim.run_chain(0, b.tasks[0].regcmd_addr, b.tasks[0].total_qwords, 2, b.tasks[1].int_mask, mem);
    ASSERT_EQ(r.size(), 2u);
    ASSERT_EQ(r[0].error, "");
    ASSERT_EQ(r[1].error, "");
    EXPECT_EQ(r[1].int_status, regcmd::kIntPpu0);
    const auto expect = ref::max_pool(x, C, H, W, 2, 2);
    const auto got = unpack_feature(out.data(), C, 3, 3, 1, 3 * 3 * 16);
    EXPECT_EQ(got, expect);
    EXPECT_EQ(sim.records().size(), 2u);
}

// ---- named refusals ----------------------------------------------------------------------------------

namespace {
ConvTaskSpec small_int8_conv() {
    ConvTaskSpec s;
    s.c = 16; s.h = 4; s.w = 4; s.k = 16; s.ho = 4; s.wo = 4;
    s.in_addr = kIn; s.weight_addr = kWeights; s.out_addr = kOut;
    return s;
}
void add_small_buffers(TestMemory& mem) {
    mem.add(kIn, 4 * 4 * 16);
    mem.add(kWeights, 16 * 16);
    mem.add(kOut, 4 * 4 * 16);
}
}  // namespace

TEST(SimRefusals, OutOfBufferAddress) {
    TestMemory mem;
    add_small_buffers(mem);
    ConvTaskSpec s = small_int8_conv();
    s.out_addr = kOut + 16;  // output runs 16 bytes past the end of its buffer
    NpuSimulator sim;
    const auto r = run_conv(sim, mem, s);
    EXPECT_FALSE(r[0].completed);
    EXPECT_EQ(r[0].error.rfind("dma-out-of-bounds: DPU output write", 0), 0u) << r[0].error;
}

TEST(SimRefusals, UnmodelledRegister) {
    TestMemory mem;
    add_small_buffers(mem);
    {
        RegcmdWriter w;
        write_conv_task(w, small_int8_conv());
        w.write_raw(regcmd::make_entry(0x2001, 7, 0x5024));  // undocumented DPU_RDMA register, non-zero
        NpuSimulator sim;
        const auto r = run_all(sim, mem, w.finish(kRegcmd));
        EXPECT_FALSE(r[0].completed);
        EXPECT_EQ(r[0].error.rfind("unmodelled-register: DPU_RDMA_5024", 0), 0u) << r[0].error;
    }
    {
        RegcmdWriter w;
        write_conv_task(w, small_int8_conv());
        w.write_raw(regcmd::make_entry(0x0201, 1, 0x1FF0));  // offset not in the register map
        NpuSimulator sim;
        const auto r = run_all(sim, mem, w.finish(kRegcmd + 0x1000));
        EXPECT_EQ(r[0].error.rfind("unmodelled-register: entry", 0), 0u) << r[0].error;
    }
}

TEST(SimRefusals, WeightReuseWithoutResidentWeights) {
    TestMemory mem;
    add_small_buffers(mem);
    ConvTaskSpec s = small_int8_conv();
    s.weight_reuse = true;
    NpuSimulator sim;
    const auto r = run_conv(sim, mem, s);
    EXPECT_EQ(r[0].error.rfind("cbuf-uninitialised: WEIGHT_REUSE", 0), 0u) << r[0].error;
}

TEST(SimRefusals, InvalidCombinations) {
    TestMemory mem;
    add_small_buffers(mem);
    {
        ConvTaskSpec s = small_int8_conv();
        s.data_banks = 8;
        s.weight_banks = 8;  // 16 > 12 banks
        RegcmdWriter w;
        write_conv_task(w, s);
        NpuSimulator sim;
        EXPECT_EQ(run_all(sim, mem, w.finish(kRegcmd))[0].error, "invalid-combination: DATA_BANK + WEIGHT_BANK > 12");
    }
    {
        RegcmdWriter w;
        write_conv_task(w, small_int8_conv());
        w.write({CNA_DATA_SIZE3::DATAOUT_ATOMICS(15)});  // != Wo*Ho
        NpuSimulator sim;
        EXPECT_EQ(run_all(sim, mem, w.finish(kRegcmd + 0x1000))[0].error, "invalid-combination: DATAOUT_ATOMICS != Wo*Ho");
    }
    {
        // Kernel waits for the PPU interrupt of a conv task: the hardware would never raise it.
        RegcmdWriter w;
        write_conv_task(w, small_int8_conv());
        const auto b = w.finish(kRegcmd + 0x2000);
        mem.add(b.base_addr, b.size_bytes());
        mem.put_qwords(b.base_addr, b.qwords);
        HwTask t;
        t.regcmd_addr = b.tasks[0].regcmd_addr;
        t.regcfg_amount = b.tasks[0].total_qwords;
        t.int_mask = regcmd::kIntPpu0 | regcmd::kIntPpu1;
        NpuSimulator sim;
        const HwResult r = sim.run(t, mem);
        EXPECT_FALSE(r.completed);
        EXPECT_EQ(r.error.rfind("interrupt-mismatch", 0), 0u) << r.error;
    }
}

// Robustness: valid streams with random register values (fixed seed) never crash or hang the simulator;
// every refusal carries one of the documented error names.
TEST(SimRefusals, RandomRegisterValuesAreRefusedByName) {
    const char* names[] = {"regcmd-format:", "unmodelled-register:", "unmodelled-config:", "invalid-combination:",
                           "dma-out-of-bounds:", "cbuf-uninitialised:", "cbuf-overflow:", "interrupt-mismatch:"};
    RegcmdWriter base;
    write_conv_task(base, small_int8_conv());
    write_max_pool_int8(base, 16, 4, 4, 2, 2, kIn, kOut);
    write_ew_add_fp16(base, 8, 4, 4, kIn, kIn, kOut);
    const RegcmdBuffer good = base.finish(kRegcmd);
    std::mt19937 rng(1234);
    size_t refused = 0, ran = 0;
    for (int iter = 0; iter < 600; ++iter) {
        std::vector<uint64_t> q = good.qwords;
        const int mutations = 1 + iter % 3;
        for (int m = 0; m < mutations; ++m) {
            const size_t i = rng() % q.size();
            if (q[i] == 0 || regcmd::entry_target(q[i]) == regcmd::kTargetOpEnBroadcast ||
                regcmd::entry_target(q[i]) == regcmd::kTargetPreOpEnMarker) {
                continue;
            }
            const uint32_t v = (rng() % 4 == 0) ? static_cast<uint32_t>(rng()) : (regcmd::entry_value(q[i]) ^ (1u << (rng() % 32)));
            q[i] = regcmd::make_entry(regcmd::entry_target(q[i]), v, regcmd::entry_offset(q[i]));
        }
        TestMemory mem;
        mem.add(kIn, 4 * 4 * 16);
        mem.add(kWeights, 16 * 16);
        mem.add(kOut, 4 * 4 * 16);
        mem.add(kRegcmd, q.size() * 8);
        mem.put_qwords(kRegcmd, q);
        NpuSimulator sim;
        for (const auto& t : good.tasks) {
            HwTask h;
            h.regcmd_addr = t.regcmd_addr;
            h.regcfg_amount = t.total_qwords;
            h.int_mask = t.int_mask;
            const HwResult r = sim.run(h, mem);
            if (r.error.empty()) {
                ++ran;
                EXPECT_TRUE(r.completed);
                continue;
            }
            ++refused;
            EXPECT_FALSE(r.completed);
            bool named = false;
            for (const char* n : names) named = named || r.error.rfind(n, 0) == 0;
            EXPECT_TRUE(named) << r.error;
        }
    }
    std::printf("random register values: %zu tasks ran, %zu refused by name\n", ran, refused);
    EXPECT_GT(refused, 300u);
}

TEST(SimKnownAnswer, Fp16ConvWithBiasStreamAndRelu) {
    // fp16 conv whose bias comes through DPU_RDMA's BS stream (fp32 per channel), then ReLU.
    const int C = 8, H = 4, W = 4, K = 16;
    const auto x = random_fp16_values(size_t(C) * H * W, 11);
    const auto wt = random_fp16_values(size_t(K) * C, 12);
    const auto bias = random_fp16_values(K, 13);
    TestMemory mem;
    auto in = pack_feature(fp16_bits(x), C, H, W, 2);
    mem.add_copy(kIn, in);
    auto wp = pack_weights(fp16_bits(wt), K, C, 1, 1, 2);
    mem.add_copy(kWeights, wp);
    auto& bs = mem.add(kBias, size_t(K) * 4);
    for (int k = 0; k < K; ++k) std::memcpy(&bs[size_t(k) * 4], &bias[k], 4);
    auto& out = mem.add(kOut, size_t(K / 8) * H * W * 16);
    ConvTaskSpec s = fp16_conv_spec(C, H, W, K, 1, H, W);
    s.bias_addr = kBias;
    s.relu = true;
    NpuSimulator sim;
    const auto r = run_conv(sim, mem, s);
    ASSERT_EQ(r[0].error, "");
    const ref::ConvShape shape{C, H, W, K, 1, 1, 1, 1, 0, 0, 0, 0};
    const auto acc = ref::conv_acc<float, float>(shape, x, wt);
    const auto got = unpack_feature(out.data(), K, H, W, 2, size_t(H) * W * 16);
    for (int k = 0; k < K; ++k)
        for (int i = 0; i < H * W; ++i) {
            const float e = std::max(acc[size_t(k) * H * W + i] + bias[k], 0.0f);
            ASSERT_NEAR(fp16_to_fp32(static_cast<uint16_t>(got[size_t(k) * H * W + i])), e, 1e-3f + std::fabs(e) * 1e-3f);
        }
}

TEST(SimKnownAnswer, Int8ElementwiseAddWithOperandConverter) {
    // int8 a + int8 b in DPU flying mode: b goes through the EW operand converter (x+offset)*scale>>shift,
    // the sum through the output converter. Expected values follow sim_arithmetic.h's documented rules.
    const int C = 32, H = 2, W = 5;
    const auto a = random_ints(size_t(C) * H * W, -128, 127, 14);
    const auto bv = random_ints(size_t(C) * H * W, -128, 127, 15);
    TestMemory mem;
    auto pa = pack_feature(a, C, H, W, 1), pb = pack_feature(bv, C, H, W, 1);
    mem.add_copy(kIn, pa);
    mem.add_copy(kIn2, pb);
    auto& out = mem.add(kOut, pa.size());
    RegcmdWriter w;
    w.begin_task(regcmd::TaskKind::DpuFlying);
    w.write({DPU_S_POINTER::POINTER_PP_MODE(1), DPU_S_POINTER::EXECUTER_PP_EN(1), DPU_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_FEATURE_MODE_CFG::BURST_LEN(15), DPU_FEATURE_MODE_CFG::OUTPUT_MODE(2),
             DPU_FEATURE_MODE_CFG::FLYING_MODE(1)});
    w.write(DPU_DATA_FORMAT{});
    w.write({DPU_DST_BASE_ADDR::DST_BASE_ADDR(kOut)});
    w.write({DPU_DST_SURF_STRIDE::DST_SURF_STRIDE(uint32_t(W * H))});
    w.write({DPU_DATA_CUBE_WIDTH::WIDTH(uint32_t(W - 1))});
    w.write({DPU_DATA_CUBE_HEIGHT::HEIGHT(uint32_t(H - 1))});
    w.write({DPU_DATA_CUBE_CHANNEL::ORIG_CHANNEL(uint32_t(C - 1)), DPU_DATA_CUBE_CHANNEL::CHANNEL(uint32_t(C - 1))});
    w.write({DPU_BS_CFG::BS_BYPASS(1)});
    w.write({DPU_BS_OW_CFG::OD_BYPASS(1)});
    w.write({DPU_BN_CFG::BN_BYPASS(1)});
    w.write({DPU_EW_CFG::EW_CVT_TYPE(1), DPU_EW_CFG::EW_DATA_MODE(1), DPU_EW_CFG::EDATA_SIZE(1),
             DPU_EW_CFG::EW_ALU_ALGO(2), DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(1),
             DPU_EW_CFG::EW_OP_SRC(1)});
    w.write({DPU_EW_CVT_OFFSET_VALUE::EW_OP_CVT_OFFSET(static_cast<uint32_t>(-3))});
    w.write({DPU_EW_CVT_SCALE_VALUE::EW_OP_CVT_SHIFT(1), DPU_EW_CVT_SCALE_VALUE::EW_OP_CVT_SCALE(3)});
    w.write({DPU_OUT_CVT_OFFSET::OUT_CVT_OFFSET(5u)});
    w.write({DPU_OUT_CVT_SCALE::OUT_CVT_SCALE(1)});
    w.write({DPU_OUT_CVT_SHIFT::OUT_CVT_SHIFT(1)});
    w.write({DPU_RDMA_S_POINTER::POINTER_PP_MODE(1), DPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
             DPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_RDMA_DATA_CUBE_WIDTH::WIDTH(uint32_t(W - 1))});
    w.write({DPU_RDMA_DATA_CUBE_HEIGHT::HEIGHT(uint32_t(H - 1))});
    w.write({DPU_RDMA_DATA_CUBE_CHANNEL::CHANNEL(uint32_t(C - 1))});
    w.write({DPU_RDMA_SRC_BASE_ADDR::SRC_BASE_ADDR(kIn)});
    w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DATA_MODE(1), DPU_RDMA_ERDMA_CFG::ERDMA_DATA_SIZE(1)});
    w.write({DPU_RDMA_EW_BASE_ADDR::EW_BASE_ADDR(kIn2)});
    w.write({DPU_RDMA_EW_SURF_STRIDE::EW_SURF_STRIDE(uint32_t(W * H))});
    w.write({DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN(15), DPU_RDMA_FEATURE_MODE_CFG::FLYING_MODE(1)});
    NpuSimulator sim;
    const auto r = run_all(sim, mem, w.finish(kRegcmd));
    ASSERT_EQ(r[0].error, "");
    const auto got = unpack_feature(out.data(), C, H, W, 1, size_t(H) * W * 16);
    for (size_t i = 0; i < a.size(); ++i) {
        const int64_t b2 = ref::round_half_up_shift((bv[i] - 3) * 3, 1);
        const int64_t y = std::clamp<int64_t>(ref::round_half_up_shift(a[i] + b2, 1) + 5, -128, 127);
        ASSERT_EQ(got[i], y) << i;
    }
}

TEST(SimKnownAnswer, Int8Conv3x3Pad1SplitIntoRowTilesWithWeightReuse) {
    // The tiling the lowering uses: two tasks of 4 output rows each; input bands overlap by kh-stride rows,
    // top padding only on the first band, bottom padding implied on the last; the second task reuses
    // the weights left in CBUF. Output planes keep the full tensor's stride.
    const int C = 16, H = 8, W = 6, K = 16;
    const auto x = random_ints(size_t(C) * H * W, -40, 40, 16);
    const auto wt = random_ints(size_t(K) * C * 9, -20, 20, 17);
    TestMemory mem;
    auto in = pack_feature(x, C, H, W, 1);
    mem.add_copy(kIn, in);
    auto wp = pack_weights(wt, K, C, 3, 3, 1);
    mem.add_copy(kWeights, wp);
    auto& out = mem.add(kOut, size_t(H) * W * 16);
    RegcmdWriter w;
    for (int tile = 0; tile < 2; ++tile) {
        ConvTaskSpec s;
        s.c = C; s.w = W; s.k = K; s.kh = 3; s.kw = 3; s.pad_left = 1; s.wo = W; s.ho = 4;
        s.full_h = H; s.out_full_h = H;
        s.pad_top = tile == 0 ? 1 : 0;
        const int first_row = tile == 0 ? 0 : 3;  // output row 4 needs input rows 3..5
        s.h = 5;
        s.in_addr = kIn + uint32_t(first_row * W * 16);
        s.out_addr = kOut + uint32_t(tile * 4 * W * 16);
        s.weight_addr = kWeights;
        s.weight_reuse = tile == 1;
        s.out_scale = 1; s.out_shift = 8;
        write_conv_task(w, s);
    }
    NpuSimulator sim;
    const auto r = run_all(sim, mem, w.finish(kRegcmd));
    ASSERT_EQ(r[0].error, "");
    ASSERT_EQ(r[1].error, "");
    EXPECT_EQ(r[1].int_status, regcmd::kIntDpu1);  // second completion reports the other ping-pong group
    EXPECT_EQ(sim.records()[1].counters.dma_read_bytes, uint64_t(5) * W * 16) << "tile 2 must not refetch weights";
    const ref::ConvShape shape{C, H, W, K, 3, 3, 1, 1, 1, 1, 1, 1};
    const auto acc = ref::conv_acc<int64_t, int64_t>(shape, x, wt);
    const auto got = unpack_feature(out.data(), K, H, W, 1, size_t(H) * W * 16);
    for (size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(got[i], ref::requant(acc[i], 0, 1, 8, 0, false)) << i;
}

TEST(SimKnownAnswer, Fp16Depthwise3x3Valid) {
    const int C = 40, H = 6, W = 7;  // 40 channels: a full 32-channel weight group and a partial one
    const auto x = random_fp16_values(size_t(C) * H * W, 18);
    const auto wt = random_fp16_values(size_t(C) * 9, 19);
    TestMemory mem;
    auto in = pack_feature(fp16_bits(x), C, H, W, 2);
    mem.add_copy(kIn, in);
    auto wp = pack_dw_weights(fp16_bits(wt), C, 3, 3, 2);
    mem.add_copy(kWeights, wp);
    const int Ho = H - 2, Wo = W - 2;
    auto& out = mem.add(kOut, size_t(C / 8) * Ho * Wo * 16);
    ConvTaskSpec s = fp16_conv_spec(C, H, W, C, 3, Ho, Wo);
    s.depthwise = true;
    NpuSimulator sim;
    const auto r = run_conv(sim, mem, s);
    ASSERT_EQ(r[0].error, "");
    const ref::ConvShape shape{C, H, W, C, 3, 3, 1, 1, 0, 0, 0, 0, true};
    const auto expect = ref::conv_acc<float, float>(shape, x, wt);
    const auto got = unpack_feature(out.data(), C, Ho, Wo, 2, size_t(Ho) * Wo * 16);
    for (size_t i = 0; i < expect.size(); ++i) {
        ASSERT_NEAR(fp16_to_fp32(static_cast<uint16_t>(got[i])), expect[i], 1e-3f + std::fabs(expect[i]) * 1e-3f) << i;
    }
}

// The simulator keeps decoded weights across runs (drv/sim/weight_memo.h). New bytes at the same address,
// under the same registers, must give the new weights' result, and the old bytes again the old result:
// a memo that keyed on the address or the geometry alone would return stale products here.
TEST(SimKnownAnswer, WeightsChangedBetweenRunsAreDecodedAgain) {
    for (const bool depthwise : {false, true}) {
        for (const int bytes : {1, 2}) {
            SCOPED_TRACE(std::string(depthwise ? "depthwise " : "direct ") + (bytes == 1 ? "int8" : "fp16"));
            const int C = 48, H = 5, W = 6, K = depthwise ? C : 24;  // 48: a full and a partial weight group
            const size_t nw = size_t(K) * (depthwise ? 1 : C) * 9;
            std::vector<std::vector<int64_t>> weight_sets;
            std::vector<float> xf;
            std::vector<int64_t> x;
            if (bytes == 2) {
                xf = random_fp16_values(size_t(C) * H * W, 31);
                x = fp16_bits(xf);
                for (uint32_t seed : {32u, 33u}) weight_sets.push_back(fp16_bits(random_fp16_values(nw, seed)));
            } else {
                x = random_ints(size_t(C) * H * W, -20, 20, 31);
                for (uint32_t seed : {32u, 33u}) weight_sets.push_back(random_ints(nw, -20, 20, seed));
            }
            const auto pack = [&](const std::vector<int64_t>& wt) {
                return depthwise ? pack_dw_weights(wt, C, 3, 3, bytes) : pack_weights(wt, K, C, 3, 3, bytes);
            };
            TestMemory mem;
            mem.add_copy(kIn, pack_feature(x, C, H, W, bytes));
            const int Ho = H - 2, Wo = W - 2, c2 = 16 / bytes;
            auto& out = mem.add(kOut, size_t((K + c2 - 1) / c2) * Ho * Wo * 16);
            ConvTaskSpec s = fp16_conv_spec(C, H, W, K, 3, Ho, Wo);
            if (bytes == 1) {
                s.precision = s.out_precision = 0;
                s.out_scale = 1;
                s.out_shift = 5;
            }
            s.depthwise = depthwise;
            NpuSimulator sim;
            std::vector<std::vector<uint8_t>> outputs;
            for (const size_t set : {0, 1, 0}) {
                mem.add_copy(kWeights, pack(weight_sets[set]));
                const auto r = run_conv(sim, mem, s);
                ASSERT_EQ(r[0].error, "");
                outputs.push_back(out);
            }
            EXPECT_NE(outputs[0], outputs[1]);
            EXPECT_EQ(outputs[0], outputs[2]);
            // And the second run is the second weight set's result from a fresh simulator.
            NpuSimulator fresh;
            mem.add_copy(kWeights, pack(weight_sets[1]));
            ASSERT_EQ(run_conv(fresh, mem, s)[0].error, "");
            EXPECT_EQ(out, outputs[1]);
        }
    }
}

// Atrous (CONV_CON3 ATROUS_*_DILATION = d - 1, the assumption drv/sim/sim_conv.cpp states): a 3x3 kernel with
// dilation 2 computes exactly what the inflated 5x5 kernel with zeros between its taps computes, in int8 and
// fp16, direct and depthwise, with padding and stride; and counts 9 taps of MACs, not 25.
TEST(SimKnownAnswer, AtrousKernelEqualsTheInflatedKernel) {
    const int C = 16, H = 11, W = 9, K = 24, k = 3, d = 2, span = (k - 1) * d + 1;
    for (const bool fp16 : {false, true})
        for (const bool dw : {false, true})
            for (const int stride : {1, 2}) {
                const int bpe = fp16 ? 2 : 1, Ko = dw ? C : K, pad = 2;
                const int Ho = (H + 2 * pad - span) / stride + 1, Wo = (W + 2 * pad - span) / stride + 1;
                const size_t nw = size_t(dw ? 1 : K) * C * k * k;
                const std::vector<int64_t> x = fp16 ? fp16_bits(random_fp16_values(size_t(C) * H * W, 21))
                                                    : random_ints(size_t(C) * H * W, -60, 60, 21);
                const std::vector<int64_t> wt =
                    fp16 ? fp16_bits(random_fp16_values(nw, 22)) : random_ints(nw, -40, 40, 22);
                // The same weights on every d-th tap of a span x span kernel, zeros between.
                std::vector<int64_t> inflated(nw / (k * k) * span * span, 0);
                for (size_t kc = 0; kc < nw / (k * k); ++kc)
                    for (int ky = 0; ky < k; ++ky)
                        for (int kx = 0; kx < k; ++kx)
                            inflated[(kc * span + ky * d) * span + kx * d] = wt[(kc * k + ky) * k + kx];
                std::vector<uint8_t> outs[2];
                uint64_t macs[2] = {0, 0};
                for (const bool atrous : {true, false}) {
                    const int kk = atrous ? k : span;
                    TestMemory mem;
                    mem.add_copy(kIn, pack_feature(x, C, H, W, bpe));
                    mem.add_copy(kWeights, dw ? pack_dw_weights(atrous ? wt : inflated, C, kk, kk, bpe)
                                              : pack_weights(atrous ? wt : inflated, K, C, kk, kk, bpe));
                    auto& out = mem.add(kOut, size_t((Ko + 16 / bpe - 1) / (16 / bpe)) * Ho * Wo * 16);
                    ConvTaskSpec s;
                    s.precision = s.out_precision = fp16 ? 2 : 0;
                    s.depthwise = dw;
                    s.c = C, s.h = H, s.w = W, s.k = Ko, s.kh = s.kw = kk, s.stride = stride, s.ho = Ho, s.wo = Wo;
                    s.pad_left = s.pad_top = pad;
                    s.dilation = atrous ? d : 1;
                    s.in_addr = kIn, s.weight_addr = kWeights, s.out_addr = kOut;
                    s.out_shift = fp16 ? 0 : 7;
                    NpuSimulator sim;
                    const auto r = run_conv(sim, mem, s);
                    ASSERT_EQ(r[0].error, "") << (atrous ? "atrous" : "inflated");
                    outs[atrous ? 0 : 1] = out;
                    macs[atrous ? 0 : 1] = sim.last_counters().macs;
                }
                const std::string what = std::string(fp16 ? "fp16" : "int8") + (dw ? " depthwise" : "") + " stride " +
                                         std::to_string(stride);
                EXPECT_EQ(outs[0], outs[1]) << what;
                EXPECT_EQ(macs[0], uint64_t(Ho) * Wo * Ko * k * k * (dw ? 1 : C)) << what;
                EXPECT_EQ(macs[1] * k * k, macs[0] * span * span) << what;
            }
}

// The window a dilated kernel covers bounds the padding: 2 columns of padding with a 3x3 kernel of dilation 2
// (a 5-pixel window) are fine, 5 are not; FEATURE_GRAINS must cover the window's 5 rows, not the kernel's 3.
TEST(SimRefusals, AtrousWindowBoundsPaddingAndFeatureGrains) {
    TestMemory mem;
    mem.add(kIn, 8 * 8 * 16);
    mem.add(kWeights, 16 * 16 * 9);
    mem.add(kOut, 12 * 12 * 16 * 2);
    ConvTaskSpec s;
    s.c = 16, s.h = 8, s.w = 8, s.k = 16, s.kh = s.kw = 3, s.dilation = 2, s.pad_left = s.pad_top = 2, s.ho = 8,
    s.wo = 8;
    s.in_addr = kIn, s.weight_addr = kWeights, s.out_addr = kOut;
    {
        NpuSimulator sim;
        EXPECT_EQ(run_conv(sim, mem, s)[0].error, "");
    }
    {
        ConvTaskSpec t = s;
        t.pad_left = t.pad_top = 5, t.ho = t.wo = 14;
        NpuSimulator sim;
        EXPECT_EQ(run_conv(sim, mem, t)[0].error.rfind("invalid-combination: output size 14x14 inconsistent", 0), 0u)
            << run_conv(sim, mem, t)[0].error;
    }
    {
        RegcmdWriter w;
        write_conv_task(w, s);
        w.write({CNA_CONV_CON2::FEATURE_GRAINS(4)});  // the 3x3 kernel's rows, but the window covers 5
        NpuSimulator sim;
        const auto r = run_all(sim, mem, w.finish(kRegcmd));
        EXPECT_EQ(r[0].error, "invalid-combination: FEATURE_GRAINS below the kernel window's height");
    }
    {
        // One input pixel under a 31x31 kernel of dilation 32: a 961-pixel window, almost all implicit padding,
        // 32 x 961 x 961 padded values: refused before anything that size is allocated.
        TestMemory big;
        big.add(kIn, 2 * 16);
        big.add(kWeights, 16 * 31 * 31 * 32);
        big.add(kOut, 16);
        ConvTaskSpec t;
        t.c = 32, t.h = t.w = 1, t.k = 16, t.kh = t.kw = 31, t.dilation = 32, t.ho = t.wo = 1;
        t.in_addr = kIn, t.weight_addr = kWeights, t.out_addr = kOut;
        NpuSimulator sim;
        EXPECT_EQ(run_conv(sim, big, t)[0].error,
                  "unmodelled-config: padded conv input of 29552672 elements exceeds the simulator's limit");
    }
}

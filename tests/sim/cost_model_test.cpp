// Cost model (drv/sim/cost_model.h) on hand-computed tasks: the registers a task would carry, the DMA the
// simulator would have counted, and the numbers worked out by hand from the constants' definitions.
#include "drv/regcmd/fields.h"
#include "drv/regcmd/register_map.h"
#include "drv/sim/cost_model.h"
#include "drv/sim/npu_simulator.h"

#include <gtest/gtest.h>

namespace {

using namespace npudrv;
namespace f = regcmd::f;
namespace cost = sim::cost;

void put(regcmd::RegisterState& r, regcmd::FieldRef fr, uint32_t v) {
    ASSERT_LE(v, fr.max_value());
    r.set(fr.reg, (r.get(fr.reg) & ~fr.mask()) | (v << fr.lsb));
}

constexpr uint32_t kConv = regcmd::kEnCna | regcmd::kEnCore | regcmd::kEnDpu;

// A conv task: C channels as the CNA fetches them, K kernels, kw x kh, output wo x ho.
regcmd::RegisterState conv_task(uint32_t prec, bool dw, uint32_t C, uint32_t K, uint32_t k, uint32_t wo, uint32_t ho) {
    regcmd::RegisterState r;
    put(r, f::CNA_PROC_PRECISION, prec);
    put(r, f::CNA_CONV_MODE, dw ? 3 : 0);
    put(r, f::CNA_IN_CHANNEL, C);
    put(r, f::CNA_IN_WIDTH, wo + k - 1);
    put(r, f::CNA_IN_HEIGHT, ho + k - 1);
    put(r, f::CNA_WEIGHT_KERNELS, K);
    put(r, f::CNA_WEIGHT_WIDTH, k);
    put(r, f::CNA_WEIGHT_HEIGHT, k);
    put(r, f::CORE_OUT_WIDTH, wo - 1);
    put(r, f::CORE_OUT_HEIGHT, ho - 1);
    return r;
}

TEST(CostModel, FirstLayerThreeChannelsIssuesWholeAtomicGroups) {
    // 1x1 int8 conv of a 3-channel image: the CNA fetches a 16-channel atom, the MAC array issues a
    // 32-channel group against a 32-kernel group for 8 real kernels: 16 pixels x 32 x 32 slots.
    sim::TaskCounters c;
    c.macs = 16 * 3 * 8;
    const cost::TaskCost t = cost::estimate_task(conv_task(0, false, 16, 8, 1, 4, 4), kConv, c);
    EXPECT_EQ(t.useful_macs, 384u);
    EXPECT_EQ(t.issued_macs, 16u * 32 * 32);
    EXPECT_EQ(t.compute_cycles, 16u);  // 1024 int8 slots per cycle
}

TEST(CostModel, Fp16KernelGroupIsSixteen) {
    // 3x3 fp16, 8 channels (one fp16 atom) -> 32, 20 kernels -> 32 (2 groups of 16): 4 px x 9 x 32 x 32.
    const cost::TaskCost t = cost::estimate_task(conv_task(2, false, 8, 20, 3, 2, 2), kConv, sim::TaskCounters{});
    EXPECT_EQ(t.issued_macs, 4u * 9 * 32 * 32);
    EXPECT_EQ(t.compute_cycles, 4u * 9 * 32 * 32 / 512);
    // 40 kernels: 48 = 3 groups of 16, not 64.
    EXPECT_EQ(cost::estimate_task(conv_task(2, false, 32, 40, 1, 1, 1), kConv, sim::TaskCounters{}).issued_macs, 32u * 48);
}

TEST(CostModel, DepthwiseIssuesSixtyFourByteChannelGroups) {
    // int8 depthwise, 80 channels -> 128 (two 64-channel groups), 3x3, 5x5 out; one group per tap per cycle.
    const cost::TaskCost i8 = cost::estimate_task(conv_task(0, true, 80, 1, 3, 5, 5), kConv, sim::TaskCounters{});
    EXPECT_EQ(i8.issued_macs, 25u * 9 * 128);
    EXPECT_EQ(i8.compute_cycles, 25u * 9 * 2);
    // fp16: 32 channels per 64 bytes, 40 -> 64.
    const cost::TaskCost f16 = cost::estimate_task(conv_task(2, true, 40, 1, 3, 5, 5), kConv, sim::TaskCounters{});
    EXPECT_EQ(f16.issued_macs, 25u * 9 * 64);
    EXPECT_EQ(f16.compute_cycles, 25u * 9 * 2);
}

TEST(CostModel, MemoryBoundTaskAndPorts) {
    sim::TaskCounters c;
    c.dma_read_bytes = 16000;
    c.dma_feature_bytes = 9000;
    c.dma_weight_bytes = 5000;
    c.dma_write_bytes = 8000;
    c.regcmd_bytes = 832;
    const cost::TaskCost t = cost::estimate_task(conv_task(0, false, 32, 32, 1, 4, 4), kConv, c);
    EXPECT_EQ(t.feature_bytes, 9000u);
    EXPECT_EQ(t.weight_bytes, 5000u);
    EXPECT_EQ(t.operand_bytes, 2000u);
    EXPECT_EQ(t.output_bytes, 8000u);
    EXPECT_EQ(t.memory_cycles, 24000u / 16);
    EXPECT_EQ(t.compute_cycles, 16u);
    EXPECT_EQ(t.overhead_cycles, cost::kTaskFixedCycles + 832 / 16);
    EXPECT_EQ(t.cycles(), 1500u + 500 + 52);  // max(compute, memory) + overhead
    EXPECT_DOUBLE_EQ(cost::microseconds(t.cycles()), 2.052);
}

TEST(CostModel, CbufReuseCountsBytesNotFetched) {
    regcmd::RegisterState r = conv_task(0, false, 16, 32, 3, 4, 4);
    put(r, f::CNA_WEIGHT_BYTES, 4608);
    put(r, f::CNA_WEIGHT_REUSE, 1);
    EXPECT_EQ(cost::estimate_task(r, kConv, sim::TaskCounters{}).cbuf_reused_bytes, 4608u);
    put(r, f::CNA_DATA_REUSE, 1);  // 6 x 6 x 16 int8 feature data stay resident as well
    EXPECT_EQ(cost::estimate_task(r, kConv, sim::TaskCounters{}).cbuf_reused_bytes, 4608u + 6 * 6 * 16);
}

TEST(CostModel, FlyingTaskHasNoMacsAndTasksAddUp) {
    sim::TaskCounters c;
    c.dma_read_bytes = c.dma_feature_bytes = 3200;
    c.dma_write_bytes = 1600;
    const cost::TaskCost dpu = cost::estimate_task(conv_task(0, false, 16, 8, 1, 4, 4), regcmd::kEnDpu | regcmd::kEnDpuRdma, c);
    EXPECT_EQ(dpu.issued_macs, 0u);
    EXPECT_EQ(dpu.compute_cycles, 0u);
    EXPECT_EQ(dpu.cycles(), 300u + 500);
    sim::TaskCounters m;
    m.macs = 384;
    const cost::TaskCost conv = cost::estimate_task(conv_task(0, false, 16, 8, 1, 4, 4), kConv, m);
    cost::TaskCost sum = dpu;
    sum += conv;
    EXPECT_EQ(sum.cycles(), dpu.cycles() + conv.cycles());  // one core runs them one after the other
    EXPECT_EQ(sum.issued_macs, conv.issued_macs);
    EXPECT_EQ(sum.useful_macs, 384u);
}

}  // namespace

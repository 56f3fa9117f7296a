// Multi-task chains through drv and the fake kernel: one regcmd buffer holding several task lists, one
// task record per list (as the vendor runtime submits chains), executed by the simulator; and the
// regcfg_amount convention (the fake kernel hands the Hardware the entries the PC fetches INCLUDING the
// 4-entry tail; the simulator fetches exactly that many).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "drv/device_factory.h"
#include "drv/regcmd/fields.h"
#include "drv/regcmd/regcmd_decoder.h"
#include "drv/sim/npu_simulator.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_regcmd.h"
#include "tests/npu/conv_rig.h"

namespace rc = npudrv::regcmd;
using npurun::NpuDomain;
using npurun::npu::ConvLayer;

namespace {

using npurun::npu_test::Rig;

// An int8 3x3 pad-1 conv 16x12x16 -> 16 channels, weights/inputs deterministic; its BS stream is all zero biases.
ConvLayer small_layer() { return npurun::npu_test::small_int8_conv(16); }

// Runs `layer` with `tiling` through the driver; returns the output bytes (16 channels x 12 x 16).
std::vector<uint8_t> run_layer(const ConvLayer& L, const npurun::npu::ConvTiling& t, uint32_t entries_delta = 0,
                               size_t* hw_tasks = nullptr) {
    Rig rig = Rig::make();
    npudrv::Buffer in = rig.dev.create_buffer(L.h * L.w * 16, npudrv::kBufferZeroed);
    npudrv::Buffer out = rig.dev.create_buffer(L.ho * L.wo * 16, npudrv::kBufferZeroed);
    out.map();
    npudrv::Buffer cst = rig.dev.create_buffer(4096, npudrv::kBufferZeroed);
    std::mt19937 rng(3);
    uint8_t* ip = in.map();
    for (uint32_t i = 0; i < L.h * L.w * 16; ++i) ip[i] = uint8_t(rng());
    const std::vector<uint8_t> weights = npurun::npu_test::pattern_weights(L);
    std::memcpy(cst.map(), weights.data(), weights.size());  // the zero BS stream at 3072: the buffer is zeroed
    rc::RegcmdWriter w;
    npurun::npu::ConvAddresses a{uint32_t(in.dma_addr()), uint32_t(out.dma_addr()), uint32_t(cst.dma_addr()),
                                 uint32_t(cst.dma_addr() + 3072)};
    npurun::npu::emit_conv_tasks(w, L, t, a);
    const rc::RegcmdBuffer probe = w.finish(0);
    npudrv::Buffer cmd = rig.dev.create_buffer(probe.size_bytes(), 0);
    const rc::RegcmdBuffer b = w.finish(cmd.dma_addr());
    std::memcpy(cmd.map(), b.qwords.data(), b.size_bytes());
    npudrv::JobSpec spec;
    npudrv::Lane lane;
    for (const auto& lt : b.tasks) lane.tasks.push_back({&cmd, lt.offset, lt.total_qwords - entries_delta, lt.enable_mask, lt.int_mask});
    spec.lanes.push_back(lane);
    spec.inputs = {&in};
    spec.outputs = {&out};
    npudrv::Job job = rig.dev.create_job(spec);
    job.run();
    if (hw_tasks) *hw_tasks = rig.sim->records().size();
    for (const auto& r : rig.sim->records()) EXPECT_EQ(r.result.error, "");
    return std::vector<uint8_t>(out.data(), out.data() + L.ho * L.wo * 16);
}

}  // namespace

TEST(Chain, RowTilesInOneBufferComputeTheSingleTaskResult) {
    const ConvLayer L = small_layer();
    npurun::npu::ConvTiling one{4, 8, L.ho, 1};
    npurun::npu::ConvTiling tiles{4, 8, 5, 3};  // rows 0-4, 5-9, 10-11
    size_t n1 = 0, n3 = 0;
    const std::vector<uint8_t> a = run_layer(L, one, 0, &n1);
    const std::vector<uint8_t> b = run_layer(L, tiles, 0, &n3);
    EXPECT_EQ(n1, 1u);
    EXPECT_EQ(n3, 3u);  // one task record per list, each handed to the hardware
    EXPECT_EQ(a, b);
    size_t nonzero = 0;
    for (uint8_t v : a) nonzero += v != 0;
    EXPECT_GT(nonzero, a.size() / 2);
}

TEST(Chain, LaterRowTilesReuseTheResidentWeights) {
    const ConvLayer L = small_layer();
    npurun::npu::ConvTiling one{4, 8, L.ho, 1};
    npurun::npu::ConvTiling reuse{4, 8, 5, 3, 0, true};
    EXPECT_EQ(run_layer(L, one), run_layer(L, reuse));  // the simulator refuses a reuse of weights it never loaded
    rc::RegcmdWriter w;
    npurun::npu::emit_conv_tasks(w, L, reuse, {0x1000, 0x2000, 0x3000, 0x4000});
    const rc::RegcmdBuffer b = w.finish(0x10000);
    const auto tasks = rc::decode_stream(b.qwords, b.base_addr);
    ASSERT_EQ(tasks.size(), 3u);
    EXPECT_EQ(tasks[0].state.get(rc::f::CNA_WEIGHT_REUSE), 0u);
    EXPECT_EQ(tasks[1].state.get(rc::f::CNA_WEIGHT_REUSE), 1u);
    EXPECT_EQ(tasks[2].state.get(rc::f::CNA_WEIGHT_REUSE), 1u);
}

TEST(Chain, RowTilingPlanKeepsSmallWeightsResident) {
    ConvLayer L = small_layer();
    L.h = L.ho = 200, L.w = L.wo = 128, L.c = L.ca = 16;  // 409600 input bytes: rows must be split
    npurun::npu::ConvTiling t;
    std::string why;
    ASSERT_TRUE(npurun::npu::plan_conv_tiling(L, &t, &why)) << why;
    EXPECT_GT(t.tasks, 1u);
    EXPECT_TRUE(t.weight_reuse);
    EXPECT_EQ(t.weight_banks + t.data_banks, 12u);
}

TEST(Chain, RegcfgAmountIncludesTheTail) {
    // A task record two entries short cuts the op_en broadcast out of what the PC fetches: the simulator
    // must refuse it (it used to add the tail a second time and run it).
    const ConvLayer L = small_layer();
    npurun::npu::ConvTiling one{4, 8, L.ho, 1};
    EXPECT_THROW(run_layer(L, one, 2), npurun::Error);
}

// The convolution tiling plan (runtime/npu/conv_regcmd.h) without hardware: CBUF bank accounting, exact
// coverage of the output by the tiles (rows x K x channel slices x lanes), the K tile alignment the packed
// weights need, reuse flags only where the previous task of the lane left the same data, and the layers
// no plan can fit refused with a reason.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "drv/regcmd/fields.h"
#include "drv/regcmd/regcmd_decoder.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_regcmd.h"

namespace rc = npudrv::regcmd;
using npurun::NpuDomain;
using npurun::npu::ConvLayer;
using npurun::npu::ConvTile;
using npurun::npu::ConvTiling;
using npurun::npu::LaneSplit;
using npurun::npu::TilingRequest;

namespace {

constexpr uint64_t kBank = 32768;

// Geometry only (weights zero): the plan and the registers depend on nothing else.
ConvLayer layer(NpuDomain d, uint32_t c, uint32_t h, uint32_t w, uint32_t k, uint32_t kh, uint32_t stride = 1,
                bool depthwise = false) {
    ConvLayer L;
    L.domain = d;
    L.depthwise = depthwise;
    L.c = c, L.h = h, L.w = w;
    L.k = depthwise ? c : k;
    L.kh = L.kw = kh, L.sx = L.sy = stride;
    L.pad_left = L.pad_top = kh / 2;
    L.ho = (h + 2 * (kh / 2) - kh) / stride + 1, L.wo = (w + 2 * (kh / 2) - kh) / stride + 1;
    const uint32_t c2 = d == NpuDomain::Int8 ? 16 : 8;
    L.ca = (c + c2 - 1) / c2 * c2;
    L.coa = ((depthwise ? L.ca : L.k) + 15) / 16 * 16;
    L.use_bs = true;
    L.bs_data_use = 1;
    return L;
}

ConvTiling tiling_plan(const ConvLayer& L, TilingRequest req = {}) {
    ConvTiling t;
    std::string why;
    EXPECT_TRUE(npurun::npu::plan_conv_tiling(L, &t, &why, req)) << why;
    return t;
}

// Every invariant a plan must keep, checked tile by tile.
void check_plan(const ConvLayer& L, const ConvTiling& t) {
    const uint32_t bpe = L.elem_bytes(), KG = bpe == 1 ? 32 : 16;
    EXPECT_EQ(t.data_banks + t.weight_banks, 12u);
    EXPECT_GE(t.data_banks, 1u);
    EXPECT_GE(t.weight_banks, 1u);
    const std::vector<ConvTile> tiles = npurun::npu::conv_tiles(L, t);
    EXPECT_EQ(tiles.size(), t.tasks);
    // Output (channel, row) covered exactly once.
    const uint32_t chans = L.depthwise ? L.ca : L.k;
    std::vector<uint8_t> cover(size_t(chans) * L.ho, 0);
    std::vector<uint32_t> per_lane(t.lanes, 0);
    for (size_t i = 0; i < tiles.size(); ++i) {
        const ConvTile& x = tiles[i];
        ASSERT_LT(x.lane, t.lanes);
        ++per_lane[x.lane];
        ASSERT_GT(x.rows, 0u);
        ASSERT_GT(x.kt, 0u);
        ASSERT_LE(x.oy0 + x.rows, L.ho);
        ASSERT_LE(x.k0 + x.kt, chans);
        for (uint32_t k = x.k0; k < x.k0 + x.kt; ++k)
            for (uint32_t y = x.oy0; y < x.oy0 + x.rows; ++y) ++cover[size_t(k) * L.ho + y];
        // A K tile starts on a weight group: its weights are one contiguous slice of the packing.
        if (!L.depthwise) {
            EXPECT_EQ(x.k0 % KG, 0u);
        }
        EXPECT_LE((x.kt + 15) / 16 * 16, 8192u);  // DPU cube channel field
        // CBUF: the task's input rows in its data banks, one kernel in its weight banks.
        const int64_t iy0 = std::max<int64_t>(0, int64_t(x.oy0) * L.sy - L.pad_top);
        const int64_t iy1 = std::min<int64_t>(L.h, int64_t(x.oy0 + x.rows - 1) * L.sy - L.pad_top + L.kh);
        const uint64_t in_bytes = uint64_t(iy1 - iy0) * L.w * x.ca * bpe;
        EXPECT_LE(in_bytes, t.data_banks * kBank) << "tile " << i;
        const uint64_t per_kernel = uint64_t(L.kh) * L.kw * x.ca * bpe;
        EXPECT_LE(per_kernel, t.weight_banks * kBank);
        // Reuse only of what the previous task of the same lane left in the CBUF.
        const bool lane_start = i == 0 || tiles[i - 1].lane != x.lane;
        if (lane_start) {
            EXPECT_FALSE(x.weight_reuse || x.data_reuse) << "tile " << i << " reuses across lanes";
        } else {
            const ConvTile& p = tiles[i - 1];
            if (x.weight_reuse) {
                EXPECT_TRUE(p.k0 == x.k0 && p.kt == x.kt && p.c0 == x.c0);
                EXPECT_LE(per_kernel * (L.depthwise ? 1 : x.kt), t.weight_banks * kBank) << "reused weights were streamed";
            }
            if (x.data_reuse) {
                EXPECT_TRUE(p.c0 == x.c0 && p.oy0 == x.oy0 && p.rows == x.rows);
            }
        }
    }
    for (size_t i = 0; i < cover.size(); ++i) ASSERT_EQ(cover[i], 1) << "channel " << i / L.ho << " row " << i % L.ho;
    for (uint32_t l = 0; l < t.lanes; ++l) EXPECT_GT(per_lane[l], 0u) << "lane " << l << " has no task";
}

}  // namespace

TEST(ConvTilingPlan, InvariantsOverManyShapes) {
    size_t plans = 0;
    for (NpuDomain d : {NpuDomain::Int8, NpuDomain::Fp16})
        for (bool dw : {false, true})
            for (uint32_t kh : {1u, 3u})
                for (uint32_t stride : {1u, 2u})
                    for (uint32_t hw : {7u, 40u, 100u})
                        for (uint32_t c : {16u, 200u})
                            for (uint32_t k : {24u, 250u})
                                for (uint32_t lanes : {1u, 2u, 3u})
                                    for (uint32_t kmax : {0u, 40u}) {
                                        if (dw && (k != 24 || kmax != 0)) continue;
                                        const ConvLayer L = layer(d, c, hw, hw, k, kh, stride, dw);
                                        TilingRequest r;
                                        r.lanes = lanes;
                                        r.max_kernels_per_task = kmax;
                                        SCOPED_TRACE(std::to_string(c) + "x" + std::to_string(hw) + " k" + std::to_string(k) +
                                                     " kh" + std::to_string(kh) + " s" + std::to_string(stride) +
                                                     (dw ? " dw" : "") + (d == NpuDomain::Int8 ? " int8" : " fp16") +
                                                     " lanes" + std::to_string(lanes) + " kmax" + std::to_string(kmax));
                                        check_plan(L, tiling_plan(L, r));
                                        ++plans;
                                    }
    std::printf("%zu plans checked\n", plans);
}

TEST(ConvTilingPlan, UntiledLayerKeepsTheVendorBankSplit) {
    // 384x10x10 fp16: 3 data banks, the other 9 for weights, one task (as every untiled vendor capture).
    const ConvTiling t = tiling_plan(layer(NpuDomain::Fp16, 384, 10, 10, 64, 3));
    EXPECT_EQ(t.data_banks, 3u);
    EXPECT_EQ(t.weight_banks, 9u);
    EXPECT_EQ(t.tasks, 1u);
    EXPECT_EQ(t.kernels_per_task, 0u);
}

TEST(ConvTilingPlan, DepthwiseChannelSlicesAsTheVendorCutsThem) {
    // The vendor's single-core depthwise task sets (../shared/captures/rk3588-vendor-conv, fp16): the most
    // 32-channel groups whose whole input fits 11 data banks per task, the rest in a last slice.
    struct Case {
        uint32_t c, hw;
        std::vector<uint32_t> slices;
        uint32_t data_banks;
    };
    const Case cases[] = {{576, 20, {448, 128}, 11}, {576, 19, {480, 96}, 11}, {256, 28, {224, 32}, 11},
                          {128, 56, {32, 32, 32, 32}, 7}, {144, 56, {32, 32, 32, 32, 16}, 7}};
    for (const Case& c : cases) {
        SCOPED_TRACE(std::to_string(c.c) + "x" + std::to_string(c.hw));
        const ConvLayer L = layer(NpuDomain::Fp16, c.c, c.hw, c.hw, 0, 3, 1, true);
        const ConvTiling t = tiling_plan(L);
        check_plan(L, t);
        std::vector<uint32_t> got;
        for (const ConvTile& x : npurun::npu::conv_tiles(L, t)) got.push_back(x.ca);
        EXPECT_EQ(got, c.slices);
        EXPECT_EQ(t.data_banks, c.data_banks);
    }
    // int8 groups are 64 channels (64 bytes): 40x30 planes of 1200 bytes, 256 of them take 10 banks (320
    // would take 12, none left for weights), so 512 channels go as two slices of 256.
    const ConvLayer L = layer(NpuDomain::Int8, 512, 30, 40, 0, 3, 1, true);
    const ConvTiling t = tiling_plan(L);
    check_plan(L, t);
    EXPECT_EQ(t.channels_per_task, 256u);
    EXPECT_EQ(t.tasks, 2u);
}

TEST(ConvTilingPlan, WeightsLargerThanTheirBanksAreStreamedNotKTiled) {
    // 3x3x512->512 int8 on 14x14: 100352 input bytes (4 banks), 2.36 MB of weights through 8 banks in one
    // task. The vendor does the same (1x1 1024->1024 fp16 on 7x7: 2 MiB of weights, CBUF 4/8, one task):
    // only one kernel has to fit, and K tiles would not fetch fewer bytes.
    const ConvTiling t = tiling_plan(layer(NpuDomain::Int8, 512, 14, 14, 512, 3));
    EXPECT_EQ(t.data_banks, 4u);
    EXPECT_EQ(t.weight_banks, 8u);
    EXPECT_EQ(t.tasks, 1u);
    EXPECT_FALSE(t.weight_reuse);  // streamed: nothing resident to reuse
}

TEST(ConvTilingPlan, MoreThan8192OutputChannelsAreKTiled) {
    // A FullyConnected 256 -> 9000 (1x1 over one pixel): the DPU cube channel field holds 8192 channels,
    // so two K tiles; the second finds the one-pixel input resident (DATA_REUSE).
    const ConvLayer L = layer(NpuDomain::Int8, 256, 1, 1, 9000, 1);
    const ConvTiling t = tiling_plan(L);
    EXPECT_EQ(t.kernels_per_task, 8192u);
    EXPECT_EQ(t.tasks, 2u);
    check_plan(L, t);
    const std::vector<ConvTile> tiles = npurun::npu::conv_tiles(L, t);
    EXPECT_EQ(tiles[1].k0, 8192u);
    EXPECT_EQ(tiles[1].kt, 808u);
    EXPECT_TRUE(tiles[1].data_reuse);
    // The registers of the second task: its weight slice, its channel planes, its operand stream entries.
    rc::RegcmdWriter w;
    npurun::npu::emit_conv_tasks(w, L, t, {0x100000u, 0x200000u, 0x400000u, 0x800000u});
    const rc::RegcmdBuffer b = w.finish(0x1000000u);
    const auto dec = rc::decode_stream(b.qwords, b.base_addr);
    ASSERT_EQ(dec.size(), 2u);
    EXPECT_EQ(dec[1].state.get(rc::f::CNA_WEIGHT_KERNELS), 808u);
    EXPECT_EQ(dec[1].state.get(rc::f::CNA_DATA_REUSE), 1u);
    EXPECT_EQ(dec[0].state.get(rc::f::CNA_DATA_REUSE), 0u);
    EXPECT_EQ(dec[1].state.get(rc::reg("CNA_DCOMP_ADDR0")), 0x400000u + 8192u * 256u);
    EXPECT_EQ(dec[1].state.get(rc::reg("DPU_DST_BASE_ADDR")), 0x200000u + 8192u / 16u * 16u);
    EXPECT_EQ(dec[1].state.get(rc::reg("DPU_RDMA_BS_BASE_ADDR")), 0x800000u + 8192u * 4u);
}

TEST(ConvTilingPlan, RowsAndKTilesPickTheCheaperOrder) {
    // 1x1 512->256 int8 on 32x32 (512 KiB input: rows must be split) with K tiles of 64 forced. K outer
    // would fetch the input 4 times; rows outer fetches it once and the weights once per row tile.
    const ConvLayer L = layer(NpuDomain::Int8, 512, 32, 32, 256, 1);
    TilingRequest r;
    r.max_kernels_per_task = 64;
    const ConvTiling t = tiling_plan(L, r);
    EXPECT_EQ(t.kernels_per_task, 64u);
    EXPECT_LT(t.rows_per_task, L.ho);
    EXPECT_TRUE(t.rows_outer);
    check_plan(L, t);
    size_t data_reuse = 0;
    for (const ConvTile& x : npurun::npu::conv_tiles(L, t)) data_reuse += x.data_reuse;
    EXPECT_EQ(data_reuse, size_t(3) * (t.tasks / 4));  // 3 of the 4 K tiles of each row band
    // Weights larger than the input (3x3 256->512 int8 on 64x32: 1.18 MB against 512 KiB) in K tiles of
    // 128 that fit 9 weight banks: K outer, each K tile's weights resident for its row tiles.
    const ConvLayer L2 = layer(NpuDomain::Int8, 256, 64, 32, 512, 3);
    r.max_kernels_per_task = 128;
    const ConvTiling t2 = tiling_plan(L2, r);
    EXPECT_FALSE(t2.rows_outer);
    EXPECT_TRUE(t2.weight_reuse);
    check_plan(L2, t2);
}

TEST(ConvTilingPlan, LanesSplitKForManyKernelsAndRowsForFew) {
    // 1x1 1024->1024 fp16 on 7x7 over 3 cores: by K (the vendor splits this shape 352+336+336).
    const ConvLayer L = layer(NpuDomain::Fp16, 1024, 7, 7, 1024, 1);
    TilingRequest r;
    r.lanes = 3;
    const ConvTiling t = tiling_plan(L, r);
    EXPECT_EQ(t.split, LaneSplit::Kernels);
    EXPECT_EQ(t.lanes, 3u);
    EXPECT_EQ(npurun::npu::lane_range(L, t, 0), std::make_pair(0u, 352u));
    EXPECT_EQ(npurun::npu::lane_range(L, t, 1), std::make_pair(352u, 336u));
    EXPECT_EQ(npurun::npu::lane_range(L, t, 2), std::make_pair(688u, 336u));
    check_plan(L, t);
    // 1280x10x10 -> 24 kernels over 3 cores: by rows (the vendor: 4 + 3 + 3 rows).
    const ConvLayer L2 = layer(NpuDomain::Fp16, 1280, 10, 10, 24, 1);
    const ConvTiling t2 = tiling_plan(L2, r);
    EXPECT_EQ(t2.split, LaneSplit::Rows);
    EXPECT_EQ(npurun::npu::lane_range(L2, t2, 0), std::make_pair(0u, 4u));
    EXPECT_EQ(npurun::npu::lane_range(L2, t2, 2), std::make_pair(7u, 3u));
    check_plan(L2, t2);
    // int8 lanes by K take whole 32-kernel groups: 1001 = 32 groups -> 352 + 352 + 297.
    const ConvLayer L4 = layer(NpuDomain::Int8, 64, 1, 1, 1001, 1);
    const ConvTiling t4 = tiling_plan(L4, r);
    EXPECT_EQ(npurun::npu::lane_range(L4, t4, 0), std::make_pair(0u, 352u));
    EXPECT_EQ(npurun::npu::lane_range(L4, t4, 2), std::make_pair(704u, 297u));
    check_plan(L4, t4);
    // One output row cannot be shared: one lane.
    const ConvLayer L3 = layer(NpuDomain::Int8, 64, 1, 1, 32, 1);
    r.lanes = 3;
    EXPECT_EQ(tiling_plan(L3, r).lanes, 1u);
}

TEST(ConvTilingPlan, LayersNoTilingFitsAreRefusedWithAReason) {
    ConvTiling t;
    std::string why;
    // One 5x5 kernel over 8192 fp16 channels is 409600 bytes, more than 11 banks (the placement checker
    // refuses the same layer: "one kernel does not fit the CBUF weight banks").
    EXPECT_FALSE(npurun::npu::plan_conv_tiling(layer(NpuDomain::Fp16, 8192, 8, 8, 16, 5), &t, &why));
    EXPECT_NE(why.find("exceeds 11 CBUF banks"), std::string::npos) << why;
    // Three input rows of 2000x64 int8 (384000 bytes) for one output row: more than the data banks left.
    why.clear();
    EXPECT_FALSE(npurun::npu::plan_conv_tiling(layer(NpuDomain::Int8, 64, 8, 2000, 16, 3), &t, &why));
    EXPECT_NE(why.find("CBUF data banks"), std::string::npos) << why;
}

// The DPU lookup table in the simulator (drv/sim/dpu_lut.h, L1-L8): hand-written fp16 DPU flying streams that
// load both tables and look up chosen values, against the interpolation computed here from the same tables;
// the table persisting across tasks and surviving the vendor's read-mode writes; the named refusals.
#include "drv/regcmd/fields.h"
#include "drv/sim/npu_simulator.h"
#include "tests/sim/npu_test_streams.h"
#include "tests/sim/run_lists.h"
#include "tests/sim/test_memory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

using namespace npudrv;
using namespace npudrv::sim;
using namespace npudrv::sim::test;
using namespace npudrv::regcmd::regs;
using npurun::fp16_to_fp32;
using npurun::fp32_to_fp16;
using regcmd::RegcmdWriter;

namespace {

constexpr uint32_t kLutRegcmd = 0x10000000, kLutIn = 0x20000000, kLutOut = 0x40000000;
constexpr uint32_t kN = regcmd::kDpuLutEntries;  // 513
constexpr uint32_t kC = 8, kH = 1, kW = 4;        // one fp16 atom plane: 32 values

struct Tables {
    std::array<int16_t, kN> le{}, lo{};
};

// LE and LO with different shapes, LE's last entry unlike LO's first (so that the hybrid priority shows).
Tables test_tables() {
    Tables t;
    for (uint32_t i = 0; i < kN; ++i) {
        t.le[i] = static_cast<int16_t>(3 * static_cast<int>(i) - 1000);
        t.lo[i] = static_cast<int16_t>(700 + static_cast<int>(i * i / 128));
    }
    return t;
}

struct LutSetup {
    bool load = true;             // write the tables in this task
    bool vendor_read_mode = false;  // then write ACCESS_CFG = 0 and ACCESS_DATA = 0 as vendor conv tasks do
    uint32_t extra_entries = 0;   // data writes past the LO table's last entry
    int32_t le_start = -2048, le_end = 0, lo_start = 0, lo_end = 2048;
    uint32_t index_select = 2;    // step 4: 512 steps = 2048
    uint32_t hybrid = 1, oflow = 1, uflow = 0, mux = 2, cal_sel = 0;
    uint32_t lo_oflow_scale = 3, lo_oflow_shift = 1;           // +1.5 per unit past LO_END
    uint32_t le_uflow_scale = static_cast<uint16_t>(-2), le_uflow_shift = 0;  // -2 per unit below LE_START
    uint32_t precision = 2;       // fp16
    int32_t out_offset = 0;       // int8: the output converter's offset
};

void write_lut_task(RegcmdWriter& w, const Tables& tb, const LutSetup& s) {
    w.begin_task(regcmd::TaskKind::DpuFlying);
    if (s.load) {
        for (uint32_t id = 0; id < 2; ++id) {
            w.write({DPU_LUT_ACCESS_CFG::LUT_ACCESS_TYPE(1), DPU_LUT_ACCESS_CFG::LUT_TABLE_ID(id), DPU_LUT_ACCESS_CFG::LUT_ADDR(0)});
            for (int16_t e : id ? tb.lo : tb.le) w.write({DPU_LUT_ACCESS_DATA::LUT_ACCESS_DATA(static_cast<uint16_t>(e))});
        }
        for (uint32_t i = 0; i < s.extra_entries; ++i) w.write({DPU_LUT_ACCESS_DATA::LUT_ACCESS_DATA(1)});
    }
    if (s.vendor_read_mode) {
        w.write(DPU_LUT_ACCESS_CFG{});
        w.write(DPU_LUT_ACCESS_DATA{});
    }
    const uint32_t p = s.precision;
    w.write({DPU_S_POINTER::POINTER_PP_MODE(1), DPU_S_POINTER::EXECUTER_PP_EN(1), DPU_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_FEATURE_MODE_CFG::BURST_LEN(15), DPU_FEATURE_MODE_CFG::OUTPUT_MODE(2), DPU_FEATURE_MODE_CFG::FLYING_MODE(1)});
    w.write({DPU_DATA_FORMAT::OUT_PRECISION(p), DPU_DATA_FORMAT::IN_PRECISION(p), DPU_DATA_FORMAT::PROC_PRECISION(p)});
    w.write({DPU_DST_BASE_ADDR::DST_BASE_ADDR(kLutOut)});
    w.write({DPU_DST_SURF_STRIDE::DST_SURF_STRIDE(kW * kH)});
    w.write({DPU_DATA_CUBE_WIDTH::WIDTH(kW - 1)});
    w.write({DPU_DATA_CUBE_HEIGHT::HEIGHT(kH - 1)});
    w.write({DPU_DATA_CUBE_CHANNEL::ORIG_CHANNEL(kC - 1), DPU_DATA_CUBE_CHANNEL::CHANNEL(kC - 1)});
    w.write({DPU_BS_CFG::BS_RELU_BYPASS(1), DPU_BS_CFG::BS_MUL_BYPASS(1), DPU_BS_CFG::BS_ALU_BYPASS(1), DPU_BS_CFG::BS_BYPASS(1)});
    w.write({DPU_BS_OW_CFG::OD_BYPASS(1)});
    w.write({DPU_BN_CFG::BN_RELU_BYPASS(1), DPU_BN_CFG::BN_MUL_BYPASS(1), DPU_BN_CFG::BN_ALU_BYPASS(1), DPU_BN_CFG::BN_BYPASS(1)});
    w.write({DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_OP_CVT_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(0),
             DPU_EW_CFG::EW_OP_BYPASS(1), DPU_EW_CFG::EW_BYPASS(0)});
    w.write({DPU_OUT_CVT_SCALE::FP32TOFP16_EN(p == 2 ? 1u : 0u), DPU_OUT_CVT_SCALE::OUT_CVT_SCALE(1)});
    w.write({DPU_OUT_CVT_OFFSET::OUT_CVT_OFFSET(static_cast<uint32_t>(s.out_offset))});
    w.write({DPU_LUT_CFG::LUT_CAL_SEL(s.cal_sel), DPU_LUT_CFG::LUT_HYBRID_PRIORITY(s.hybrid),
             DPU_LUT_CFG::LUT_OFLOW_PRIORITY(s.oflow), DPU_LUT_CFG::LUT_UFLOW_PRIORITY(s.uflow),
             DPU_LUT_CFG::LUT_LO_LE_MUX(s.mux)});
    w.write({DPU_LUT_INFO::LUT_LO_INDEX_SELECT(s.index_select), DPU_LUT_INFO::LUT_LE_INDEX_SELECT(s.index_select)});
    w.write({DPU_LUT_LE_START::LUT_LE_START(static_cast<uint32_t>(s.le_start))});
    w.write({DPU_LUT_LE_END::LUT_LE_END(static_cast<uint32_t>(s.le_end))});
    w.write({DPU_LUT_LO_START::LUT_LO_START(static_cast<uint32_t>(s.lo_start))});
    w.write({DPU_LUT_LO_END::LUT_LO_END(static_cast<uint32_t>(s.lo_end))});
    w.write({DPU_LUT_LE_SLOPE_SCALE::LUT_LE_SLOPE_UFLOW_SCALE(s.le_uflow_scale)});
    w.write({DPU_LUT_LE_SLOPE_SHIFT::LUT_LE_SLOPE_UFLOW_SHIFT(s.le_uflow_shift)});
    w.write({DPU_LUT_LO_SLOPE_SCALE::LUT_LO_SLOPE_OFLOW_SCALE(s.lo_oflow_scale)});
    w.write({DPU_LUT_LO_SLOPE_SHIFT::LUT_LO_SLOPE_OFLOW_SHIFT(s.lo_oflow_shift)});
    w.write({DPU_RDMA_S_POINTER::POINTER_PP_MODE(1), DPU_RDMA_S_POINTER::EXECUTER_PP_EN(1), DPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_RDMA_DATA_CUBE_WIDTH::WIDTH(kW - 1)});
    w.write({DPU_RDMA_DATA_CUBE_HEIGHT::HEIGHT(kH - 1)});
    w.write({DPU_RDMA_DATA_CUBE_CHANNEL::CHANNEL(kC - 1)});
    w.write({DPU_RDMA_SRC_BASE_ADDR::SRC_BASE_ADDR(kLutIn)});
    w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DISABLE(1)});
    w.write({DPU_RDMA_FEATURE_MODE_CFG::IN_PRECISION(p), DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN(15),
             DPU_RDMA_FEATURE_MODE_CFG::PROC_PRECISION(p), DPU_RDMA_FEATURE_MODE_CFG::MRDMA_FP16TOFP32_EN(p == 2 ? 1u : 0u),
             DPU_RDMA_FEATURE_MODE_CFG::FLYING_MODE(1)});
}

// The inputs: both tables' ends, points between entries, the meeting point 0, beyond both ends (all fp16-exact).
const std::vector<float> kInputs = {-2048.0f, -2046.0f, -2045.0f, -1.0f,    -0.5f,   0.0f,    0.5f,   5.5f,
                                    1000.0f,  2047.0f,  2048.0f,  2050.0f,  3000.0f, -2050.0f, -3000.0f, 1.0f,
                                    -1024.0f, 1024.0f,  -7.25f,   7.25f,    2044.0f, -4.0f,   4.0f,   -65504.0f,
                                    65504.0f, 100.0f,   -100.0f,  12.0f,    -12.0f,  640.0f,  -640.0f, 0.25f};

// L5/L6 written out for these ranges (step 4; LE [-2048, 0], LO [0, 2048]).
double expected(const Tables& tb, double v, bool hybrid_lo) {
    auto interp = [](const std::array<int16_t, kN>& e, double p) {
        const auto i = static_cast<uint32_t>(std::min(std::floor(p), 511.0));
        return e[i] + (p - i) * (e[i + 1] - e[i]);
    };
    if (v < -2048) return tb.le[0] + (v + 2048) * -2.0;
    if (v > 2048) return tb.lo[512] + (v - 2048) * 1.5;
    if (v == 0) return hybrid_lo ? tb.lo[0] : tb.le[512];
    return v < 0 ? interp(tb.le, (v + 2048) / 4) : interp(tb.lo, v / 4);
}

struct Ran {
    std::vector<HwResult> results;
    std::vector<float> out;
};

Ran run(NpuSimulator& sim, const std::vector<LutSetup>& tasks, const Tables& tb) {
    TestMemory mem;
    std::vector<int64_t> bits;
    for (float x : kInputs) bits.push_back(fp32_to_fp16(x));
    mem.add_copy(kLutIn, pack_feature(bits, kC, kH, kW, 2));
    auto& out = mem.add(kLutOut, size_t{kH} * kW * 16);
    RegcmdWriter w;
    for (const LutSetup& s : tasks) write_lut_task(w, tb, s);
    Ran r;
    r.results = run_all(sim, mem, w.finish(kLutRegcmd));
    for (int64_t v : unpack_feature(out.data(), kC, kH, kW, 2, size_t{kH} * kW * 16, false))
        r.out.push_back(fp16_to_fp32(static_cast<uint16_t>(v)));
    return r;
}

// unpack_feature is channel-major ([c][h][w]); pack_feature took kInputs in the same order.
void expect_lookups(const Ran& r, const Tables& tb, bool hybrid_lo) {
    ASSERT_EQ(r.out.size(), kInputs.size());
    for (size_t i = 0; i < kInputs.size(); ++i) {
        const float want = fp16_to_fp32(fp32_to_fp16(static_cast<float>(expected(tb, kInputs[i], hybrid_lo))));
        EXPECT_EQ(r.out[i], want) << "x = " << kInputs[i];
    }
}

}  // namespace

TEST(SimLut, LooksUpInterpolatesAndExtendsBothTables) {
    const Tables tb = test_tables();
    NpuSimulator sim;
    const Ran r = run(sim, {LutSetup{}}, tb);
    ASSERT_EQ(r.results[0].error, "");
    expect_lookups(r, tb, true);
    // A few by hand: LE[1] - (LE[1]-LE[0])/2 ... x = -2046 is halfway between LE[0] = -1000 and LE[1] = -997.
    EXPECT_EQ(r.out[1], -998.5f);
    EXPECT_EQ(r.out[5], 700.0f);                      // 0: LO[0] (hybrid priority LO)
    EXPECT_EQ(r.out[12], fp16_to_fp32(fp32_to_fp16(static_cast<float>(tb.lo[512] + 952 * 1.5))));  // overflow slope
    EXPECT_EQ(r.out[14], static_cast<float>(tb.le[0] + 952 * 2));  // underflow: -1000 + 1904
}

TEST(SimLut, HybridPriorityPicksTheTableAtTheMeetingPoint) {
    const Tables tb = test_tables();
    LutSetup s;
    s.hybrid = 0;
    NpuSimulator sim;
    const Ran r = run(sim, {s}, tb);
    ASSERT_EQ(r.results[0].error, "");
    expect_lookups(r, tb, false);
    EXPECT_EQ(r.out[5], static_cast<float>(tb.le[512]));  // 0: LE's last entry, 536
}

TEST(SimLut, TablesPersistAcrossTasksAndIgnoreReadModeWrites) {
    const Tables tb = test_tables();
    LutSetup reuse;
    reuse.load = false;
    reuse.vendor_read_mode = true;  // ACCESS_CFG = 0, ACCESS_DATA = 0: read mode, the tables unchanged
    NpuSimulator sim;
    const Ran r = run(sim, {LutSetup{}, reuse}, tb);
    ASSERT_EQ(r.results.size(), 2u);
    ASSERT_EQ(r.results[1].error, "");
    expect_lookups(r, tb, true);  // the second task's output
    // A fresh core has zero tables: every lookup inside them gives 0.
    NpuSimulator fresh;
    LutSetup no_load;
    no_load.load = false;
    const Ran z = run(fresh, {no_load}, tb);
    ASSERT_EQ(z.results[0].error, "");
    EXPECT_EQ(z.out[3], 0.0f);
}

TEST(SimLut, RefusesWhatItDoesNotModel) {
    const Tables tb = test_tables();
    auto error_of = [&](const LutSetup& s) {
        NpuSimulator sim;
        return run(sim, {s}, tb).results[0].error;
    };
    auto expect_error = [&](LutSetup s, const std::string& part) {
        const std::string e = error_of(s);
        EXPECT_NE(e.find(part), std::string::npos) << e;
    };
    LutSetup s;
    s.extra_entries = 1;
    expect_error(s, "invalid-combination: LUT_ACCESS_DATA write past entry 512 of the LO table");
    s = LutSetup{};
    s.precision = 0;  // index select 2 on an integer pipeline: the fraction's rounding is not known
    expect_error(s, "unmodelled-config: integer-pipeline LUT with an index select above 0");
    s.index_select = 0, s.le_start = -512, s.lo_end = 512;  // one entry per unit, but a slope
    expect_error(s, "unmodelled-config: integer-pipeline LUT with a non-zero slope");
    s = LutSetup{};
    s.mux = 1;
    expect_error(s, "LUT_LO_LE_MUX=1");
    s = LutSetup{};
    s.cal_sel = 1;
    expect_error(s, "CAL_SEL");
    s = LutSetup{};
    s.lo_end = 4096;  // 512 steps of 4 end at 2048
    expect_error(s, "LUT LO range [0, 4096] that is not 512 steps of 2^2");
    s = LutSetup{};
    s.le_start = 4096, s.le_end = 6144;  // LE above LO
    expect_error(s, "do not meet with LE below LO");
}

// Integer pipeline (int8 in and out), index select 0: every input code picks its own entry, beyond the tables
// the end entry; the output converter then adds its offset and saturates to int8.
TEST(SimLut, Int8IndexesOneEntryPerCodeAndTheConverterSaturates) {
    Tables tb;
    for (uint32_t i = 0; i < kN; ++i) {
        tb.le[i] = static_cast<int16_t>(static_cast<int>(i) - 600);      // LE[i] for code i - 512
        tb.lo[i] = static_cast<int16_t>(1000 - 3 * static_cast<int>(i));  // LO[i] for code i
    }
    LutSetup s;
    s.precision = 0, s.index_select = 0, s.le_start = -512, s.lo_end = 512;
    s.le_uflow_scale = s.lo_oflow_scale = s.lo_oflow_shift = 0;
    s.out_offset = 5;
    TestMemory mem;
    std::vector<int64_t> codes;
    for (uint32_t i = 0; i < kC * kH * kW; ++i) codes.push_back(static_cast<int64_t>(i * 8) - 128);  // -128..120
    codes[3] = 0, codes[4] = 127, codes[5] = -1;
    mem.add_copy(kLutIn, pack_feature(codes, kC, kH, kW, 1));
    auto& out = mem.add(kLutOut, size_t{kH} * kW * 16);
    RegcmdWriter w;
    write_lut_task(w, tb, s);
    NpuSimulator sim;
    ASSERT_EQ(run_all(sim, mem, w.finish(kLutRegcmd))[0].error, "");
    const auto got = unpack_feature(out.data(), kC, kH, kW, 1, size_t{kH} * kW * 16);
    for (size_t i = 0; i < codes.size(); ++i) {
        const int64_t q = codes[i];
        const int64_t e = q < 0 ? tb.le[static_cast<size_t>(q + 512)] : q == 0 ? tb.lo[0] : tb.lo[static_cast<size_t>(q)];
        EXPECT_EQ(got[i], std::clamp<int64_t>(e + 5, -128, 127)) << "code " << q;
    }
    EXPECT_EQ(got[3], 127);  // code 0: LO[0] = 1000, saturated
    EXPECT_EQ(got[5], -84);   // code -1: LE[511] = 511 - 600 = -89, + 5
    EXPECT_EQ(got[0], -128);  // code -128: LE[384] = -216, + 5, saturated
}

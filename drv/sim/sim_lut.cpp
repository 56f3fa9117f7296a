// The DPU lookup table: the access port and the lookup, as dpu_lut.h's assumptions L1-L8 state them.
#include "drv/sim/sim_internal.h"

#include <algorithm>
#include <cmath>

namespace npudrv::sim::detail {

namespace rc = npudrv::regcmd;
using LutCfg = rc::regs::DPU_LUT_CFG;
using LutInfo = rc::regs::DPU_LUT_INFO;

void lut_access_cfg(DpuLutMemory& m, uint32_t value) {
    using A = rc::regs::DPU_LUT_ACCESS_CFG;
    m.write_mode = A::LUT_ACCESS_TYPE.get(value) == 1;
    m.table = A::LUT_TABLE_ID.get(value);
    m.next = A::LUT_ADDR.get(value);
}

void lut_access_data(DpuLutMemory& m, uint32_t value) {
    if (!m.write_mode) return;  // L1: read mode (every vendor conv task writes 0 here)
    if (m.next >= rc::kDpuLutEntries) {
        throw SimError("invalid-combination", std::string("LUT_ACCESS_DATA write past entry ") +
                                                  std::to_string(rc::kDpuLutEntries - 1) + " of the " +
                                                  (m.table ? "LO" : "LE") + " table");
    }
    const auto v = static_cast<int16_t>(rc::regs::DPU_LUT_ACCESS_DATA::LUT_ACCESS_DATA.get(value));
    (m.table ? m.lo : m.le)[m.next++] = v;
}

namespace {

// One table's range and slopes, from the registers (L4, L6).
struct LutTable {
    const std::array<int16_t, rc::kDpuLutEntries>* entries = nullptr;
    double start = 0, end = 0, step = 1;
    double uflow_slope = 0, oflow_slope = 0;

    double lookup(double v) const {  // L5: v inside [start, end]
        const std::array<int16_t, rc::kDpuLutEntries>& e = *entries;
        const double p = (v - start) / step;
        const auto i = static_cast<uint32_t>(std::min(std::floor(p), double{rc::kDpuLutEntries - 2}));
        return e[i] + (p - i) * (e[i + 1] - e[i]);
    }
    // A zero slope holds the end entry, also for an infinite input (inf * 0 would be NaN).
    double below(double v) const { return (*entries)[0] + (uflow_slope == 0 ? 0.0 : (v - start) * uflow_slope); }
    double above(double v) const {
        return (*entries)[rc::kDpuLutEntries - 1] + (oflow_slope == 0 ? 0.0 : (v - end) * oflow_slope);
    }
};

double slope(uint32_t scale, uint32_t shift) { return std::ldexp(static_cast<int16_t>(scale), -static_cast<int>(shift)); }

LutTable decode_table(TaskExec& t, const char* name, const std::array<int16_t, rc::kDpuLutEntries>& entries,
                      uint32_t start_bits, uint32_t end_bits, uint32_t index_select, uint32_t slope_scale,
                      uint32_t slope_shift) {
    using Scale = rc::regs::DPU_LUT_LE_SLOPE_SCALE;  // LE and LO share the layout
    using Shift = rc::regs::DPU_LUT_LE_SLOPE_SHIFT;
    if (index_select > 30) t.unmodelled(std::string("LUT ") + name + " index select " + std::to_string(index_select));
    LutTable tb;
    tb.entries = &entries;
    tb.start = static_cast<int32_t>(start_bits);
    tb.end = static_cast<int32_t>(end_bits);
    tb.step = std::ldexp(1.0, static_cast<int>(index_select));
    if (tb.end != tb.start + (rc::kDpuLutEntries - 1) * tb.step) {
        t.unmodelled(std::string("LUT ") + name + " range [" + std::to_string(static_cast<int32_t>(start_bits)) + ", " +
                     std::to_string(static_cast<int32_t>(end_bits)) + "] that is not 512 steps of 2^" +
                     std::to_string(index_select));
    }
    tb.uflow_slope = slope(Scale::LUT_LE_SLOPE_UFLOW_SCALE.get(slope_scale), Shift::LUT_LE_SLOPE_UFLOW_SHIFT.get(slope_shift));
    tb.oflow_slope = slope(Scale::LUT_LE_SLOPE_OFLOW_SCALE.get(slope_scale), Shift::LUT_LE_SLOPE_OFLOW_SHIFT.get(slope_shift));
    return tb;
}

}  // namespace

void run_lut(TaskExec& t, Cube& x) {
    const uint32_t cfg = t.raw(rc::regs::DPU_LUT_CFG::offset), info = t.raw(rc::regs::DPU_LUT_INFO::offset);
    if (LutCfg::LUT_CAL_SEL.get(cfg) || LutCfg::LUT_EXPAND_EN.get(cfg) || LutCfg::LUT_ROAD_SEL.get(cfg)) {
        t.unmodelled("LUT_CFG CAL_SEL / EXPAND_EN / ROAD_SEL (only the linear tables of silu.py are modelled)");
    }
    t.require(LutCfg::LUT_LO_LE_MUX, {2}, "the one LUT mux setting known to run on hardware");
    const DpuLutMemory& m = t.lut();
    const LutTable le = decode_table(t, "LE", m.le, t.raw(rc::regs::DPU_LUT_LE_START::offset),
                                     t.raw(rc::regs::DPU_LUT_LE_END::offset), LutInfo::LUT_LE_INDEX_SELECT.get(info),
                                     t.raw(rc::regs::DPU_LUT_LE_SLOPE_SCALE::offset),
                                     t.raw(rc::regs::DPU_LUT_LE_SLOPE_SHIFT::offset));
    const LutTable lo = decode_table(t, "LO", m.lo, t.raw(rc::regs::DPU_LUT_LO_START::offset),
                                     t.raw(rc::regs::DPU_LUT_LO_END::offset), LutInfo::LUT_LO_INDEX_SELECT.get(info),
                                     t.raw(rc::regs::DPU_LUT_LO_SLOPE_SCALE::offset),
                                     t.raw(rc::regs::DPU_LUT_LO_SLOPE_SHIFT::offset));
    if (!(le.start <= lo.start && lo.start <= le.end && le.end <= lo.end)) {
        t.unmodelled("LUT tables that do not meet with LE below LO (LE_START <= LO_START <= LE_END <= LO_END)");
    }
    const LutTable& hybrid = LutCfg::LUT_HYBRID_PRIORITY.get(cfg) ? lo : le;
    const LutTable& uflow = LutCfg::LUT_UFLOW_PRIORITY.get(cfg) ? lo : le;
    const LutTable& oflow = LutCfg::LUT_OFLOW_PRIORITY.get(cfg) ? lo : le;
    // L6: below both tables, above both, inside both, or inside one.
    auto lut = [&](double v) {
        if (v < le.start) return uflow.below(v);
        if (v > lo.end) return oflow.above(v);
        if (v >= lo.start && v <= le.end) return hybrid.lookup(v);
        return v < lo.start ? le.lookup(v) : lo.lookup(v);
    };
    if (!x.is_float) {
        // L3: an integer value indexes with index select 0, one entry per input unit, so that no fraction
        // (whose fixed-point rounding is not known) and no slope arithmetic is involved: the result is an entry.
        if (le.step != 1 || lo.step != 1) t.unmodelled("integer-pipeline LUT with an index select above 0 (its fraction's rounding is not known)");
        if (le.uflow_slope != 0 || le.oflow_slope != 0 || lo.uflow_slope != 0 || lo.oflow_slope != 0)
            t.unmodelled("integer-pipeline LUT with a non-zero slope (its rounding is not known)");
        for (int64_t& v : x.i) v = static_cast<int64_t>(lut(static_cast<double>(v)));
        return;
    }
    for (float& f : x.f)
        if (!std::isnan(f)) f = static_cast<float>(lut(f));
}

}  // namespace npudrv::sim::detail

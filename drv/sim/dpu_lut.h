// The DPU lookup table (EW stage): what the simulator assumes about it. The register reference lists the
// table's size and index math as open (§12); the facts available are the TRM's register list and one stream
// that ran on an RK3588 (allbilly/rk3588 experimental/kernel_6_18/silu.py: an fp16 SiLU whose output, read
// back from the board, matched the function within 0.01). From that stream and NVDLA's SDP lookup table
// (reference §11), which the DPU's register set mirrors, the model is:
//   L1  Memory: two tables, LE and LO, of kDpuLutEntries signed 16-bit entries per core. They persist across
//       tasks like the register file. The vendor's conv tasks write LUT_ACCESS_CFG = 0 and LUT_ACCESS_DATA = 0
//       (read mode) in every task; a data write in read mode therefore changes nothing.
//   L2  Loading: LUT_ACCESS_CFG selects write mode, the table (LUT_TABLE_ID 0 LE, 1 LO) and the first entry;
//       each LUT_ACCESS_DATA write stores one entry and moves to the next. A write past the last entry is
//       refused (invalid-combination): nothing says where it would land.
//   L3  Place: the lookup is the last operation of the EW stage: after the EW operand's ALU / multiplier,
//       before the EW ReLU and ReLU-X. silu.py runs it with the operand bypassed, the only case known.
//       Integer pipelines: the integer value indexes the same way, modelled only with index select 0 (one
//       entry per input unit: no fraction) and zero slopes, whose rounding is not known; the entry is the
//       integer result, which the output converter then takes.
//   L4  Ranges: LUT_LE_START / END and LUT_LO_START / END are signed 32-bit numbers in the domain of the
//       value reaching the LUT (silu.py: LE -16384..0, LO 0..16384 with the input multiplied by 2824 first).
//       A table with index select s covers [START, START + 512 * 2^s] and END must say so; LE must lie below
//       LO and meet or overlap it (LE_START <= LO_START <= LE_END <= LO_END), the layout silu.py uses.
//   L5  Inside a table: p = (v - START) / 2^s, i = min(floor(p), 511), y = T[i] + (p - i) * (T[i+1] - T[i]),
//       in double precision, rounded once to fp32. The hardware's fraction is fixed point of unknown width; npurun's lowering scales its inputs
//       so that a 1/1024 difference in the index makes under 2.5e-4 of difference in the result.
//   L6  Selection: inside both tables HYBRID_PRIORITY picks (0 LE, 1 LO); below LE_START the table
//       UFLOW_PRIORITY picks extends its first entry with the underflow slope, above LO_END the table
//       OFLOW_PRIORITY picks extends its last entry with the overflow slope:
//       y = T[0] + (v - T_START) * UFLOW_SCALE / 2^UFLOW_SHIFT,  y = T[512] + (v - T_END) * OFLOW_SCALE / 2^OFLOW_SHIFT,
//       scales signed 16-bit (silu.py: LO overflow 16434 / 2^13, the slope of x in its output units).
//   L7  LUT_LO_LE_MUX = 2 (silu.py's value) is the only mux setting modelled; LUT_CAL_SEL, LUT_EXPAND_EN and
//       LUT_ROAD_SEL must be 0 (NVDLA's exponent-indexed mode and the rest are not known on this DPU).
//   L8  Result: the interpolated entry as a number (silu.py divides the fp16 it reads back by its entry
//       scale on the CPU). A NaN input stays NaN.
#pragma once

#include <array>
#include <cstdint>

#include "drv/regcmd/register_table.h"

namespace npudrv::sim {

struct DpuLutMemory {
    std::array<int16_t, regcmd::kDpuLutEntries> le{}, lo{};
    // The access port, as the last LUT_ACCESS_CFG write left it.
    bool write_mode = false;
    uint32_t table = 0;  // 0 LE, 1 LO
    uint32_t next = 0;   // the entry the next LUT_ACCESS_DATA write stores
};

}  // namespace npudrv::sim

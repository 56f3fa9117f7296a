// One DPU task in flying mode (op_en 0x18, reference §5): DPU_RDMA's MRDMA reads the main cube from memory,
// the DPU runs BS -> BN -> EW -> output converter, the write DMA stores the result. Element-wise ops and the
// Pad copy are built from this one register list, so that every DPU / DPU_RDMA register a previous task of
// the chain may have left behind (the register file persists across tasks) is written by every task.
#pragma once

#include <array>
#include <cstdint>

#include "core/refusal.h"
#include "drv/regcmd/regcmd_writer.h"
#include "runtime/npu/feature_layout.h"

namespace npurun::npu {

// A DPU lookup-table program (what the simulator assumes of the table: drv/sim/dpu_lut.h): the task loads
// both tables through the LUT access port, then sets ranges, index selects, priorities and slopes. The
// table memory outlives the task, but every LUT task loads its own, so that no task depends on which core
// ran what before it.
struct DpuLutProgram {
    std::array<int16_t, npudrv::regcmd::kDpuLutEntries> le{}, lo{};
    int32_t le_start = 0, le_end = 0, lo_start = 0, lo_end = 0;  // in the domain of the value reaching the LUT
    uint32_t le_index_select = 0, lo_index_select = 0;           // a table step is 2^index_select
    bool hybrid_lo = true, oflow_lo = true, uflow_lo = false;    // which table answers overlap / overflow / underflow
    // Beyond the tables: the end entry plus (v - end) * scale / 2^shift; 0 holds the end entry.
    int16_t uflow_scale = 0, oflow_scale = 0;
    uint32_t uflow_shift = 0, oflow_shift = 0;
};

struct DpuFlyingTask {
    bool int8 = true;            // int8 in / out (signed domain), else fp16 in / out with fp32 processing
    uint32_t c = 0, h = 0, w = 0;  // the task's cube (channels, rows, columns)

    // Main input (MRDMA) and output: NC1HWC2 with 16-byte atoms, rows of w atoms, the given plane pitches (in
    // atoms, >= h*w). A task that covers a band of rows of a larger map passes that map's plane pitch.
    uint32_t src = 0, src_plane = 0;
    uint32_t dst = 0, dst_plane = 0;

    // BS stage on the main input: x = (x + bs_add) * bs_mul (register operands). int8: bs_add int32, bs_mul a
    // signed 16-bit multiplier with shift 0. fp16: bs_add fp32 bits, bs_mul fp16 bits.
    bool bs_add_en = false, bs_mul_en = false;
    uint32_t bs_add = 0, bs_mul = 0;
    // Then the BS ReLU (max 0) and ReLU-X (min bs_relux_bits: int32, or fp32 bits), before the EW stage.
    bool bs_relu = false, bs_relux = false;
    uint32_t bs_relux_bits = 0;
    // BS_MUL_PRELU: the multiplier applies to negative values only (LeakyReLu), reference §4.6.
    bool bs_prelu = false;

    // EW stage: the second operand from memory (ERDMA), per pixel (a cube like the task's, plane pitch
    // ew_plane atoms) or per channel (one value per channel: a 1x1 NC1HWC2 map, i.e. c contiguous elements).
    enum class Operand { None, PerPixel, PerChannel };
    Operand operand = Operand::None;
    uint32_t ew_addr = 0, ew_plane = 0;
    uint32_t ew_algo = 2;       // EW_ALU_ALGO: 0 max, 1 min, 2 add, 3 div, 4 minus
    bool ew_mul = false;        // EW_OP_TYPE multiply instead of the ALU
    // int8 operand converter, add first (CVT_TYPE 1): e = (e + ew_cvt_offset) * ew_cvt_scale.
    int32_t ew_cvt_offset = 0;
    uint32_t ew_cvt_scale = 1;
    // EW ReLU and ReLU-X (upper clamp: int32 in the EW units, or fp32 bits).
    bool relu = false, relux = false;
    uint32_t relux_bits = 0;

    // EW lookup table (fp16 only, no EW operand): the value after BS / BN goes through it. Not owned.
    const DpuLutProgram* lut = nullptr;

    // int8 output converter, MUL first: y = round(x * out_scale / 2^out_shift) + out_offset.
    uint32_t out_scale = 1, out_shift = 0;
    int32_t out_offset = 0;
};

void emit_dpu_flying_task(npudrv::regcmd::RegcmdWriter& w, const DpuFlyingTask& t);

// A plain copy between two NC1HWC2 maps of c channels with the given plane pitches (atoms): no BS or EW stage,
// identity output converter. Copy-shaped layers (Pad, Gather, the row / column Slice) then set the cube and addresses per task.
inline DpuFlyingTask flying_copy_task(bool int8, uint32_t c, uint32_t src_plane, uint32_t dst_plane) {
    DpuFlyingTask t;
    t.int8 = int8;
    t.c = c;
    t.src_plane = src_plane;
    t.dst_plane = dst_plane;
    return t;
}

// Fills the rows of a map of `rows` rows of `w` atoms (c channels, plane pitch rows * w) at `map` whose first
// `have` rows hold what every row must: rows [0, k) copied to [k, 2k), k = have, 2 have, ... (the last copy
// shorter), ceil(log2(rows / have)) tasks, each a band contiguous in every channel plane and reading only what
// the tasks before it wrote. Returns the number of tasks.
uint32_t emit_row_doublings(npudrv::regcmd::RegcmdWriter& w, bool int8, uint32_t c, uint32_t rows, uint32_t width,
                            uint32_t have, uint32_t map);

// The input and output of a layer moved by raw copies (flying_copy_task: Gather, the row / column Slice): the same
// type and quantization (a copy cannot requantize), both NC1HWC2 feature maps, every dimension within the 13-bit
// cube fields. `op` names the layer in the reason.
Refusal raw_copy_maps(const TensorInfo& x, const TensorInfo& y, NpuDomain d, const char* op, FeatureGeometry* gx,
                      FeatureGeometry* gy);

// Layers lowered as one task per row (broadcast rows / columns, Pad) emit at most this many tasks (about
// 3 MiB of regcmd); beyond it they stay on the CPU with the count in the reason.
constexpr uint64_t kMaxFlyingTasksPerLayer = 8192;

// Output-converter (or EW-converter) scale and shift with scale / 2^shift ~ m, scale a 15-bit mantissa in
// [2^14, 2^15] as the OUT_CVT_SCALE field holds it (reference §4.5). False when m is not representable.
bool cvt_scale_shift(double m, uint32_t* scale, uint32_t* shift);

}  // namespace npurun::npu

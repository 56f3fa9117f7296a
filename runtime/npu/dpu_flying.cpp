#include "runtime/npu/dpu_flying.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/passes/npu_limits.h"

namespace npurun::npu {

// Register types and field handles generated from the register table: CNA_CONV_CON1::CONV_MODE(3).
using namespace npudrv::regcmd::regs;

namespace rc = npudrv::regcmd;

bool cvt_scale_shift(double m, uint32_t* scale, uint32_t* shift) {
    if (!(m > 0.0) || !std::isfinite(m)) return false;
    int sh = 0;
    while (m * std::ldexp(1.0, sh) < 16384.0 && sh < 62) ++sh;
    const double s = std::round(m * std::ldexp(1.0, sh));
    if (s > 32768.0 || sh >= 62) return false;
    *scale = static_cast<uint32_t>(s);
    *shift = static_cast<uint32_t>(sh);
    return true;
}

namespace {

// The two tables through the access port (write mode, table, first entry; then one data write per entry,
// the port moving to the next), then the LUT's configuration. Only LUT tasks write these registers: with
// EW_LUT_BYPASS set the table and its registers are not used, so what a LUT task leaves behind is harmless.
void emit_lut_load(rc::RegcmdWriter& w, const DpuLutProgram& p) {
    const std::array<int16_t, rc::kDpuLutEntries>* tables[2] = {&p.le, &p.lo};
    for (uint32_t id = 0; id < 2; ++id) {
        w.write({DPU_LUT_ACCESS_CFG::LUT_ACCESS_TYPE(1), DPU_LUT_ACCESS_CFG::LUT_TABLE_ID(id),
                 DPU_LUT_ACCESS_CFG::LUT_ADDR(0)});
        for (int16_t e : *tables[id]) {
            w.write({DPU_LUT_ACCESS_DATA::LUT_ACCESS_DATA(static_cast<uint16_t>(e))});
        }
    }
    w.write({DPU_LUT_CFG::LUT_HYBRID_PRIORITY(p.hybrid_lo ? 1u : 0u), DPU_LUT_CFG::LUT_OFLOW_PRIORITY(p.oflow_lo ? 1u : 0u),
             DPU_LUT_CFG::LUT_UFLOW_PRIORITY(p.uflow_lo ? 1u : 0u), DPU_LUT_CFG::LUT_LO_LE_MUX(2)});
    w.write({DPU_LUT_INFO::LUT_LO_INDEX_SELECT(p.lo_index_select), DPU_LUT_INFO::LUT_LE_INDEX_SELECT(p.le_index_select)});
    w.write({DPU_LUT_LE_START::LUT_LE_START(static_cast<uint32_t>(p.le_start))});
    w.write({DPU_LUT_LE_END::LUT_LE_END(static_cast<uint32_t>(p.le_end))});
    w.write({DPU_LUT_LO_START::LUT_LO_START(static_cast<uint32_t>(p.lo_start))});
    w.write({DPU_LUT_LO_END::LUT_LO_END(static_cast<uint32_t>(p.lo_end))});
    // The slope registers hold one pair per table; the table a priority names uses its own pair.
    const uint32_t us = static_cast<uint16_t>(p.uflow_scale), os = static_cast<uint16_t>(p.oflow_scale);
    w.write({DPU_LUT_LE_SLOPE_SCALE::LUT_LE_SLOPE_OFLOW_SCALE(p.oflow_lo ? 0u : os),
             DPU_LUT_LE_SLOPE_SCALE::LUT_LE_SLOPE_UFLOW_SCALE(p.uflow_lo ? 0u : us)});
    w.write({DPU_LUT_LE_SLOPE_SHIFT::LUT_LE_SLOPE_OFLOW_SHIFT(p.oflow_lo ? 0u : p.oflow_shift),
             DPU_LUT_LE_SLOPE_SHIFT::LUT_LE_SLOPE_UFLOW_SHIFT(p.uflow_lo ? 0u : p.uflow_shift)});
    w.write({DPU_LUT_LO_SLOPE_SCALE::LUT_LO_SLOPE_OFLOW_SCALE(p.oflow_lo ? os : 0u),
             DPU_LUT_LO_SLOPE_SCALE::LUT_LO_SLOPE_UFLOW_SCALE(p.uflow_lo ? us : 0u)});
    w.write({DPU_LUT_LO_SLOPE_SHIFT::LUT_LO_SLOPE_OFLOW_SHIFT(p.oflow_lo ? p.oflow_shift : 0u),
             DPU_LUT_LO_SLOPE_SHIFT::LUT_LO_SLOPE_UFLOW_SHIFT(p.uflow_lo ? p.uflow_shift : 0u)});
}

}  // namespace

void emit_dpu_flying_task(rc::RegcmdWriter& w, const DpuFlyingTask& t) {
    using Operand = DpuFlyingTask::Operand;
    const bool i8 = t.int8;
    const uint32_t prec = i8 ? 0 : 2;
    const uint32_t esize = i8 ? 1 : 2;  // EDATA_SIZE / ERDMA_DATA_SIZE: 8-bit / 16-bit operand elements
    const bool has_op = t.operand != Operand::None;
    const uint32_t data_mode = t.operand == Operand::PerChannel ? 0 : 1;

    w.begin_task(rc::TaskKind::DpuFlying);
    if (t.lut != nullptr) emit_lut_load(w, *t.lut);
    w.write({DPU_S_POINTER::POINTER_PP_MODE(1), DPU_S_POINTER::EXECUTER_PP_EN(1), DPU_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_RDMA_S_POINTER::POINTER_PP_MODE(1), DPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
             DPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_FEATURE_MODE_CFG::BURST_LEN(15), DPU_FEATURE_MODE_CFG::OUTPUT_MODE(2),
             DPU_FEATURE_MODE_CFG::FLYING_MODE(1)});
    w.write({DPU_DATA_FORMAT::OUT_PRECISION(prec), DPU_DATA_FORMAT::IN_PRECISION(prec),
             DPU_DATA_FORMAT::PROC_PRECISION(prec)});
    w.write(DPU_OFFSET_PEND{});
    w.write({DPU_DST_BASE_ADDR::DST_BASE_ADDR(t.dst)});
    w.write({DPU_DST_SURF_STRIDE::DST_SURF_STRIDE(t.dst_plane)});
    w.write({DPU_DATA_CUBE_WIDTH::WIDTH(t.w - 1)});
    w.write({DPU_DATA_CUBE_HEIGHT::HEIGHT(t.h - 1)});
    w.write(DPU_DATA_CUBE_NOTCH_ADDR{});
    w.write({DPU_DATA_CUBE_CHANNEL::ORIG_CHANNEL(t.c - 1), DPU_DATA_CUBE_CHANNEL::CHANNEL(t.c - 1)});

    // BS: register operands only (ALU add, then MUL with shift 0), then ReLU / ReLU-X.
    const bool bs = t.bs_add_en || t.bs_mul_en || t.bs_relu || t.bs_relux;
    w.write({DPU_BS_CFG::BS_ALU_ALGO(t.bs_add_en ? 2u : 0u), DPU_BS_CFG::BS_RELUX_EN(t.bs_relux ? 1u : 0u),
             DPU_BS_CFG::BS_RELU_BYPASS(t.bs_relu ? 0u : 1u), DPU_BS_CFG::BS_MUL_PRELU(t.bs_prelu ? 1u : 0u),
             DPU_BS_CFG::BS_MUL_BYPASS(t.bs_mul_en ? 0u : 1u), DPU_BS_CFG::BS_ALU_BYPASS(t.bs_add_en ? 0u : 1u),
             DPU_BS_CFG::BS_BYPASS(bs ? 0u : 1u)});
    w.write({DPU_BS_ALU_CFG::BS_ALU_OPERAND(t.bs_add_en ? t.bs_add : 0u)});
    w.write({DPU_BS_MUL_CFG::BS_MUL_OPERAND(t.bs_mul_en ? (t.bs_mul & DPU_BS_MUL_CFG::BS_MUL_OPERAND.max_value()) : 0u)});
    w.write({DPU_BS_RELUX_CMP_VALUE::BS_RELUX_CMP_DAT(t.bs_relux ? t.bs_relux_bits : 0u)});
    w.write({DPU_BS_OW_CFG::SIZE_E_2(1), DPU_BS_OW_CFG::SIZE_E_1(1), DPU_BS_OW_CFG::SIZE_E_0(1),
             DPU_BS_OW_CFG::OD_BYPASS(1)});
    w.write(DPU_BS_OW_OP{});
    w.write({DPU_WDMA_SIZE_0::CHANNEL_WDMA(t.c - 1)});
    w.write({DPU_WDMA_SIZE_1::HEIGHT_WDMA(t.h - 1), DPU_WDMA_SIZE_1::WIDTH_WDMA(t.w - 1)});
    w.write({DPU_BN_CFG::BN_RELU_BYPASS(1), DPU_BN_CFG::BN_MUL_BYPASS(1), DPU_BN_CFG::BN_ALU_BYPASS(1),
             DPU_BN_CFG::BN_BYPASS(1)});
    w.write(DPU_BN_ALU_CFG{});
    w.write(DPU_BN_MUL_CFG{});
    w.write({DPU_BN_RELUX_CMP_VALUE::BN_RELUX_CMP_DAT(0u)});

    // EW: the second operand through its converter (int8), then the ALU or the multiplier, ReLU, ReLU-X.
    if (t.lut != nullptr) {
        // The lookup alone: EW operand, its converter and the EW ReLU bypassed (silu.py's EW_CFG).
        w.write({DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_OP_CVT_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(0),
                 DPU_EW_CFG::EW_OP_BYPASS(1), DPU_EW_CFG::EW_BYPASS(0)});
    } else if (has_op) {
        w.write({DPU_EW_CFG::EW_CVT_TYPE(i8 ? 1u : 0u), DPU_EW_CFG::EW_DATA_MODE(data_mode),
                 DPU_EW_CFG::EDATA_SIZE(esize), DPU_EW_CFG::EW_ALU_ALGO(t.ew_mul ? 0u : t.ew_algo),
                 DPU_EW_CFG::EW_RELUX_EN(t.relux ? 1u : 0u), DPU_EW_CFG::EW_RELU_BYPASS(t.relu ? 0u : 1u),
                 DPU_EW_CFG::EW_OP_CVT_BYPASS(i8 ? 0u : 1u), DPU_EW_CFG::EW_LUT_BYPASS(1), DPU_EW_CFG::EW_OP_SRC(1),
                 DPU_EW_CFG::EW_OP_TYPE(t.ew_mul ? 1u : 0u)});
    } else {
        w.write({DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_OP_CVT_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(1),
                 DPU_EW_CFG::EW_OP_BYPASS(1), DPU_EW_CFG::EW_BYPASS(1)});
    }
    w.write({DPU_EW_CVT_OFFSET_VALUE::EW_OP_CVT_OFFSET(has_op && i8 ? static_cast<uint32_t>(t.ew_cvt_offset) : 0u)});
    w.write({DPU_EW_CVT_SCALE_VALUE::EW_OP_CVT_SCALE(has_op && i8 ? t.ew_cvt_scale : 1u)});
    w.write({DPU_EW_RELUX_CMP_VALUE::EW_RELUX_CMP_DAT(has_op && t.relux ? t.relux_bits : 0u)});
    w.write({DPU_OUT_CVT_OFFSET::OUT_CVT_OFFSET(i8 ? static_cast<uint32_t>(t.out_offset) : 0u)});
    w.write({DPU_OUT_CVT_SCALE::FP32TOFP16_EN(i8 ? 0u : 1u), DPU_OUT_CVT_SCALE::OUT_CVT_SCALE(i8 ? t.out_scale : 1u)});
    w.write({DPU_OUT_CVT_SHIFT::OUT_CVT_SHIFT(i8 ? t.out_shift : 0u)});
    // SURF_ADD = (SIZE_E + 1) * DST_SURF_STRIDE in every known stream (reference §4.2).
    w.write({DPU_SURFACE_ADD::SURF_ADD(2 * t.dst_plane)});

    w.write({DPU_RDMA_DATA_CUBE_WIDTH::WIDTH(t.w - 1)});
    w.write({DPU_RDMA_DATA_CUBE_HEIGHT::HEIGHT(t.h - 1)});
    w.write({DPU_RDMA_DATA_CUBE_CHANNEL::CHANNEL(t.c - 1)});
    w.write({DPU_RDMA_SRC_BASE_ADDR::SRC_BASE_ADDR(t.src)});
    w.write(DPU_RDMA_BRDMA_CFG{});
    w.write(DPU_RDMA_BS_BASE_ADDR{});
    w.write(DPU_RDMA_NRDMA_CFG{});
    w.write(DPU_RDMA_BN_BASE_ADDR{});
    if (has_op) {
        w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DATA_MODE(data_mode), DPU_RDMA_ERDMA_CFG::ERDMA_DATA_SIZE(esize)});
    } else {
        w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DISABLE(1)});
    }
    w.write({DPU_RDMA_EW_BASE_ADDR::EW_BASE_ADDR(has_op ? t.ew_addr : 0u)});
    // Per channel: the TRM's plane stride of 1 atom, i.e. C contiguous elements (a 1x1 NC1HWC2 map).
    const uint32_t ew_stride = t.operand == Operand::PerPixel ? t.ew_plane : t.operand == Operand::PerChannel ? 1u : 0u;
    w.write({DPU_RDMA_EW_SURF_STRIDE::EW_SURF_STRIDE(ew_stride)});
    w.write({DPU_RDMA_FEATURE_MODE_CFG::IN_PRECISION(prec), DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN(15),
             DPU_RDMA_FEATURE_MODE_CFG::PROC_PRECISION(prec),
             DPU_RDMA_FEATURE_MODE_CFG::MRDMA_FP16TOFP32_EN(i8 ? 0u : 1u), DPU_RDMA_FEATURE_MODE_CFG::FLYING_MODE(1)});
    w.write(DPU_RDMA_SRC_DMA_CFG{});
    // MRDMA plane pitch = w*h + SURF_NOTCH atoms ("from the end of the processed map to the end of the full map").
    w.write({DPU_RDMA_SURF_NOTCH::SURF_NOTCH_ADDR(t.src_plane - t.w * t.h)});
    w.write(DPU_RDMA_PAD_CFG{});
    w.write({DPU_RDMA_WEIGHT::E_WEIGHT(1), DPU_RDMA_WEIGHT::N_WEIGHT(1), DPU_RDMA_WEIGHT::B_WEIGHT(1),
             DPU_RDMA_WEIGHT::M_WEIGHT(1)});
    w.write(DPU_RDMA_EW_SURF_NOTCH{});
}

uint32_t emit_row_doublings(rc::RegcmdWriter& w, bool int8, uint32_t c, uint32_t rows, uint32_t width, uint32_t have,
                            uint32_t map) {
    const uint32_t plane = rows * width;
    DpuFlyingTask d = flying_copy_task(int8, c, plane, plane);
    d.w = width;
    uint32_t tasks = 0;
    for (; have < rows; have *= 2, ++tasks) {
        d.h = std::min(have, rows - have);
        d.src = map;
        d.dst = map + have * width * 16;
        emit_dpu_flying_task(w, d);
    }
    return tasks;
}

Refusal raw_copy_maps(const TensorInfo& x, const TensorInfo& y, NpuDomain d, const char* op, FeatureGeometry* gx,
                      FeatureGeometry* gy) {
    if (x.dtype != y.dtype || x.quant.scales != y.quant.scales || x.quant.offset != y.quant.offset)
        return Refusal::because(std::string(op) + " input and output quantization differ (the NPU copy is raw)");
    std::string why;
    if (!feature_geometry(x, d, gx, &why) || !feature_geometry(y, d, gy, &why)) return Refusal::because(why);
    for (const FeatureGeometry* g : {gx, gy})
        if (g->c > npu_limits::kCubeMaxDim || g->h > npu_limits::kCubeMaxDim || g->w > npu_limits::kCubeMaxDim)
            return Refusal::because("cube above " + std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    return {};
}

}  // namespace npurun::npu

#include "runtime/npu/conv_regcmd.h"

#include <algorithm>

#include "runtime/passes/npu_limits.h"
#include "runtime/npu/requant_per_channel.h"

namespace npurun::npu {

// Register types and field handles generated from the register table: CNA_CONV_CON1::CONV_MODE(3).
using namespace npudrv::regcmd::regs;

namespace rc = npudrv::regcmd;

namespace {

// Everything one task's registers are made of: the layer's constants and the tile's slice of it.
struct TaskRegs {
    uint32_t prec = 0;  // CNA/CORE/DPU precision code: 0 int8, 2 fp16
    bool i8 = true;
    uint32_t bpe = 1, conv_mode = 0;
    uint32_t m = 2;  // SURF_ADD multiple of every known stream (reference §4.2)
    uint32_t out_plane_atoms = 0;
    // The tile's channel slice (depthwise) or K slice: its planes, weights and operand-stream entries
    // start at these offsets. K tiles start on a weight group, so their weights are one contiguous
    // run of the packed layout (conv_layer.cpp), laid out as a layer of kt kernels.
    uint32_t ca = 0, kernels = 0, coa = 0, orig = 0, per_kernel = 0;
    uint32_t in_base = 0, out_base = 0, w_base = 0, bs_base = 0, bn_base = 0;
    uint32_t oy0 = 0, hot = 0;          // output rows [oy0, oy0 + hot)
    uint32_t pad_top = 0, iy0 = 0, ht = 0;  // the input rows the task reads
    uint32_t reuse = 0, dreuse = 0;     // CBUF_CON0 WEIGHT_REUSE / DATA_REUSE
};

TaskRegs task_regs(const ConvLayer& L, const ConvTile& tile, const ConvAddresses& a) {
    TaskRegs r;
    r.prec = L.domain == NpuDomain::Int8 ? 0 : 2;
    r.i8 = r.prec == 0;
    r.bpe = L.elem_bytes();
    r.conv_mode = L.depthwise ? 3 : 0;
    r.m = L.depthwise ? 4 : 2;
    r.out_plane_atoms = L.wo * L.ho;
    const uint32_t c2 = 16 / r.bpe, taps = L.kw * L.kh;
    const uint32_t bs_per = L.per_channel ? 6 : 4;
    r.ca = tile.ca;
    r.kernels = L.depthwise ? 1 : tile.kt;
    r.coa = (tile.kt + 15) / 16 * 16;
    r.orig = L.depthwise ? std::min(r.ca, L.c - tile.c0) : tile.kt;
    r.per_kernel = L.kw * L.kh * r.ca * r.bpe;
    const uint32_t ch0 = L.depthwise ? tile.c0 : tile.k0;  // first output channel
    r.in_base = a.input + tile.c0 / c2 * L.w * L.h * 16;
    r.out_base = a.output + ch0 / c2 * r.out_plane_atoms * 16;
    r.w_base = a.weights + (L.depthwise ? tile.c0 * taps * r.bpe : tile.k0 * r.per_kernel);
    r.bs_base = a.bs_stream + ch0 * bs_per;
    r.bn_base = L.bn_factor ? a.bs_stream + L.coa * bs_per + ch0 * 2 : 0;  // BN stream after the BS stream
    r.oy0 = tile.oy0, r.hot = tile.rows;
    const InputWindow win = input_window(L, r.oy0, r.hot);
    r.pad_top = win.pad_top, r.iy0 = win.iy0, r.ht = win.iy1 - win.iy0;
    r.reuse = tile.weight_reuse ? 1u : 0u, r.dreuse = tile.data_reuse ? 1u : 0u;
    return r;
}

// CNA: the convolution's input, weights and CBUF split (and the DPU/DPU_RDMA pointers, in the vendor's order).
void write_cna(rc::RegcmdWriter& w, const ConvLayer& L, const ConvTiling& t, const TaskRegs& r) {
    w.write({CNA_CBUF_CON0::WEIGHT_REUSE(r.reuse), CNA_CBUF_CON0::DATA_REUSE(r.dreuse),
             CNA_CBUF_CON0::WEIGHT_BANK(t.weight_banks), CNA_CBUF_CON0::DATA_BANK(t.data_banks)});
    w.write(CNA_DCOMP_REGNUM{});
    w.write(CNA_DCOMP_CTRL{});
    w.write({CNA_CONV_CON1::PROC_PRECISION(r.prec), CNA_CONV_CON1::IN_PRECISION(r.prec),
             CNA_CONV_CON1::CONV_MODE(r.conv_mode)});
    w.write({DPU_S_POINTER::POINTER_PP_MODE(1), DPU_S_POINTER::EXECUTER_PP_EN(1), DPU_S_POINTER::POINTER_PP_EN(1)});
    if (L.use_bs) w.write({DPU_RDMA_S_POINTER::POINTER_PP_MODE(1), DPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
                           DPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({CNA_CONV_CON1::PROC_PRECISION(r.prec), CNA_CONV_CON1::IN_PRECISION(r.prec),
             CNA_CONV_CON1::CONV_MODE(r.conv_mode)});
    // FEATURE_GRAINS: rows buffered before the conv starts; the vendor writes H + kh when the task's
    // input is resident (reference §4.2), capped by the field; for a dilated kernel, the rows its window covers.
    w.write({CNA_CONV_CON2::FEATURE_GRAINS(std::min(r.ht + L.span_h(), npu_limits::kMaxFeatureGrains))});
    // Dilation: the atrous fields hold dilation - 1 (0 = none; drv/sim/sim_conv.cpp states the assumption).
    w.write({CNA_CONV_CON3::ATROUS_Y_DILATION(L.dil_y - 1), CNA_CONV_CON3::ATROUS_X_DILATION(L.dil_x - 1),
             CNA_CONV_CON3::CONV_Y_STRIDE(L.sy), CNA_CONV_CON3::CONV_X_STRIDE(L.sx)});
    w.write({CNA_DATA_SIZE0::DATAIN_WIDTH(L.w), CNA_DATA_SIZE0::DATAIN_HEIGHT(r.ht)});
    // DATAIN_CHANNEL_REAL: every vendor fp16 capture writes the channel count of the last 64-channel
    // group minus one, (C - 1) % 64 (1024 -> 63, 480 -> 31, 72 -> 7, 40 -> 39), not C - 1; the
    // simulator gives it no function, so the vendor's value is used.
    w.write({CNA_DATA_SIZE1::DATAIN_CHANNEL_REAL((r.ca - 1) % 64), CNA_DATA_SIZE1::DATAIN_CHANNEL(r.ca)});
    w.write({CNA_DATA_SIZE2::DATAOUT_WIDTH(L.wo)});
    w.write({CNA_DATA_SIZE3::DATAOUT_ATOMICS(L.wo * r.hot)});
    w.write({CNA_WEIGHT_SIZE0::WEIGHT_BYTES(r.per_kernel * r.kernels)});
    w.write({CNA_WEIGHT_SIZE1::WEIGHT_BYTES_PER_KERNEL(r.per_kernel)});
    w.write({CNA_WEIGHT_SIZE2::WEIGHT_WIDTH(L.kw), CNA_WEIGHT_SIZE2::WEIGHT_HEIGHT(L.kh),
             CNA_WEIGHT_SIZE2::WEIGHT_KERNELS(r.kernels)});
    w.write({CNA_CBUF_CON0::WEIGHT_REUSE(r.reuse), CNA_CBUF_CON0::DATA_REUSE(r.dreuse),
             CNA_CBUF_CON0::WEIGHT_BANK(t.weight_banks), CNA_CBUF_CON0::DATA_BANK(t.data_banks)});
    w.write({CNA_CBUF_CON1::DATA_ENTRIES((L.w * r.ca * r.bpe + 63) / 64)});
    w.write({CNA_CVT_CON0::DATA_SIGN(1), CNA_CVT_CON0::CVT_TYPE(1), CNA_CVT_CON0::CVT_BYPASS(1)});
    w.write({CNA_CVT_CON1::CVT_SCALE0(1)});
    w.write({CNA_CVT_CON2::CVT_SCALE1(1)});
    w.write({CNA_CVT_CON3::CVT_SCALE2(1)});
    w.write({CNA_CVT_CON4::CVT_SCALE3(1)});
    w.write(CNA_FC_CON0{});
    w.write(CNA_FC_CON1{});
    w.write({CNA_PAD_CON0::PAD_LEFT(L.pad_left), CNA_PAD_CON0::PAD_TOP(r.pad_top)});
    w.write({CNA_FEATURE_DATA_ADDR::FEATURE_BASE_ADDR(r.in_base + r.iy0 * L.w * 16)});
    w.write(CNA_FC_CON2{});
    w.write({CNA_DMA_CON0::WEIGHT_BURST_LEN(15), CNA_DMA_CON0::DATA_BURST_LEN(15)});
    // Line stride covers a 4-line fetch group; SURF_STRIDE + LINE_STRIDE = one plane of the whole
    // tensor (W*H atoms, two's complement in 28 bits when H < 4; reference §6.1).
    w.write({CNA_DMA_CON1::LINE_STRIDE(4 * L.w)});
    w.write({CNA_DMA_CON2::SURF_STRIDE((L.w * L.h - 4 * L.w) & CNA_DMA_CON2::SURF_STRIDE.max_value())});
    w.write({CNA_FC_DATA_SIZE0::DMA_WIDTH(L.w), CNA_FC_DATA_SIZE0::DMA_HEIGHT(r.ht)});
    w.write({CNA_FC_DATA_SIZE1::DMA_CHANNEL(r.ca)});
    w.write(CNA_DCOMP_CTRL{});
    w.write(CNA_DCOMP_REGNUM{});
    w.write({CNA_DCOMP_ADDR0::DECOMPRESS_ADDR0(r.w_base)});
    w.write({CNA_CVT_CON5::PER_CHANNEL_CVT_EN(0u)});
    w.write({CNA_PAD_CON1::PAD_VALUE(r.i8 ? L.pad_value : 0u)});
}

// BN stage: bypassed, or (bn_factor) the channel's second multiplier factor from the NRDMA stream with the
// layer's shift, then the layer's ReLU / ReLU-X in the units OUT_CVT reads.
void write_bn(rc::RegcmdWriter& w, const ConvLayer& L) {
    if (!L.bn_factor) {
        w.write({DPU_BN_CFG::BN_RELU_BYPASS(1), DPU_BN_CFG::BN_MUL_BYPASS(1), DPU_BN_CFG::BN_ALU_BYPASS(1),
                 DPU_BN_CFG::BN_BYPASS(1)});
        w.write(DPU_BN_ALU_CFG{});
        w.write(DPU_BN_MUL_CFG{});
        w.write({DPU_BN_RELUX_CMP_VALUE::BN_RELUX_CMP_DAT(0u)});
        return;
    }
    w.write({DPU_BN_CFG::BN_RELUX_EN(L.relux ? 1u : 0u), DPU_BN_CFG::BN_RELU_BYPASS(L.relu ? 0u : 1u),
             DPU_BN_CFG::BN_ALU_BYPASS(1)});
    w.write(DPU_BN_ALU_CFG{});
    w.write({DPU_BN_MUL_CFG::BN_MUL_SHIFT_VALUE(L.bn_mul_shift), DPU_BN_MUL_CFG::BN_MUL_SRC(1)});
    w.write({DPU_BN_RELUX_CMP_VALUE::BN_RELUX_CMP_DAT(L.relux ? L.relux_bits : 0u)});
}

// CORE and DPU: accumulation, BS (bias, per-channel multiplier, ReLU / ReLU-X), output converter, write DMA.
void write_core_dpu(rc::RegcmdWriter& w, const ConvLayer& L, const TaskRegs& r) {
    w.write({CORE_MISC_CFG::PROC_PRECISION(r.prec), CORE_MISC_CFG::DW_EN(L.depthwise ? 1u : 0u),
             CORE_MISC_CFG::QD_EN(r.i8 ? 1u : 0u)});
    w.write({CORE_DATAOUT_SIZE_0::DATAOUT_HEIGHT(r.hot - 1), CORE_DATAOUT_SIZE_0::DATAOUT_WIDTH(L.wo - 1)});
    w.write({CORE_DATAOUT_SIZE_1::DATAOUT_CHANNEL(r.coa - 1)});
    w.write(CORE_CLIP_TRUNCATE{});
    w.write({CORE_3030::VALUE(0u)});
    w.write({DPU_FEATURE_MODE_CFG::BURST_LEN(15), DPU_FEATURE_MODE_CFG::CONV_MODE(r.conv_mode),
             DPU_FEATURE_MODE_CFG::OUTPUT_MODE(2)});
    w.write({DPU_DATA_FORMAT::OUT_PRECISION(r.prec), DPU_DATA_FORMAT::IN_PRECISION(r.prec),
             DPU_DATA_FORMAT::PROC_PRECISION(r.prec)});
    w.write(DPU_OFFSET_PEND{});
    w.write({DPU_DST_BASE_ADDR::DST_BASE_ADDR(r.out_base + r.oy0 * L.wo * 16)});
    w.write({DPU_DST_SURF_STRIDE::DST_SURF_STRIDE(r.out_plane_atoms)});
    w.write({DPU_DATA_CUBE_WIDTH::WIDTH(L.wo - 1)});
    w.write({DPU_DATA_CUBE_HEIGHT::HEIGHT(r.hot - 1)});
    w.write(DPU_DATA_CUBE_NOTCH_ADDR{});
    w.write({DPU_DATA_CUBE_CHANNEL::ORIG_CHANNEL(r.orig - 1), DPU_DATA_CUBE_CHANNEL::CHANNEL(r.coa - 1)});
    if (L.use_bs) {
        const bool relu_here = !L.bn_factor;  // else ReLU / ReLU-X run in BN, after the channel's second factor
        w.write({DPU_BS_CFG::BS_ALU_ALGO(2), DPU_BS_CFG::BS_ALU_SRC(1), DPU_BS_CFG::BS_RELUX_EN(relu_here && L.relux ? 1u : 0u),
                 DPU_BS_CFG::BS_RELU_BYPASS(relu_here && L.relu ? 0u : 1u), DPU_BS_CFG::BS_MUL_BYPASS(L.per_channel ? 0u : 1u)});
    } else {
        w.write({DPU_BS_CFG::BS_RELU_BYPASS(1), DPU_BS_CFG::BS_MUL_BYPASS(1), DPU_BS_CFG::BS_ALU_BYPASS(1),
                 DPU_BS_CFG::BS_BYPASS(1)});
    }
    w.write(DPU_BS_ALU_CFG{});
    if (L.per_channel) {
        w.write({DPU_BS_MUL_CFG::BS_MUL_SHIFT_VALUE(L.bs_mul_shift), DPU_BS_MUL_CFG::BS_MUL_SRC(1)});
    } else {
        w.write(DPU_BS_MUL_CFG{});
    }
    w.write({DPU_BS_RELUX_CMP_VALUE::BS_RELUX_CMP_DAT(L.relux && !L.bn_factor ? L.relux_bits : 0u)});
    w.write({DPU_BS_OW_CFG::SIZE_E_2(r.m - 1), DPU_BS_OW_CFG::SIZE_E_1(r.m - 1), DPU_BS_OW_CFG::SIZE_E_0(r.m - 1),
             DPU_BS_OW_CFG::OD_BYPASS(L.ow_op == 0 ? 1u : 0u)});
    w.write({DPU_BS_OW_OP::OW_OP(static_cast<uint32_t>(L.ow_op) & DPU_BS_OW_OP::OW_OP.max_value())});
    w.write({DPU_WDMA_SIZE_0::CHANNEL_WDMA(r.coa - 1)});
    w.write({DPU_WDMA_SIZE_1::HEIGHT_WDMA(r.hot - 1), DPU_WDMA_SIZE_1::WIDTH_WDMA(L.wo - 1)});
    write_bn(w, L);
    w.write({DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_OP_CVT_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(1),
             DPU_EW_CFG::EW_OP_BYPASS(1), DPU_EW_CFG::EW_BYPASS(1)});
    w.write({DPU_EW_CVT_OFFSET_VALUE::EW_OP_CVT_OFFSET(0u)});
    w.write({DPU_EW_CVT_SCALE_VALUE::EW_OP_CVT_SCALE(1)});
    w.write({DPU_EW_RELUX_CMP_VALUE::EW_RELUX_CMP_DAT(0u)});
    w.write({DPU_OUT_CVT_OFFSET::OUT_CVT_OFFSET(r.i8 ? static_cast<uint32_t>(L.out_offset) : 0u)});
    w.write({DPU_OUT_CVT_SCALE::FP32TOFP16_EN(r.i8 ? 0u : 1u),
             DPU_OUT_CVT_SCALE::OUT_CVT_SCALE(r.i8 ? L.out_scale : 1u)});
    w.write({DPU_OUT_CVT_SHIFT::OUT_CVT_SHIFT(r.i8 ? L.out_shift : 0u)});
    w.write({DPU_SURFACE_ADD::SURF_ADD(r.m * r.out_plane_atoms)});
    w.write({DPU_40C4::VALUE(0u)});
}

// DPU_RDMA: the BS operand stream (BRDMA); main and EW reads off.
void write_dpu_rdma(rc::RegcmdWriter& w, const ConvLayer& L, const TaskRegs& r) {
    w.write({DPU_RDMA_DATA_CUBE_WIDTH::WIDTH(L.wo - 1)});
    w.write({DPU_RDMA_DATA_CUBE_HEIGHT::HEIGHT(r.hot - 1)});
    w.write({DPU_RDMA_DATA_CUBE_CHANNEL::CHANNEL(r.coa - 1)});
    w.write(DPU_RDMA_SRC_BASE_ADDR{});
    w.write({DPU_RDMA_BRDMA_CFG::BRDMA_DATA_USE(L.bs_data_use)});
    w.write({DPU_RDMA_BS_BASE_ADDR::BS_BASE_ADDR(r.bs_base)});
    w.write({DPU_RDMA_NRDMA_CFG::NRDMA_DATA_USE(L.bn_factor ? kNrdmaMulOnly : 0u)});
    w.write({DPU_RDMA_BN_BASE_ADDR::BN_BASE_ADDR(r.bn_base)});
    w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DISABLE(1)});
    w.write(DPU_RDMA_EW_BASE_ADDR{});
    w.write(DPU_RDMA_EW_SURF_STRIDE{});
    w.write({DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN(15), DPU_RDMA_FEATURE_MODE_CFG::MRDMA_DISABLE(1),
             DPU_RDMA_FEATURE_MODE_CFG::CONV_MODE(r.conv_mode)});
    w.write(DPU_RDMA_SRC_DMA_CFG{});
    w.write(DPU_RDMA_SURF_NOTCH{});
    w.write(DPU_RDMA_PAD_CFG{});
    w.write({DPU_RDMA_WEIGHT::E_WEIGHT(1), DPU_RDMA_WEIGHT::N_WEIGHT(1), DPU_RDMA_WEIGHT::B_WEIGHT(1),
             DPU_RDMA_WEIGHT::M_WEIGHT(1)});
    w.write(DPU_RDMA_EW_SURF_NOTCH{});
}

}  // namespace

uint32_t emit_conv_tasks(rc::RegcmdWriter& w, const ConvLayer& L, const ConvTiling& t, const ConvAddresses& a, int lane) {
    const rc::TaskKind kind = L.use_bs ? rc::TaskKind::ConvWithDpuRdma : rc::TaskKind::Conv;
    uint32_t emitted = 0;
    for (const ConvTile& tile : conv_tiles(L, t)) {
        if (lane >= 0 && tile.lane != static_cast<uint32_t>(lane)) continue;
        const TaskRegs r = task_regs(L, tile, a);
        w.begin_task(kind);
        write_cna(w, L, t, r);
        write_core_dpu(w, L, r);
        if (L.use_bs) write_dpu_rdma(w, L, r);
        ++emitted;
    }
    return emitted;
}

}  // namespace npurun::npu

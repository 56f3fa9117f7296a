// Test-side NPU data layouts (NC1HWC2, weight groups, reference §6) and hand-written register streams
// built through the RegcmdWriter, in the register order of the vendor / Mesa lists (reference §4.1).
#pragma once

#include "drv/regcmd/regcmd_writer.h"
#include "core/fp16.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace npudrv::sim::test {

using namespace npudrv::regcmd::regs;  // register types and field handles: CNA_CONV_CON1::CONV_MODE(3)

// ---- layouts --------------------------------------------------------------------------------------
// Feature cube [c][h][w] -> NC1HWC2 bytes: 16-byte atoms, C2 = 16/bytes, row pitch w*16, plane h*w*16.
inline std::vector<uint8_t> pack_feature(const std::vector<int64_t>& v, int c, int h, int w, int bytes) {
    const int c2 = 16 / bytes, planes = (c + c2 - 1) / c2;
    std::vector<uint8_t> out(size_t(planes) * h * w * 16, 0);
    for (int ch = 0; ch < c; ++ch)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int64_t e = v[(size_t(ch) * h + y) * w + x];
                std::memcpy(&out[(size_t(ch / c2) * h * w + size_t(y) * w + x) * 16 + size_t(ch % c2) * bytes], &e, bytes);
            }
    return out;
}
inline std::vector<int64_t> unpack_feature(const uint8_t* p, int c, int h, int w, int bytes, size_t plane_pitch, bool is_signed = true) {
    const int c2 = 16 / bytes;
    std::vector<int64_t> out(size_t(c) * h * w);
    for (int ch = 0; ch < c; ++ch)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const uint8_t* q = p + size_t(ch / c2) * plane_pitch + (size_t(y) * w + x) * 16 + size_t(ch % c2) * bytes;
                int64_t v = 0;
                if (bytes == 1) v = is_signed ? int8_t(q[0]) : q[0];
                if (bytes == 2) { uint16_t u; std::memcpy(&u, q, 2); v = u; }
                out[(size_t(ch) * h + y) * w + x] = v;
            }
    return out;
}
inline std::vector<int64_t> fp16_bits(const std::vector<float>& f) {
    std::vector<int64_t> out;
    for (float x : f) out.push_back(npurun::fp32_to_fp16(x));
    return out;
}

// Weights [k][c][kh][kw] -> [k/KG][c/32][ky][kx][k%KG][c%32] (KG = 32 int8, 16 fp16); last groups dense.
inline std::vector<uint8_t> pack_weights(const std::vector<int64_t>& wt, int K, int C, int kh, int kw, int bytes) {
    const int kg = bytes == 1 ? 32 : 16;
    std::vector<uint8_t> out;
    for (int k0 = 0; k0 < K; k0 += kg)
        for (int c0 = 0; c0 < C; c0 += 32)
            for (int ky = 0; ky < kh; ++ky)
                for (int kx = 0; kx < kw; ++kx)
                    for (int k = k0; k < std::min(K, k0 + kg); ++k)
                        for (int c = c0; c < std::min(C, c0 + 32); ++c) {
                            const int64_t e = wt[((size_t(k) * C + c) * kh + ky) * kw + kx];
                            const size_t at = out.size();
                            out.resize(at + size_t(bytes));
                            std::memcpy(&out[at], &e, size_t(bytes));
                        }
    return out;
}
// Depthwise weights [c][kh][kw] -> [c/G][ky][kx][c%G], G = 64 bytes of channels.
inline std::vector<uint8_t> pack_dw_weights(const std::vector<int64_t>& wt, int C, int kh, int kw, int bytes) {
    const int g = 64 / bytes;
    std::vector<uint8_t> out;
    for (int c0 = 0; c0 < C; c0 += g)
        for (int ky = 0; ky < kh; ++ky)
            for (int kx = 0; kx < kw; ++kx)
                for (int c = c0; c < std::min(C, c0 + g); ++c) {
                    const int64_t e = wt[(size_t(c) * kh + ky) * kw + kx];
                    const size_t at = out.size();
                    out.resize(at + size_t(bytes));
                    std::memcpy(&out[at], &e, size_t(bytes));
                }
    return out;
}

// ---- streams ----------------------------------------------------------------------------------------
struct ConvTaskSpec {
    uint32_t precision = 0;  // 0 int8, 2 fp16
    uint32_t c = 16, h = 4, w = 4, k = 16, kh = 1, kw = 1, stride = 1, pad_left = 0, pad_top = 0;
    uint32_t dilation = 1;  // both axes; CONV_CON3 atrous fields hold dilation - 1
    uint32_t ho = 4, wo = 4;
    bool depthwise = false;
    uint32_t in_addr = 0, weight_addr = 0, out_addr = 0, bias_addr = 0;  // bias_addr 0: no bias
    uint32_t out_precision = 0;
    uint32_t out_scale = 1, out_shift = 0;
    int32_t out_offset = 0;
    bool relu = false;
    uint32_t data_banks = 4, weight_banks = 8;
    bool weight_reuse = false;
    uint32_t full_h = 0;       // input tensor height when the task covers a band of rows (0: = h)
    uint32_t out_full_h = 0;   // output tensor height (0: = ho); sets the output plane stride
};

inline void write_conv_task(regcmd::RegcmdWriter& w, const ConvTaskSpec& s) {
    using regcmd::TaskKind;
    const uint32_t bpe = s.precision == 0 ? 1 : 2;
    const uint32_t obpe = s.out_precision == 0 ? 1 : s.out_precision == 2 ? 2 : 4;
    const uint32_t co = s.depthwise ? s.c : s.k;
    const bool bias = s.bias_addr != 0;
    w.begin_task(bias ? TaskKind::ConvWithDpuRdma : TaskKind::Conv);
    w.write({CNA_CBUF_CON0::WEIGHT_REUSE(s.weight_reuse), CNA_CBUF_CON0::WEIGHT_BANK(s.weight_banks),
             CNA_CBUF_CON0::DATA_BANK(s.data_banks)});
    w.write(CNA_DCOMP_REGNUM{});
    w.write(CNA_DCOMP_CTRL{});
    w.write({CNA_CONV_CON1::PROC_PRECISION(s.precision), CNA_CONV_CON1::IN_PRECISION(s.precision),
             CNA_CONV_CON1::CONV_MODE(s.depthwise ? 3u : 0u)});
    w.write({DPU_S_POINTER::POINTER_PP_MODE(1), DPU_S_POINTER::EXECUTER_PP_EN(1), DPU_S_POINTER::POINTER_PP_EN(1)});
    if (bias) w.write({DPU_RDMA_S_POINTER::POINTER_PP_MODE(1), DPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
                       DPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({CNA_CONV_CON2::FEATURE_GRAINS(s.h + (s.kh - 1) * s.dilation + 1)});
    w.write({CNA_CONV_CON3::ATROUS_Y_DILATION(s.dilation - 1), CNA_CONV_CON3::ATROUS_X_DILATION(s.dilation - 1),
             CNA_CONV_CON3::CONV_Y_STRIDE(s.stride), CNA_CONV_CON3::CONV_X_STRIDE(s.stride)});
    w.write({CNA_DATA_SIZE0::DATAIN_WIDTH(s.w), CNA_DATA_SIZE0::DATAIN_HEIGHT(s.h)});
    w.write({CNA_DATA_SIZE1::DATAIN_CHANNEL_REAL(s.c - 1), CNA_DATA_SIZE1::DATAIN_CHANNEL(s.c)});
    w.write({CNA_DATA_SIZE2::DATAOUT_WIDTH(s.wo)});
    w.write({CNA_DATA_SIZE3::DATAOUT_ATOMICS(s.wo * s.ho)});
    const uint32_t per_kernel = s.kw * s.kh * s.c * bpe;
    w.write({CNA_WEIGHT_SIZE0::WEIGHT_BYTES(per_kernel * (s.depthwise ? 1 : s.k))});
    w.write({CNA_WEIGHT_SIZE1::WEIGHT_BYTES_PER_KERNEL(per_kernel)});
    w.write({CNA_WEIGHT_SIZE2::WEIGHT_WIDTH(s.kw), CNA_WEIGHT_SIZE2::WEIGHT_HEIGHT(s.kh),
             CNA_WEIGHT_SIZE2::WEIGHT_KERNELS(s.depthwise ? 1 : s.k)});
    w.write({CNA_CBUF_CON1::DATA_ENTRIES((s.w * s.c * bpe + 63) / 64)});
    w.write({CNA_CVT_CON0::DATA_SIGN(1), CNA_CVT_CON0::CVT_TYPE(1), CNA_CVT_CON0::CVT_BYPASS(1)});
    w.write({CNA_PAD_CON0::PAD_LEFT(s.pad_left), CNA_PAD_CON0::PAD_TOP(s.pad_top)});
    w.write({CNA_FEATURE_DATA_ADDR::FEATURE_BASE_ADDR(s.in_addr)});
    w.write({CNA_DMA_CON0::WEIGHT_BURST_LEN(15), CNA_DMA_CON0::DATA_BURST_LEN(15)});
    w.write({CNA_DMA_CON1::LINE_STRIDE(4 * s.w)});
    const uint32_t full_h = s.full_h ? s.full_h : s.h;
    w.write({CNA_DMA_CON2::SURF_STRIDE((s.w * (full_h - 4)) & 0x0FFFFFFFu)});  // W*(H-4) of the tensor, two's complement
    w.write({CNA_FC_DATA_SIZE0::DMA_WIDTH(s.w), CNA_FC_DATA_SIZE0::DMA_HEIGHT(s.h)});
    w.write({CNA_FC_DATA_SIZE1::DMA_CHANNEL(s.c)});
    w.write({CNA_DCOMP_ADDR0::DECOMPRESS_ADDR0(s.weight_addr)});
    w.write(CNA_PAD_CON1{});
    w.write({CORE_MISC_CFG::PROC_PRECISION(s.precision), CORE_MISC_CFG::DW_EN(s.depthwise),
             CORE_MISC_CFG::QD_EN(s.precision == 0)});
    w.write({CORE_DATAOUT_SIZE_0::DATAOUT_HEIGHT(s.ho - 1), CORE_DATAOUT_SIZE_0::DATAOUT_WIDTH(s.wo - 1)});
    w.write({CORE_DATAOUT_SIZE_1::DATAOUT_CHANNEL(co - 1)});
    w.write(CORE_CLIP_TRUNCATE{});
    w.write({CORE_3030::VALUE(0u)});
    w.write({DPU_FEATURE_MODE_CFG::BURST_LEN(15), DPU_FEATURE_MODE_CFG::CONV_MODE(s.depthwise ? 3u : 0u),
             DPU_FEATURE_MODE_CFG::OUTPUT_MODE(2)});
    w.write({DPU_DATA_FORMAT::OUT_PRECISION(s.out_precision), DPU_DATA_FORMAT::IN_PRECISION(s.precision),
             DPU_DATA_FORMAT::PROC_PRECISION(s.precision)});
    w.write({DPU_DST_BASE_ADDR::DST_BASE_ADDR(s.out_addr)});
    const uint32_t plane_atoms = s.wo * (s.out_full_h ? s.out_full_h : s.ho);
    w.write({DPU_DST_SURF_STRIDE::DST_SURF_STRIDE(plane_atoms)});
    w.write({DPU_DATA_CUBE_WIDTH::WIDTH(s.wo - 1)});
    w.write({DPU_DATA_CUBE_HEIGHT::HEIGHT(s.ho - 1)});
    w.write(DPU_DATA_CUBE_NOTCH_ADDR{});
    w.write({DPU_DATA_CUBE_CHANNEL::ORIG_CHANNEL(co - 1), DPU_DATA_CUBE_CHANNEL::CHANNEL(co - 1)});
    if (bias) {
        w.write({DPU_BS_CFG::BS_ALU_ALGO(2), DPU_BS_CFG::BS_ALU_SRC(1), DPU_BS_CFG::BS_RELU_BYPASS(s.relu ? 0u : 1u),
                 DPU_BS_CFG::BS_MUL_BYPASS(1)});
    } else {
        w.write({DPU_BS_CFG::BS_RELU_BYPASS(1), DPU_BS_CFG::BS_MUL_BYPASS(1), DPU_BS_CFG::BS_ALU_BYPASS(1),
                 DPU_BS_CFG::BS_BYPASS(1)});
    }
    const uint32_t m = s.depthwise ? 4 : 2;  // SURF_ADD multiple seen in every stream (reference §4.2)
    w.write({DPU_BS_OW_CFG::SIZE_E_2(m - 1), DPU_BS_OW_CFG::SIZE_E_1(m - 1), DPU_BS_OW_CFG::SIZE_E_0(m - 1),
             DPU_BS_OW_CFG::OD_BYPASS(1)});
    w.write({DPU_WDMA_SIZE_0::CHANNEL_WDMA(co - 1)});
    w.write({DPU_WDMA_SIZE_1::HEIGHT_WDMA(s.ho - 1), DPU_WDMA_SIZE_1::WIDTH_WDMA(s.wo - 1)});
    w.write({DPU_BN_CFG::BN_RELU_BYPASS(1), DPU_BN_CFG::BN_MUL_BYPASS(1), DPU_BN_CFG::BN_ALU_BYPASS(1),
             DPU_BN_CFG::BN_BYPASS(1)});
    w.write({DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_OP_CVT_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(1),
             DPU_EW_CFG::EW_OP_BYPASS(1), DPU_EW_CFG::EW_BYPASS(1)});
    w.write({DPU_EW_CVT_SCALE_VALUE::EW_OP_CVT_SCALE(1)});
    w.write({DPU_OUT_CVT_OFFSET::OUT_CVT_OFFSET(static_cast<uint32_t>(s.out_offset))});
    w.write({DPU_OUT_CVT_SCALE::FP32TOFP16_EN(s.out_precision == 2), DPU_OUT_CVT_SCALE::OUT_CVT_SCALE(s.out_scale)});
    w.write({DPU_OUT_CVT_SHIFT::OUT_CVT_SHIFT(s.out_shift)});
    w.write({DPU_SURFACE_ADD::SURF_ADD(m * plane_atoms)});
    w.write({DPU_40C4::VALUE(0u)});
    if (bias) {
        w.write({DPU_RDMA_DATA_CUBE_WIDTH::WIDTH(s.wo - 1)});
        w.write({DPU_RDMA_DATA_CUBE_HEIGHT::HEIGHT(s.ho - 1)});
        w.write({DPU_RDMA_DATA_CUBE_CHANNEL::CHANNEL(co - 1)});
        w.write({DPU_RDMA_BRDMA_CFG::BRDMA_DATA_USE(1)});
        w.write({DPU_RDMA_BS_BASE_ADDR::BS_BASE_ADDR(s.bias_addr)});
        w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DISABLE(1)});
        w.write({DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN(15), DPU_RDMA_FEATURE_MODE_CFG::MRDMA_DISABLE(1),
                 DPU_RDMA_FEATURE_MODE_CFG::CONV_MODE(s.depthwise ? 3u : 0u)});
        w.write({DPU_RDMA_WEIGHT::E_WEIGHT(1), DPU_RDMA_WEIGHT::N_WEIGHT(1), DPU_RDMA_WEIGHT::B_WEIGHT(1),
                 DPU_RDMA_WEIGHT::M_WEIGHT(1)});
    }
    (void)obpe;
}

// Element-wise add of two fp16 cubes (DPU flying mode, op_en 0x18; allbilly elementwise.py register set).
inline void write_ew_add_fp16(regcmd::RegcmdWriter& w, uint32_t c, uint32_t h, uint32_t wd, uint32_t a, uint32_t b, uint32_t out) {
    w.begin_task(regcmd::TaskKind::DpuFlying);
    w.write({DPU_S_POINTER::POINTER_PP_MODE(1), DPU_S_POINTER::EXECUTER_PP_EN(1), DPU_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_FEATURE_MODE_CFG::BURST_LEN(15), DPU_FEATURE_MODE_CFG::OUTPUT_MODE(2),
             DPU_FEATURE_MODE_CFG::FLYING_MODE(1)});
    w.write({DPU_DATA_FORMAT::OUT_PRECISION(2), DPU_DATA_FORMAT::IN_PRECISION(2), DPU_DATA_FORMAT::PROC_PRECISION(2)});
    w.write({DPU_DST_BASE_ADDR::DST_BASE_ADDR(out)});
    w.write({DPU_DST_SURF_STRIDE::DST_SURF_STRIDE(wd * h)});
    w.write({DPU_DATA_CUBE_WIDTH::WIDTH(wd - 1)});
    w.write({DPU_DATA_CUBE_HEIGHT::HEIGHT(h - 1)});
    w.write({DPU_DATA_CUBE_CHANNEL::ORIG_CHANNEL(c - 1), DPU_DATA_CUBE_CHANNEL::CHANNEL(c - 1)});
    w.write({DPU_BS_CFG::BS_RELU_BYPASS(1), DPU_BS_CFG::BS_MUL_BYPASS(1), DPU_BS_CFG::BS_ALU_BYPASS(1),
             DPU_BS_CFG::BS_BYPASS(1)});
    w.write({DPU_BS_OW_CFG::OD_BYPASS(1)});
    w.write({DPU_BN_CFG::BN_RELU_BYPASS(1), DPU_BN_CFG::BN_MUL_BYPASS(1), DPU_BN_CFG::BN_ALU_BYPASS(1),
             DPU_BN_CFG::BN_BYPASS(1)});
    w.write({DPU_EW_CFG::EW_DATA_MODE(1), DPU_EW_CFG::EDATA_SIZE(2), DPU_EW_CFG::EW_ALU_ALGO(2),
             DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_OP_CVT_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(1),
             DPU_EW_CFG::EW_OP_SRC(1)});
    w.write({DPU_OUT_CVT_SCALE::FP32TOFP16_EN(1), DPU_OUT_CVT_SCALE::OUT_CVT_SCALE(1)});
    w.write({DPU_RDMA_S_POINTER::POINTER_PP_MODE(1), DPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
             DPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({DPU_RDMA_DATA_CUBE_WIDTH::WIDTH(wd - 1)});
    w.write({DPU_RDMA_DATA_CUBE_HEIGHT::HEIGHT(h - 1)});
    w.write({DPU_RDMA_DATA_CUBE_CHANNEL::CHANNEL(c - 1)});
    w.write({DPU_RDMA_SRC_BASE_ADDR::SRC_BASE_ADDR(a)});
    w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DATA_MODE(1), DPU_RDMA_ERDMA_CFG::ERDMA_DATA_SIZE(2)});
    w.write({DPU_RDMA_EW_BASE_ADDR::EW_BASE_ADDR(b)});
    w.write({DPU_RDMA_EW_SURF_STRIDE::EW_SURF_STRIDE(wd * h)});
    w.write({DPU_RDMA_FEATURE_MODE_CFG::IN_PRECISION(2), DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN(15),
             DPU_RDMA_FEATURE_MODE_CFG::PROC_PRECISION(2), DPU_RDMA_FEATURE_MODE_CFG::MRDMA_FP16TOFP32_EN(1),
             DPU_RDMA_FEATURE_MODE_CFG::FLYING_MODE(1)});
}

// Max pool k x k stride s from memory (PPU + PPU_RDMA, op_en 0x60; vendor PPU list register set).
inline void write_max_pool_int8(regcmd::RegcmdWriter& w, uint32_t c, uint32_t h, uint32_t wd, uint32_t k, uint32_t s,
                                uint32_t in, uint32_t out) {
    const uint32_t ho = (h - k) / s + 1, wo = (wd - k) / s + 1;
    w.begin_task(regcmd::TaskKind::PpuFlying);
    w.write({PPU_S_POINTER::POINTER_PP_MODE(1), PPU_S_POINTER::EXECUTER_PP_EN(1), PPU_S_POINTER::POINTER_PP_EN(1)});
    w.write({PPU_RDMA_S_POINTER::POINTER_PP_MODE(1), PPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
             PPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
    w.write({PPU_DATA_CUBE_IN_WIDTH::CUBE_IN_WIDTH(wd - 1)});
    w.write({PPU_DATA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT(h - 1)});
    w.write({PPU_DATA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL(c - 1)});
    w.write({PPU_DATA_CUBE_OUT_WIDTH::CUBE_OUT_WIDTH(wo - 1)});
    w.write({PPU_DATA_CUBE_OUT_HEIGHT::CUBE_OUT_HEIGHT(ho - 1)});
    w.write({PPU_DATA_CUBE_OUT_CHANNEL::CUBE_OUT_CHANNEL(c - 1)});
    w.write({PPU_OPERATION_MODE_CFG::FLYING_MODE(1), PPU_OPERATION_MODE_CFG::POOLING_METHOD(1)});
    w.write({PPU_POOLING_KERNEL_CFG::KERNEL_STRIDE_HEIGHT(s - 1), PPU_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH(s - 1),
             PPU_POOLING_KERNEL_CFG::KERNEL_HEIGHT(k - 1), PPU_POOLING_KERNEL_CFG::KERNEL_WIDTH(k - 1)});
    w.write(PPU_RECIP_KERNEL_WIDTH{});
    w.write(PPU_RECIP_KERNEL_HEIGHT{});
    w.write(PPU_POOLING_PADDING_CFG{});
    w.write({PPU_DST_BASE_ADDR::DST_BASE_ADDR(out >> 4)});
    w.write({PPU_DST_SURF_STRIDE::DST_SURF_STRIDE(wo * ho)});
    w.write({PPU_DATA_FORMAT::PROC_PRECISION(0)});
    w.write({PPU_MISC_CTRL::BURST_LEN(3)});
    w.write({PPU_RDMA_CUBE_IN_WIDTH::CUBE_IN_WIDTH(wd - 1)});
    w.write({PPU_RDMA_CUBE_IN_HEIGHT::CUBE_IN_HEIGHT(h - 1)});
    w.write({PPU_RDMA_CUBE_IN_CHANNEL::CUBE_IN_CHANNEL(c - 1)});
    w.write({PPU_RDMA_SRC_BASE_ADDR::SRC_BASE_ADDR(in)});
    w.write({PPU_RDMA_SRC_LINE_STRIDE::SRC_LINE_STRIDE(wd)});
    w.write({PPU_RDMA_SRC_SURF_STRIDE::SRC_SURF_STRIDE(wd * h)});
    w.write({PPU_RDMA_DATA_FORMAT::IN_PRECISION(1)});
}

}  // namespace npudrv::sim::test

#include "runtime/npu/conv_regcmd.h"

#include <algorithm>

#include "runtime/passes/npu_limits.h"

namespace npurun::npu {

// Register types and field handles generated from the register table: CNA_CONV_CON1::CONV_MODE(3).
using namespace npudrv::regcmd::regs;

namespace rc = npudrv::regcmd;

namespace {
constexpr uint64_t kBankBytes = npu_limits::kCbufBankBytes;
constexpr uint32_t kBanks = npu_limits::kCbufBanks;
uint32_t ceil_div(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }
}  // namespace

namespace {

// Most output channels one task can produce: the DPU/WDMA/DPU_RDMA cube channel fields hold 13 bits
// (value - 1, reference §9.1), so K tiles are at most 8192 channels (a multiple of both weight groups).
constexpr uint32_t kMaxChannelsPerTask = npu_limits::kCubeMaxDim;

uint32_t kernel_group(const ConvLayer& L) { return L.elem_bytes() == 1 ? 32 : 16; }

// The CBUF split and row tiling of one slice: `ca` input channels, `kernels` output kernels per task and
// `rows` output rows to cover (the whole layer or a lane's range).
bool plan_slice(const ConvLayer& L, uint32_t ca, uint32_t kernels, uint32_t rows, ConvTiling* out, std::string* why) {
    const uint64_t bpe = L.elem_bytes();
    const uint64_t per_kernel = uint64_t{L.kw} * L.kh * ca * bpe;
    const uint64_t row_bytes = uint64_t{L.w} * ca * bpe;
    const uint32_t wb_min = std::max(1u, ceil_div(per_kernel, kBankBytes));
    if (wb_min > kBanks - 1) {
        *why = "one kernel (" + std::to_string(per_kernel) + " bytes) exceeds 11 CBUF banks";
        return false;
    }
    ConvTiling t = *out;
    const uint64_t slice_weights = L.depthwise ? per_kernel : per_kernel * kernels;
    // The whole input resident: as many data banks as it needs, every other bank for weights (the
    // vendor's rule: it reproduces CBUF_CON0 of every untiled vendor capture, e.g. 384x10x10 fp16 ->
    // 3 data / 9 weight banks). Weights larger than their banks are streamed through them (the vendor
    // does it too: 1x1 1024->1024 fp16 on 7x7, 2 MiB of weights in one task with 8 weight banks).
    const uint32_t db_all = std::max(1u, ceil_div(row_bytes * L.h, kBankBytes));
    if (db_all + wb_min <= kBanks) {
        t.data_banks = db_all, t.weight_banks = kBanks - db_all, t.rows_per_task = rows, t.tasks = 1;
        t.weight_reuse = slice_weights <= uint64_t{t.weight_banks} * kBankBytes;
        *out = t;
        return true;
    }
    // Rows must be split. Keep all of the slice's weights resident when that still leaves room for a
    // kernel's height of input rows (then later tiles reuse them), else give the data the most banks.
    const uint32_t wb_all = std::max(1u, ceil_div(slice_weights, kBankBytes));
    const bool resident = wb_all <= kBanks - 1 && (kBanks - wb_all) * kBankBytes / row_bytes >= L.kh;
    t.weight_banks = resident ? wb_all : wb_min;
    t.data_banks = kBanks - t.weight_banks;
    t.weight_reuse = resident;
    const uint64_t max_in_rows = t.data_banks * kBankBytes / row_bytes;
    if (max_in_rows < L.kh) {
        *why = "one output row needs " + std::to_string(uint64_t{L.kh} * row_bytes) + " bytes of input, more than " +
               std::to_string(t.data_banks) + " CBUF data banks";
        return false;
    }
    t.rows_per_task = std::min<uint32_t>(rows, static_cast<uint32_t>((max_in_rows - L.kh) / L.sy + 1));
    t.tasks = ceil_div(rows, t.rows_per_task);
    *out = t;
    return true;
}

// Input rows [iy0, iy1) a task of output rows [oy0, oy0+rows) reads, and its top padding.
struct InputWindow {
    uint32_t iy0, iy1, pad_top;
};
InputWindow input_window(const ConvLayer& L, uint32_t oy0, uint32_t rows) {
    const int64_t iy_start = int64_t(oy0) * L.sy - L.pad_top;
    const int64_t iy_end = int64_t(oy0 + rows - 1) * L.sy - L.pad_top + L.kh;
    InputWindow w;
    w.pad_top = iy_start < 0 ? static_cast<uint32_t>(-iy_start) : 0;
    w.iy0 = static_cast<uint32_t>(std::max<int64_t>(iy_start, 0));
    w.iy1 = static_cast<uint32_t>(std::min<int64_t>(iy_end, L.h));
    return w;
}

}  // namespace

std::pair<uint32_t, uint32_t> lane_range(const ConvLayer& L, const ConvTiling& t, uint32_t lane) {
    const uint32_t lanes = std::max(1u, t.lanes);
    const uint32_t unit = t.split == LaneSplit::Kernels ? kernel_group(L) : 1;
    const uint32_t total = t.split == LaneSplit::Kernels ? L.k : L.ho;
    const uint32_t units = ceil_div(total, unit);
    const uint32_t base = units / lanes, extra = units % lanes;
    const uint32_t u0 = lane * base + std::min(lane, extra), n = base + (lane < extra ? 1 : 0);
    const uint32_t begin = std::min(total, u0 * unit);
    return {begin, std::min(total, (u0 + n) * unit) - begin};
}

bool plan_conv_tiling(const ConvLayer& L, ConvTiling* out, std::string* why, const TilingRequest& req) {
    ConvTiling t;
    const uint32_t KG = kernel_group(L);
    // K tile: all kernels unless the cube channel field or the caller asks for fewer.
    uint32_t kcap = L.depthwise ? 0 : std::min(L.k, kMaxChannelsPerTask);
    if (!L.depthwise && req.max_kernels_per_task != 0)
        kcap = std::min(kcap, std::max(KG, req.max_kernels_per_task / KG * KG));
    // Lanes: every lane reads the weights it needs and the input rows it needs, so a split by K fetches the
    // input once per lane and the weights once, a split by rows the weights once per lane and the input
    // (nearly) once: by K when the weights are the larger operand and there is a weight group per lane,
    // else by rows; never more lanes than there is work for. Units (weight groups or rows) are dealt out
    // evenly, the first lanes taking one more (the vendor's 1024 -> 352+336+336 fp16, 10 rows -> 4+3+3).
    // Measured against the vendor's 2- and 3-core task sets in tests/npu/fidelity_test.cpp.
    uint32_t rows = L.ho;
    const uint32_t want = std::min(3u, std::max(1u, req.lanes));
    if (want > 1) {
        const uint64_t in_bytes = uint64_t{L.w} * L.h * L.ca * L.elem_bytes();
        const uint64_t w_bytes = uint64_t{L.kw} * L.kh * L.ca * L.elem_bytes() * L.k;
        const bool k_possible = !L.depthwise && ceil_div(L.k, KG) >= want;
        if (k_possible && (w_bytes >= in_bytes || L.ho < want)) {
            t.split = LaneSplit::Kernels, t.lanes = want;
            kcap = std::min(kcap, lane_range(L, t, 0).second);  // lane 0 is the largest
        } else if (L.ho >= want) {
            t.split = LaneSplit::Rows, t.lanes = want;
            rows = lane_range(L, t, 0).second;
        }
        if (t.lanes < 2) t.split = LaneSplit::None, t.lanes = 1;
    }
    if (!L.depthwise) t.kernels_per_task = kcap < L.k ? kcap : 0;

    if (!plan_slice(L, L.ca, L.depthwise ? 1 : kcap, rows, &t, why)) return false;
    const uint32_t group = L.elem_bytes() == 1 ? 64 : 32;
    if (L.depthwise && t.tasks > 1 && L.ca > group) {
        if (!plan_slice(L, group, 1, rows, &t, why)) return false;
        t.channels_per_task = group;
    }
    // Both K and row tiles: keep resident whichever costs fewer fetched bytes.
    if (!L.depthwise && t.kernels_per_task != 0 && t.rows_per_task < rows) {
        const uint64_t in_bytes = uint64_t{L.w} * L.h * L.ca * L.elem_bytes();
        const uint64_t w_bytes = uint64_t{L.kw} * L.kh * L.ca * L.elem_bytes() * L.k;
        const uint64_t nk = ceil_div(L.k, t.kernels_per_task), nr = ceil_div(rows, t.rows_per_task);
        const uint64_t k_outer = nk * in_bytes + (t.weight_reuse ? w_bytes : nr * w_bytes);
        const uint64_t r_outer = in_bytes + nr * w_bytes;
        t.rows_outer = r_outer < k_outer;
    }
    t.tasks = static_cast<uint32_t>(conv_tiles(L, t).size());
    *out = t;
    return true;
}

std::vector<ConvTile> conv_tiles(const ConvLayer& L, const ConvTiling& t) {
    std::vector<ConvTile> tiles;
    const uint32_t lanes = std::max(1u, t.lanes);
    const uint32_t rstep = std::max(1u, t.rows_per_task);
    const uint32_t cstep = (L.depthwise && t.channels_per_task) ? t.channels_per_task : L.ca;
    for (uint32_t lane = 0; lane < lanes; ++lane) {
        uint32_t r0 = 0, r1 = L.ho, kl0 = 0, kl1 = L.depthwise ? 0 : L.k;
        const std::pair<uint32_t, uint32_t> range = lane_range(L, t, lane);
        if (t.split == LaneSplit::Rows) {
            r0 = range.first, r1 = range.first + range.second;
        } else if (t.split == LaneSplit::Kernels) {
            kl0 = range.first, kl1 = range.first + range.second;
        }
        const uint32_t kstep = t.kernels_per_task ? t.kernels_per_task : std::max(1u, kl1 - kl0);
        const size_t first = tiles.size();
        auto add = [&](uint32_t c0, uint32_t k0, uint32_t kt, uint32_t oy0) {
            ConvTile x;
            x.lane = lane;
            x.c0 = c0, x.ca = std::min(cstep, L.ca - c0);
            x.k0 = k0, x.kt = kt;
            x.oy0 = oy0, x.rows = std::min(rstep, r1 - oy0);
            if (tiles.size() > first) {
                const ConvTile& p = tiles.back();
                const InputWindow a = input_window(L, p.oy0, p.rows), b = input_window(L, x.oy0, x.rows);
                const bool same_input = p.c0 == x.c0 && a.iy0 == b.iy0 && a.iy1 == b.iy1;
                x.weight_reuse = t.weight_reuse && p.c0 == x.c0 && p.k0 == x.k0 && p.kt == x.kt;
                x.data_reuse = same_input && !x.weight_reuse;
            }
            tiles.push_back(x);
        };
        if (r0 >= r1) continue;
        for (uint32_t c0 = 0; c0 < L.ca; c0 += cstep) {
            if (L.depthwise) {
                for (uint32_t oy0 = r0; oy0 < r1; oy0 += rstep) add(c0, c0, std::min(cstep, L.ca - c0), oy0);
            } else if (t.rows_outer) {
                for (uint32_t oy0 = r0; oy0 < r1; oy0 += rstep)
                    for (uint32_t k0 = kl0; k0 < kl1; k0 += kstep) add(c0, k0, std::min(kstep, kl1 - k0), oy0);
            } else {
                for (uint32_t k0 = kl0; k0 < kl1; k0 += kstep)
                    for (uint32_t oy0 = r0; oy0 < r1; oy0 += rstep) add(c0, k0, std::min(kstep, kl1 - k0), oy0);
            }
        }
    }
    return tiles;
}

uint32_t emit_conv_tasks(rc::RegcmdWriter& w, const ConvLayer& L, const ConvTiling& t, const ConvAddresses& a, int lane) {
    const uint32_t prec = L.domain == NpuDomain::Int8 ? 0 : 2;
    const bool i8 = prec == 0;
    const uint32_t bpe = L.elem_bytes();
    const uint32_t conv_mode = L.depthwise ? 3 : 0;
    const uint32_t m = L.depthwise ? 4 : 2;  // SURF_ADD multiple of every known stream (reference §4.2)
    const uint32_t out_plane_atoms = L.wo * L.ho;
    const rc::TaskKind kind = L.use_bs ? rc::TaskKind::ConvWithDpuRdma : rc::TaskKind::Conv;
    const uint32_t c2 = 16 / bpe, taps = L.kw * L.kh;
    const uint32_t bs_per = L.per_channel ? 6 : 4;
    uint32_t emitted = 0;
    for (const ConvTile& tile : conv_tiles(L, t)) {
        if (lane >= 0 && tile.lane != static_cast<uint32_t>(lane)) continue;
        // The tile's channel slice (depthwise) or K slice: its planes, weights and operand-stream entries
        // start at these offsets. K tiles start on a weight group, so their weights are one contiguous
        // run of the packed layout (conv_layer.cpp), laid out as a layer of kt kernels.
        const uint32_t ca = tile.ca;
        const uint32_t kernels = L.depthwise ? 1 : tile.kt;
        const uint32_t coa = (tile.kt + 15) / 16 * 16;
        const uint32_t orig = L.depthwise ? std::min(ca, L.c - tile.c0) : tile.kt;
        const uint32_t per_kernel = L.kw * L.kh * ca * bpe;
        const uint32_t ch0 = L.depthwise ? tile.c0 : tile.k0;  // first output channel
        const uint32_t in_base = a.input + tile.c0 / c2 * L.w * L.h * 16;
        const uint32_t out_base = a.output + ch0 / c2 * out_plane_atoms * 16;
        const uint32_t w_base = a.weights + (L.depthwise ? tile.c0 * taps * bpe : tile.k0 * per_kernel);
        const uint32_t bs_base = a.bs_stream + ch0 * bs_per;
        const uint32_t oy0 = tile.oy0, hot = tile.rows;
        const InputWindow win = input_window(L, oy0, hot);
        const uint32_t pad_top = win.pad_top, iy0 = win.iy0, ht = win.iy1 - win.iy0;

        w.begin_task(kind);
        const uint32_t reuse = tile.weight_reuse ? 1u : 0u, dreuse = tile.data_reuse ? 1u : 0u;
        w.write({CNA_CBUF_CON0::WEIGHT_REUSE(reuse), CNA_CBUF_CON0::DATA_REUSE(dreuse),
                 CNA_CBUF_CON0::WEIGHT_BANK(t.weight_banks), CNA_CBUF_CON0::DATA_BANK(t.data_banks)});
        w.write(CNA_DCOMP_REGNUM{});
        w.write(CNA_DCOMP_CTRL{});
        w.write({CNA_CONV_CON1::PROC_PRECISION(prec), CNA_CONV_CON1::IN_PRECISION(prec),
                 CNA_CONV_CON1::CONV_MODE(conv_mode)});
        w.write({DPU_S_POINTER::POINTER_PP_MODE(1), DPU_S_POINTER::EXECUTER_PP_EN(1), DPU_S_POINTER::POINTER_PP_EN(1)});
        if (L.use_bs) w.write({DPU_RDMA_S_POINTER::POINTER_PP_MODE(1), DPU_RDMA_S_POINTER::EXECUTER_PP_EN(1),
                               DPU_RDMA_S_POINTER::POINTER_PP_EN(1)});
        w.write({CNA_CONV_CON1::PROC_PRECISION(prec), CNA_CONV_CON1::IN_PRECISION(prec),
                 CNA_CONV_CON1::CONV_MODE(conv_mode)});
        // FEATURE_GRAINS: rows buffered before the conv starts; the vendor writes H + kh when the task's
        // input is resident (reference §4.2), capped by the field.
        w.write({CNA_CONV_CON2::FEATURE_GRAINS(std::min(ht + L.kh, npu_limits::kMaxFeatureGrains))});
        w.write({CNA_CONV_CON3::CONV_Y_STRIDE(L.sy), CNA_CONV_CON3::CONV_X_STRIDE(L.sx)});
        w.write({CNA_DATA_SIZE0::DATAIN_WIDTH(L.w), CNA_DATA_SIZE0::DATAIN_HEIGHT(ht)});
        // DATAIN_CHANNEL_REAL: every vendor fp16 capture writes the channel count of the last 64-channel
        // group minus one, (C - 1) % 64 (1024 -> 63, 480 -> 31, 72 -> 7, 40 -> 39), not C - 1; the
        // simulator gives it no function, so the vendor's value is used.
        w.write({CNA_DATA_SIZE1::DATAIN_CHANNEL_REAL((ca - 1) % 64), CNA_DATA_SIZE1::DATAIN_CHANNEL(ca)});
        w.write({CNA_DATA_SIZE2::DATAOUT_WIDTH(L.wo)});
        w.write({CNA_DATA_SIZE3::DATAOUT_ATOMICS(L.wo * hot)});
        w.write({CNA_WEIGHT_SIZE0::WEIGHT_BYTES(per_kernel * kernels)});
        w.write({CNA_WEIGHT_SIZE1::WEIGHT_BYTES_PER_KERNEL(per_kernel)});
        w.write({CNA_WEIGHT_SIZE2::WEIGHT_WIDTH(L.kw), CNA_WEIGHT_SIZE2::WEIGHT_HEIGHT(L.kh),
                 CNA_WEIGHT_SIZE2::WEIGHT_KERNELS(kernels)});
        w.write({CNA_CBUF_CON0::WEIGHT_REUSE(reuse), CNA_CBUF_CON0::DATA_REUSE(dreuse),
                 CNA_CBUF_CON0::WEIGHT_BANK(t.weight_banks), CNA_CBUF_CON0::DATA_BANK(t.data_banks)});
        w.write({CNA_CBUF_CON1::DATA_ENTRIES((L.w * ca * bpe + 63) / 64)});
        w.write({CNA_CVT_CON0::DATA_SIGN(1), CNA_CVT_CON0::CVT_TYPE(1), CNA_CVT_CON0::CVT_BYPASS(1)});
        w.write({CNA_CVT_CON1::CVT_SCALE0(1)});
        w.write({CNA_CVT_CON2::CVT_SCALE1(1)});
        w.write({CNA_CVT_CON3::CVT_SCALE2(1)});
        w.write({CNA_CVT_CON4::CVT_SCALE3(1)});
        w.write(CNA_FC_CON0{});
        w.write(CNA_FC_CON1{});
        w.write({CNA_PAD_CON0::PAD_LEFT(L.pad_left), CNA_PAD_CON0::PAD_TOP(pad_top)});
        w.write({CNA_FEATURE_DATA_ADDR::FEATURE_BASE_ADDR(in_base + iy0 * L.w * 16)});
        w.write(CNA_FC_CON2{});
        w.write({CNA_DMA_CON0::WEIGHT_BURST_LEN(15), CNA_DMA_CON0::DATA_BURST_LEN(15)});
        // Line stride covers a 4-line fetch group; SURF_STRIDE + LINE_STRIDE = one plane of the whole
        // tensor (W*H atoms, two's complement in 28 bits when H < 4; reference §6.1).
        w.write({CNA_DMA_CON1::LINE_STRIDE(4 * L.w)});
        w.write({CNA_DMA_CON2::SURF_STRIDE((L.w * L.h - 4 * L.w) & CNA_DMA_CON2::SURF_STRIDE.max_value())});
        w.write({CNA_FC_DATA_SIZE0::DMA_WIDTH(L.w), CNA_FC_DATA_SIZE0::DMA_HEIGHT(ht)});
        w.write({CNA_FC_DATA_SIZE1::DMA_CHANNEL(ca)});
        w.write(CNA_DCOMP_CTRL{});
        w.write(CNA_DCOMP_REGNUM{});
        w.write({CNA_DCOMP_ADDR0::DECOMPRESS_ADDR0(w_base)});
        w.write({CNA_CVT_CON5::PER_CHANNEL_CVT_EN(0u)});
        w.write({CNA_PAD_CON1::PAD_VALUE(i8 ? L.pad_value : 0u)});
        w.write({CORE_MISC_CFG::PROC_PRECISION(prec), CORE_MISC_CFG::DW_EN(L.depthwise ? 1u : 0u),
                 CORE_MISC_CFG::QD_EN(i8 ? 1u : 0u)});
        w.write({CORE_DATAOUT_SIZE_0::DATAOUT_HEIGHT(hot - 1), CORE_DATAOUT_SIZE_0::DATAOUT_WIDTH(L.wo - 1)});
        w.write({CORE_DATAOUT_SIZE_1::DATAOUT_CHANNEL(coa - 1)});
        w.write(CORE_CLIP_TRUNCATE{});
        w.write({CORE_3030::VALUE(0u)});
        w.write({DPU_FEATURE_MODE_CFG::BURST_LEN(15), DPU_FEATURE_MODE_CFG::CONV_MODE(conv_mode),
                 DPU_FEATURE_MODE_CFG::OUTPUT_MODE(2)});
        w.write({DPU_DATA_FORMAT::OUT_PRECISION(prec), DPU_DATA_FORMAT::IN_PRECISION(prec),
                 DPU_DATA_FORMAT::PROC_PRECISION(prec)});
        w.write(DPU_OFFSET_PEND{});
        w.write({DPU_DST_BASE_ADDR::DST_BASE_ADDR(out_base + oy0 * L.wo * 16)});
        w.write({DPU_DST_SURF_STRIDE::DST_SURF_STRIDE(out_plane_atoms)});
        w.write({DPU_DATA_CUBE_WIDTH::WIDTH(L.wo - 1)});
        w.write({DPU_DATA_CUBE_HEIGHT::HEIGHT(hot - 1)});
        w.write(DPU_DATA_CUBE_NOTCH_ADDR{});
        w.write({DPU_DATA_CUBE_CHANNEL::ORIG_CHANNEL(orig - 1), DPU_DATA_CUBE_CHANNEL::CHANNEL(coa - 1)});
        if (L.use_bs) {
            w.write({DPU_BS_CFG::BS_ALU_ALGO(2), DPU_BS_CFG::BS_ALU_SRC(1), DPU_BS_CFG::BS_RELUX_EN(L.relux ? 1u : 0u),
                     DPU_BS_CFG::BS_RELU_BYPASS(L.relu ? 0u : 1u), DPU_BS_CFG::BS_MUL_BYPASS(L.per_channel ? 0u : 1u)});
        } else {
            w.write({DPU_BS_CFG::BS_RELU_BYPASS(1), DPU_BS_CFG::BS_MUL_BYPASS(1), DPU_BS_CFG::BS_ALU_BYPASS(1),
                     DPU_BS_CFG::BS_BYPASS(1)});
        }
        w.write(DPU_BS_ALU_CFG{});
        if (L.per_channel) {
            w.write({DPU_BS_MUL_CFG::BS_MUL_SHIFT_VALUE(14), DPU_BS_MUL_CFG::BS_MUL_SRC(1)});
        } else {
            w.write(DPU_BS_MUL_CFG{});
        }
        w.write({DPU_BS_RELUX_CMP_VALUE::BS_RELUX_CMP_DAT(L.relux ? L.relux_bits : 0u)});
        w.write({DPU_BS_OW_CFG::SIZE_E_2(m - 1), DPU_BS_OW_CFG::SIZE_E_1(m - 1), DPU_BS_OW_CFG::SIZE_E_0(m - 1),
                 DPU_BS_OW_CFG::OD_BYPASS(L.ow_op == 0 ? 1u : 0u)});
        w.write({DPU_BS_OW_OP::OW_OP(static_cast<uint32_t>(L.ow_op) & DPU_BS_OW_OP::OW_OP.max_value())});
        w.write({DPU_WDMA_SIZE_0::CHANNEL_WDMA(coa - 1)});
        w.write({DPU_WDMA_SIZE_1::HEIGHT_WDMA(hot - 1), DPU_WDMA_SIZE_1::WIDTH_WDMA(L.wo - 1)});
        w.write({DPU_BN_CFG::BN_RELU_BYPASS(1), DPU_BN_CFG::BN_MUL_BYPASS(1), DPU_BN_CFG::BN_ALU_BYPASS(1),
                 DPU_BN_CFG::BN_BYPASS(1)});
        w.write(DPU_BN_ALU_CFG{});
        w.write(DPU_BN_MUL_CFG{});
        w.write({DPU_BN_RELUX_CMP_VALUE::BN_RELUX_CMP_DAT(0u)});
        w.write({DPU_EW_CFG::EW_RELU_BYPASS(1), DPU_EW_CFG::EW_OP_CVT_BYPASS(1), DPU_EW_CFG::EW_LUT_BYPASS(1),
                 DPU_EW_CFG::EW_OP_BYPASS(1), DPU_EW_CFG::EW_BYPASS(1)});
        w.write({DPU_EW_CVT_OFFSET_VALUE::EW_OP_CVT_OFFSET(0u)});
        w.write({DPU_EW_CVT_SCALE_VALUE::EW_OP_CVT_SCALE(1)});
        w.write({DPU_EW_RELUX_CMP_VALUE::EW_RELUX_CMP_DAT(0u)});
        w.write({DPU_OUT_CVT_OFFSET::OUT_CVT_OFFSET(i8 ? static_cast<uint32_t>(L.out_offset) : 0u)});
        w.write({DPU_OUT_CVT_SCALE::FP32TOFP16_EN(i8 ? 0u : 1u),
                 DPU_OUT_CVT_SCALE::OUT_CVT_SCALE(i8 ? L.out_scale : 1u)});
        w.write({DPU_OUT_CVT_SHIFT::OUT_CVT_SHIFT(i8 ? L.out_shift : 0u)});
        w.write({DPU_SURFACE_ADD::SURF_ADD(m * out_plane_atoms)});
        w.write({DPU_40C4::VALUE(0u)});
        if (L.use_bs) {
            w.write({DPU_RDMA_DATA_CUBE_WIDTH::WIDTH(L.wo - 1)});
            w.write({DPU_RDMA_DATA_CUBE_HEIGHT::HEIGHT(hot - 1)});
            w.write({DPU_RDMA_DATA_CUBE_CHANNEL::CHANNEL(coa - 1)});
            w.write(DPU_RDMA_SRC_BASE_ADDR{});
            w.write({DPU_RDMA_BRDMA_CFG::BRDMA_DATA_USE(L.bs_data_use)});
            w.write({DPU_RDMA_BS_BASE_ADDR::BS_BASE_ADDR(bs_base)});
            w.write(DPU_RDMA_NRDMA_CFG{});
            w.write(DPU_RDMA_BN_BASE_ADDR{});
            w.write({DPU_RDMA_ERDMA_CFG::ERDMA_DISABLE(1)});
            w.write(DPU_RDMA_EW_BASE_ADDR{});
            w.write(DPU_RDMA_EW_SURF_STRIDE{});
            w.write({DPU_RDMA_FEATURE_MODE_CFG::BURST_LEN(15), DPU_RDMA_FEATURE_MODE_CFG::MRDMA_DISABLE(1),
                     DPU_RDMA_FEATURE_MODE_CFG::CONV_MODE(conv_mode)});
            w.write(DPU_RDMA_SRC_DMA_CFG{});
            w.write(DPU_RDMA_SURF_NOTCH{});
            w.write(DPU_RDMA_PAD_CFG{});
            w.write({DPU_RDMA_WEIGHT::E_WEIGHT(1), DPU_RDMA_WEIGHT::N_WEIGHT(1), DPU_RDMA_WEIGHT::B_WEIGHT(1),
                     DPU_RDMA_WEIGHT::M_WEIGHT(1)});
            w.write(DPU_RDMA_EW_SURF_NOTCH{});
        }
        ++emitted;
    }
    return emitted;
}

}  // namespace npurun::npu

// CNA (feature/weight fetch, CBUF) + CORE (MAC array) of a convolution task.
#include "drv/sim/sim_arithmetic.h"
#include "drv/sim/sim_internal.h"

#include <algorithm>

namespace npudrv::sim::detail {

namespace rc = npudrv::regcmd;
namespace f = npudrv::regcmd::f;

namespace {

// Byte offset of weight (k, c, ky, kx) in the weight buffer. Regular conv (reference §6.2): kernels in
// groups of KG (16 for 16-bit, 32 for int8), channels in groups of 32, order [k/KG][c/32][ky][kx][k%KG][c%32];
// a partial last kernel/channel group is stored densely (WEIGHT_SIZE0 = kernels*kw*kh*Ca*bpe exactly).
// Depthwise (Mesa int8: [c/64][ky][kx][c%64]): CHOICE for 16-bit types: 64 bytes of channels per group,
// i.e. 32 fp16 channels, [c/32][ky][kx][c%32] — no RK3588 capture pins the fp16 depthwise order down.
size_t weight_index(uint32_t k, uint32_t c, uint32_t ky, uint32_t kx, uint32_t K, uint32_t C, uint32_t kh, uint32_t kw,
                    uint32_t kg_size) {
    const size_t taps = size_t{kh} * kw;
    const uint32_t kg = k / kg_size, kin = k % kg_size, ksz = std::min(kg_size, K - kg * kg_size);
    const uint32_t cg = c / 32, cin = c % 32, csz = std::min(32u, C - cg * 32);
    return size_t{kg} * kg_size * taps * C + size_t{cg} * 32 * taps * ksz + (size_t{ky} * kw + kx) * ksz * csz +
           size_t{kin} * csz + cin;
}

size_t dw_weight_index(uint32_t c, uint32_t ky, uint32_t kx, uint32_t C, uint32_t kh, uint32_t kw, uint32_t group) {
    const size_t taps = size_t{kh} * kw;
    const uint32_t cg = c / group, cin = c % group, csz = std::min(group, C - cg * group);
    return size_t{cg} * group * taps + (size_t{ky} * kw + kx) * csz + cin;
}

}  // namespace

// Fetches a task's feature map from memory: NC1HWC2 with the programmed line / plane strides.
void fetch_features(TaskExec& t, uint32_t feat, uint32_t C, uint32_t H, uint32_t W, uint32_t prec, std::vector<float>* in_f,
                    std::vector<int64_t>* in_i) {
    const bool fl = is_float(prec);
    const uint32_t bpe = bytes_of(prec), c2 = atom_channels(prec);
    if (t.get(f::CNA_LINE_STRIDE) % 4 != 0) t.unmodelled("LINE_STRIDE not a multiple of 4 (one fetch group = 4 lines)");
    // Reference §6.1: LINE_STRIDE covers a 4-line fetch group; next C1 plane at SURF+LINE (16-byte units).
    const uint64_t row_pitch = uint64_t{t.get(f::CNA_LINE_STRIDE)} / 4 * 16;
    const uint64_t plane_pitch = uint64_t{(t.get(f::CNA_SURF_STRIDE) + t.get(f::CNA_LINE_STRIDE)) & f::CNA_SURF_STRIDE.max_value()} * 16;
    if (row_pitch < uint64_t{W} * 16) t.invalid("feature line pitch " + std::to_string(row_pitch) + " below a row of " + std::to_string(W) + " atoms");
    const uint64_t plane_span = (H - 1) * row_pitch + uint64_t{W} * 16;
    const uint32_t planes = C / c2;
    if (planes > 1 && plane_pitch < plane_span) t.invalid("feature plane pitch " + std::to_string(plane_pitch) + " overlaps the rows of the task");
    if (fl) in_f->assign(size_t{C} * H * W, 0.0f); else in_i->assign(size_t{C} * H * W, 0);
    for (uint32_t p = 0; p < planes; ++p) {
        const uint8_t* base = t.dma_read(uint64_t{feat} + p * plane_pitch, plane_span, "CNA feature");
        t.counters().dma_read_bytes -= plane_span;
        t.counters().dma_read_bytes += uint64_t{H} * W * 16;  // bytes actually transferred
        for (uint32_t y = 0; y < H; ++y) {
            for (uint32_t x = 0; x < W; ++x) {
                const uint8_t* atom = base + y * row_pitch + uint64_t{x} * 16;
                for (uint32_t e = 0; e < c2; ++e) {
                    const size_t idx = (size_t{p * c2 + e} * H + y) * W + x;
                    if (fl) (*in_f)[idx] = load_float(atom + e * bpe, prec); else (*in_i)[idx] = load_int(atom + e * bpe, prec);
                }
            }
        }
    }
}

// What the CORE computes from: the task's geometry, its fetched input (float or integer, per the pipeline),
// the padding value and the weight bytes.
struct MacTask {
    uint32_t C, H, W, K, Co, Coa, Ho, Wo, kh, kw, sx, sy;
    int pl, pt;
    uint32_t bpe, prec;
    bool fl, dw;
    const std::vector<float>& in_f;
    const std::vector<int64_t>& in_i;
    float pad_f;
    int64_t pad_i;
    const std::vector<uint8_t>& wbytes;
};

// CORE: the MACs of one task (and, int8, the input window sums the DPU's weight-offset term needs).
ConvResult run_core(TaskExec& t, const MacTask& m) {
    const uint32_t C = m.C, H = m.H, W = m.W, K = m.K, Co = m.Co, Coa = m.Coa, Ho = m.Ho, Wo = m.Wo, kh = m.kh, kw = m.kw;
    const uint32_t sx = m.sx, sy = m.sy, bpe = m.bpe, prec = m.prec;
    const int pl = m.pl, pt = m.pt;
    const bool fl = m.fl, dw = m.dw;
    const std::vector<float>& in_f = m.in_f;
    const std::vector<int64_t>& in_i = m.in_i;
    const float pad_f = m.pad_f;
    const int64_t pad_i = m.pad_i;
    const std::vector<uint8_t>& wbytes = m.wbytes;
    ConvResult r;
    r.acc.resize(Coa, Ho, Wo, fl);
    r.per_channel_sums = dw;
    if (!fl) r.window_sums.assign(size_t{Ho} * Wo * (dw ? C : 1), 0);
    auto in_at_f = [&](uint32_t c, int y, int x) -> float {
        if (y < 0 || x < 0 || y >= static_cast<int>(H) || x >= static_cast<int>(W)) return pad_f;
        return in_f[(size_t{c} * H + static_cast<uint32_t>(y)) * W + static_cast<uint32_t>(x)];
    };
    auto in_at_i = [&](uint32_t c, int y, int x) -> int64_t {
        if (y < 0 || x < 0 || y >= static_cast<int>(H) || x >= static_cast<int>(W)) return pad_i;
        return in_i[(size_t{c} * H + static_cast<uint32_t>(y)) * W + static_cast<uint32_t>(x)];
    };
    const uint32_t kg_size = (bpe == 1) ? 32 : 16;
    const uint32_t dw_group = 64 / bpe;
    auto weight_f = [&](size_t idx) { return load_float(&wbytes[idx * bpe], prec); };
    auto weight_i = [&](size_t idx) { return load_int(&wbytes[idx * bpe], prec); };
    for (uint32_t oy = 0; oy < Ho; ++oy) {
        for (uint32_t ox = 0; ox < Wo; ++ox) {
            const int iy0 = static_cast<int>(oy * sy) - pt, ix0 = static_cast<int>(ox * sx) - pl;
            if (!fl) {
                int64_t s = 0;
                for (uint32_t c = 0; c < C; ++c) {
                    int64_t sc = 0;
                    for (uint32_t ky = 0; ky < kh; ++ky)
                        for (uint32_t kx = 0; kx < kw; ++kx) sc += in_at_i(c, iy0 + static_cast<int>(ky), ix0 + static_cast<int>(kx));
                    if (dw) r.window_sums[(size_t{c} * Ho + oy) * Wo + ox] = sc;
                    s += sc;
                }
                if (!dw) r.window_sums[size_t{oy} * Wo + ox] = s;
            }
            for (uint32_t k = 0; k < Co; ++k) {
                const size_t oi = r.acc.index(k, oy, ox);
                if (fl) {
                    float acc = 0.0f;  // fp16 products accumulated in fp32, order c, ky, kx
                    if (dw) {
                        for (uint32_t ky = 0; ky < kh; ++ky)
                            for (uint32_t kx = 0; kx < kw; ++kx)
                                acc += in_at_f(k, iy0 + static_cast<int>(ky), ix0 + static_cast<int>(kx)) *
                                       weight_f(dw_weight_index(k, ky, kx, C, kh, kw, dw_group));
                    } else {
                        for (uint32_t c = 0; c < C; ++c)
                            for (uint32_t ky = 0; ky < kh; ++ky)
                                for (uint32_t kx = 0; kx < kw; ++kx)
                                    acc += in_at_f(c, iy0 + static_cast<int>(ky), ix0 + static_cast<int>(kx)) *
                                           weight_f(weight_index(k, c, ky, kx, K, C, kh, kw, kg_size));
                    }
                    r.acc.f[oi] = acc;
                } else {
                    int64_t acc = 0;  // int8 x int8 products, int32 accumulator (checked below)
                    if (dw) {
                        for (uint32_t ky = 0; ky < kh; ++ky)
                            for (uint32_t kx = 0; kx < kw; ++kx)
                                acc += in_at_i(k, iy0 + static_cast<int>(ky), ix0 + static_cast<int>(kx)) *
                                       weight_i(dw_weight_index(k, ky, kx, C, kh, kw, dw_group));
                    } else {
                        for (uint32_t c = 0; c < C; ++c)
                            for (uint32_t ky = 0; ky < kh; ++ky)
                                for (uint32_t kx = 0; kx < kw; ++kx)
                                    acc += in_at_i(c, iy0 + static_cast<int>(ky), ix0 + static_cast<int>(kx)) *
                                           weight_i(weight_index(k, c, ky, kx, K, C, kh, kw, kg_size));
                    }
                    if (acc < INT32_MIN || acc > INT32_MAX) t.invalid("int32 accumulator overflow");
                    r.acc.i[oi] = arith::round_shift(acc, t.get(f::CORE_CLIP_TRUNCATE));
                }
            }
        }
    }
    return r;
}

// What the simulator models of a convolution task; every other non-zero CNA / CORE field refuses it.
void check_modelled_conv_fields(TaskExec& t) {
    t.check_block(0x1000, 0x1FFC,
                  {f::CNA_PROC_PRECISION, f::CNA_IN_PRECISION, f::CNA_CONV_MODE,
                   // no functional effect in a functional model (timing / CBUF scheduling / bursts):
                   f::CNA_FEATURE_GRAINS, f::CNA_KERNEL_GROUP, rc::regs::CNA_CONV_CON2::CON2_BIT30,
                   rc::regs::CNA_CONV_CON2::CON2_BIT28_29, rc::regs::CNA_CBUF_CON1::DATA_ENTRIES,
                   rc::regs::CNA_DMA_CON0::WEIGHT_BURST_LEN, rc::regs::CNA_DMA_CON0::DATA_BURST_LEN,
                   rc::regs::CNA_DMA_CON0::OV4K_BYPASS, f::CNA_IN_CHANNEL_REAL,
                   rc::regs::CNA_S_POINTER::POINTER_PP_MODE, rc::regs::CNA_S_POINTER::EXECUTER_PP_EN,
                   rc::regs::CNA_S_POINTER::POINTER_PP_EN,
                   // read below:
                   f::CNA_STRIDE_X, f::CNA_STRIDE_Y, f::CNA_IN_WIDTH, f::CNA_IN_HEIGHT, f::CNA_IN_CHANNEL, f::CNA_OUT_WIDTH,
                   f::CNA_OUT_ATOMICS, f::CNA_WEIGHT_BYTES, f::CNA_WEIGHT_BYTES_PER_KERNEL, f::CNA_WEIGHT_WIDTH,
                   f::CNA_WEIGHT_HEIGHT, f::CNA_WEIGHT_KERNELS, f::CNA_WEIGHT_REUSE, f::CNA_DATA_REUSE, f::CNA_WEIGHT_BANK,
                   f::CNA_DATA_BANK, f::CNA_CVT_DATA_SIGN, f::CNA_CVT_BYPASS, rc::regs::CNA_CVT_CON0::CVT_TYPE,
                   // CVT_CON1..4 are only used when the input converter is not bypassed (checked below):
                   rc::regs::CNA_CVT_CON1::CVT_SCALE0, rc::regs::CNA_CVT_CON1::CVT_OFFSET0,
                   rc::regs::CNA_CVT_CON2::CVT_SCALE1, rc::regs::CNA_CVT_CON2::CVT_OFFSET1,
                   rc::regs::CNA_CVT_CON3::CVT_SCALE2, rc::regs::CNA_CVT_CON3::CVT_OFFSET2,
                   rc::regs::CNA_CVT_CON4::CVT_SCALE3, rc::regs::CNA_CVT_CON4::CVT_OFFSET3, f::CNA_PAD_LEFT,
                   f::CNA_PAD_TOP, f::CNA_FEATURE_ADDR, f::CNA_LINE_STRIDE, f::CNA_SURF_STRIDE, f::CNA_DMA_WIDTH,
                   f::CNA_DMA_HEIGHT, f::CNA_DMA_CHANNEL, f::CNA_DCOMP_ADDR, f::CNA_PAD_VALUE});
    t.check_block(0x3000, 0x3FFC,
                  {f::CORE_PROC_PRECISION, f::CORE_DW_EN, f::CORE_QD_EN, f::CORE_OUT_HEIGHT, f::CORE_OUT_WIDTH,
                   f::CORE_OUT_CHANNEL, f::CORE_CLIP_TRUNCATE, rc::regs::CORE_S_POINTER::POINTER_PP_MODE,
                   rc::regs::CORE_S_POINTER::EXECUTER_PP_EN, rc::regs::CORE_S_POINTER::POINTER_PP_EN});
    t.require(f::CNA_CVT_BYPASS, {1}, "input converter: only bypass is modelled");
    t.require(f::CNA_CONV_MODE, {0, 3}, "conv mode: direct (0) and depthwise (3) are modelled");
}

ConvResult run_cna_core(TaskExec& t) {
    check_modelled_conv_fields(t);

    const uint32_t prec = t.get(f::CNA_PROC_PRECISION);
    if (prec != kInt8 && prec != kFp16) t.unmodelled("CNA precision " + std::to_string(prec) + " (int8 and fp16 are modelled)");
    if (t.get(f::CNA_IN_PRECISION) != prec) t.unmodelled("CNA IN_PRECISION differs from PROC_PRECISION");
    if (t.get(f::CORE_PROC_PRECISION) != prec) t.invalid("CORE_MISC_CFG.PROC_PRECISION differs from CNA precision");
    if (prec == kInt8 && t.get(f::CNA_CVT_DATA_SIGN) != 1) t.unmodelled("unsigned int8 feature data (DATA_SIGN=0)");
    const bool fl = is_float(prec);
    const bool dw = t.get(f::CNA_CONV_MODE) == 3;
    if (t.get(f::CORE_DW_EN) != (dw ? 1u : 0u)) t.invalid("CORE_MISC_CFG.DW_EN disagrees with CNA conv mode");
    if (fl && t.get(f::CORE_CLIP_TRUNCATE) != 0) t.unmodelled("CLIP_TRUNCATE on a float pipeline");

    const uint32_t bpe = bytes_of(prec), c2 = atom_channels(prec);
    const uint32_t W = t.get(f::CNA_IN_WIDTH), H = t.get(f::CNA_IN_HEIGHT), C = t.get(f::CNA_IN_CHANNEL);
    const uint32_t kw = t.get(f::CNA_WEIGHT_WIDTH), kh = t.get(f::CNA_WEIGHT_HEIGHT), K = t.get(f::CNA_WEIGHT_KERNELS);
    const uint32_t sx = t.get(f::CNA_STRIDE_X), sy = t.get(f::CNA_STRIDE_Y);
    const int pl = static_cast<int>(t.get(f::CNA_PAD_LEFT)), pt = static_cast<int>(t.get(f::CNA_PAD_TOP));
    const uint32_t Wo = t.get(f::CORE_OUT_WIDTH) + 1, Ho = t.get(f::CORE_OUT_HEIGHT) + 1;
    const uint32_t Coa = t.get(f::CORE_OUT_CHANNEL) + 1;
    if (W == 0 || H == 0 || C == 0) t.invalid("zero input width/height/channels");
    if (kw == 0 || kh == 0 || K == 0) t.invalid("zero kernel size or kernel count");
    if (sx == 0 || sy == 0) t.invalid("zero conv stride");
    if (C % c2 != 0) t.unmodelled("DATAIN_CHANNEL " + std::to_string(C) + " not a multiple of the " + std::to_string(c2) + "-channel atom");
    if (t.get(f::CNA_OUT_WIDTH) != Wo) t.invalid("CNA DATAOUT_WIDTH != CORE DATAOUT_WIDTH+1");
    if (t.get(f::CNA_OUT_ATOMICS) != Wo * Ho) t.invalid("DATAOUT_ATOMICS != Wo*Ho");
    if (t.regs().written(f::CNA_DMA_WIDTH.reg) && (t.get(f::CNA_DMA_WIDTH) != W || t.get(f::CNA_DMA_HEIGHT) != H)) {
        t.unmodelled("FC_DATA_SIZE0 (DMA width/height) differs from DATA_SIZE0");
    }
    if (t.regs().written(f::CNA_DMA_CHANNEL.reg) && t.get(f::CNA_DMA_CHANNEL) != C) t.unmodelled("FC_DATA_SIZE1 differs from DATAIN_CHANNEL");
    // Right/bottom padding is implied by the sizes; more than a kernel of padding, or input left unread
    // beyond one stride, is not a convolution any generator writes.
    const long pr = static_cast<long>(Wo - 1) * sx + kw - W - pl;
    const long pb = static_cast<long>(Ho - 1) * sy + kh - H - pt;
    if (pr >= static_cast<long>(kw) || pb >= static_cast<long>(kh) || pl >= static_cast<int>(kw) || pt >= static_cast<int>(kh) ||
        pr < -static_cast<long>(sx - 1) || pb < -static_cast<long>(sy - 1)) {
        t.invalid("output size " + std::to_string(Wo) + "x" + std::to_string(Ho) + " inconsistent with input " +
                  std::to_string(W) + "x" + std::to_string(H) + ", kernel, stride and padding");
    }
    if (t.get(f::CNA_FEATURE_GRAINS) < kh) t.invalid("FEATURE_GRAINS below the kernel height");
    const uint64_t per_kernel = uint64_t{kw} * kh * C * bpe;
    if (t.get(f::CNA_WEIGHT_BYTES_PER_KERNEL) != per_kernel) t.invalid("WEIGHT_BYTES_PER_KERNEL != kw*kh*channels*bytes");
    if (dw && K != 1) t.invalid("depthwise with WEIGHT_KERNELS != 1");
    const uint64_t weight_bytes = per_kernel * (dw ? 1 : K);
    if (t.get(f::CNA_WEIGHT_BYTES) != weight_bytes) t.invalid("WEIGHT_BYTES != bytes per kernel * kernels");
    const uint32_t Co = dw ? C : K;
    if (Coa < Co) t.invalid("CORE DATAOUT_CHANNEL below the kernels/channels computed");

    t.check_size(uint64_t{Coa} * Ho * Wo, "conv output");
    if (uint64_t{Wo} * Ho * Co * kw * kh * (dw ? 1 : C) > TaskExec::kMaxMacs) t.unmodelled("task MAC count above the simulator's limit");

    // ---- CBUF ----
    const uint32_t data_banks = t.get(f::CNA_DATA_BANK), weight_banks = t.get(f::CNA_WEIGHT_BANK);
    if (data_banks + weight_banks > NpuSimulator::kCbufBanks) t.invalid("DATA_BANK + WEIGHT_BANK > 12");
    t.counters().cbuf_data_banks = data_banks;
    t.counters().cbuf_weight_banks = weight_banks;
    const uint64_t in_bytes = uint64_t{W} * H * C * bpe;
    if (in_bytes > uint64_t{data_banks} * NpuSimulator::kCbufBankBytes) {
        throw SimError("cbuf-overflow", "feature data of the task (" + std::to_string(in_bytes) + " bytes) exceeds " +
                                            std::to_string(data_banks) + " data banks");
    }
    if (per_kernel > uint64_t{weight_banks} * NpuSimulator::kCbufBankBytes) {
        throw SimError("cbuf-overflow", "one kernel (" + std::to_string(per_kernel) + " bytes) exceeds " +
                                            std::to_string(weight_banks) + " weight banks");
    }
    CbufContents& cb = t.cbuf();

    // ---- feature fetch (NC1HWC2, programmed strides) or CBUF reuse ----
    const uint32_t feat = t.get(f::CNA_FEATURE_ADDR);
    std::vector<float> in_f;
    std::vector<int64_t> in_i;
    if (t.get(f::CNA_DATA_REUSE)) {
        if (!cb.data_valid || cb.data_addr != feat || cb.data_c != C || cb.data_h != H || cb.data_w != W ||
            cb.data_precision != prec) {
            throw SimError("cbuf-uninitialised", "DATA_REUSE set but the CBUF holds no feature data for " + hex(feat) + " " +
                                                     std::to_string(C) + "x" + std::to_string(H) + "x" + std::to_string(W));
        }
        if (fl) {
            in_f = cb.data;
        } else {
            in_i.assign(cb.data.begin(), cb.data.end());
        }
    } else {
        fetch_features(t, feat, C, H, W, prec, &in_f, &in_i);
        cb.data_valid = true;
        cb.data_addr = feat;
        cb.data_c = C;
        cb.data_h = H;
        cb.data_w = W;
        cb.data_precision = prec;
        cb.data_bytes = in_bytes;
        if (fl) cb.data = in_f; else cb.data.assign(in_i.begin(), in_i.end());
    }

    // ---- weights: fetch or CBUF reuse ----
    const uint32_t waddr = t.get(f::CNA_DCOMP_ADDR);
    std::vector<uint8_t> wbytes;
    if (t.get(f::CNA_WEIGHT_REUSE)) {
        if (!cb.weights_valid || cb.weight_addr != waddr || cb.weight_bytes != weight_bytes) {
            throw SimError("cbuf-uninitialised", "WEIGHT_REUSE set but the CBUF holds no resident weights for " + hex(waddr) +
                                                     " (" + std::to_string(weight_bytes) + " bytes)");
        }
        wbytes = cb.weights;
    } else {
        const uint8_t* wp = t.dma_read(waddr, weight_bytes, "CNA weights");
        wbytes.assign(wp, wp + weight_bytes);
        // Resident for reuse only when all of them fit the weight banks (else they were streamed).
        cb.weights_valid = weight_bytes <= uint64_t{weight_banks} * NpuSimulator::kCbufBankBytes;
        cb.weight_addr = waddr;
        cb.weight_bytes = weight_bytes;
        if (cb.weights_valid) cb.weights = wbytes; else cb.weights.clear();
    }

    // ---- padding value ----
    const uint32_t padv = t.get(f::CNA_PAD_VALUE);
    float pad_f = 0.0f;
    int64_t pad_i = 0;
    if (fl) {
        if (padv > 0xFFFF) t.unmodelled("fp16 PAD_VALUE with upper bits set");
        const uint8_t b[2] = {static_cast<uint8_t>(padv), static_cast<uint8_t>(padv >> 8)};
        pad_f = load_float(b, kFp16);
    } else {
        pad_i = static_cast<int32_t>(padv);
        if (pad_i < -128 || pad_i > 127) t.unmodelled("int8 PAD_VALUE outside -128..127");
    }

    // ---- CORE: MACs ----
    ConvResult r = run_core(t, MacTask{C, H, W, K, Co, Coa, Ho, Wo, kh, kw, sx, sy, pl, pt, bpe, prec, fl, dw,
                                       in_f, in_i, pad_f, pad_i, wbytes});
    t.counters().macs += uint64_t{Wo} * Ho * Co * kw * kh * (dw ? 1 : C);
    return r;
}

}  // namespace npudrv::sim::detail

// PPU pooling fed from memory by PPU_RDMA (flying mode, op_en 0x60).
#include "drv/sim/sim_arithmetic.h"
#include "drv/sim/sim_internal.h"

#include <algorithm>
#include <limits>

namespace npudrv::sim::detail {

namespace rc = npudrv::regcmd;
namespace f = npudrv::regcmd::f;

void run_ppu(TaskExec& t) {
    t.check_block(0x6000, 0x6FFC,
                  {rc::regs::PPU_S_POINTER::POINTER_PP_MODE, rc::regs::PPU_S_POINTER::EXECUTER_PP_EN,
                   rc::regs::PPU_S_POINTER::POINTER_PP_EN, f::PPU_IN_WIDTH, f::PPU_IN_HEIGHT, f::PPU_IN_CHANNEL,
                   f::PPU_OUT_WIDTH, f::PPU_OUT_HEIGHT, f::PPU_OUT_CHANNEL, f::PPU_FLYING_MODE, f::PPU_METHOD,
                   f::PPU_STRIDE_H, f::PPU_STRIDE_W, f::PPU_KERNEL_H, f::PPU_KERNEL_W, f::PPU_RECIP_W, f::PPU_RECIP_H,
                   f::PPU_PAD_BOTTOM, f::PPU_PAD_RIGHT, f::PPU_PAD_TOP, f::PPU_PAD_LEFT, f::PPU_PAD_VALUE_0,
                   f::PPU_PAD_VALUE_1, f::PPU_DST_BASE, f::PPU_DST_SURF_STRIDE,
                   // INDEX_ADD only matters with INDEX_EN (refused below); vendor writes it regardless.
                   f::PPU_INDEX_ADD, f::PPU_PROC_PRECISION, rc::regs::PPU_MISC_CTRL::BURST_LEN});
    t.check_block(0x7000, 0x7FFC,
                  {rc::regs::PPU_RDMA_S_POINTER::POINTER_PP_MODE, rc::regs::PPU_RDMA_S_POINTER::EXECUTER_PP_EN,
                   rc::regs::PPU_RDMA_S_POINTER::POINTER_PP_EN, f::PRDMA_IN_WIDTH, f::PRDMA_IN_HEIGHT,
                   f::PRDMA_IN_CHANNEL, f::PRDMA_SRC_BASE, f::PRDMA_LINE_STRIDE, f::PRDMA_SURF_STRIDE,
                   f::PRDMA_IN_PRECISION});
    t.require(f::PPU_FLYING_MODE, {1}, "only pooling from memory (PPU_RDMA) is modelled");
    const uint32_t method = t.get(f::PPU_METHOD);
    if (method > 2) t.invalid("pooling method 3");
    const uint32_t prec = t.get(f::PPU_PROC_PRECISION);
    if (prec != kInt8 && prec != kFp16) t.unmodelled("PPU precision " + std::to_string(prec));
    const uint32_t rdma_size = t.get(f::PRDMA_IN_PRECISION);  // 1 = 8-bit, 2 = 16-bit
    if (rdma_size != (prec == kInt8 ? 1u : 2u)) t.invalid("PPU_RDMA element size disagrees with the PPU precision");
    const bool fl = is_float(prec);
    const uint32_t W = t.get(f::PPU_IN_WIDTH) + 1, H = t.get(f::PPU_IN_HEIGHT) + 1, C = t.get(f::PPU_IN_CHANNEL) + 1;
    const uint32_t Wo = t.get(f::PPU_OUT_WIDTH) + 1, Ho = t.get(f::PPU_OUT_HEIGHT) + 1;
    if (t.get(f::PRDMA_IN_WIDTH) + 1 != W || t.get(f::PRDMA_IN_HEIGHT) + 1 != H || t.get(f::PRDMA_IN_CHANNEL) + 1 != C) {
        t.invalid("PPU_RDMA cube differs from the PPU input cube");
    }
    if (t.get(f::PPU_OUT_CHANNEL) + 1 != C) t.invalid("PPU output channels differ from input channels");
    t.check_size(uint64_t{W} * H * C, "PPU input cube");
    const uint32_t kw = t.get(f::PPU_KERNEL_W) + 1, kh = t.get(f::PPU_KERNEL_H) + 1;
    const uint32_t sw = t.get(f::PPU_STRIDE_W) + 1, sh = t.get(f::PPU_STRIDE_H) + 1;
    const uint32_t pl = t.get(f::PPU_PAD_LEFT), pr = t.get(f::PPU_PAD_RIGHT), pt = t.get(f::PPU_PAD_TOP), pb = t.get(f::PPU_PAD_BOTTOM);
    if (W + pl + pr < kw || H + pt + pb < kh || (W + pl + pr - kw) / sw + 1 != Wo || (H + pt + pb - kh) / sh + 1 != Ho) {
        t.invalid("pooling output " + std::to_string(Wo) + "x" + std::to_string(Ho) + " inconsistent with input, kernel, stride and padding");
    }
    if (pl >= kw || pr >= kw || pt >= kh || pb >= kh) t.invalid("pooling padding not smaller than the kernel");
    const uint32_t rw = t.get(f::PPU_RECIP_W), rh = t.get(f::PPU_RECIP_H);
    if (method == 0 && (rw == 0 || rh == 0)) t.invalid("average pooling with a zero reciprocal");

    // Pad value: 35-bit two's complement (PAD_VALUE_1 = bits 34:32); fp16: the fp16 bits in the low half.
    const uint32_t pv0 = t.get(f::PPU_PAD_VALUE_0), pv1 = t.get(f::PPU_PAD_VALUE_1);
    int64_t pad_i = 0;
    float pad_f = 0.0f;
    if (fl) {
        if (pv1 != 0 || pv0 > 0xFFFF) t.unmodelled("fp16 pad value beyond 16 bits");
        const uint8_t b[2] = {static_cast<uint8_t>(pv0), static_cast<uint8_t>(pv0 >> 8)};
        pad_f = load_float(b, kFp16);
    } else {
        const int64_t v35 = (int64_t{pv1} << 32) | pv0;
        pad_i = (v35 & (int64_t{1} << 34)) ? v35 - (int64_t{1} << 35) : v35;
    }

    // Input cube (NC1HWC2, programmed line/surface strides in bytes).
    const uint32_t c2 = atom_channels(prec), bpe = bytes_of(prec);
    const uint64_t line = uint64_t{t.get(f::PRDMA_LINE_STRIDE)} * 16, surf = uint64_t{t.get(f::PRDMA_SURF_STRIDE)} * 16;
    if (line < uint64_t{W} * 16) t.invalid("PPU_RDMA line stride below one row");
    const uint64_t span = (H - 1) * line + uint64_t{W} * 16;
    const uint32_t planes = (C + c2 - 1) / c2;
    if (planes > 1 && surf < span) t.invalid("PPU_RDMA surface stride below one plane");
    Cube in;
    in.resize(C, H, W, fl);
    const uint32_t src = t.get(f::PRDMA_SRC_BASE);
    for (uint32_t p = 0; p < planes; ++p) {
        const uint8_t* base = t.dma_read(src + p * surf, span, "PPU_RDMA input");
        for (uint32_t y = 0; y < H; ++y)
            for (uint32_t x = 0; x < W; ++x)
                for (uint32_t e = 0; e < c2 && p * c2 + e < C; ++e) {
                    const uint8_t* q = base + y * line + uint64_t{x} * 16 + e * bpe;
                    const size_t idx = in.index(p * c2 + e, y, x);
                    if (fl) in.f[idx] = load_float(q, prec); else in.i[idx] = load_int(q, prec);
                }
    }
    // Output.
    const uint32_t dst = t.get(f::PPU_DST_BASE) << 4;
    const uint64_t dsurf = uint64_t{t.get(f::PPU_DST_SURF_STRIDE)} * 16;
    const uint64_t ospan = uint64_t{Ho} * Wo * 16;
    if (planes > 1 && dsurf < ospan) t.invalid("PPU DST_SURF_STRIDE below one output plane");
    for (uint32_t p = 0; p < planes; ++p) {
        uint8_t* base = t.dma_write(dst + p * dsurf, ospan, "PPU output");
        for (uint32_t oy = 0; oy < Ho; ++oy)
            for (uint32_t ox = 0; ox < Wo; ++ox)
                for (uint32_t e = 0; e < c2 && p * c2 + e < C; ++e) {
                    const uint32_t c = p * c2 + e;
                    float accf = method == 0 ? 0.0f : method == 1 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
                    int64_t acci = method == 0 ? 0 : method == 1 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
                    for (uint32_t ky = 0; ky < kh; ++ky)
                        for (uint32_t kx = 0; kx < kw; ++kx) {
                            const int y = static_cast<int>(oy * sh + ky) - static_cast<int>(pt);
                            const int x = static_cast<int>(ox * sw + kx) - static_cast<int>(pl);
                            const bool pad = y < 0 || x < 0 || y >= static_cast<int>(H) || x >= static_cast<int>(W);
                            if (fl) {
                                const float v = pad ? pad_f : in.f[in.index(c, static_cast<uint32_t>(y), static_cast<uint32_t>(x))];
                                accf = method == 0 ? accf + v : method == 1 ? std::max(accf, v) : std::min(accf, v);
                            } else {
                                const int64_t v = pad ? pad_i : in.i[in.index(c, static_cast<uint32_t>(y), static_cast<uint32_t>(x))];
                                acci = method == 0 ? acci + v : method == 1 ? std::max(acci, v) : std::min(acci, v);
                            }
                        }
                    uint8_t* q = base + (uint64_t{oy} * Wo + ox) * 16 + e * bpe;
                    if (fl) {
                        store_float(q, prec, method == 0 ? arith::avg_pool_float(accf, rw, rh) : accf);
                    } else {
                        const int64_t v = method == 0 ? arith::avg_pool_int(acci, rw, rh) : acci;
                        store_int(q, prec, arith::saturate(v, int_min(prec), int_max(prec)));
                    }
                }
    }
}

}  // namespace npudrv::sim::detail

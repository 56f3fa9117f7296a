// The packed GEMM convolution's micro-kernel on the ARMv8.6 8-bit matrix multiply (FEAT_I8MM). SMMLA (signed
// codes) / UMMLA (unsigned) multiply a 2x8 block of one register by an 8x2 block of another into a 2x2 block of
// 32-bit accumulators: 32 multiply-adds per instruction, twice an SDOT's. Here the 2x8 block is 8 codes of two
// GEMM rows (two output pixels) and the 8x2 block 8 codes of two output channels, so one accumulator register
// holds [p0 o0, p0 o1, p1 o0, p1 o1].
//
// Weights (packed once by prepare, gemm_pack_i8mm): per tile of 8 channels and group of 8 codes, 64 bytes, one
// 16-byte register per pair of channels. Rows: 8 codes of each of two rows loaded into the two halves of one
// register (16 codes of each, regrouped with ZIP1/ZIP2, in the main loop). A tile of 8 pixels x 8 channels keeps 16
// accumulators live: 32 SMMLA (1024 multiply-adds) per 16 codes for 16 loads and 8 zips, against
// conv1x1_quant.cpp's 64 SDOT for 10 loads.
//
// The arithmetic is the dot-product kernel's: raw codes multiplied modulo 2^32 and the zero points applied
// afterwards with the same corrections (conv1x1_quant.cpp), the same store epilogue: bit-exact with kernels/ref.
// Rows past the end of a short pixel tile repeat its last row (read-only, their results are dropped).
#include <algorithm>
#include <cstring>

#include "kernels/neon/conv1x1_tile.h"

namespace npurun::kernels::neon {

void gemm_pack_i8mm(const uint8_t* w, size_t oc, size_t k, uint8_t* dst) {
    const size_t ocp = (oc + kGemmTileOc - 1) & ~(kGemmTileOc - 1), k8 = (k + 7) & ~size_t(7);
    for (size_t t = 0; t < ocp; t += kGemmTileOc)
        for (size_t i = 0; i < k8; i += 8)
            for (size_t o = t; o < t + kGemmTileOc; ++o)
                for (size_t j = 0; j < 8; ++j) *dst++ = o < oc && i + j < k ? w[o * k + i + j] : 0;
}

#if NPURUN_NEON_NATIVE
namespace {

template <bool S8> NPURUN_I8MM uint32x4_t mmla(uint32x4_t acc, uint8x16_t rows, uint8x16_t cols) {
    if constexpr (S8)
        return vreinterpretq_u32_s32(vmmlaq_s32(vreinterpretq_s32_u32(acc), vreinterpretq_s8_u8(rows), vreinterpretq_s8_u8(cols)));
    else
        return vmmlaq_u32(acc, rows, cols);
}

// 4 codes at p, zero-extended to 8 (the row's last group when its length is 4 modulo 8: reads nothing past it).
NPURUN_I8MM inline uint8x8_t load_4_codes(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return vcreate_u8(uint64_t(v));
}

// Rows r[0..2*NPP) (np of them real) x the 8 channels of weight tile o0 / 8.
template <bool S8, int NPP>
NPURUN_I8MM void tile(const GemmCtx& c, const uint8_t* const* r, const uint32_t* zw_sx, ptrdiff_t p0, ptrdiff_t np,
                      ptrdiff_t o0) {
    const ptrdiff_t k = c.k, k8 = (k + 7) & ~ptrdiff_t(7);
    const uint8_t* wp = c.w + o0 * k8;
    // Four 1-D accumulator arrays (channel pairs q = 0..3), not one 2-D array: GCC keeps these in registers.
    uint32x4_t a0[NPP], a1[NPP], a2[NPP], a3[NPP];
    #pragma GCC unroll 4
    for (int pp = 0; pp < NPP; ++pp) a0[pp] = a1[pp] = a2[pp] = a3[pp] = vdupq_n_u32(0);
    // 16 codes per step: 16 bytes of each row, their 8-byte halves regrouped across two rows (ZIP1/ZIP2 on 64-bit
    // lanes) into the row pairs of two code groups; then groups of 8 for the tail (a row of 4 modulo 8 codes ends
    // in a half group, zero-extended: nothing is read past a row).
#define NPURUN_MMLA_STEP(x, wq)                                                                                   \
    {                                                                                                             \
        const uint8x16_t w0 = vld1q_u8(wq), w1 = vld1q_u8(wq + 16), w2 = vld1q_u8(wq + 32), w3 = vld1q_u8(wq + 48); \
        _Pragma("GCC unroll 4") for (int pp = 0; pp < NPP; ++pp) {                                                \
            a0[pp] = mmla<S8>(a0[pp], x[pp], w0);                                                                 \
            a1[pp] = mmla<S8>(a1[pp], x[pp], w1);                                                                 \
            a2[pp] = mmla<S8>(a2[pp], x[pp], w2);                                                                 \
            a3[pp] = mmla<S8>(a3[pp], x[pp], w3);                                                                 \
        }                                                                                                         \
    }
    ptrdiff_t i = 0;
    for (; i + 16 <= k; i += 16, wp += 128) {
        uint8x16_t lo[NPP], hi[NPP];
        #pragma GCC unroll 4
        for (int pp = 0; pp < NPP; ++pp) {
            const uint64x2_t a = vreinterpretq_u64_u8(vld1q_u8(r[2 * pp] + i)), b = vreinterpretq_u64_u8(vld1q_u8(r[2 * pp + 1] + i));
            lo[pp] = vreinterpretq_u8_u64(vzip1q_u64(a, b));
            hi[pp] = vreinterpretq_u8_u64(vzip2q_u64(a, b));
        }
        NPURUN_MMLA_STEP(lo, wp)
        NPURUN_MMLA_STEP(hi, wp + 64)
    }
    for (; i + 8 <= k; i += 8, wp += 64) {
        uint8x16_t x[NPP];
        #pragma GCC unroll 4
        for (int pp = 0; pp < NPP; ++pp) x[pp] = vcombine_u8(vld1_u8(r[2 * pp] + i), vld1_u8(r[2 * pp + 1] + i));
        NPURUN_MMLA_STEP(x, wp)
    }
    if (i < k) {
        uint8x16_t x[NPP];
        #pragma GCC unroll 4
        for (int pp = 0; pp < NPP; ++pp) x[pp] = vcombine_u8(load_4_codes(r[2 * pp] + i), load_4_codes(r[2 * pp + 1] + i));
        NPURUN_MMLA_STEP(x, wp)
    }
#undef NPURUN_MMLA_STEP
    // Row 2pp + h of pair pp: the low (h = 0) or high 64 bits of each channel pair's accumulator.
    const uint32x4_t c0 = vreinterpretq_u32_s32(vld1q_s32(c.corr + o0)), c1 = vreinterpretq_u32_s32(vld1q_s32(c.corr + o0 + 4));
    const GemmTileStore out(c, p0, o0);
    #pragma GCC unroll 4
    for (int pp = 0; pp < NPP; ++pp) {
        #pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
            const ptrdiff_t p = 2 * pp + h;
            if (p >= np) break;
            const uint64x2_t b0 = vreinterpretq_u64_u32(a0[pp]), b1 = vreinterpretq_u64_u32(a1[pp]);
            const uint64x2_t b2 = vreinterpretq_u64_u32(a2[pp]), b3 = vreinterpretq_u64_u32(a3[pp]);
            const uint32x4_t v0 = vreinterpretq_u32_u64(h == 0 ? vzip1q_u64(b0, b1) : vzip2q_u64(b0, b1));
            const uint32x4_t v1 = vreinterpretq_u32_u64(h == 0 ? vzip1q_u64(b2, b3) : vzip2q_u64(b2, b3));
            const uint32x4_t s = vdupq_n_u32(zw_sx[p]);
            out.row(p, vsubq_u32(vaddq_u32(v0, c0), s), vsubq_u32(vaddq_u32(v1, c1), s));
        }
    }
}

}  // namespace

// Not itself compiled for i8mm: a definition whose target differs from its declaration's would be a separate
// function version to the C++ front end. The micro-kernels it calls are.
template <bool S8>
void gemm_rows_i8mm(const GemmCtx& c, const uint8_t* xp, const uint32_t* zw_sx, ptrdiff_t p0, ptrdiff_t np) {
    const uint8_t* r[8];
    for (ptrdiff_t p = 0; p < 8; ++p) r[p] = xp + std::min(p, np - 1) * c.k;
    for (ptrdiff_t o0 = 0; o0 < c.oc; o0 += ptrdiff_t(kGemmTileOc)) {
        if (np > 4)
            tile<S8, 4>(c, r, zw_sx, p0, np, o0);
        else if (np > 2)
            tile<S8, 2>(c, r, zw_sx, p0, np, o0);
        else
            tile<S8, 1>(c, r, zw_sx, p0, np, o0);
    }
}

template void gemm_rows_i8mm<true>(const GemmCtx&, const uint8_t*, const uint32_t*, ptrdiff_t, ptrdiff_t);
template void gemm_rows_i8mm<false>(const GemmCtx&, const uint8_t*, const uint32_t*, ptrdiff_t, ptrdiff_t);
#endif

}  // namespace npurun::kernels::neon

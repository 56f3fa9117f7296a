// What the packed GEMM convolution's micro-kernels share (conv1x1_quant.cpp drives them): the per-call context,
// the output tile width, and the store of one pixel's 8 output channels through the requantization epilogue.
// The dot-product micro-kernel lives in conv1x1_quant.cpp, the i8mm one in conv1x1_i8mm.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/quantization.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/requantize.h"

namespace npurun::kernels::neon {

// Output channels per weight tile: both packed layouts group the channels in 8s (zero-padded).
constexpr size_t kGemmTileOc = 8;

struct GemmCtx {
    ptrdiff_t k, oc;  // k: codes per GEMM row (the window rounded up to 4, or to 8 for gathered i8mm rows)
    const int32_t* corr;
    const uint8_t* w;
    const uint8_t* x;
    uint8_t* y;
    const int64_t* bias;
    const double* mult;
    uint32_t zw;
    int32_t zo;
    DataType out_type;
    RequantConsts rq;
};

// Output channels o0..c.oc of one pixel, the last, padded tile (fewer than 8 channels).
inline void gemm_store_partial_row(const GemmCtx& c, uint8_t* yp, ptrdiff_t o0, int32x4_t a0, int32x4_t a1) {
    int32_t acc[kGemmTileOc];
    vst1q_s32(acc, a0);
    vst1q_s32(acc + 4, a1);
    for (ptrdiff_t o = o0; o < c.oc; ++o)
        yp[o] = uint8_t(quant::requantize(int64_t(acc[o - o0]) + c.bias[o], c.mult[o], c.zo, c.out_type));
}

// Stores the rows (output pixels) of one tile of 8 output channels from their raw-code accumulators, once the
// zero-point corrections are in (conv1x1_quant.cpp's identity). The channels' bias terms, multipliers and the
// epilogue constants are loaded once per tile into registers: a byte store may alias anything, so read through
// the context they would be reloaded for every row.
class GemmTileStore {
public:
    __attribute__((always_inline)) GemmTileStore(const GemmCtx& c, ptrdiff_t p0, ptrdiff_t o0)
        : c_(c), o0_(o0), oc_(c.oc), full_(o0 + ptrdiff_t(kGemmTileOc) <= c.oc), y_(c.y + p0 * c.oc), rq_(c.rq) {
        if (!full_) return;
        for (int j = 0; j < 4; ++j) {
            b_[j] = vld1q_s64(c.bias + o0 + 2 * j);
            m_[j] = vld1q_f64(c.mult + o0 + 2 * j);
        }
    }
    // Channels o0..o0+7 of row p (from pixel p0): v0 holds o0..o0+3, v1 o0+4..o0+7.
    __attribute__((always_inline)) void row(ptrdiff_t p, uint32x4_t v0, uint32x4_t v1) const {
        const int32x4_t a0 = vreinterpretq_s32_u32(v0), a1 = vreinterpretq_s32_u32(v1);
        uint8_t* yp = y_ + p * oc_;
        if (!full_) return gemm_store_partial_row(c_, yp, o0_, a0, a1);
        vst1_u8(yp + o0_, narrow_to_bytes(requantize_x4(a0, b_[0], b_[1], m_[0], m_[1], rq_),
                                          requantize_x4(a1, b_[2], b_[3], m_[2], m_[3], rq_)));
    }

private:
    const GemmCtx& c_;
    ptrdiff_t o0_, oc_;
    bool full_;
    uint8_t* y_;
    RequantConsts rq_;
    int64x2_t b_[4];
    float64x2_t m_[4];
};

// The i8mm weight layout (conv1x1_i8mm.cpp): w [oc, k] (raw codes) into tiles of 8 channels, and within a tile,
// per group of 8 codes, 64 bytes [o0 k0..k7][o1 k0..k7]...[o7 k0..k7], zero-padded to round_up(k, 8) codes and to
// whole tiles. Writes oc_padded * round_up(k, 8) bytes.
void gemm_pack_i8mm(const uint8_t* w, size_t oc, size_t k, uint8_t* dst);

#if NPURUN_NEON_NATIVE
// Rows xp, xp + c.k, ... (np of them, 1..8; outputs from pixel p0) times every weight tile, on SMMLA (S8) or UMMLA.
// zw_sx[p]: zw times the code sum of row p. Weights in gemm_pack_i8mm's layout with k = c.k rounded up to 8.
template <bool S8>
void gemm_rows_i8mm(const GemmCtx& c, const uint8_t* xp, const uint32_t* zw_sx, ptrdiff_t p0, ptrdiff_t np);
#endif

}  // namespace npurun::kernels::neon

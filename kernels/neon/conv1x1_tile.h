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

// Stores output channels o0..o0+7 of one pixel (fewer in the last, padded tile) from the raw-code accumulators
// v0, v1 once the zero-point corrections are in (conv1x1_quant.cpp's identity).
__attribute__((always_inline)) inline void gemm_store_tile_row(const GemmCtx& c, uint8_t* yp, ptrdiff_t o0, uint32x4_t v0,
                                                               uint32x4_t v1) {
    const int32x4_t a0 = vreinterpretq_s32_u32(v0), a1 = vreinterpretq_s32_u32(v1);
    if (o0 + ptrdiff_t(kGemmTileOc) > c.oc) return gemm_store_partial_row(c, yp, o0, a0, a1);
    vst1_u8(yp + o0, narrow_to_bytes(requantize_x4(a0, c.bias + o0, c.mult + o0, c.rq),
                                     requantize_x4(a1, c.bias + o0 + 4, c.mult + o0 + 4, c.rq)));
}

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

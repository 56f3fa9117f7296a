// Quantized NHWC convolution (QAsymmU8 / QAsymmS8 input and output; weights QAsymmU8, QAsymmS8 or
// QSymmS8 per-tensor or per output channel), bit-exact with kernels/ref.
//
// The pipeline is core/quantization.h's: acc = sum (qx - zx)(qw - zw) exactly in integers, plus
// the bias in accumulator units, then one requantization per output element. The accumulation is
// vectorised; being exact integer arithmetic, its order does not matter, so any blocking or instruction
// choice gives the same acc. Blocks of 4 output channels reduce their accumulators with pairwise adds
// and requantize 4 channels at once (requantize.h: the same IEEE double operations as quant::requantize,
// hence the same bytes); single leftover channels call quant::requantize itself. check() refuses windows with K = KH*KW*I > 33025, where 255*255*K could leave int32 (the NPU's
// accumulator width), so the 32-bit vector accumulators are exact.
//
// Two accumulation paths, same register blocking as conv2d_f32 (4 pixels x 4 output channels):
// - widening (any ARMv8): (qx - zx) and (qw - zw) widened to int16 (vsubl), multiply-accumulated into
//   int32 (vmlal_s16), 8 channels per step.
// - dot product (ARMv8.2 UDOT/SDOT, chosen at run time, see cpu_features.h; u8 x u8 and s8 x s8 only):
//   16 channels per instruction on the raw codes, then the zero points applied with the identity
//   sum (x - zx)(w - zw) = sum xw - zw sum x - zx sum w + K zx zw, computed modulo 2^32; since the true
//   value fits in int32 the wrapped result is exact. Padding taps read a row of zx bytes (real 0), which
//   contributes 0 under both formulas.
#include "kernels/neon/conv2d_quant.h"

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/requantize.h"
#include "kernels/neon/thread_pool.h"
#include "core/quantization.h"

namespace npurun::kernels::neon {
namespace {

struct Ctx {
    ConvGeometry g;
    QuantConvParams q;
    const uint8_t* x;
    const uint8_t* w;
    uint8_t* y;
    QuantTables s;
    bool x_signed, w_signed;
    RequantConsts rq;
};

inline const uint8_t* input_at(const Ctx& c, const uint8_t* xn, ptrdiff_t iy, ptrdiff_t ix) {
    return c.g.inside(iy, ix) ? xn + (iy * c.g.iw + ix) * c.g.ic : c.s.zero_row;
}

// (codes - zero point) of 8 bytes, widened to int16 (exact: |value| <= 255).
inline int16x8_t centered(const uint8_t* p, bool is_signed, int16x8_t zp) {
    const uint8x8_t raw = vld1_u8(p);
    const int16x8_t v = is_signed ? vmovl_s8(vreinterpret_s8_u8(raw)) : vreinterpretq_s16_u16(vmovl_u8(raw));
    return vsubq_s16(v, zp);
}
inline int32_t code(const uint8_t* p, bool is_signed) { return is_signed ? int32_t(int8_t(*p)) : int32_t(*p); }

inline int32_t reduce(int32x4_t v) {
    return vgetq_lane_s32(v, 0) + vgetq_lane_s32(v, 1) + vgetq_lane_s32(v, 2) + vgetq_lane_s32(v, 3);
}

inline void store(const Ctx& c, uint8_t* yrow, ptrdiff_t ox, ptrdiff_t o, int32_t acc) {
    const int32_t q = quant::requantize(int64_t(acc) + c.s.bias[o], c.s.multiplier[o], c.q.output_offset, c.q.output_type);
    yrow[ox * c.g.oc + o] = uint8_t(q);  // int8 outputs: two's complement byte of q
}

// Output channels o0..o0+3 of pixel ox from their accumulators (lane j: channel o0 + j).
inline void store4(const Ctx& c, uint8_t* yrow, ptrdiff_t ox, ptrdiff_t o0, int32x4_t acc) {
    store_4_bytes(yrow + ox * c.g.oc + o0, requantize_x4(acc, c.s.bias + o0, c.s.multiplier + o0, c.rq));
}

// [sum a0, sum a1, sum a2, sum a3]: the horizontal sums of four vectors in three pairwise adds.
inline int32x4_t reduce4(const int32x4_t* a) { return vpaddq_s32(vpaddq_s32(a[0], a[1]), vpaddq_s32(a[2], a[3])); }
inline uint32x4_t reduce4(const uint32x4_t* a) { return vpaddq_u32(vpaddq_u32(a[0], a[1]), vpaddq_u32(a[2], a[3])); }

template <int NP, int NO>
void block_widen(const Ctx& c, const uint8_t* xn, ptrdiff_t oy, const ptrdiff_t* oxs, ptrdiff_t o0, uint8_t* yrow) {
    const ConvGeometry& g = c.g;
    const ptrdiff_t taps = g.kh * g.kw, ic = g.ic, ic8 = ic & ~ptrdiff_t(7), wrow = taps * ic;
    const int16x8_t zx = vdupq_n_s16(int16_t(c.q.input_offset)), zw = vdupq_n_s16(int16_t(c.q.weight_offset));
    int32x4_t acc[NP][NO];
    int32_t tail[NP][NO];
    #pragma GCC unroll 4
    for (int p = 0; p < NP; ++p)
        #pragma GCC unroll 4
        for (int o = 0; o < NO; ++o) {
            acc[p][o] = vdupq_n_s32(0);
            tail[p][o] = 0;
        }
    for (ptrdiff_t t = 0; t < taps; ++t) {
        const ptrdiff_t ky = t / g.kw, kx = t % g.kw;
        const uint8_t* xp[NP];
        #pragma GCC unroll 4
        for (int p = 0; p < NP; ++p) xp[p] = input_at(c, xn, g.in_y(oy, ky), g.in_x(oxs[p], kx));
        const uint8_t* wp[NO];
        #pragma GCC unroll 4
        for (int o = 0; o < NO; ++o) wp[o] = c.w + (o0 + o) * wrow + t * ic;
        for (ptrdiff_t i = 0; i < ic8; i += 8) {
            int16x8_t xv[NP];
            #pragma GCC unroll 4
            for (int p = 0; p < NP; ++p) xv[p] = centered(xp[p] + i, c.x_signed, zx);
            #pragma GCC unroll 4
            for (int o = 0; o < NO; ++o) {
                const int16x8_t wv = centered(wp[o] + i, c.w_signed, zw);
                #pragma GCC unroll 4
                for (int p = 0; p < NP; ++p) {
                    acc[p][o] = vmlal_s16(acc[p][o], vget_low_s16(xv[p]), vget_low_s16(wv));
                    acc[p][o] = vmlal_s16(acc[p][o], vget_high_s16(xv[p]), vget_high_s16(wv));
                }
            }
        }
        for (ptrdiff_t i = ic8; i < ic; ++i)
            #pragma GCC unroll 4
            for (int p = 0; p < NP; ++p)
                #pragma GCC unroll 4
                for (int o = 0; o < NO; ++o)
                    tail[p][o] += (code(xp[p] + i, c.x_signed) - c.q.input_offset) * (code(wp[o] + i, c.w_signed) - c.q.weight_offset);
    }
    if constexpr (NO == 4) {
        #pragma GCC unroll 4
        for (int p = 0; p < NP; ++p) store4(c, yrow, oxs[p], o0, vaddq_s32(reduce4(acc[p]), vld1q_s32(tail[p])));
    } else {
        #pragma GCC unroll 4
        for (int p = 0; p < NP; ++p)
            #pragma GCC unroll 4
            for (int o = 0; o < NO; ++o) store(c, yrow, oxs[p], o0 + o, reduce(acc[p][o]) + tail[p][o]);
    }
}

// Dot-product path. Accumulates raw-code products and the per-pixel sum of input codes in uint32 lanes
// (modulo 2^32), the zero-point terms applied at the end.
template <int NP, int NO>
NPURUN_DOTPROD void block_dot(const Ctx& c, const uint8_t* xn, ptrdiff_t oy, const ptrdiff_t* oxs, ptrdiff_t o0, uint8_t* yrow) {
    const ConvGeometry& g = c.g;
    const ptrdiff_t taps = g.kh * g.kw, ic = g.ic, ic16 = ic & ~ptrdiff_t(15), wrow = taps * ic;
    const bool s8 = c.x_signed;  // == c.w_signed on this path
    const bool need_sum_x = c.q.weight_offset != 0;
    uint32x4_t acc[NP][NO], sx[NP];
    uint32_t tail[NP][NO], tail_sx[NP];
    const uint8x16_t ones = vdupq_n_u8(1);
    #pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) {
        sx[p] = vdupq_n_u32(0);
        tail_sx[p] = 0;
        #pragma GCC unroll 4
        for (int o = 0; o < NO; ++o) {
            acc[p][o] = vdupq_n_u32(0);
            tail[p][o] = 0;
        }
    }
    for (ptrdiff_t t = 0; t < taps; ++t) {
        const ptrdiff_t ky = t / g.kw, kx = t % g.kw;
        const uint8_t* xp[NP];
        #pragma GCC unroll 4
        for (int p = 0; p < NP; ++p) xp[p] = input_at(c, xn, g.in_y(oy, ky), g.in_x(oxs[p], kx));
        const uint8_t* wp[NO];
        #pragma GCC unroll 4
        for (int o = 0; o < NO; ++o) wp[o] = c.w + (o0 + o) * wrow + t * ic;
        for (ptrdiff_t i = 0; i < ic16; i += 16) {
            uint8x16_t xv[NP];
            #pragma GCC unroll 4
            for (int p = 0; p < NP; ++p) xv[p] = vld1q_u8(xp[p] + i);
            if (need_sum_x) {
                #pragma GCC unroll 4
                for (int p = 0; p < NP; ++p)
                    sx[p] = s8 ? vreinterpretq_u32_s32(vdotq_s32(vreinterpretq_s32_u32(sx[p]), vreinterpretq_s8_u8(xv[p]), vreinterpretq_s8_u8(ones)))
                               : vdotq_u32(sx[p], xv[p], ones);
            }
            #pragma GCC unroll 4
            for (int o = 0; o < NO; ++o) {
                const uint8x16_t wv = vld1q_u8(wp[o] + i);
                #pragma GCC unroll 4
                for (int p = 0; p < NP; ++p)
                    acc[p][o] = s8 ? vreinterpretq_u32_s32(vdotq_s32(vreinterpretq_s32_u32(acc[p][o]), vreinterpretq_s8_u8(xv[p]),
                                                                     vreinterpretq_s8_u8(wv)))
                                   : vdotq_u32(acc[p][o], xv[p], wv);
            }
        }
        for (ptrdiff_t i = ic16; i < ic; ++i)
            #pragma GCC unroll 4
            for (int p = 0; p < NP; ++p) {
                const uint32_t xc = uint32_t(code(xp[p] + i, s8));
                tail_sx[p] += xc;
                #pragma GCC unroll 4
                for (int o = 0; o < NO; ++o) tail[p][o] += xc * uint32_t(code(wp[o] + i, s8));
            }
    }
    const uint32_t k = uint32_t(taps * ic), zx = uint32_t(c.q.input_offset), zw = uint32_t(c.q.weight_offset);
    #pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) {
        const uint32x4_t sxv = sx[p];
        const uint32_t sum_x = vgetq_lane_u32(sxv, 0) + vgetq_lane_u32(sxv, 1) + vgetq_lane_u32(sxv, 2) +
                               vgetq_lane_u32(sxv, 3) + tail_sx[p];
        if constexpr (NO == 4) {
            // The same modulo-2^32 expression, 4 channels per vector: the per-pixel terms folded into one.
            const uint32x4_t sum_xw = vaddq_u32(reduce4(acc[p]), vld1q_u32(tail[p]));
            const uint32x4_t sum_w = vreinterpretq_u32_s32(vld1q_s32(c.s.sum_w + o0));
            const uint32x4_t v = vmlsq_n_u32(vsubq_u32(sum_xw, vdupq_n_u32(zw * sum_x - k * zx * zw)), sum_w, zx);
            store4(c, yrow, oxs[p], o0, vreinterpretq_s32_u32(v));
        } else {
            #pragma GCC unroll 4
            for (int o = 0; o < NO; ++o) {
                const uint32x4_t a = acc[p][o];
                const uint32_t sum_xw =
                    vgetq_lane_u32(a, 0) + vgetq_lane_u32(a, 1) + vgetq_lane_u32(a, 2) + vgetq_lane_u32(a, 3) + tail[p][o];
                const uint32_t v = sum_xw - zw * sum_x - zx * uint32_t(c.s.sum_w[o0 + o]) + k * zx * zw;
                store(c, yrow, oxs[p], o0 + o, int32_t(v));
            }
        }
    }
}

template <bool DOT> void run_rows(const Ctx& c, size_t begin, size_t end) {
    const ConvGeometry& g = c.g;
    for (size_t r = begin; r < end; ++r) {
        const ptrdiff_t n = ptrdiff_t(r) / g.oh, oy = ptrdiff_t(r) % g.oh;
        const uint8_t* xn = c.x + n * g.ih * g.iw * g.ic;
        uint8_t* yrow = c.y + ptrdiff_t(r) * g.ow * g.oc;
        ptrdiff_t ox = 0;
        for (; ox + 4 <= g.ow; ox += 4) {
            const ptrdiff_t oxs[4] = {ox, ox + 1, ox + 2, ox + 3};
            ptrdiff_t o = 0;
            for (; o + 4 <= g.oc; o += 4) DOT ? block_dot<4, 4>(c, xn, oy, oxs, o, yrow) : block_widen<4, 4>(c, xn, oy, oxs, o, yrow);
            for (; o < g.oc; ++o) DOT ? block_dot<4, 1>(c, xn, oy, oxs, o, yrow) : block_widen<4, 1>(c, xn, oy, oxs, o, yrow);
        }
        for (; ox < g.ow; ++ox) {
            const ptrdiff_t oxs[1] = {ox};
            ptrdiff_t o = 0;
            for (; o + 4 <= g.oc; o += 4) DOT ? block_dot<1, 4>(c, xn, oy, oxs, o, yrow) : block_widen<1, 4>(c, xn, oy, oxs, o, yrow);
            for (; o < g.oc; ++o) DOT ? block_dot<1, 1>(c, xn, oy, oxs, o, yrow) : block_widen<1, 1>(c, xn, oy, oxs, o, yrow);
        }
    }
}

}  // namespace

bool conv2d_quant_uses_dotprod(const QuantConvParams& q) {
    const bool x_signed = q.input_type != DataType::QAsymmU8, w_signed = q.weight_type != DataType::QAsymmU8;
    return use_dotprod() && x_signed == w_signed;
}

void conv2d_quant(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, const uint8_t* x, const uint8_t* w,
                  uint8_t* y) {
    const Ctx c{g, q, x, w, y, t, q.input_type != DataType::QAsymmU8, q.weight_type != DataType::QAsymmU8,
                requant_consts(q.output_offset, q.output_type)};
    const bool dot = conv2d_quant_uses_dotprod(q);
    const size_t rows = size_t(g.n * g.oh), grain = work_grain(size_t(g.ow * g.oc * g.kh * g.kw * g.ic));
    if (dot)
        parallel_for(rows, grain, [&](size_t b, size_t e) { run_rows<true>(c, b, e); });
    else
        parallel_for(rows, grain, [&](size_t b, size_t e) { run_rows<false>(c, b, e); });
}

}  // namespace npurun::kernels::neon

// Quantized NHWC depthwise convolution, depth multiplier 1, bit-exact with kernels/ref: the same exact
// integer accumulation of (qx - zx)(qw - zw) over the real taps (padding adds 0), the bias in accumulator
// units and one requantization per output (core/quantization.h). Vectorised over 8 channels:
// codes widened to int16 and centred, multiply-accumulated into int32 (vmlal_s16), then requantized 8 at
// a time by requantize_x4 (the same IEEE double operations as quant::requantize, hence the same bytes;
// leftover channels call quant::requantize itself). K = KH*KW <= 33025 keeps the int32 lanes exact
// (checked by the kernel).
#include <algorithm>

#include "kernels/neon/depthwise.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/requantize.h"
#include "kernels/neon/thread_pool.h"
#include "core/quantization.h"

namespace npurun::kernels::neon {
namespace {

inline int16x8_t centered(const uint8_t* p, bool is_signed, int16x8_t zp) {
    const uint8x8_t raw = vld1_u8(p);
    const int16x8_t v = is_signed ? vmovl_s8(vreinterpret_s8_u8(raw)) : vreinterpretq_s16_u16(vmovl_u8(raw));
    return vsubq_s16(v, zp);
}
inline int32_t code(uint8_t b, bool is_signed) { return is_signed ? int32_t(int8_t(b)) : int32_t(b); }

// Requantizes and stores channels ch..ch+7 (accumulators lo: the first 4, hi: the next 4).
inline void store8(const QuantTables& t, const RequantConsts& rq, ptrdiff_t ch, int32x4_t lo, int32x4_t hi, uint8_t* dst) {
    vst1_u8(dst, narrow_to_bytes(requantize_x4(lo, t.bias + ch, t.multiplier + ch, rq),
                                 requantize_x4(hi, t.bias + ch + 4, t.multiplier + ch + 4, rq)));
}

// One output pixel by the general loop, channels ch0..c: the taps clipped to the input (padding adds 0).
void pixel_generic(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, const uint8_t* xn, const uint8_t* w,
                   ptrdiff_t oy, ptrdiff_t ox, ptrdiff_t ch0, uint8_t* out) {
    const ptrdiff_t c = g.oc, c8 = c & ~ptrdiff_t(7);
    const bool xs = q.input_type != DataType::QAsymmU8, ws = q.weight_type != DataType::QAsymmU8;
    const RequantConsts rq = requant_consts(q.output_offset, q.output_type);
    const int16x8_t zx = vdupq_n_s16(int16_t(q.input_offset)), zw = vdupq_n_s16(int16_t(q.weight_offset));
    ptrdiff_t ky0 = 0, ky1 = g.kh, kx0 = 0, kx1 = g.kw;
    while (ky0 < ky1 && (g.in_y(oy, ky0) < 0 || g.in_y(oy, ky0) >= g.ih)) ++ky0;
    while (ky1 > ky0 && (g.in_y(oy, ky1 - 1) < 0 || g.in_y(oy, ky1 - 1) >= g.ih)) --ky1;
    while (kx0 < kx1 && (g.in_x(ox, kx0) < 0 || g.in_x(ox, kx0) >= g.iw)) ++kx0;
    while (kx1 > kx0 && (g.in_x(ox, kx1 - 1) < 0 || g.in_x(ox, kx1 - 1) >= g.iw)) --kx1;
    ptrdiff_t ch = ch0;
    for (; ch < c8; ch += 8) {
        int32x4_t lo = vdupq_n_s32(0), hi = vdupq_n_s32(0);
        for (ptrdiff_t ky = ky0; ky < ky1; ++ky)
            for (ptrdiff_t kx = kx0; kx < kx1; ++kx) {
                const int16x8_t xv = centered(xn + (g.in_y(oy, ky) * g.iw + g.in_x(ox, kx)) * c + ch, xs, zx);
                const int16x8_t wv = centered(w + (ky * g.kw + kx) * c + ch, ws, zw);
                lo = vmlal_s16(lo, vget_low_s16(xv), vget_low_s16(wv));
                hi = vmlal_s16(hi, vget_high_s16(xv), vget_high_s16(wv));
            }
        store8(t, rq, ch, lo, hi, out + ch);
    }
    for (; ch < c; ++ch) {
        int32_t a = 0;
        for (ptrdiff_t ky = ky0; ky < ky1; ++ky)
            for (ptrdiff_t kx = kx0; kx < kx1; ++kx)
                a += (code(xn[(g.in_y(oy, ky) * g.iw + g.in_x(ox, kx)) * c + ch], xs) - q.input_offset) *
                     (code(w[(ky * g.kw + kx) * c + ch], ws) - q.weight_offset);
        out[ch] = uint8_t(quant::requantize(int64_t(a) + t.bias[ch], t.multiplier[ch], q.output_offset, q.output_type));
    }
}

// (x - zx) of 8 codes as int16 (exact, wrapping subtraction of the widened codes: |x - zx| <= 255).
template <bool S8> inline int16x8_t centered8(const uint8_t* p, uint8x8_t zx) {
    if constexpr (S8)
        return vsubl_s8(vreinterpret_s8_u8(vld1_u8(p)), vreinterpret_s8_u8(zx));
    else
        return vreinterpretq_s16_u16(vsubl_u8(vld1_u8(p), zx));
}

// 3x3, dilation 1, one output row: 8 channels at a time with their 9 centred weight vectors held in registers
// across the row. Taps outside the input read the zero-point row (real 0, contributes 0): whole rows of taps
// above or below the input through the row pointers, and in the border columns (taps left or right of the
// input) tap by tap.
template <bool S8>
void row_3x3(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, const uint8_t* xn, const uint8_t* w,
             ptrdiff_t oy, uint8_t* yrow) {
    const ptrdiff_t c = g.oc, c8 = c & ~ptrdiff_t(7), rowb = g.iw * c;
    const bool ws = q.weight_type != DataType::QAsymmU8;
    const RequantConsts rq = requant_consts(q.output_offset, q.output_type);
    const int16x8_t zw = vdupq_n_s16(int16_t(q.weight_offset));
    const uint8x8_t zx = vdup_n_u8(uint8_t(q.input_offset));
    const uint8_t* rows[3];
    for (ptrdiff_t ky = 0; ky < 3; ++ky) {
        const ptrdiff_t iy = g.in_y(oy, ky);
        rows[ky] = iy >= 0 && iy < g.ih ? xn + iy * rowb : t.zero_row;
    }
    // Interior columns [a, b): all three taps inside the input.
    ptrdiff_t a = 0, b = g.ow;
    while (a < b && g.in_x(a, 0) < 0) ++a;
    while (b > a && g.in_x(b - 1, 2) >= g.iw) --b;
    for (ptrdiff_t ch = 0; ch < c8; ch += 8) {
        int16x8_t wv[9];
        for (int k = 0; k < 9; ++k) wv[k] = centered(w + k * c + ch, ws, zw);
        for (ptrdiff_t ox = 0; ox < g.ow; ++ox) {
            if (ox == a && a < b) ox = b;  // the interior columns follow
            if (ox >= g.ow) break;
            int32x4_t lo = vdupq_n_s32(0), hi = vdupq_n_s32(0);
            #pragma GCC unroll 9
            for (int k = 0; k < 9; ++k) {
                const ptrdiff_t ix = g.in_x(ox, k % 3);
                const uint8_t* src = ix >= 0 && ix < g.iw ? rows[k / 3] + ix * c + ch : t.zero_row + ch;
                const int16x8_t xv = centered8<S8>(src, zx);
                lo = vmlal_s16(lo, vget_low_s16(xv), vget_low_s16(wv[k]));
                hi = vmlal_high_s16(hi, xv, wv[k]);
            }
            store8(t, rq, ch, lo, hi, yrow + ox * c + ch);
        }
        for (ptrdiff_t ox = a; ox < b; ++ox) {
            const ptrdiff_t off = g.in_x(ox, 0) * c + ch;
            int32x4_t lo = vdupq_n_s32(0), hi = vdupq_n_s32(0);
            #pragma GCC unroll 9
            for (int k = 0; k < 9; ++k) {
                const int16x8_t xv = centered8<S8>(rows[k / 3] + off + (k % 3) * c, zx);
                lo = vmlal_s16(lo, vget_low_s16(xv), vget_low_s16(wv[k]));
                hi = vmlal_high_s16(hi, xv, wv[k]);
            }
            store8(t, rq, ch, lo, hi, yrow + ox * c + ch);
        }
    }
    if (c8 < c)
        for (ptrdiff_t ox = 0; ox < g.ow; ++ox) pixel_generic(g, q, t, xn, w, oy, ox, c8, yrow + ox * c);
}

// Whether row_3x3 applies: 3x3 taps, dilation 1, and an input zero point that is a code of the input type.
bool fits_3x3(const ConvGeometry& g, const QuantConvParams& q) {
    const bool xs = q.input_type != DataType::QAsymmU8;
    const int32_t lo = xs ? -128 : 0, hi = xs ? 127 : 255;
    return g.kh == 3 && g.kw == 3 && g.dy == 1 && g.dx == 1 && q.input_offset >= lo && q.input_offset <= hi;
}

}  // namespace

size_t depthwise_quant_zero_row_bytes(const ConvGeometry& g) { return size_t(g.iw) * size_t(g.oc); }

void depthwise_quant(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, const uint8_t* x, const uint8_t* w,
                     uint8_t* y) {
    const ptrdiff_t c = g.oc;
    const bool fast = fits_3x3(g, q) && t.zero_row != nullptr, xs = q.input_type != DataType::QAsymmU8;
    const size_t grain = work_grain(size_t(g.kh * g.kw * g.ow * c));
    parallel_for(size_t(g.n * g.oh), grain, [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            const ptrdiff_t n = ptrdiff_t(r) / g.oh, oy = ptrdiff_t(r) % g.oh;
            const uint8_t* xn = x + n * g.ih * g.iw * c;
            uint8_t* yrow = y + ptrdiff_t(r) * g.ow * c;
            if (fast) {
                xs ? row_3x3<true>(g, q, t, xn, w, oy, yrow) : row_3x3<false>(g, q, t, xn, w, oy, yrow);
                continue;
            }
            for (ptrdiff_t ox = 0; ox < g.ow; ++ox) pixel_generic(g, q, t, xn, w, oy, ox, 0, yrow + ox * c);
        }
    });
}

}  // namespace npurun::kernels::neon

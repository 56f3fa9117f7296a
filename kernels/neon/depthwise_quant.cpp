// Quantized NHWC depthwise convolution, depth multiplier 1, bit-exact with kernels/ref: the same exact
// integer accumulation of (qx - zx)(qw - zw) over the real taps (padding adds 0), the bias in accumulator
// units and one requantization per output (core/quantization.h). Vectorised over 8 channels:
// codes widened to int16 and centred, multiply-accumulated into int32 (vmlal_s16), then requantized 8 at
// a time by requantize_x4 (the same IEEE double operations as quant::requantize, hence the same bytes;
// leftover channels call quant::requantize itself). K = KH*KW <= 33025 keeps the int32 lanes exact
// (checked by the kernel).
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

}  // namespace

void depthwise_quant(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, const uint8_t* x, const uint8_t* w,
                     uint8_t* y) {
    const ptrdiff_t c = g.oc, c8 = c & ~ptrdiff_t(7);
    const double* mult = t.multiplier;
    const int64_t* bacc = t.bias;
    const bool xs = q.input_type != DataType::QAsymmU8, ws = q.weight_type != DataType::QAsymmU8;
    const RequantConsts rq = requant_consts(q.output_offset, q.output_type);
    const int16x8_t zx = vdupq_n_s16(int16_t(q.input_offset)), zw = vdupq_n_s16(int16_t(q.weight_offset));
    parallel_for(size_t(g.n * g.oh), 1, [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            const ptrdiff_t n = ptrdiff_t(r) / g.oh, oy = ptrdiff_t(r) % g.oh;
            const uint8_t* xn = x + n * g.ih * g.iw * c;
            for (ptrdiff_t ox = 0; ox < g.ow; ++ox) {
                uint8_t* out = y + (ptrdiff_t(r) * g.ow + ox) * c;
                ptrdiff_t ky0 = 0, ky1 = g.kh, kx0 = 0, kx1 = g.kw;
                while (ky0 < ky1 && (g.in_y(oy, ky0) < 0 || g.in_y(oy, ky0) >= g.ih)) ++ky0;
                while (ky1 > ky0 && (g.in_y(oy, ky1 - 1) < 0 || g.in_y(oy, ky1 - 1) >= g.ih)) --ky1;
                while (kx0 < kx1 && (g.in_x(ox, kx0) < 0 || g.in_x(ox, kx0) >= g.iw)) ++kx0;
                while (kx1 > kx0 && (g.in_x(ox, kx1 - 1) < 0 || g.in_x(ox, kx1 - 1) >= g.iw)) --kx1;
                ptrdiff_t ch = 0;
                for (; ch < c8; ch += 8) {
                    int32x4_t lo = vdupq_n_s32(0), hi = vdupq_n_s32(0);
                    for (ptrdiff_t ky = ky0; ky < ky1; ++ky)
                        for (ptrdiff_t kx = kx0; kx < kx1; ++kx) {
                            const int16x8_t xv = centered(xn + (g.in_y(oy, ky) * g.iw + g.in_x(ox, kx)) * c + ch, xs, zx);
                            const int16x8_t wv = centered(w + (ky * g.kw + kx) * c + ch, ws, zw);
                            lo = vmlal_s16(lo, vget_low_s16(xv), vget_low_s16(wv));
                            hi = vmlal_s16(hi, vget_high_s16(xv), vget_high_s16(wv));
                        }
                    vst1_u8(out + ch, narrow_to_bytes(requantize_x4(lo, bacc + ch, mult + ch, rq),
                                                      requantize_x4(hi, bacc + ch + 4, mult + ch + 4, rq)));
                }
                for (; ch < c; ++ch) {
                    int32_t a = 0;
                    for (ptrdiff_t ky = ky0; ky < ky1; ++ky)
                        for (ptrdiff_t kx = kx0; kx < kx1; ++kx)
                            a += (code(xn[(g.in_y(oy, ky) * g.iw + g.in_x(ox, kx)) * c + ch], xs) - q.input_offset) *
                                 (code(w[(ky * g.kw + kx) * c + ch], ws) - q.weight_offset);
                    out[ch] = uint8_t(quant::requantize(int64_t(a) + bacc[ch], mult[ch], q.output_offset, q.output_type));
                }
            }
        }
    });
}

}  // namespace npurun::kernels::neon

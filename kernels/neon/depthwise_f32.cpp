// Float32 NHWC depthwise convolution with depth multiplier 1 (the MobileNet case).
//
// Vectorised over channels (NHWC keeps them contiguous in input, weights [1,KH,KW,C] and output).
// Summation order per output: taps in (ky, kx) order starting from 0.0, padding taps skipped (they
// add exactly 0.0 in the reference), then the bias: the reference's order. The multiply and add are
// separate roundings (vmlaq_f32 is not fused), so results normally equal kernels/ref bit for bit; the
// stated bound allows for a fused reference: |neon - ref| <= 2*(K+1)*2^-24*(sum|x*w| + |b|), K = KH*KW.
#include "kernels/neon/depthwise.h"

#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {

void depthwise_f32(const ConvGeometry& g, const float* x, const float* w, const float* bias, float* y) {
    const ptrdiff_t c = g.oc, c4 = c & ~ptrdiff_t(3);
    parallel_for(size_t(g.n * g.oh), work_grain(size_t(g.ow * c * g.kh * g.kw)), [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            const ptrdiff_t n = ptrdiff_t(r) / g.oh, oy = ptrdiff_t(r) % g.oh;
            const float* xn = x + n * g.ih * g.iw * c;
            for (ptrdiff_t ox = 0; ox < g.ow; ++ox) {
                float* out = y + (ptrdiff_t(r) * g.ow + ox) * c;
                // The taps inside the input, for this pixel.
                ptrdiff_t ky0 = 0, ky1 = g.kh, kx0 = 0, kx1 = g.kw;
                while (ky0 < ky1 && (g.in_y(oy, ky0) < 0 || g.in_y(oy, ky0) >= g.ih)) ++ky0;
                while (ky1 > ky0 && (g.in_y(oy, ky1 - 1) < 0 || g.in_y(oy, ky1 - 1) >= g.ih)) --ky1;
                while (kx0 < kx1 && (g.in_x(ox, kx0) < 0 || g.in_x(ox, kx0) >= g.iw)) ++kx0;
                while (kx1 > kx0 && (g.in_x(ox, kx1 - 1) < 0 || g.in_x(ox, kx1 - 1) >= g.iw)) --kx1;
                ptrdiff_t ch = 0;
                for (; ch < c4; ch += 4) {
                    float32x4_t acc = vdupq_n_f32(0.0f);
                    for (ptrdiff_t ky = ky0; ky < ky1; ++ky)
                        for (ptrdiff_t kx = kx0; kx < kx1; ++kx) {
                            const float* xp = xn + (g.in_y(oy, ky) * g.iw + g.in_x(ox, kx)) * c + ch;
                            const float* wp = w + (ky * g.kw + kx) * c + ch;
                            acc = vmlaq_f32(acc, vld1q_f32(xp), vld1q_f32(wp));
                        }
                    if (bias) acc = vaddq_f32(acc, vld1q_f32(bias + ch));
                    vst1q_f32(out + ch, acc);
                }
                for (; ch < c; ++ch) {
                    float acc = 0.0f;
                    for (ptrdiff_t ky = ky0; ky < ky1; ++ky)
                        for (ptrdiff_t kx = kx0; kx < kx1; ++kx) {
                            const float prod = xn[(g.in_y(oy, ky) * g.iw + g.in_x(ox, kx)) * c + ch] * w[(ky * g.kw + kx) * c + ch];
                            acc += prod;
                        }
                    if (bias) acc += bias[ch];
                    out[ch] = acc;
                }
            }
        }
    });
}

}  // namespace npurun::kernels::neon

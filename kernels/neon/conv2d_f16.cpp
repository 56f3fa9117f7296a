// The fp16-arithmetic convolution engine (see conv2d_f16.h for the layout and the order of the sums).
#include "kernels/neon/conv2d_f16.h"

#include "core/fp16.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {

size_t conv2d_f16_packed_bytes(size_t oc, size_t k) {
    return (oc + kF16TileOc - 1) / kF16TileOc * kF16TileOc * k * sizeof(uint16_t);
}

void conv2d_f16_pack(const float* w, size_t oc, size_t k, size_t o_stride, size_t k_stride, uint16_t* dst) {
    // FCVTN rounds to nearest even, as fp32_to_fp16 (the reference's rounding) does.
    const size_t tiles = (oc + kF16TileOc - 1) / kF16TileOc;
    for (size_t t = 0; t < tiles; ++t)
        for (size_t j = 0; j < k; ++j, dst += kF16TileOc) {
            float row[kF16TileOc];
            for (size_t l = 0; l < kF16TileOc; ++l) {
                const size_t o = t * kF16TileOc + l;
                row[l] = o < oc ? w[o * o_stride + j * k_stride] : 0.0f;
            }
            for (size_t l = 0; l < kF16TileOc; l += 4)
                vst1_u16(dst + l, vreinterpret_u16_f16(vcvt_f16_f32(vld1q_f32(row + l))));
        }
}

void convert_f32_to_f16(const float* x, size_t count, uint16_t* dst) {
    // FCVTN rounds to nearest even (the FPCR default), as fp32_to_fp16 and the reference do.
    const size_t blocks = count / 8;
    parallel_for(blocks, work_grain(8), [&](size_t b, size_t e) {
        for (size_t i = b * 8; i < e * 8; i += 8) {
            const float16x4_t lo = vcvt_f16_f32(vld1q_f32(x + i)), hi = vcvt_f16_f32(vld1q_f32(x + i + 4));
            vst1q_u16(dst + i, vcombine_u16(vreinterpret_u16_f16(lo), vreinterpret_u16_f16(hi)));
        }
    });
    for (size_t i = blocks * 8; i < count; ++i) dst[i] = fp32_to_fp16(x[i]);
}

#if NPURUN_NEON_NATIVE

#define NPURUN_FP16 __attribute__((target("arch=armv8.2-a+fp16")))

namespace {

struct Ctx {
    ConvGeometry g;
    const __fp16* x;
    const __fp16* zeros;
    const __fp16* w;
    const float* bias;
    float* y;
    size_t k;  // products per output: kh * kw * ic
};

// Product LANE of the 8 in flight: its 16 weights (at wj + LANE * 16) loaded once, times input half LANE of every
// pixel's 8-half register (FMLA by element), into both accumulators of each pixel.
template <int LANE, int NP>
NPURUN_FP16 __attribute__((always_inline)) inline void lane_step(float16x8_t (&acc)[NP][2], const float16x8_t (&xv)[NP],
                                                                 const __fp16* wj) {
    const float16x8_t w0 = vld1q_f16(wj + LANE * kF16TileOc), w1 = vld1q_f16(wj + LANE * kF16TileOc + 8);
#pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) {
        acc[p][0] = vfmaq_laneq_f16(acc[p][0], w0, xv[p], LANE);
        acc[p][1] = vfmaq_laneq_f16(acc[p][1], w1, xv[p], LANE);
    }
}

// NP output pixels (oxs[0..NP)) of row oy of batch item xn, output channels [16 * tile, 16 * tile + 16).
template <int NP>
NPURUN_FP16 void block(const Ctx& c, const __fp16* xn, ptrdiff_t oy, const ptrdiff_t* oxs, size_t tile, float* yrow) {
    const ConvGeometry& g = c.g;
    const ptrdiff_t ic = g.ic, ic8 = ic & ~ptrdiff_t(7);
    float16x8_t acc[NP][2];
#pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) acc[p][0] = acc[p][1] = vdupq_n_f16(0);
    const __fp16* wt = c.w + tile * c.k * kF16TileOc;
    for (ptrdiff_t ky = 0; ky < g.kh; ++ky)
        for (ptrdiff_t kx = 0; kx < g.kw; ++kx) {
            const __fp16* xp[NP];
#pragma GCC unroll 8
            for (int p = 0; p < NP; ++p) {
                const ptrdiff_t iy = g.in_y(oy, ky), ix = g.in_x(oxs[p], kx);
                xp[p] = g.inside(iy, ix) ? xn + (iy * g.iw + ix) * ic : c.zeros;
            }
            const __fp16* wk = wt + size_t((ky * g.kw + kx) * ic) * kF16TileOc;
            for (ptrdiff_t i = 0; i < ic8; i += 8) {
                const __fp16* wj = wk + size_t(i) * kF16TileOc;
                float16x8_t xv[NP];
#pragma GCC unroll 8
                for (int p = 0; p < NP; ++p) xv[p] = vld1q_f16(xp[p] + i);
                lane_step<0>(acc, xv, wj);
                lane_step<1>(acc, xv, wj);
                lane_step<2>(acc, xv, wj);
                lane_step<3>(acc, xv, wj);
                lane_step<4>(acc, xv, wj);
                lane_step<5>(acc, xv, wj);
                lane_step<6>(acc, xv, wj);
                lane_step<7>(acc, xv, wj);
            }
            for (ptrdiff_t i = ic8; i < ic; ++i) {
                const __fp16* wj = wk + size_t(i) * kF16TileOc;
                const float16x8_t w0 = vld1q_f16(wj), w1 = vld1q_f16(wj + 8);
#pragma GCC unroll 8
                for (int p = 0; p < NP; ++p) {
                    const float16x8_t xs = vdupq_n_f16(xp[p][i]);
                    acc[p][0] = vfmaq_f16(acc[p][0], w0, xs);
                    acc[p][1] = vfmaq_f16(acc[p][1], w1, xs);
                }
            }
        }
    // Store: widen (exact), add the fp32 bias in fp32, write the channels that exist.
    const size_t o0 = tile * kF16TileOc, valid = size_t(g.oc) - o0 < kF16TileOc ? size_t(g.oc) - o0 : kF16TileOc;
#pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) {
        float out[kF16TileOc];
        const float32x4_t v[4] = {vcvt_f32_f16(vget_low_f16(acc[p][0])), vcvt_f32_f16(vget_high_f16(acc[p][0])),
                                  vcvt_f32_f16(vget_low_f16(acc[p][1])), vcvt_f32_f16(vget_high_f16(acc[p][1]))};
        for (int q = 0; q < 4; ++q) vst1q_f32(out + 4 * q, v[q]);
        float* dst = yrow + oxs[p] * g.oc + ptrdiff_t(o0);
        if (c.bias)
            for (size_t l = 0; l < valid; ++l) dst[l] = out[l] + c.bias[o0 + l];
        else
            for (size_t l = 0; l < valid; ++l) dst[l] = out[l];
    }
}

// Work items [begin, end): item r * tiles + t is output row r (of n * oh), channel tile t.
NPURUN_FP16 void run_items(const Ctx& c, size_t tiles, size_t begin, size_t end) {
    const ConvGeometry& g = c.g;
    for (size_t item = begin; item < end; ++item) {
        const size_t r = item / tiles, tile = item % tiles;
        const ptrdiff_t n = ptrdiff_t(r) / g.oh, oy = ptrdiff_t(r) % g.oh;
        const __fp16* xn = c.x + n * g.ih * g.iw * g.ic;
        float* yrow = c.y + ptrdiff_t(r) * g.ow * g.oc;
        ptrdiff_t ox = 0;
        for (; ox + 8 <= g.ow; ox += 8) {
            const ptrdiff_t oxs[8] = {ox, ox + 1, ox + 2, ox + 3, ox + 4, ox + 5, ox + 6, ox + 7};
            block<8>(c, xn, oy, oxs, tile, yrow);
        }
        for (; ox + 4 <= g.ow; ox += 4) {
            const ptrdiff_t oxs[4] = {ox, ox + 1, ox + 2, ox + 3};
            block<4>(c, xn, oy, oxs, tile, yrow);
        }
        for (; ox < g.ow; ++ox) {
            const ptrdiff_t oxs[1] = {ox};
            block<1>(c, xn, oy, oxs, tile, yrow);
        }
    }
}

// The taps of output (oy, ox) that fall inside the input: [ky0, ky1) x [kx0, kx1) (padding taps add nothing).
struct TapRange {
    ptrdiff_t ky0, ky1, kx0, kx1;
};
inline TapRange inside_taps(const ConvGeometry& g, ptrdiff_t oy, ptrdiff_t ox) {
    TapRange t{0, g.kh, 0, g.kw};
    while (t.ky0 < t.ky1 && (g.in_y(oy, t.ky0) < 0 || g.in_y(oy, t.ky0) >= g.ih)) ++t.ky0;
    while (t.ky1 > t.ky0 && (g.in_y(oy, t.ky1 - 1) < 0 || g.in_y(oy, t.ky1 - 1) >= g.ih)) --t.ky1;
    while (t.kx0 < t.kx1 && (g.in_x(ox, t.kx0) < 0 || g.in_x(ox, t.kx0) >= g.iw)) ++t.kx0;
    while (t.kx1 > t.kx0 && (g.in_x(ox, t.kx1 - 1) < 0 || g.in_x(ox, t.kx1 - 1) >= g.iw)) --t.kx1;
    return t;
}

// Channels [ch, ch + 8) of one depthwise output pixel; `lanes` of them exist (8, or the tail).
template <bool FULL> NPURUN_FP16 void depthwise_block(const ConvGeometry& g, const __fp16* xn, const __fp16* w,
                                                      const float* bias, ptrdiff_t oy, ptrdiff_t ox, const TapRange& t,
                                                      ptrdiff_t ch, ptrdiff_t c8, ptrdiff_t lanes, float* out) {
    const ptrdiff_t c = g.oc;
    float16x8_t acc = vdupq_n_f16(0);
    for (ptrdiff_t ky = t.ky0; ky < t.ky1; ++ky) {
        const __fp16* xrow = xn + g.in_y(oy, ky) * g.iw * c + ch;
        const __fp16* wrow = w + ky * g.kw * c8 + ch;
        for (ptrdiff_t kx = t.kx0; kx < t.kx1; ++kx) {
            const __fp16* xp = xrow + g.in_x(ox, kx) * c;
            float16x8_t xv;
            if constexpr (FULL) {
                xv = vld1q_f16(xp);
            } else {
                __fp16 tmp[8] = {};
                for (ptrdiff_t l = 0; l < lanes; ++l) tmp[l] = xp[l];
                xv = vld1q_f16(tmp);
            }
            acc = vfmaq_f16(acc, xv, vld1q_f16(wrow + kx * c8));
        }
    }
    float v[8];
    vst1q_f32(v, vcvt_f32_f16(vget_low_f16(acc)));
    vst1q_f32(v + 4, vcvt_f32_f16(vget_high_f16(acc)));
    if (FULL && bias) {
        vst1q_f32(out + ch, vaddq_f32(vld1q_f32(v), vld1q_f32(bias + ch)));
        vst1q_f32(out + ch + 4, vaddq_f32(vld1q_f32(v + 4), vld1q_f32(bias + ch + 4)));
    } else if (bias) {
        for (ptrdiff_t l = 0; l < lanes; ++l) out[ch + l] = v[l] + bias[ch + l];
    } else {
        for (ptrdiff_t l = 0; l < lanes; ++l) out[ch + l] = v[l];
    }
}

NPURUN_FP16 void depthwise_rows(const ConvGeometry& g, const __fp16* x, const __fp16* w, const float* bias, float* y,
                                size_t begin, size_t end) {
    const ptrdiff_t c = g.oc, c8 = (c + 7) & ~ptrdiff_t(7), full = c & ~ptrdiff_t(7);
    for (size_t r = begin; r < end; ++r) {
        const ptrdiff_t n = ptrdiff_t(r) / g.oh, oy = ptrdiff_t(r) % g.oh;
        const __fp16* xn = x + n * g.ih * g.iw * c;
        for (ptrdiff_t ox = 0; ox < g.ow; ++ox) {
            float* out = y + (ptrdiff_t(r) * g.ow + ox) * c;
            const TapRange t = inside_taps(g, oy, ox);
            for (ptrdiff_t ch = 0; ch < full; ch += 8) depthwise_block<true>(g, xn, w, bias, oy, ox, t, ch, c8, 8, out);
            if (full < c) depthwise_block<false>(g, xn, w, bias, oy, ox, t, full, c8, c - full, out);
        }
    }
}

}  // namespace

void depthwise_f16(const ConvGeometry& g, const uint16_t* x16, const uint16_t* w16, const float* bias, float* y) {
    const __fp16* x = reinterpret_cast<const __fp16*>(x16);
    const __fp16* w = reinterpret_cast<const __fp16*>(w16);
    parallel_for(size_t(g.n * g.oh), work_grain(size_t(g.ow * g.oc * g.kh * g.kw)),
                 [&](size_t b, size_t e) { depthwise_rows(g, x, w, bias, y, b, e); });
}

void conv2d_f16(const ConvGeometry& g, const uint16_t* x16, const uint16_t* zero_row, const uint16_t* packed,
                const float* bias, float* y) {
    const size_t k = size_t(g.kh * g.kw * g.ic), tiles = (size_t(g.oc) + kF16TileOc - 1) / kF16TileOc;
    const Ctx c{g,
                reinterpret_cast<const __fp16*>(x16),
                reinterpret_cast<const __fp16*>(zero_row),
                reinterpret_cast<const __fp16*>(packed),
                bias,
                y,
                k};
    const size_t items = size_t(g.n * g.oh) * tiles, grain = work_grain(size_t(g.ow) * kF16TileOc * k);
    parallel_for(items, grain, [&](size_t b, size_t e) { run_items(c, tiles, b, e); });
}

#else

void depthwise_f16(const ConvGeometry&, const uint16_t*, const uint16_t*, const float*, float*) { __builtin_trap(); }

void conv2d_f16(const ConvGeometry&, const uint16_t*, const uint16_t*, const uint16_t*, const float*, float*) {
    // Not reachable: the fp16 kernels refuse every node when fp16_arithmetic_available() is false.
    __builtin_trap();
}

#endif

}  // namespace npurun::kernels::neon

// Float32 NHWC convolution.
//
// Output pixels are processed in blocks of 4 and output channels in blocks of 4: 16 float32x4
// accumulators each sum 4 lanes of the input channels (I) for one (pixel, output channel), i.e. a
// dot product of the NHWC input patch with the [O,KH,KW,I] weight row, both contiguous in I, so no
// weight repacking is needed. Padding taps read a row of zeros (ConvImpl.cpp: padding is 0.0).
// 1x1 (a plain GEMM over pixels) and 3x3 convolutions get tap loops specialised at compile time.
//
// Summation order (fixed, independent of the thread count): lane l of the accumulator sums the
// products with i % 4 == l over all taps in (ky, kx) order; lanes are reduced as (l0+l2)+(l1+l3); the
// I % 4 tail products are summed separately in order and added; then the bias. Against kernels/ref
// (one sequential sum) the difference is bounded by 2*(K+2)*2^-24 * (sum|x*w| + |bias|), K = KH*KW*I.
#include "kernels/neon/conv2d.h"

#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {
namespace {

inline float reduce_lanes(float32x4_t v) {
    const float32x2_t s = vadd_f32(vget_low_f32(v), vget_high_f32(v));  // (l0+l2), (l1+l3)
    return vget_lane_f32(s, 0) + vget_lane_f32(s, 1);
}

struct Ctx {
    ConvGeometry g;
    const float* x;
    const float* w;
    const float* bias;  // nullptr when absent
    float* y;
    const float* zeros;  // ic zeros, for padding taps
};

// Pointer to the ic input channels of pixel (iy, ix) of batch n, or the zero row when it is padding.
inline const float* input_at(const Ctx& c, const float* xn, ptrdiff_t iy, ptrdiff_t ix) {
    return c.g.inside(iy, ix) ? xn + (iy * c.g.iw + ix) * c.g.ic : c.zeros;
}

// NP output pixels (oxs[0..NP)) of row oy x NO output channels starting at o0.
// TAPS: 1 (1x1), 9 (3x3) or 0 (any, read from the geometry).
template <int NP, int NO, int TAPS>
void block(const Ctx& c, const float* xn, ptrdiff_t oy, const ptrdiff_t* oxs, ptrdiff_t o0, float* yrow) {
    const ConvGeometry& g = c.g;
    const ptrdiff_t kw = TAPS == 1 ? 1 : TAPS == 9 ? 3 : g.kw;
    const ptrdiff_t taps = TAPS ? TAPS : g.kh * g.kw;
    const ptrdiff_t ic = g.ic, ic4 = ic & ~ptrdiff_t(3), wrow = taps * ic;
    float32x4_t acc[NP][NO];
    float tail[NP][NO];
    #pragma GCC unroll 4
    for (int p = 0; p < NP; ++p)
        #pragma GCC unroll 4
        for (int o = 0; o < NO; ++o) {
            acc[p][o] = vdupq_n_f32(0.0f);
            tail[p][o] = 0.0f;
        }
    for (ptrdiff_t t = 0; t < taps; ++t) {
        const ptrdiff_t ky = t / kw, kx = t % kw;
        const float* xp[NP];
        #pragma GCC unroll 4
        for (int p = 0; p < NP; ++p) xp[p] = input_at(c, xn, g.in_y(oy, ky), g.in_x(oxs[p], kx));
        const float* wp[NO];
        #pragma GCC unroll 4
        for (int o = 0; o < NO; ++o) wp[o] = c.w + (o0 + o) * wrow + t * ic;
        for (ptrdiff_t i = 0; i < ic4; i += 4) {
            float32x4_t xv[NP];
            #pragma GCC unroll 4
            for (int p = 0; p < NP; ++p) xv[p] = vld1q_f32(xp[p] + i);
            #pragma GCC unroll 4
            for (int o = 0; o < NO; ++o) {
                const float32x4_t wv = vld1q_f32(wp[o] + i);
                #pragma GCC unroll 4
                for (int p = 0; p < NP; ++p) acc[p][o] = fma_f32x4(acc[p][o], xv[p], wv);
            }
        }
        for (ptrdiff_t i = ic4; i < ic; ++i)
            #pragma GCC unroll 4
            for (int p = 0; p < NP; ++p)
                #pragma GCC unroll 4
                for (int o = 0; o < NO; ++o) tail[p][o] += xp[p][i] * wp[o][i];
    }
    #pragma GCC unroll 4
    for (int p = 0; p < NP; ++p)
        #pragma GCC unroll 4
        for (int o = 0; o < NO; ++o) {
            float v = reduce_lanes(acc[p][o]) + tail[p][o];
            if (c.bias) v += c.bias[o0 + o];
            yrow[oxs[p] * g.oc + o0 + o] = v;
        }
}

template <int TAPS> void run_rows(const Ctx& c, size_t begin, size_t end) {
    const ConvGeometry& g = c.g;
    for (size_t r = begin; r < end; ++r) {
        const ptrdiff_t n = ptrdiff_t(r) / g.oh, oy = ptrdiff_t(r) % g.oh;
        const float* xn = c.x + n * g.ih * g.iw * g.ic;
        float* yrow = c.y + ptrdiff_t(r) * g.ow * g.oc;
        ptrdiff_t ox = 0;
        for (; ox + 4 <= g.ow; ox += 4) {
            const ptrdiff_t oxs[4] = {ox, ox + 1, ox + 2, ox + 3};
            ptrdiff_t o = 0;
            for (; o + 4 <= g.oc; o += 4) block<4, 4, TAPS>(c, xn, oy, oxs, o, yrow);
            for (; o < g.oc; ++o) block<4, 1, TAPS>(c, xn, oy, oxs, o, yrow);
        }
        for (; ox < g.ow; ++ox) {
            const ptrdiff_t oxs[1] = {ox};
            ptrdiff_t o = 0;
            for (; o + 4 <= g.oc; o += 4) block<1, 4, TAPS>(c, xn, oy, oxs, o, yrow);
            for (; o < g.oc; ++o) block<1, 1, TAPS>(c, xn, oy, oxs, o, yrow);
        }
    }
}

}  // namespace

void conv2d_f32(const ConvGeometry& g, const float* x, const float* w, const float* bias, float* y, const float* zero_row) {
    const Ctx c{g, x, w, bias, y, zero_row};
    const size_t rows = size_t(g.n * g.oh), grain = work_grain(size_t(g.ow * g.oc * g.kh * g.kw * g.ic));
    if (g.kh == 1 && g.kw == 1)
        parallel_for(rows, grain, [&](size_t b, size_t e) { run_rows<1>(c, b, e); });
    else if (g.kh == 3 && g.kw == 3)
        parallel_for(rows, grain, [&](size_t b, size_t e) { run_rows<9>(c, b, e); });
    else
        parallel_for(rows, grain, [&](size_t b, size_t e) { run_rows<0>(c, b, e); });
}

}  // namespace npurun::kernels::neon

// Float32 FullyConnected: y[n][o] = sum_i x[n][i] * W(o, i) + b[o].
//
// Work is split over blocks of 4 output columns (each block owned by one thread for all rows), so a
// batch-1 layer still uses every thread and no sum is split.
// - weights [O, I] (transpose_weights, the TFLite form): 4 dot products at once, vectorised over I;
//   order as conv2d_f32 (lanes by i % 4, lanes reduced (l0+l2)+(l1+l3), tail, bias).
//   Bound: |neon - ref| <= 2*(I+2)*2^-24*(sum|x*w| + |b|).
// - weights [I, O]: vectorised over O, each output summed sequentially over i with separate multiply
//   and add (the reference's order), then the bias; same stated bound.
#include "kernels/neon/fully_connected.h"

#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {
namespace {

inline float reduce_lanes(float32x4_t v) {
    const float32x2_t s = vadd_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(s, 0) + vget_lane_f32(s, 1);
}

void block_oi(const float* x, const float* w, const float* bias, float* y, size_t ni, size_t in, size_t out, size_t o0, size_t no) {
    const size_t in4 = in & ~size_t(3);
    for (size_t n = 0; n < ni; ++n) {
        const float* xr = x + n * in;
        float32x4_t acc[4] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
        float tail[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < in4; i += 4) {
            const float32x4_t xv = vld1q_f32(xr + i);
            for (size_t o = 0; o < no; ++o) acc[o] = fma_f32x4(acc[o], xv, vld1q_f32(w + (o0 + o) * in + i));
        }
        for (size_t i = in4; i < in; ++i)
            for (size_t o = 0; o < no; ++o) tail[o] += xr[i] * w[(o0 + o) * in + i];
        for (size_t o = 0; o < no; ++o) {
            float v = reduce_lanes(acc[o]) + tail[o];
            if (bias) v += bias[o0 + o];
            y[n * out + o0 + o] = v;
        }
    }
}

void block_io(const float* x, const float* w, const float* bias, float* y, size_t ni, size_t in, size_t out, size_t o0, size_t no) {
    for (size_t n = 0; n < ni; ++n) {
        const float* xr = x + n * in;
        if (no == 4) {
            float32x4_t acc = vdupq_n_f32(0.0f);
            for (size_t i = 0; i < in; ++i) acc = vmlaq_f32(acc, vdupq_n_f32(xr[i]), vld1q_f32(w + i * out + o0));
            if (bias) acc = vaddq_f32(acc, vld1q_f32(bias + o0));
            vst1q_f32(y + n * out + o0, acc);
        } else {
            for (size_t o = o0; o < o0 + no; ++o) {
                float acc = 0.0f;
                for (size_t i = 0; i < in; ++i) {
                    const float prod = xr[i] * w[i * out + o];
                    acc += prod;
                }
                if (bias) acc += bias[o];
                y[n * out + o] = acc;
            }
        }
    }
}

}  // namespace

void fully_connected_f32(const float* x, const float* w, const float* bias, float* y, size_t batch, size_t in,
                         size_t out, bool weights_oi) {
    const size_t blocks = (out + 3) / 4;
    parallel_for(blocks, work_grain(4 * batch * in), [&](size_t b, size_t e) {
        for (size_t blk = b; blk < e; ++blk) {
            const size_t o0 = blk * 4, no = out - o0 < 4 ? out - o0 : 4;
            if (weights_oi) block_oi(x, w, bias, y, batch, in, out, o0, no);
            else block_io(x, w, bias, y, batch, in, out, o0, no);
        }
    });
}

}  // namespace npurun::kernels::neon

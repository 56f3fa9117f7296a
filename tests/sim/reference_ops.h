// Expected values for the simulator's known-answer tests, computed independently of the simulator on
// plain NCHW arrays. ONE place: when kernels/ref lands (another branch), these functions become thin
// calls into it.
//
// Integer semantics follow the simulator's documented arithmetic choices (drv/sim/sim_arithmetic.h):
// int32 accumulation, bias added per channel, requantization y = sat8(round_half_up((acc*scale) >> shift)
// + offset). Float semantics: fp32 accumulation of fp16-representable inputs, rounded once to fp16.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace npudrv::sim::test::ref {

struct ConvShape {
    int c, h, w;       // input
    int k;             // output channels (= c for depthwise)
    int kh, kw, sy, sx, pt, pl, pb, pr;
    bool depthwise = false;
    int ho() const { return (h + pt + pb - kh) / sy + 1; }
    int wo() const { return (w + pl + pr - kw) / sx + 1; }
};

// Accumulators [k][oy][ox]; padding contributes `pad` (0 in all tests). Weights [k][c][kh][kw]
// (depthwise: [c][kh][kw]).
template <typename T, typename Acc>
std::vector<Acc> conv_acc(const ConvShape& s, const std::vector<T>& in, const std::vector<T>& wt) {
    std::vector<Acc> out(size_t(s.k) * s.ho() * s.wo(), Acc(0));
    for (int k = 0; k < s.k; ++k)
        for (int oy = 0; oy < s.ho(); ++oy)
            for (int ox = 0; ox < s.wo(); ++ox) {
                Acc acc = 0;
                const int c0 = s.depthwise ? k : 0, c1 = s.depthwise ? k + 1 : s.c;
                for (int c = c0; c < c1; ++c)
                    for (int ky = 0; ky < s.kh; ++ky)
                        for (int kx = 0; kx < s.kw; ++kx) {
                            const int y = oy * s.sy + ky - s.pt, x = ox * s.sx + kx - s.pl;
                            if (y < 0 || x < 0 || y >= s.h || x >= s.w) continue;
                            const size_t wi = s.depthwise ? (size_t(k) * s.kh + ky) * s.kw + kx
                                                          : ((size_t(k) * s.c + c) * s.kh + ky) * s.kw + kx;
                            acc += Acc(in[(size_t(c) * s.h + y) * s.w + x]) * Acc(wt[wi]);
                        }
                out[(size_t(k) * s.ho() + oy) * s.wo() + ox] = acc;
            }
    return out;
}

inline int64_t round_half_up_shift(int64_t v, int s) { return s == 0 ? v : (v + (int64_t(1) << (s - 1))) >> s; }

inline int8_t requant(int64_t acc, int64_t bias, int scale, int shift, int offset, bool relu) {
    int64_t v = acc + bias;
    if (relu) v = std::max<int64_t>(v, 0);
    v = round_half_up_shift(v * scale, shift) + offset;
    return static_cast<int8_t>(std::clamp<int64_t>(v, -128, 127));
}

// Max pooling on [c][h][w] without padding.
template <typename T>
std::vector<T> max_pool(const std::vector<T>& in, int c, int h, int w, int k, int s) {
    const int ho = (h - k) / s + 1, wo = (w - k) / s + 1;
    std::vector<T> out(size_t(c) * ho * wo);
    for (int ch = 0; ch < c; ++ch)
        for (int oy = 0; oy < ho; ++oy)
            for (int ox = 0; ox < wo; ++ox) {
                T m = in[(size_t(ch) * h + oy * s) * w + ox * s];
                for (int ky = 0; ky < k; ++ky)
                    for (int kx = 0; kx < k; ++kx) m = std::max(m, in[(size_t(ch) * h + oy * s + ky) * w + ox * s + kx]);
                out[(size_t(ch) * ho + oy) * wo + ox] = m;
            }
    return out;
}

// Element-wise add (float).
inline std::vector<float> add(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> out(a.size());
    for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
    return out;
}

}  // namespace npudrv::sim::test::ref

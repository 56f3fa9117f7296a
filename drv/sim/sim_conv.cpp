// CNA (feature/weight fetch, CBUF) + CORE (MAC array) of a convolution task.
#include "drv/sim/sim_arithmetic.h"
#include "drv/sim/sim_internal.h"
#include "drv/sim/sim_vector.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace npudrv::sim::detail {

namespace rc = npudrv::regcmd;
namespace f = npudrv::regcmd::f;


// Fetches a task's feature map from memory: NC1HWC2 with the programmed line / plane strides.
void fetch_features(TaskExec& t, uint32_t feat, uint32_t C, uint32_t H, uint32_t W, uint32_t prec,
                    std::vector<float>* in_f, PooledVector<int64_t>* in_i) {
    const bool fl = is_float(prec);
    const uint32_t bpe = bytes_of(prec), c2 = atom_channels(prec);
    if (t.get(f::CNA_LINE_STRIDE) % 4 != 0) t.unmodelled("LINE_STRIDE not a multiple of 4 (one fetch group = 4 lines)");
    // Reference §6.1: LINE_STRIDE covers a 4-line fetch group; next C1 plane at SURF+LINE (16-byte units).
    const uint64_t row_pitch = uint64_t{t.get(f::CNA_LINE_STRIDE)} / 4 * 16;
    const uint64_t plane_pitch = uint64_t{(t.get(f::CNA_SURF_STRIDE) + t.get(f::CNA_LINE_STRIDE)) & f::CNA_SURF_STRIDE.max_value()} * 16;
    if (row_pitch < uint64_t{W} * 16) t.invalid("feature line pitch " + std::to_string(row_pitch) + " below a row of " + std::to_string(W) + " atoms");
    const uint64_t plane_span = (H - 1) * row_pitch + uint64_t{W} * 16;
    const uint32_t planes = C / c2;
    if (planes > 1 && plane_pitch < plane_span) t.invalid("feature plane pitch " + std::to_string(plane_pitch) + " overlaps the rows of the task");
    // Every element is written below (C is a whole number of atoms), so a float buffer is only resized.
    if (fl)
        in_f->resize(size_t{C} * H * W);
    else
        in_i->pooled_resize(size_t{C} * H * W);
    for (uint32_t p = 0; p < planes; ++p) {
        const uint8_t* base = t.dma_read(uint64_t{feat} + p * plane_pitch, plane_span, "CNA feature");
        t.counters().dma_read_bytes -= plane_span;
        t.counters().dma_read_bytes += uint64_t{H} * W * 16;  // bytes actually transferred
        if (fl) {  // atom by atom (each read once, in address order), its channels inside
            const size_t plane = size_t{H} * W;
            float* out = in_f->data() + size_t{p} * c2 * plane;
            if (prec == kFp16) {
                vec::widen_fp16_plane(base, row_pitch, H, W, out, plane);
                continue;
            }
            for (uint32_t y = 0; y < H; ++y)
                for (uint32_t x = 0; x < W; ++x) {
                    const uint8_t* atom = base + y * row_pitch + size_t{x} * 16;
                    const size_t i = size_t{y} * W + x;
                    for (uint32_t e = 0; e < c2; ++e) out[e * plane + i] = load_float(atom + e * bpe, prec);
                }
            continue;
        }
        for (uint32_t e = 0; e < c2; ++e)
            for (uint32_t y = 0; y < H; ++y) {
                const uint8_t* src = base + y * row_pitch + e * bpe;
                const size_t row = (size_t{p * c2 + e} * H + y) * W;
                if (prec == kInt8) {
                    for (size_t x = 0; x < W; ++x) (*in_i)[row + x] = static_cast<int8_t>(src[x * 16]);
                } else {
                    for (size_t x = 0; x < W; ++x) (*in_i)[row + x] = load_int(src + x * 16, prec);
                }
            }
    }
}

// What the CORE computes from: the task's geometry, its fetched input (float or integer, per the pipeline),
// the padding value and the weight bytes. Decoded once per task from the registers (run_cna_core).
struct MacTask {
    uint32_t C, H, W, K, Co, Coa, Ho, Wo, kh, kw, sx, sy;
    uint32_t dx, dy;  // dilation (CONV_CON3 ATROUS_*_DILATION + 1): tap (ky, kx) reads input (ky * dy, kx * dx)
    int pl, pt;
    uint32_t bpe, prec;
    bool fl, dw;
    const std::vector<float>& in_f;
    const std::vector<int64_t>& in_i;
    float pad_f;
    int64_t pad_i;
    const std::vector<uint8_t>& wbytes;
    uint32_t clip_truncate;  // CORE CLIP_TRUNCATE (integer pipelines)
    uint32_t waddr;          // where the weights were fetched from (the memo's key)
    // Input rows / columns one kernel window covers.
    uint32_t span_h() const { return (kh - 1) * dy + 1; }
    uint32_t span_w() const { return (kw - 1) * dx + 1; }
};

// Rows (or columns) of the task's input with its padding materialised: the input and its top (left) padding, or
// every position the windows read, whichever reaches further. pad_input allocates it; run_cna_core bounds it first.
inline uint64_t padded_extent(uint32_t in, uint32_t pad, uint32_t out, uint32_t stride, uint32_t span) {
    return std::max<uint64_t>(uint64_t{in} + pad, uint64_t{out - 1} * stride + span);
}

namespace {

// The task's input with its padding materialised: one [hp][wp] plane per channel covering every position a
// kernel window reads (padded positions hold the pad value), so the MAC loops need no bounds checks.
// Without padding (most 1x1 convolutions) the planes are the fetched input itself, not a copy.
template <typename T>
struct PaddedInput {
    uint32_t hp = 0, wp = 0;
    PooledVector<T> v;
    const T* base = nullptr;  // v.data(), or the unpadded input
    const T* row(uint32_t c, uint32_t y) const { return base + (size_t{c} * hp + y) * wp; }
};

template <typename T, typename S>
PaddedInput<T> pad_input(const MacTask& m, const std::vector<S>& in, T pad) {
    PaddedInput<T> p;
    const auto pt = static_cast<uint32_t>(m.pt), pl = static_cast<uint32_t>(m.pl);
    p.hp = static_cast<uint32_t>(padded_extent(m.H, pt, m.Ho, m.sy, m.span_h()));
    p.wp = static_cast<uint32_t>(padded_extent(m.W, pl, m.Wo, m.sx, m.span_w()));
    if constexpr (std::is_same_v<T, S>) {
        if (p.hp == m.H && p.wp == m.W) {
            p.base = in.data();
            return p;
        }
    }
    const size_t n = size_t{m.C} * p.hp * p.wp;
    if (pad == T{0} && !std::signbit(static_cast<double>(pad))) {
        p.v.clear();
        p.v.pooled_resize(n);  // value-initialised (+0): a memset
    } else {
        p.v.pooled_assign(n, pad);
    }
    p.base = p.v.data();
    for (uint32_t c = 0; c < m.C; ++c)
        for (uint32_t y = 0; y < m.H; ++y) {
            const S* src = in.data() + (size_t{c} * m.H + y) * m.W;
            T* dst = p.v.data() + (size_t{c} * p.hp + y + pt) * p.wp + pl;
            for (uint32_t x = 0; x < m.W; ++x) dst[x] = static_cast<T>(src[x]);
        }
    return p;
}

// Weights decoded from the CBUF byte order into dense [c][ky][kx][k] (depthwise: [c][ky][kx]). Regular conv
// (reference §6.2): kernels in groups of KG (16 for 16-bit, 32 for int8), channels in groups of 32, order
// [k/KG][c/32][ky][kx][k%KG][c%32]; a partial last kernel/channel group is stored densely (WEIGHT_SIZE0 =
// kernels*kw*kh*Ca*bpe exactly). Depthwise (Mesa int8: [c/64][ky][kx][c%64]): CHOICE for 16-bit types: 64
// bytes of channels per group, i.e. 32 fp16 channels, [c/32][ky][kx][c%32] — no RK3588 capture pins the fp16
// depthwise order down.
template <typename T, typename Load>
std::vector<T> decode_weights(const MacTask& m, Load load) {
    const size_t taps = size_t{m.kh} * m.kw;
    std::vector<T> w;
    if (m.dw) {
        const uint32_t group = 64 / m.bpe;
        w.resize(size_t{m.C} * taps);
        for (uint32_t c = 0; c < m.C; ++c) {
            const uint32_t cg = c / group, cin = c % group, csz = std::min(group, m.C - cg * group);
            for (size_t tap = 0; tap < taps; ++tap) w[c * taps + tap] = load((size_t{cg} * group * taps + tap * csz + cin) * m.bpe);
        }
        return w;
    }
    // The CBUF order walked in address order (block by block), each value put at its dense position.
    const uint32_t kg_size = (m.bpe == 1) ? 32 : 16;
    const size_t ks = m.K;
    w.resize(ks * m.C * taps);
    size_t src = 0;
    for (uint32_t k0 = 0; k0 < m.K; k0 += kg_size) {
        const uint32_t ksz = std::min(kg_size, m.K - k0);
        for (uint32_t c0 = 0; c0 < m.C; c0 += 32) {
            const uint32_t csz = std::min(32u, m.C - c0);
            for (size_t tap = 0; tap < taps; ++tap)
                for (uint32_t kin = 0; kin < ksz; ++kin) {
                    T* dst = w.data() + (size_t{c0} * taps + tap) * ks + k0 + kin;
                    for (uint32_t cin = 0; cin < csz; ++cin, ++src) dst[size_t{cin} * taps * ks] = load(src * m.bpe);
                }
        }
    }
    return w;
}

// acc[i] += v * w[i], i < n (vectorised: drv/meson.build's cost-model flag).
template <typename Acc, typename In>
inline void axpy(Acc* __restrict acc, In v, const In* __restrict w, size_t n) {
    for (size_t i = 0; i < n; ++i) acc[i] += static_cast<Acc>(v * w[i]);
}

// Eight taps at once: acc[i] = ((acc[i] + v0*w0[i]) + v1*w1[i]) + ... + v7*w7[i], the same additions in the
// same order as eight axpy calls, with the accumulator kept in a register (wj = w + j*ks).
template <typename Acc, typename In>
inline void axpy8(Acc* __restrict acc, const In* v, const In* __restrict w, size_t ks) {
    const In v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3], v4 = v[4], v5 = v[5], v6 = v[6], v7 = v[7];
    const In* __restrict w0 = w;
    const In* __restrict w1 = w + ks;
    const In* __restrict w2 = w + 2 * ks;
    const In* __restrict w3 = w + 3 * ks;
    const In* __restrict w4 = w + 4 * ks;
    const In* __restrict w5 = w + 5 * ks;
    const In* __restrict w6 = w + 6 * ks;
    const In* __restrict w7 = w + 7 * ks;
    for (size_t i = 0; i < ks; ++i) {
        Acc a = acc[i];
        a += static_cast<Acc>(v0 * w0[i]);
        a += static_cast<Acc>(v1 * w1[i]);
        a += static_cast<Acc>(v2 * w2[i]);
        a += static_cast<Acc>(v3 * w3[i]);
        a += static_cast<Acc>(v4 * w4[i]);
        a += static_cast<Acc>(v5 * w5[i]);
        a += static_cast<Acc>(v6 * w6[i]);
        a += static_cast<Acc>(v7 * w7[i]);
        acc[i] = a;
    }
}

// acc[i] += p[i*sx] * w over one output row (the contiguous case separate so it vectorises).
template <typename Acc, typename In>
inline void mac_row(Acc* __restrict acc, const In* __restrict p, In w, size_t n, size_t sx) {
    if (sx == 1) {
        for (size_t i = 0; i < n; ++i) acc[i] += static_cast<Acc>(p[i] * w);
    } else {
        for (size_t i = 0; i < n; ++i) acc[i] += static_cast<Acc>(p[i * sx] * w);
    }
}

// The MACs: out[k][oy][ox] (Co x Ho x Wo), each output summed in the order c, ky, kx (the float pipeline's
// fp32 accumulation order; integer sums are exact). Direct conv: per output pixel, all kernels at once
// (weights [c][ky][kx][k], the kernel loop innermost so it vectorises); integer pipelines also put the sum
// of the pixel's input taps (padding included) in sums[oy][ox].
template <typename Acc, typename In>
void mac_direct(const MacTask& m, const PaddedInput<In>& in, const std::vector<In>& w, Acc* out, int64_t* sums) {
    const size_t plane = size_t{m.Ho} * m.Wo, taps = size_t{m.kh} * m.kw, n = taps * m.C, ks = m.K;
    if constexpr (std::is_same_v<Acc, float> && std::is_same_v<In, float>) {
        if (m.sx == 1) {  // a whole output row at once: the same sums, no per-pixel gather and scatter
            std::vector<const float*> tap_rows(n);
            for (uint32_t oy = 0; oy < m.Ho; ++oy) {
                for (uint32_t c = 0, t = 0; c < m.C; ++c)
                    for (uint32_t ky = 0; ky < m.kh; ++ky)
                        for (uint32_t kx = 0; kx < m.kw; ++kx)
                            tap_rows[t++] = in.row(c, oy * m.sy + ky * m.dy) + kx * m.dx;
                vec::direct_row(tap_rows.data(), n, w.data(), ks, m.Wo, out + size_t{oy} * m.Wo, plane);
            }
            return;
        }
    }
    std::vector<Acc> acc(ks);
    std::vector<In> v(n);  // the pixel's input values in tap order (c, ky, kx)
    for (uint32_t oy = 0; oy < m.Ho; ++oy)
        for (uint32_t ox = 0; ox < m.Wo; ++ox) {
            int64_t window = 0;
            for (uint32_t c = 0, t = 0; c < m.C; ++c)
                for (uint32_t ky = 0; ky < m.kh; ++ky) {
                    const In* row = in.row(c, oy * m.sy + ky * m.dy) + size_t{ox} * m.sx;
                    for (uint32_t kx = 0; kx < m.kw; ++kx) v[t++] = row[size_t{kx} * m.dx];
                }
            if (sums != nullptr)
                for (size_t t = 0; t < n; ++t) window += static_cast<int64_t>(v[t]);
            if constexpr (std::is_same_v<Acc, float> && std::is_same_v<In, float>) {
                vec::direct_pixel(v.data(), n, w.data(), ks, acc.data());
            } else {
                std::fill(acc.begin(), acc.end(), Acc{0});
                size_t t = 0;
                for (; t + 8 <= n; t += 8) axpy8(acc.data(), &v[t], w.data() + t * ks, ks);
                for (; t < n; ++t) axpy(acc.data(), v[t], w.data() + t * ks, ks);
            }
            const size_t pix = size_t{oy} * m.Wo + ox;
            for (uint32_t k = 0; k < m.K; ++k) out[k * plane + pix] = acc[k];
            if (sums != nullptr) sums[pix] = window;
        }
}

constexpr uint32_t kMinRowOutputs = 16;

// Integer direct conv by output rows, for rows long enough to vectorise: out[k][oy][:] += w[t][k] * (input row of
// tap t), and sums[oy][:] += the same rows. Integer sums are exact (run_core picks an accumulator that cannot
// overflow), so this other order gives the same bits as the per-pixel loop of mac_direct.
template <typename Acc, typename In>
void mac_direct_rows(const MacTask& m, const PaddedInput<In>& in, const std::vector<In>& w, Acc* out, int64_t* sums) {
    const size_t plane = size_t{m.Ho} * m.Wo, ks = m.K;
    PooledVector<Acc> window;
    window.pooled_assign(m.Wo, Acc{0});
    for (uint32_t oy = 0; oy < m.Ho; ++oy) {
        Acc* out_row = out + size_t{oy} * m.Wo;
        std::fill(window.begin(), window.end(), Acc{0});
        size_t t = 0;
        for (uint32_t c = 0; c < m.C; ++c)
            for (uint32_t ky = 0; ky < m.kh; ++ky)
                for (uint32_t kx = 0; kx < m.kw; ++kx, ++t) {
                    const In* row = in.row(c, oy * m.sy + ky * m.dy) + size_t{kx} * m.dx;
                    const In* wt = w.data() + t * ks;
                    for (uint32_t k = 0; k < m.K; ++k) mac_row(out_row + k * plane, row, wt[k], m.Wo, m.sx);
                    mac_row(window.data(), row, In{1}, m.Wo, m.sx);
                }
        for (uint32_t x = 0; x < m.Wo; ++x) sums[size_t{oy} * m.Wo + x] = static_cast<int64_t>(window[x]);
    }
}

// Depthwise: channel c reads input c only; one output row at a time, order ky, kx. A strided row is
// computed at every input column (contiguous, so it vectorises) and then subsampled: each kept output
// sees exactly the products and additions of the strided loop.
template <typename Acc, typename In>
void mac_depthwise(const MacTask& m, const PaddedInput<In>& in, const std::vector<In>& w, Acc* out) {
    const size_t span = (size_t{m.Wo} - 1) * m.sx + 1;
    std::vector<Acc> full(m.sx == 1 ? 0 : span);
    for (uint32_t c = 0; c < m.C; ++c)
        for (uint32_t oy = 0; oy < m.Ho; ++oy) {
            Acc* acc = out + (size_t{c} * m.Ho + oy) * m.Wo;
            Acc* row_acc = m.sx == 1 ? acc : full.data();
            if (m.sx != 1) std::fill(full.begin(), full.end(), Acc{0});
            const In* wc = w.data() + size_t{c} * m.kh * m.kw;
            bool done = false;
            if constexpr (std::is_same_v<Acc, float> && std::is_same_v<In, float>) {
                if (m.dx == 1 && m.dy == 1) {  // the vector kernel reads adjacent taps
                    vec::depthwise_row(in.row(c, oy * m.sy), in.wp, wc, m.kh, m.kw, m.sx == 1 ? m.Wo : span, row_acc);
                    done = true;
                }
            }
            if (!done) {  // the same taps in the same order (ky, kx), one multiply-add per tap and column
                for (uint32_t ky = 0; ky < m.kh; ++ky) {
                    const In* row = in.row(c, oy * m.sy + ky * m.dy);
                    for (uint32_t kx = 0; kx < m.kw; ++kx)
                        mac_row(row_acc, row + size_t{kx} * m.dx, wc[ky * m.kw + kx], m.sx == 1 ? m.Wo : span, 1);
                }
            }
            if (m.sx != 1)
                for (uint32_t ox = 0; ox < m.Wo; ++ox) acc[ox] = full[size_t{ox} * m.sx];
        }
}

// Integer pipeline: the MACs into acc (Co x Ho x Wo, zeroed) and the input window sums (ConvResult::window_sums:
// per channel for depthwise, else over all channels; padding included) — a depthwise pass with all-ones
// weights, or the direct conv's per-pixel tap sum.
template <typename Acc> void mac_int(const MacTask& m, const PaddedInput<int16_t>& in, const std::vector<int16_t>& w,
                                     Acc* acc, PooledVector<int64_t>& sums) {
    sums.pooled_assign(size_t{m.Ho} * m.Wo * (m.dw ? m.C : 1), 0);
    if (!m.dw) {
        // Rows of 16 or more outputs vectorise along the row; shorter ones along the kernels (mac_direct).
        if (m.Wo >= kMinRowOutputs)
            mac_direct_rows(m, in, w, acc, sums.data());
        else
            mac_direct(m, in, w, acc, sums.data());
        return;
    }
    mac_depthwise(m, in, w, acc);
    PooledVector<int32_t> s;
    s.pooled_assign(sums.size(), 0);
    PooledVector<int16_t> ones;
    ones.pooled_assign(w.size(), 1);
    mac_depthwise(m, in, ones, s.data());
    std::copy(s.begin(), s.end(), sums.begin());
}

// The task's weights in the dense order the MAC loops read, from the memo when the same bytes were decoded
// for the same geometry before (weight_memo.h), else decoded now and kept.
template <typename T>
const std::vector<T>& dense_weights(TaskExec& t, const MacTask& m) {
    const WeightMemo::Geometry g{m.K, m.C, m.kh, m.kw, m.prec, m.dw};
    if (const std::vector<T>* hit = t.weight_memo().find<T>(m.waddr, g, m.wbytes)) return *hit;
    std::vector<T> w;
    if constexpr (std::is_same_v<T, float>) {
        if (m.prec == kFp16) {
            // All weights widened at once by the vector kernel, read as atoms of 8 values: value j lands at
            // wide[(j % 8) * atoms + j / 8]. The last partial atom goes the scalar way.
            const size_t atoms = m.wbytes.size() / 16;
            std::vector<float> wide(atoms * 8);
            vec::widen_fp16_plane(m.wbytes.data(), 0, 1, static_cast<uint32_t>(atoms), wide.data(), atoms);
            w = decode_weights<float>(m, [&](size_t off) {
                const size_t j = off / 2;
                return j < atoms * 8 ? wide[(j % 8) * atoms + j / 8] : load_float(&m.wbytes[off], kFp16);
            });
        } else {
            w = decode_weights<float>(m, [&](size_t off) { return load_float(&m.wbytes[off], m.prec); });
        }
    } else {
        w = decode_weights<int16_t>(m, [&](size_t off) { return static_cast<int16_t>(static_cast<int8_t>(m.wbytes[off])); });
    }
    return t.weight_memo().keep<T>(m.waddr, g, m.wbytes, std::move(w));
}

}  // namespace

// CORE: the MACs of one task (and, int8, the input window sums the DPU's weight-offset term needs).
ConvResult run_core(TaskExec& t, const MacTask& m) {
    ConvResult r;
    r.acc.resize(m.Coa, m.Ho, m.Wo, m.fl);
    r.per_channel_sums = m.dw;
    const size_t n = size_t{m.Co} * m.Ho * m.Wo;
    if (m.fl) {
        // fp16 products accumulated in fp32, order c, ky, kx; channels past Co stay 0.
        const PaddedInput<float> in = pad_input<float>(m, m.in_f, m.pad_f);
        const std::vector<float>& w = dense_weights<float>(t, m);
        if (m.dw) mac_depthwise(m, in, w, r.acc.f.data()); else mac_direct(m, in, w, r.acc.f.data(), nullptr);
        return r;
    }
    // int8 data and weights held as int16 (exact), products in int32.
    const PaddedInput<int16_t> in = pad_input<int16_t>(m, m.in_i, static_cast<int16_t>(m.pad_i));
    const std::vector<int16_t>& w = dense_weights<int16_t>(t, m);
    // int8 x int8 products (|p| <= 2^14): an int32 accumulator cannot overflow below 2^17 products per output;
    // longer sums run in int64 and are checked against the hardware's int32 accumulator.
    const uint64_t products = uint64_t{m.dw ? 1 : m.C} * m.kh * m.kw;
    if (products < (uint64_t{1} << 17)) {
        PooledVector<int32_t> acc;
        acc.pooled_assign(n, 0);
        mac_int(m, in, w, acc.data(), r.window_sums);
        for (size_t i = 0; i < n; ++i) r.acc.i[i] = arith::round_shift(acc[i], m.clip_truncate);
    } else {
        PooledVector<int64_t> acc;
        acc.pooled_assign(n, 0);
        mac_int(m, in, w, acc.data(), r.window_sums);
        for (size_t i = 0; i < n; ++i) {
            if (acc[i] < INT32_MIN || acc[i] > INT32_MAX) t.invalid("int32 accumulator overflow");
            r.acc.i[i] = arith::round_shift(acc[i], m.clip_truncate);
        }
    }
    return r;
}

// What the simulator models of a convolution task; every other non-zero CNA / CORE field refuses it.
void check_modelled_conv_fields(TaskExec& t) {
    t.check_block(
        0x1000, 0x1FFC,
        {f::CNA_PROC_PRECISION, f::CNA_IN_PRECISION, f::CNA_CONV_MODE,
         // no functional effect in a functional model (timing / CBUF scheduling / bursts):
         f::CNA_FEATURE_GRAINS, f::CNA_KERNEL_GROUP, rc::regs::CNA_CONV_CON2::CON2_BIT30,
         rc::regs::CNA_CONV_CON2::CON2_BIT28_29, rc::regs::CNA_CBUF_CON1::DATA_ENTRIES,
         rc::regs::CNA_DMA_CON0::WEIGHT_BURST_LEN, rc::regs::CNA_DMA_CON0::DATA_BURST_LEN,
         rc::regs::CNA_DMA_CON0::OV4K_BYPASS, f::CNA_IN_CHANNEL_REAL, rc::regs::CNA_S_POINTER::POINTER_PP_MODE,
         rc::regs::CNA_S_POINTER::EXECUTER_PP_EN, rc::regs::CNA_S_POINTER::POINTER_PP_EN,
         // read below:
         f::CNA_STRIDE_X, f::CNA_STRIDE_Y, f::CNA_ATROUS_X, f::CNA_ATROUS_Y, f::CNA_IN_WIDTH, f::CNA_IN_HEIGHT,
         f::CNA_IN_CHANNEL, f::CNA_OUT_WIDTH, f::CNA_OUT_ATOMICS, f::CNA_WEIGHT_BYTES, f::CNA_WEIGHT_BYTES_PER_KERNEL,
         f::CNA_WEIGHT_WIDTH, f::CNA_WEIGHT_HEIGHT, f::CNA_WEIGHT_KERNELS, f::CNA_WEIGHT_REUSE, f::CNA_DATA_REUSE,
         f::CNA_WEIGHT_BANK, f::CNA_DATA_BANK, f::CNA_CVT_DATA_SIGN, f::CNA_CVT_BYPASS,
         rc::regs::CNA_CVT_CON0::CVT_TYPE,
         // CVT_CON1..4 are only used when the input converter is not bypassed (checked below):
         rc::regs::CNA_CVT_CON1::CVT_SCALE0, rc::regs::CNA_CVT_CON1::CVT_OFFSET0, rc::regs::CNA_CVT_CON2::CVT_SCALE1,
         rc::regs::CNA_CVT_CON2::CVT_OFFSET1, rc::regs::CNA_CVT_CON3::CVT_SCALE2, rc::regs::CNA_CVT_CON3::CVT_OFFSET2,
         rc::regs::CNA_CVT_CON4::CVT_SCALE3, rc::regs::CNA_CVT_CON4::CVT_OFFSET3, f::CNA_PAD_LEFT, f::CNA_PAD_TOP,
         f::CNA_FEATURE_ADDR, f::CNA_LINE_STRIDE, f::CNA_SURF_STRIDE, f::CNA_DMA_WIDTH, f::CNA_DMA_HEIGHT,
         f::CNA_DMA_CHANNEL, f::CNA_DCOMP_ADDR, f::CNA_PAD_VALUE});
    t.check_block(0x3000, 0x3FFC,
                  {f::CORE_PROC_PRECISION, f::CORE_DW_EN, f::CORE_QD_EN, f::CORE_OUT_HEIGHT, f::CORE_OUT_WIDTH,
                   f::CORE_OUT_CHANNEL, f::CORE_CLIP_TRUNCATE, rc::regs::CORE_S_POINTER::POINTER_PP_MODE,
                   rc::regs::CORE_S_POINTER::EXECUTER_PP_EN, rc::regs::CORE_S_POINTER::POINTER_PP_EN});
    t.require(f::CNA_CVT_BYPASS, {1}, "input converter: only bypass is modelled");
    t.require(f::CNA_CONV_MODE, {0, 3}, "conv mode: direct (0) and depthwise (3) are modelled");
}

ConvResult run_cna_core(TaskExec& t) {
    check_modelled_conv_fields(t);

    const uint32_t prec = t.get(f::CNA_PROC_PRECISION);
    if (prec != kInt8 && prec != kFp16) t.unmodelled("CNA precision " + std::to_string(prec) + " (int8 and fp16 are modelled)");
    if (t.get(f::CNA_IN_PRECISION) != prec) t.unmodelled("CNA IN_PRECISION differs from PROC_PRECISION");
    if (t.get(f::CORE_PROC_PRECISION) != prec) t.invalid("CORE_MISC_CFG.PROC_PRECISION differs from CNA precision");
    if (prec == kInt8 && t.get(f::CNA_CVT_DATA_SIGN) != 1) t.unmodelled("unsigned int8 feature data (DATA_SIGN=0)");
    const bool fl = is_float(prec);
    const bool dw = t.get(f::CNA_CONV_MODE) == 3;
    if (t.get(f::CORE_DW_EN) != (dw ? 1u : 0u)) t.invalid("CORE_MISC_CFG.DW_EN disagrees with CNA conv mode");
    if (fl && t.get(f::CORE_CLIP_TRUNCATE) != 0) t.unmodelled("CLIP_TRUNCATE on a float pipeline");

    const uint32_t bpe = bytes_of(prec), c2 = atom_channels(prec);
    const uint32_t W = t.get(f::CNA_IN_WIDTH), H = t.get(f::CNA_IN_HEIGHT), C = t.get(f::CNA_IN_CHANNEL);
    const uint32_t kw = t.get(f::CNA_WEIGHT_WIDTH), kh = t.get(f::CNA_WEIGHT_HEIGHT), K = t.get(f::CNA_WEIGHT_KERNELS);
    const uint32_t sx = t.get(f::CNA_STRIDE_X), sy = t.get(f::CNA_STRIDE_Y);
    // ASSUMPTION (reference §3 CONV_CON3: "dilation (pads inserted between pixels); >0 enables atrous"): the field holds
    // the number of input pixels skipped between two taps, so dilation d is written d - 1 and 0 is a plain
    // kernel. The weights stay kh x kw (WEIGHT_SIZE2); the window covers (k - 1) * d + 1 input pixels.
    const uint32_t dx = t.get(f::CNA_ATROUS_X) + 1, dy = t.get(f::CNA_ATROUS_Y) + 1;
    const uint32_t span_w = (kw - 1) * dx + 1, span_h = (kh - 1) * dy + 1;
    const int pl = static_cast<int>(t.get(f::CNA_PAD_LEFT)), pt = static_cast<int>(t.get(f::CNA_PAD_TOP));
    const uint32_t Wo = t.get(f::CORE_OUT_WIDTH) + 1, Ho = t.get(f::CORE_OUT_HEIGHT) + 1;
    const uint32_t Coa = t.get(f::CORE_OUT_CHANNEL) + 1;
    if (W == 0 || H == 0 || C == 0) t.invalid("zero input width/height/channels");
    if (kw == 0 || kh == 0 || K == 0) t.invalid("zero kernel size or kernel count");
    if (sx == 0 || sy == 0) t.invalid("zero conv stride");
    if (C % c2 != 0) t.unmodelled("DATAIN_CHANNEL " + std::to_string(C) + " not a multiple of the " + std::to_string(c2) + "-channel atom");
    if (t.get(f::CNA_OUT_WIDTH) != Wo) t.invalid("CNA DATAOUT_WIDTH != CORE DATAOUT_WIDTH+1");
    if (t.get(f::CNA_OUT_ATOMICS) != Wo * Ho) t.invalid("DATAOUT_ATOMICS != Wo*Ho");
    if (t.regs().written(f::CNA_DMA_WIDTH.reg) && (t.get(f::CNA_DMA_WIDTH) != W || t.get(f::CNA_DMA_HEIGHT) != H)) {
        t.unmodelled("FC_DATA_SIZE0 (DMA width/height) differs from DATA_SIZE0");
    }
    if (t.regs().written(f::CNA_DMA_CHANNEL.reg) && t.get(f::CNA_DMA_CHANNEL) != C) t.unmodelled("FC_DATA_SIZE1 differs from DATAIN_CHANNEL");
    // Right/bottom padding is implied by the sizes; more than a kernel of padding, or input left unread
    // beyond one stride, is not a convolution any generator writes.
    const long pr = static_cast<long>(Wo - 1) * sx + span_w - W - pl;
    const long pb = static_cast<long>(Ho - 1) * sy + span_h - H - pt;
    if (pr >= static_cast<long>(span_w) || pb >= static_cast<long>(span_h) || pl >= static_cast<int>(span_w) ||
        pt >= static_cast<int>(span_h) || pr < -static_cast<long>(sx - 1) || pb < -static_cast<long>(sy - 1)) {
        t.invalid("output size " + std::to_string(Wo) + "x" + std::to_string(Ho) + " inconsistent with input " +
                  std::to_string(W) + "x" + std::to_string(H) + ", kernel, stride and padding");
    }
    if (t.get(f::CNA_FEATURE_GRAINS) < span_h) t.invalid("FEATURE_GRAINS below the kernel window's height");
    const uint64_t per_kernel = uint64_t{kw} * kh * C * bpe;
    if (t.get(f::CNA_WEIGHT_BYTES_PER_KERNEL) != per_kernel) t.invalid("WEIGHT_BYTES_PER_KERNEL != kw*kh*channels*bytes");
    if (dw && K != 1) t.invalid("depthwise with WEIGHT_KERNELS != 1");
    const uint64_t weight_bytes = per_kernel * (dw ? 1 : K);
    if (t.get(f::CNA_WEIGHT_BYTES) != weight_bytes) t.invalid("WEIGHT_BYTES != bytes per kernel * kernels");
    const uint32_t Co = dw ? C : K;
    if (Coa < Co) t.invalid("CORE DATAOUT_CHANNEL below the kernels/channels computed");

    t.check_size(uint64_t{Coa} * Ho * Wo, "conv output");
    // The input with its padding materialised (pad_input): a dilated window's implicit right / bottom padding
    // can reach (k - 1) * d pixels, so bound it before anything is allocated.
    t.check_size(
        uint64_t{C} * padded_extent(H, uint32_t(pt), Ho, sy, span_h) * padded_extent(W, uint32_t(pl), Wo, sx, span_w),
        "padded conv input");
    if (uint64_t{Wo} * Ho * Co * kw * kh * (dw ? 1 : C) > TaskExec::kMaxMacs) t.unmodelled("task MAC count above the simulator's limit");

    // ---- CBUF ----
    const uint32_t data_banks = t.get(f::CNA_DATA_BANK), weight_banks = t.get(f::CNA_WEIGHT_BANK);
    if (data_banks + weight_banks > NpuSimulator::kCbufBanks) t.invalid("DATA_BANK + WEIGHT_BANK > 12");
    t.counters().cbuf_data_banks = data_banks;
    t.counters().cbuf_weight_banks = weight_banks;
    const uint64_t in_bytes = uint64_t{W} * H * C * bpe;
    if (in_bytes > uint64_t{data_banks} * NpuSimulator::kCbufBankBytes) {
        throw SimError("cbuf-overflow", "feature data of the task (" + std::to_string(in_bytes) + " bytes) exceeds " +
                                            std::to_string(data_banks) + " data banks");
    }
    if (per_kernel > uint64_t{weight_banks} * NpuSimulator::kCbufBankBytes) {
        throw SimError("cbuf-overflow", "one kernel (" + std::to_string(per_kernel) + " bytes) exceeds " +
                                            std::to_string(weight_banks) + " weight banks");
    }
    CbufContents& cb = t.cbuf();

    // ---- feature fetch (NC1HWC2, programmed strides) or CBUF reuse ----
    const uint32_t feat = t.get(f::CNA_FEATURE_ADDR);
    const CbufFeatureKey key{feat, C, H, W, prec};
    // Float features are fetched straight into the CBUF model and computed from there (no copy); integer
    // ones are computed from int64 and kept in the CBUF as exact floats.
    PooledVector<int64_t> in_i;
    if (t.get(f::CNA_DATA_REUSE)) {
        if (!cb.data_valid || cb.data_key != key) {
            throw SimError("cbuf-uninitialised", "DATA_REUSE set but the CBUF holds no feature data for " + hex(feat) + " " +
                                                     std::to_string(C) + "x" + std::to_string(H) + "x" + std::to_string(W));
        }
        if (!fl) {
            in_i.ensure_capacity(cb.data.size());
            in_i.assign(cb.data.begin(), cb.data.end());
        }
    } else {
        cb.data_valid = false;  // until the fetch succeeds
        fetch_features(t, feat, C, H, W, prec, &cb.data, &in_i);
        cb.data_valid = true;
        cb.data_key = key;
        cb.data_bytes = in_bytes;
        if (!fl) cb.data.assign(in_i.begin(), in_i.end());
    }
    const std::vector<float>& in_f = cb.data;

    // ---- weights: fetch or CBUF reuse ----
    const uint32_t waddr = t.get(f::CNA_DCOMP_ADDR);
    // The weights stay where they are: in the CBUF model when resident, else in a buffer for this task only.
    std::vector<uint8_t> streamed;
    const std::vector<uint8_t>* wbytes = &cb.weights;
    if (t.get(f::CNA_WEIGHT_REUSE)) {
        if (!cb.weights_valid || cb.weight_addr != waddr || cb.weight_bytes != weight_bytes) {
            throw SimError("cbuf-uninitialised", "WEIGHT_REUSE set but the CBUF holds no resident weights for " + hex(waddr) +
                                                     " (" + std::to_string(weight_bytes) + " bytes)");
        }
    } else {
        const uint8_t* wp = t.dma_read(waddr, weight_bytes, "CNA weights");
        // Resident for reuse only when all of them fit the weight banks (else they were streamed).
        cb.weights_valid = weight_bytes <= uint64_t{weight_banks} * NpuSimulator::kCbufBankBytes;
        cb.weight_addr = waddr;
        cb.weight_bytes = weight_bytes;
        if (cb.weights_valid) {
            cb.weights.assign(wp, wp + weight_bytes);
        } else {
            cb.weights.clear();
            streamed.assign(wp, wp + weight_bytes);
            wbytes = &streamed;
        }
    }

    // ---- padding value ----
    const uint32_t padv = t.get(f::CNA_PAD_VALUE);
    float pad_f = 0.0f;
    int64_t pad_i = 0;
    if (fl) {
        if (padv > 0xFFFF) t.unmodelled("fp16 PAD_VALUE with upper bits set");
        const uint8_t b[2] = {static_cast<uint8_t>(padv), static_cast<uint8_t>(padv >> 8)};
        pad_f = load_float(b, kFp16);
    } else {
        pad_i = static_cast<int32_t>(padv);
        if (pad_i < -128 || pad_i > 127) t.unmodelled("int8 PAD_VALUE outside -128..127");
    }

    // ---- CORE: MACs ----
    // clang-format off
    const MacTask task{C, H, W, K, Co, Coa, Ho, Wo, kh, kw, sx, sy, dx, dy, pl, pt, bpe, prec, fl, dw,
                       in_f, in_i, pad_f, pad_i, *wbytes, t.get(f::CORE_CLIP_TRUNCATE), waddr};
    // clang-format on
    ConvResult r = run_core(t, task);
    t.counters().macs += uint64_t{Wo} * Ho * Co * kw * kh * (dw ? 1 : C);
    return r;
}

}  // namespace npudrv::sim::detail

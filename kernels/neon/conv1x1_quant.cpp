// Quantized convolution as a GEMM: y[p, o] = requantize(sum_k (x[p,k] - zx)(w[o,k] - zw) + bias[o]) over the
// output pixels p. A stride-1, unpadded pointwise layer uses its input rows directly (the input pixel of an
// output pixel is the same index); any other window of at most kMaxGatherK codes is gathered, 8 pixels at a
// time, into rows on the stack (padding taps: the zero-point row, as in conv2d_quant.cpp).
//
// Arithmetic (as conv2d_quant.cpp's dot-product path, so bit-exact with kernels/ref): the raw codes are
// multiplied with UDOT/SDOT into 32-bit lanes modulo 2^32, and the zero points applied by the identity
//   sum (x - zx)(w - zw) = sum xw - zw sum x - zx sum w + K zx zw   (mod 2^32),
// exact because the true value fits in int32 (check(): K <= 33025). The per-channel part
// corr[o] = K zx zw - zx sum_w[o] is computed once by conv1x1_pack; the per-pixel sum of the input codes is a
// dot product with a vector of ones, once per tile of 8 pixels (pixel_sums), skipped when zw = 0. Then the
// same requantize_x4 epilogue as every quantized kernel (the IEEE double operations of quant::requantize).
//
// Packed weights (once, in prepare): output channels in tiles of 8 (zero-padded), and within a tile, per group of
// 4 input channels, 32 bytes [o0 k0..k3][o1 k0..k3]...[o7 k0..k3]. One 16-byte register then holds 4 channels x
// 4 codes, and the by-element dot product (vdotq_laneq) multiplies it with 4 codes of one pixel: a tile of
// 8 pixels x 8 channels keeps 16 accumulators, 8 input registers (16 codes of each pixel) and 2 weight
// registers live, 64 dot products (1024 multiply-adds) per 16 input channels for 10 loads.
//
// Threads split the pixel tiles only; every output is computed by one thread in a fixed order.
#include "kernels/neon/conv1x1_quant.h"

#include <algorithm>
#include <cstring>

#include "kernels/neon/conv1x1_tile.h"
#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"

namespace npurun::kernels::neon {
namespace {

constexpr size_t kTileOc = kGemmTileOc;

// Other geometries gather each tile's input windows into a buffer on the stack, rows of this many codes at most.
constexpr size_t kMaxGatherK = 1024;

size_t oc_padded(const ConvGeometry& g) { return (size_t(g.oc) + kTileOc - 1) & ~(kTileOc - 1); }
size_t window(const ConvGeometry& g) { return size_t(g.kh) * size_t(g.kw) * size_t(g.ic); }
size_t window_padded(const ConvGeometry& g) { return (window(g) + 3) & ~size_t(3); }
// Pointwise, stride 1, unpadded, ic a multiple of 4: the input rows are the GEMM's rows as they are.
bool direct(const ConvGeometry& g) {
    return g.kh == 1 && g.kw == 1 && g.sy == 1 && g.sx == 1 && g.pt == 0 && g.pl == 0 && g.ih == g.oh && g.iw == g.ow &&
           g.ic % 4 == 0;
}
// Codes per GEMM row: the input's own rows (direct), else the gathered window zero-padded to the micro-kernel's
// code group (4 for the dot product, 8 for i8mm, whose weights are always padded to 8).
size_t row_codes(const ConvGeometry& g, GemmKernel kernel) {
    return direct(g) || kernel != GemmKernel::I8mm ? window_padded(g) : (window(g) + 7) & ~size_t(7);
}
size_t corr_bytes(const ConvGeometry& g) { return (oc_padded(g) * sizeof(int32_t) + 63) & ~size_t(63); }

// The dot products on raw codes, unsigned (UDOT) or signed (SDOT), all in uint32 lanes (modulo 2^32).
template <bool S8> struct Dot {
    template <int L> NPURUN_DOTPROD static uint32x4_t q(uint32x4_t a, uint8x16_t w, uint8x16_t x) {
        if constexpr (S8)
            return vreinterpretq_u32_s32(
                vdotq_laneq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s8_u8(w), vreinterpretq_s8_u8(x), L));
        else
            return vdotq_laneq_u32(a, w, x, L);
    }
    // The 8-code form: the same lanes L (0 or 1) of the 8 codes repeated in both halves.
    template <int L> NPURUN_DOTPROD static uint32x4_t d(uint32x4_t a, uint8x16_t w, uint8x8_t x) {
        return q<L>(a, w, vcombine_u8(x, x));
    }
    NPURUN_DOTPROD static uint32x4_t sum(uint32x4_t a, uint8x16_t x) {
        if constexpr (S8)
            return vreinterpretq_u32_s32(vdotq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s8_u8(x), vdupq_n_s8(1)));
        else
            return vdotq_u32(a, x, vdupq_n_u8(1));
    }
};

// NP pixels (GEMM rows xp, xp + k, ...; outputs from pixel p0) x the 8 output channels of tile o0 / 8.
// zw_sx[p]: zw times the sum of the codes of row p (pixel_sums).
template <bool S8, int NP>
NPURUN_DOTPROD void tile(const GemmCtx& c, const uint8_t* xp, const uint32_t* zw_sx, ptrdiff_t p0, ptrdiff_t o0) {
    using D = Dot<S8>;
    const ptrdiff_t k = c.k;
    const uint8_t* wp = c.w + o0 * k;
    uint32x4_t a0[NP], a1[NP];
    #pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) a0[p] = a1[p] = vdupq_n_u32(0);
    ptrdiff_t i = 0;
    for (; i + 16 <= k; i += 16, wp += 128) {
        uint8x16_t xv[NP];
        #pragma GCC unroll 8
        for (int p = 0; p < NP; ++p) xv[p] = vld1q_u8(xp + p * k + i);
#define NPURUN_STEP(L)                                                                 \
    {                                                                                  \
        const uint8x16_t w0 = vld1q_u8(wp + 32 * L), w1 = vld1q_u8(wp + 32 * L + 16); \
        _Pragma("GCC unroll 8") for (int p = 0; p < NP; ++p) {                         \
            a0[p] = D::template q<L>(a0[p], w0, xv[p]);                                \
            a1[p] = D::template q<L>(a1[p], w1, xv[p]);                                \
        }                                                                              \
    }
        NPURUN_STEP(0)
        NPURUN_STEP(1)
        NPURUN_STEP(2)
        NPURUN_STEP(3)
#undef NPURUN_STEP
    }
    // Tails of 8 and 4 input channels (k is a multiple of 4): the 8-byte by-element form, zero-extended for the sum.
    for (; i + 4 <= k; i += 8, wp += 64) {
        const bool eight = i + 8 <= k;
        uint8x8_t xv[NP];
        #pragma GCC unroll 8
        for (int p = 0; p < NP; ++p) {
            if (eight) {
                xv[p] = vld1_u8(xp + p * k + i);
            } else {
                uint8_t b[8] = {};
                std::memcpy(b, xp + p * k + i, 4);
                xv[p] = vld1_u8(b);
            }
        }
        const uint8x16_t w0 = vld1q_u8(wp), w1 = vld1q_u8(wp + 16);
        #pragma GCC unroll 8
        for (int p = 0; p < NP; ++p) {
            a0[p] = D::template d<0>(a0[p], w0, xv[p]);
            a1[p] = D::template d<0>(a1[p], w1, xv[p]);
        }
        if (!eight) break;
        const uint8x16_t w2 = vld1q_u8(wp + 32), w3 = vld1q_u8(wp + 48);
        #pragma GCC unroll 8
        for (int p = 0; p < NP; ++p) {
            a0[p] = D::template d<1>(a0[p], w2, xv[p]);
            a1[p] = D::template d<1>(a1[p], w3, xv[p]);
        }
    }
    const uint32x4_t c0 = vreinterpretq_u32_s32(vld1q_s32(c.corr + o0)), c1 = vreinterpretq_u32_s32(vld1q_s32(c.corr + o0 + 4));
    const GemmTileStore out(c, p0, o0);
    #pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) {
        const uint32x4_t s = vdupq_n_u32(zw_sx[p]);
        out.row(p, vsubq_u32(vaddq_u32(a0[p], c0), s), vsubq_u32(vaddq_u32(a1[p], c1), s));
    }
}

// zw_sx[p] = zw * (sum of the k codes of row p), modulo 2^32, for the np rows at xp (all 0 when zw = 0). Rows
// are a multiple of 4 codes; a last partial 16 is summed from the row's last 16 codes with the first ones masked
// off (or from a zero-extended copy in rows shorter than 16).
template <bool S8> NPURUN_DOTPROD void pixel_sums(const GemmCtx& c, const uint8_t* xp, ptrdiff_t np, uint32_t* zw_sx) {
    for (ptrdiff_t p = 0; p < np; ++p) {
        uint32x4_t sx = vdupq_n_u32(0);
        if (c.zw != 0) {
            const uint8_t* row = xp + p * c.k;
            ptrdiff_t i = 0;
            for (; i + 16 <= c.k; i += 16) sx = Dot<S8>::sum(sx, vld1q_u8(row + i));
            if (i < c.k && c.k >= 16) {  // the last 16 codes, those already summed masked off
                static const uint8_t kKeepLast[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                      255, 255, 255, 255, 255, 255, 255, 255,
                                                      255, 255, 255, 255, 255, 255, 255, 255};
                sx = Dot<S8>::sum(sx, vandq_u8(vld1q_u8(row + c.k - 16), vld1q_u8(kKeepLast + (c.k - i))));
            } else if (i < c.k) {
                uint8_t b[16] = {};
                std::memcpy(b, row + i, size_t(c.k - i));
                sx = Dot<S8>::sum(sx, vld1q_u8(b));
            }
        }
        zw_sx[p] = c.zw * vaddvq_u32(sx);
    }
}

// Copies n bytes from src to dst, 16 at a time while a 16-byte read stays inside the input (src_end); the
// stores may run up to 15 bytes past dst + n (the gather buffer has that slack; later bytes overwrite them).
inline void copy_codes(uint8_t* dst, const uint8_t* src, ptrdiff_t n, const uint8_t* src_end) {
    ptrdiff_t j = 0;
    for (; j < n && src_end - (src + j) >= 16; j += 16) vst1q_u8(dst + j, vld1q_u8(src + j));
    for (; j < n; ++j) dst[j] = src[j];
}

// The GEMM rows of output pixels p0..p0+np: each window in [ky][kx][ic] order (taps outside the input read the
// zero-point row), then zeros up to k (code 0 times weight 0: nothing in any sum). A window row wholly inside
// the input with dilation 1 is kw*ic consecutive input bytes, copied in one piece.
void gather(const ConvGeometry& g, const GemmCtx& c, const uint8_t* zero_row, ptrdiff_t p0, ptrdiff_t np, uint8_t* buf) {
    const ptrdiff_t ic = g.ic, per_image = g.oh * g.ow, seg = g.kw * ic;
    const uint8_t* x_end = c.x + g.n * g.ih * g.iw * ic;
    for (ptrdiff_t p = 0; p < np; ++p) {
        const ptrdiff_t pix = p0 + p, n = pix / per_image, oy = pix % per_image / g.ow, ox = pix % g.ow;
        const uint8_t* xn = c.x + n * g.ih * g.iw * ic;
        const ptrdiff_t ix0 = g.in_x(ox, 0);
        const bool cols_inside = g.dx == 1 && ix0 >= 0 && ix0 + g.kw <= g.iw;
        uint8_t* dst = buf + p * c.k;
        for (ptrdiff_t ky = 0; ky < g.kh; ++ky) {
            const ptrdiff_t iy = g.in_y(oy, ky);
            if (cols_inside && iy >= 0 && iy < g.ih) {
                copy_codes(dst, xn + (iy * g.iw + ix0) * ic, seg, x_end);
                dst += seg;
                continue;
            }
            for (ptrdiff_t kx = 0; kx < g.kw; ++kx) {
                const ptrdiff_t ix = g.in_x(ox, kx);
                const uint8_t* src = g.inside(iy, ix) ? xn + (iy * g.iw + ix) * ic : zero_row;
                for (ptrdiff_t j = 0; j < ic; ++j) dst[j] = src[j];
                dst += ic;
            }
        }
        for (uint8_t* end = buf + (p + 1) * c.k; dst < end;) *dst++ = 0;
    }
}

template <bool S8>
void run_tiles(const ConvGeometry& g, const GemmCtx& c, bool i8mm, const uint8_t* zero_row, size_t begin, size_t end) {
    const ptrdiff_t pixels = g.n * g.oh * g.ow;
    const bool gathered = !direct(g);
    alignas(16) uint8_t buf[8 * kMaxGatherK + 16];
    for (size_t t = begin; t < end; ++t) {
        const ptrdiff_t p0 = ptrdiff_t(t) * 8, np = std::min<ptrdiff_t>(8, pixels - p0);
        const uint8_t* rows = c.x + p0 * c.k;
        if (gathered) {
            gather(g, c, zero_row, p0, np, buf);
            rows = buf;
        }
        uint32_t zw_sx[8];
        pixel_sums<S8>(c, rows, np, zw_sx);
#if NPURUN_NEON_NATIVE
        if (i8mm) {
            gemm_rows_i8mm<S8>(c, rows, zw_sx, p0, np);
            continue;
        }
#else
        (void)i8mm;  // never set here: i8mm_available() is false without native NEON
#endif
        for (ptrdiff_t o0 = 0; o0 < c.oc; o0 += ptrdiff_t(kTileOc)) {
            if (np == 8) {
                tile<S8, 8>(c, rows, zw_sx, p0, o0);
                continue;
            }
            ptrdiff_t p = 0;
            if (np >= 4) {
                tile<S8, 4>(c, rows, zw_sx, p0, o0);
                p = 4;
            }
            for (; p < np; ++p) tile<S8, 1>(c, rows + p * c.k, zw_sx + p, p0 + p, o0);
        }
    }
}

}  // namespace

bool conv1x1_quant_fits(const ConvGeometry& g, const QuantConvParams& q) {
    const bool x_signed = q.input_type != DataType::QAsymmU8, w_signed = q.weight_type != DataType::QAsymmU8;
    return g.ic > 0 && x_signed == w_signed && (direct(g) || window_padded(g) <= kMaxGatherK);
}

GemmKernel conv1x1_kernel_in_use() {
    if (!use_dotprod()) return GemmKernel::None;
    return use_i8mm() ? GemmKernel::I8mm : GemmKernel::Dot;
}

GemmKernel conv1x1_kernel_to_pack() {
    const GemmKernel k = conv1x1_kernel_in_use();
    return k == GemmKernel::None ? GemmKernel::Dot : k;
}

bool conv1x1_runs_now(GemmKernel packed) {
    const GemmKernel now = conv1x1_kernel_in_use();
    return packed == GemmKernel::I8mm ? now == GemmKernel::I8mm : packed == GemmKernel::Dot && now != GemmKernel::None;
}

// Room for either layout: the i8mm one (K rounded up to 8) is never smaller than the dot product's (to 4).
size_t conv1x1_packed_bytes(const ConvGeometry& g) { return corr_bytes(g) + oc_padded(g) * ((window(g) + 7) & ~size_t(7)); }

void conv1x1_pack(const ConvGeometry& g, const QuantConvParams& q, GemmKernel kernel, const uint8_t* w, const int32_t* sum_w,
                  uint8_t* packed) {
    const size_t ocp = oc_padded(g), oc = size_t(g.oc), k = window(g), kp = window_padded(g);
    int32_t* corr = reinterpret_cast<int32_t*>(packed);
    const uint32_t zx = uint32_t(q.input_offset), zw = uint32_t(q.weight_offset);
    for (size_t o = 0; o < ocp; ++o)
        corr[o] = o < oc ? int32_t(uint32_t(k) * zx * zw - zx * uint32_t(sum_w[o])) : 0;
    uint8_t* dst = packed + corr_bytes(g);
    if (kernel == GemmKernel::I8mm) return gemm_pack_i8mm(w, oc, k, dst);
    for (size_t t = 0; t < ocp; t += kTileOc)
        for (size_t i = 0; i < kp; i += 4)
            for (size_t o = t; o < t + kTileOc; ++o)
                for (size_t j = 0; j < 4; ++j) *dst++ = o < oc && i + j < k ? w[o * k + i + j] : 0;
}

void conv1x1_quant(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, GemmKernel kernel,
                   const uint8_t* packed, const uint8_t* x, uint8_t* y) {
    const GemmCtx c{ptrdiff_t(row_codes(g, kernel)), g.oc, reinterpret_cast<const int32_t*>(packed), packed + corr_bytes(g), x, y,
                    t.bias, t.multiplier, uint32_t(q.weight_offset), q.output_offset, q.output_type,
                    requant_consts(q.output_offset, q.output_type)};
    const bool i8mm = kernel == GemmKernel::I8mm;
    const ptrdiff_t pixels = g.n * g.oh * g.ow;
    const size_t tiles = size_t(pixels + 7) / 8;
    const size_t macs_per_tile = 8 * window_padded(g) * oc_padded(g);
    const size_t grain = work_grain(macs_per_tile);
    const bool s8 = q.input_type != DataType::QAsymmU8;
    parallel_for(tiles, grain, [&](size_t b, size_t e) {
        s8 ? run_tiles<true>(g, c, i8mm, t.zero_row, b, e) : run_tiles<false>(g, c, i8mm, t.zero_row, b, e);
    });
}

}  // namespace npurun::kernels::neon

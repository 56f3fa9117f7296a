// Portable and AVX2/F16C implementations of the simulator's innermost float loops (definitions: sim_vector.h).
#include "drv/sim/sim_vector.h"

#include "core/fp16.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NPURUN_SIM_AVX2 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace npudrv::sim::detail::vec {

namespace {

// ---- portable ----

void widen_portable(const uint8_t* base, uint64_t row_pitch, uint32_t H, uint32_t W, float* out, size_t plane) {
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x) {
            const uint8_t* atom = base + y * row_pitch + size_t{x} * 16;
            const size_t i = size_t{y} * W + x;
            for (uint32_t e = 0; e < 8; ++e) {
                uint16_t h;
                std::memcpy(&h, atom + 2 * e, 2);
                out[e * plane + i] = npurun::fp16_to_fp32(h);
            }
        }
}

void narrow_portable(const float* src, size_t plane, size_t n, uint8_t* base) {
    for (size_t i = 0; i < n; ++i)
        for (uint32_t e = 0; e < 8; ++e) {
            const uint16_t h = npurun::fp32_to_fp16(src[e * plane + i]);
            std::memcpy(base + i * 16 + 2 * e, &h, 2);
        }
}

// Eight taps per pass with the accumulator in a register; the same additions in the same order as one tap
// per pass.
void direct_pixel_portable(const float* v, size_t n, const float* w, size_t ks, float* acc) {
    for (size_t k = 0; k < ks; ++k) acc[k] = 0.0f;
    size_t t = 0;
    for (; t + 8 <= n; t += 8) {
        const float v0 = v[t], v1 = v[t + 1], v2 = v[t + 2], v3 = v[t + 3], v4 = v[t + 4], v5 = v[t + 5], v6 = v[t + 6], v7 = v[t + 7];
        const float* __restrict w0 = w + t * ks;
        for (size_t k = 0; k < ks; ++k) {
            float a = acc[k];
            a += v0 * w0[k];
            a += v1 * w0[ks + k];
            a += v2 * w0[2 * ks + k];
            a += v3 * w0[3 * ks + k];
            a += v4 * w0[4 * ks + k];
            a += v5 * w0[5 * ks + k];
            a += v6 * w0[6 * ks + k];
            a += v7 * w0[7 * ks + k];
            acc[k] = a;
        }
    }
    for (; t < n; ++t) {
        const float* __restrict wt = w + t * ks;
        for (size_t k = 0; k < ks; ++k) acc[k] += v[t] * wt[k];
    }
}

void direct_row_portable(const float* const* taps, size_t nt, const float* w, size_t ks, size_t n, float* out, size_t plane) {
    for (size_t k = 0; k < ks; ++k) {
        float* o = out + k * plane;
        for (size_t x = 0; x < n; ++x) o[x] = 0.0f;
        for (size_t t = 0; t < nt; ++t) {
            const float* __restrict p = taps[t];
            const float wv = w[t * ks + k];
            for (size_t x = 0; x < n; ++x) o[x] += p[x] * wv;
        }
    }
}

void depthwise_row_portable(const float* in, size_t row_stride, const float* wt, uint32_t kh, uint32_t kw, size_t n, float* acc) {
    for (size_t i = 0; i < n; ++i) acc[i] = 0.0f;
    for (uint32_t ky = 0; ky < kh; ++ky)
        for (uint32_t kx = 0; kx < kw; ++kx) {
            const float* __restrict p = in + ky * row_stride + kx;
            const float wv = wt[ky * kw + kx];
            for (size_t i = 0; i < n; ++i) acc[i] += p[i] * wv;
        }
}

const Kernels kPortable{widen_portable, narrow_portable, direct_pixel_portable, direct_row_portable, depthwise_row_portable};

#ifdef NPURUN_SIM_AVX2
// ---- AVX2 + F16C (no FMA: see sim_vector.h) ----
#define NPURUN_AVX2 __attribute__((target("avx2,f16c")))
// Every AVX2 function clears the upper register halves (vzeroupper) before it calls portable code or
// returns. The compiler does so at a plain return, but not before a tail call (seen with GCC 12): the
// dirty upper state then made every later SSE instruction of the process slow (the CPU path ran 3x slower
// after one simulated inference).

// r[j] (element e) -> r[e] (element j), 8x8 floats.
NPURUN_AVX2 inline void transpose8(__m256 r[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)), s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)), s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

// VCVTPH2PS quiets a signalling NaN (sets the float's top mantissa bit), fp16_to_fp32 keeps it as it is: a
// group of 8 atoms holding any infinity or NaN (exponent all ones) takes the portable path.
NPURUN_AVX2 void widen_avx2(const uint8_t* base, uint64_t row_pitch, uint32_t H, uint32_t W, float* out, size_t plane) {
    const __m128i exp_mask = _mm_set1_epi16(0x7C00);
    for (uint32_t y = 0; y < H; ++y) {
        const uint8_t* row = base + y * row_pitch;
        const size_t i0 = size_t{y} * W;
        uint32_t x = 0;
        for (; x + 8 <= W; x += 8) {
            __m128i a[8];
            __m128i special = _mm_setzero_si128();
            for (int j = 0; j < 8; ++j) {
                a[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + (size_t{x} + j) * 16));
                special = _mm_or_si128(special, _mm_cmpeq_epi16(_mm_and_si128(a[j], exp_mask), exp_mask));
            }
            if (_mm_movemask_epi8(special) != 0) {
                _mm256_zeroupper();
                widen_portable(row + size_t{x} * 16, 0, 1, 8, out + i0 + x, plane);
                continue;
            }
            __m256 r[8];
            for (int j = 0; j < 8; ++j) r[j] = _mm256_cvtph_ps(a[j]);
            transpose8(r);
            for (int e = 0; e < 8; ++e) _mm256_storeu_ps(out + e * plane + i0 + x, r[e]);
        }
        if (x < W) {
            _mm256_zeroupper();
            widen_portable(row + size_t{x} * 16, 0, 1, W - x, out + i0 + x, plane);
        }
    }
}

// VCVTPS2PH with round-to-nearest-even equals fp32_to_fp16 for every float, NaN included (quiet bit set,
// top payload bits kept): sim_vector_test checks a sweep of all floats.
NPURUN_AVX2 void narrow_avx2(const float* src, size_t plane, size_t n, uint8_t* base) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 r[8];
        for (int e = 0; e < 8; ++e) r[e] = _mm256_loadu_ps(src + e * plane + i);
        transpose8(r);
        for (int j = 0; j < 8; ++j) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(base + (i + j) * 16), _mm256_cvtps_ph(r[j], _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        }
    }
    if (i < n) {
        _mm256_zeroupper();
        narrow_portable(src + i, plane, n - i, base + i * 16);
    }
}

NPURUN_AVX2 void direct_pixel_avx2(const float* v, size_t n, const float* w, size_t ks, float* acc) {
    size_t k = 0;
    for (; k + 32 <= ks; k += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        const float* wt = w + k;
        for (size_t t = 0; t < n; ++t, wt += ks) {
            const __m256 b = _mm256_set1_ps(v[t]);
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(b, _mm256_loadu_ps(wt)));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(b, _mm256_loadu_ps(wt + 8)));
            a2 = _mm256_add_ps(a2, _mm256_mul_ps(b, _mm256_loadu_ps(wt + 16)));
            a3 = _mm256_add_ps(a3, _mm256_mul_ps(b, _mm256_loadu_ps(wt + 24)));
        }
        _mm256_storeu_ps(acc + k, a0);
        _mm256_storeu_ps(acc + k + 8, a1);
        _mm256_storeu_ps(acc + k + 16, a2);
        _mm256_storeu_ps(acc + k + 24, a3);
    }
    for (; k + 16 <= ks; k += 16) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0;
        const float* wt = w + k;
        for (size_t t = 0; t < n; ++t, wt += ks) {
            const __m256 b = _mm256_set1_ps(v[t]);
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(b, _mm256_loadu_ps(wt)));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(b, _mm256_loadu_ps(wt + 8)));
        }
        _mm256_storeu_ps(acc + k, a0);
        _mm256_storeu_ps(acc + k + 8, a1);
    }
    for (; k + 8 <= ks; k += 8) {
        __m256 a0 = _mm256_setzero_ps();
        const float* wt = w + k;
        for (size_t t = 0; t < n; ++t, wt += ks) a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_set1_ps(v[t]), _mm256_loadu_ps(wt)));
        _mm256_storeu_ps(acc + k, a0);
    }
    for (; k < ks; ++k) {
        float a = 0.0f;
        for (size_t t = 0; t < n; ++t) a += v[t] * w[t * ks + k];
        acc[k] = a;
    }
}

// Blocks of 16 pixels x 4 kernels (8 sums in flight), then 8 pixels x 4 kernels, then one kernel at a time;
// the pixels past the last multiple of 8 in masked vectors (deep layers are 10 or 20 pixels wide).
NPURUN_AVX2 void direct_row_avx2(const float* const* taps, size_t nt, const float* w, size_t ks, size_t n, float* out, size_t plane) {
    const size_t nv = n / 8 * 8;
    size_t k = 0;
    for (; k + 4 <= ks; k += 4) {
        size_t x = 0;
        for (; x + 16 <= nv; x += 16) {
            __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
            const float* wt = w + k;
            for (size_t t = 0; t < nt; ++t, wt += ks) {
                const __m256 p0 = _mm256_loadu_ps(taps[t] + x), p1 = _mm256_loadu_ps(taps[t] + x + 8);
                const __m256 w0 = _mm256_broadcast_ss(wt), w1 = _mm256_broadcast_ss(wt + 1);
                const __m256 w2 = _mm256_broadcast_ss(wt + 2), w3 = _mm256_broadcast_ss(wt + 3);
                a0 = _mm256_add_ps(a0, _mm256_mul_ps(p0, w0));
                b0 = _mm256_add_ps(b0, _mm256_mul_ps(p1, w0));
                a1 = _mm256_add_ps(a1, _mm256_mul_ps(p0, w1));
                b1 = _mm256_add_ps(b1, _mm256_mul_ps(p1, w1));
                a2 = _mm256_add_ps(a2, _mm256_mul_ps(p0, w2));
                b2 = _mm256_add_ps(b2, _mm256_mul_ps(p1, w2));
                a3 = _mm256_add_ps(a3, _mm256_mul_ps(p0, w3));
                b3 = _mm256_add_ps(b3, _mm256_mul_ps(p1, w3));
            }
            float* o = out + k * plane + x;
            _mm256_storeu_ps(o, a0);
            _mm256_storeu_ps(o + 8, b0);
            _mm256_storeu_ps(o + plane, a1);
            _mm256_storeu_ps(o + plane + 8, b1);
            _mm256_storeu_ps(o + 2 * plane, a2);
            _mm256_storeu_ps(o + 2 * plane + 8, b2);
            _mm256_storeu_ps(o + 3 * plane, a3);
            _mm256_storeu_ps(o + 3 * plane + 8, b3);
        }
        for (; x < nv; x += 8) {
            __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
            const float* wt = w + k;
            for (size_t t = 0; t < nt; ++t, wt += ks) {
                const __m256 p0 = _mm256_loadu_ps(taps[t] + x);
                a0 = _mm256_add_ps(a0, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt)));
                a1 = _mm256_add_ps(a1, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt + 1)));
                a2 = _mm256_add_ps(a2, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt + 2)));
                a3 = _mm256_add_ps(a3, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt + 3)));
            }
            float* o = out + k * plane + x;
            _mm256_storeu_ps(o, a0);
            _mm256_storeu_ps(o + plane, a1);
            _mm256_storeu_ps(o + 2 * plane, a2);
            _mm256_storeu_ps(o + 3 * plane, a3);
        }
    }
    for (; k < ks; ++k)
        for (size_t x = 0; x < nv; x += 8) {
            __m256 a0 = _mm256_setzero_ps();
            for (size_t t = 0; t < nt; ++t) a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_loadu_ps(taps[t] + x), _mm256_broadcast_ss(w + t * ks + k)));
            _mm256_storeu_ps(out + k * plane + x, a0);
        }
    if (nv < n) {  // the last n - nv < 8 pixels: masked loads and stores (lanes past n read and write nothing)
        const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - nv)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        size_t k2 = 0;
        for (; k2 + 4 <= ks; k2 += 4) {
            __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
            const float* wt = w + k2;
            for (size_t t = 0; t < nt; ++t, wt += ks) {
                const __m256 p0 = _mm256_maskload_ps(taps[t] + nv, mask);
                a0 = _mm256_add_ps(a0, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt)));
                a1 = _mm256_add_ps(a1, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt + 1)));
                a2 = _mm256_add_ps(a2, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt + 2)));
                a3 = _mm256_add_ps(a3, _mm256_mul_ps(p0, _mm256_broadcast_ss(wt + 3)));
            }
            float* o = out + k2 * plane + nv;
            _mm256_maskstore_ps(o, mask, a0);
            _mm256_maskstore_ps(o + plane, mask, a1);
            _mm256_maskstore_ps(o + 2 * plane, mask, a2);
            _mm256_maskstore_ps(o + 3 * plane, mask, a3);
        }
        for (; k2 < ks; ++k2) {
            __m256 a0 = _mm256_setzero_ps();
            for (size_t t = 0; t < nt; ++t) a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_maskload_ps(taps[t] + nv, mask), _mm256_broadcast_ss(w + t * ks + k2)));
            _mm256_maskstore_ps(out + k2 * plane + nv, mask, a0);
        }
    }
}

NPURUN_AVX2 void depthwise_row_avx2(const float* in, size_t row_stride, const float* wt, uint32_t kh, uint32_t kw, size_t n, float* acc) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {  // four independent sums in flight
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (uint32_t ky = 0; ky < kh; ++ky) {
            const float* p = in + ky * row_stride + i;
            for (uint32_t kx = 0; kx < kw; ++kx, ++p) {
                const __m256 b = _mm256_set1_ps(wt[ky * kw + kx]);
                a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_loadu_ps(p), b));
                a1 = _mm256_add_ps(a1, _mm256_mul_ps(_mm256_loadu_ps(p + 8), b));
                a2 = _mm256_add_ps(a2, _mm256_mul_ps(_mm256_loadu_ps(p + 16), b));
                a3 = _mm256_add_ps(a3, _mm256_mul_ps(_mm256_loadu_ps(p + 24), b));
            }
        }
        _mm256_storeu_ps(acc + i, a0);
        _mm256_storeu_ps(acc + i + 8, a1);
        _mm256_storeu_ps(acc + i + 16, a2);
        _mm256_storeu_ps(acc + i + 24, a3);
    }
    for (; i + 8 <= n; i += 8) {
        __m256 a0 = _mm256_setzero_ps();
        for (uint32_t ky = 0; ky < kh; ++ky) {
            const float* p = in + ky * row_stride + i;
            for (uint32_t kx = 0; kx < kw; ++kx) a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_loadu_ps(p + kx), _mm256_set1_ps(wt[ky * kw + kx])));
        }
        _mm256_storeu_ps(acc + i, a0);
    }
    if (i < n) {  // the last n - i < 8 outputs: masked loads and store (lanes past n read and write nothing)
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - i)), lane);
        __m256 a0 = _mm256_setzero_ps();
        for (uint32_t ky = 0; ky < kh; ++ky) {
            const float* p = in + ky * row_stride + i;
            for (uint32_t kx = 0; kx < kw; ++kx) a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_maskload_ps(p + kx, mask), _mm256_set1_ps(wt[ky * kw + kx])));
        }
        _mm256_maskstore_ps(acc + i, mask, a0);
    }
}

const Kernels kAvx2{widen_avx2, narrow_avx2, direct_pixel_avx2, direct_row_avx2, depthwise_row_avx2};

// CPUID directly: clang 14's __builtin_cpu_supports does not know "f16c". AVX2 also needs the OS to save
// the YMM state (OSXSAVE set and XCR0 bits 1-2), which the builtin would have checked for us.
bool cpu_has_avx2() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
    const bool f16c = (c & (1u << 29)) != 0, osxsave = (c & (1u << 27)) != 0, avx = (c & (1u << 28)) != 0;
    if (!f16c || !osxsave || !avx) return false;
    unsigned xlo = 0, xhi = 0;
    __asm__ volatile("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    if ((xlo & 0x6u) != 0x6u) return false;
    if (__get_cpuid_max(0, nullptr) < 7) return false;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 5)) != 0;
}
#endif

const Kernels& chosen() {
    static const Kernels* k = [] {
        const char* env = std::getenv("NPURUN_SIM_PORTABLE");
        const bool portable = env != nullptr && std::strcmp(env, "1") == 0;
        const Kernels* v = avx2_kernels();
        return (v != nullptr && !portable) ? v : &kPortable;
    }();
    return *k;
}

}  // namespace

const Kernels& portable_kernels() { return kPortable; }

const Kernels* avx2_kernels() {
#ifdef NPURUN_SIM_AVX2
    static const bool has = cpu_has_avx2();
    return has ? &kAvx2 : nullptr;
#else
    return nullptr;
#endif
}

bool vector_kernels_active() { return &chosen() != &kPortable; }

void widen_fp16_plane(const uint8_t* base, uint64_t row_pitch, uint32_t H, uint32_t W, float* out, size_t plane) {
    chosen().widen_fp16_plane(base, row_pitch, H, W, out, plane);
}
void narrow_fp16_atoms(const float* src, size_t plane, size_t n, uint8_t* base) { chosen().narrow_fp16_atoms(src, plane, n, base); }
void direct_pixel(const float* v, size_t n, const float* w, size_t ks, float* acc) { chosen().direct_pixel(v, n, w, ks, acc); }
void direct_row(const float* const* taps, size_t nt, const float* w, size_t ks, size_t n, float* out, size_t plane) {
    chosen().direct_row(taps, nt, w, ks, n, out, plane);
}
void depthwise_row(const float* in, size_t row_stride, const float* wt, uint32_t kh, uint32_t kw, size_t n, float* acc) {
    chosen().depthwise_row(in, row_stride, wt, kh, kw, n, acc);
}

}  // namespace npudrv::sim::detail::vec

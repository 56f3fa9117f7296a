// The simulator's innermost float loops, each with one exact arithmetic definition and two implementations:
// a portable one and, on x86-64 CPUs with AVX2 and F16C, a vector one picked once at run time. Both give
// the same bits for every input (tests/sim/sim_vector_test.cpp compares them): the vector code performs the
// same IEEE operations in the same order per element, only several elements at a time. There is no fused
// multiply-add anywhere (the AVX2 functions are compiled without the FMA extension, so the compiler cannot
// contract a product and a sum either), because the modelled accumulation rounds after every product and
// every addition.
//
// Why it exists: issue 15 asks for a functional simulator no slower than the CPU path. On slim-320 --fp16
// the MAC loops were ~45% of a simulated inference and the per-element fp16 conversions of the feature
// fetch and the output write another ~35%.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npudrv::sim::detail::vec {

// One NC1HWC2 plane of fp16 atoms (8 channels, 16 bytes each; `row_pitch` bytes between rows of W atoms)
// widened to 8 planar float planes: out[e * plane + y * W + x] = channel e of atom (y, x). Exact
// (npurun::fp16_to_fp32, NaN payloads and signalling bits kept).
void widen_fp16_plane(const uint8_t* base, uint64_t row_pitch, uint32_t H, uint32_t W, float* out, size_t plane);

// The inverse for a full atom of 8 channels: atom i (16 bytes at base + 16 i), i < n, gets channels
// src[e * plane + i], e < 8, rounded by npurun::fp32_to_fp16 (to nearest, ties to even; NaN kept quiet).
void narrow_fp16_atoms(const float* src, size_t plane, size_t n, uint8_t* base);

// Direct convolution, one output pixel: acc[k] = (((0 + v[0]*w[k]) + v[1]*w[ks+k]) + ...) + v[n-1]*w[(n-1)*ks+k]
// for k < ks, each product and each sum rounded to float, the taps strictly in order.
void direct_pixel(const float* v, size_t n, const float* w, size_t ks, float* acc);

// Direct convolution, one output row at unit horizontal stride: for k < ks and x < n,
// out[k * plane + x] = (((0 + taps[0][x]*w[k]) + taps[1][x]*w[ks+k]) + ...) + taps[nt-1][x]*w[(nt-1)*ks+k],
// i.e. exactly direct_pixel's sums, computed for a row of pixels at once (taps[t] is where tap t's input
// row starts for the row's first pixel).
void direct_row(const float* const* taps, size_t nt, const float* w, size_t ks, size_t n, float* out, size_t plane);

// Depthwise convolution, one row of n outputs at unit stride: acc[i] = ((0 + in[i]*wt[0]) + in[i+1]*wt[1]) + ...,
// taps in the order ky, kx (input tap (ky, kx) at in[ky * row_stride + kx + i], weight wt[ky * kw + kx]).
void depthwise_row(const float* in, size_t row_stride, const float* wt, uint32_t kh, uint32_t kw, size_t n, float* acc);

// Whether the vector implementations are in use (false: the portable ones). NPURUN_SIM_PORTABLE=1 in the
// environment forces the portable ones (to compare speed, or to rule the vector code out).
bool vector_kernels_active();

// The two implementations, for the test that compares them (the vector set is null where the CPU or the
// build target has no AVX2/F16C).
struct Kernels {
    void (*widen_fp16_plane)(const uint8_t*, uint64_t, uint32_t, uint32_t, float*, size_t);
    void (*narrow_fp16_atoms)(const float*, size_t, size_t, uint8_t*);
    void (*direct_pixel)(const float*, size_t, const float*, size_t, float*);
    void (*direct_row)(const float* const*, size_t, const float*, size_t, size_t, float*, size_t);
    void (*depthwise_row)(const float*, size_t, const float*, uint32_t, uint32_t, size_t, float*);
};
const Kernels& portable_kernels();
const Kernels* avx2_kernels();

}  // namespace npudrv::sim::detail::vec

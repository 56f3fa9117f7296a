// NCHW support for the NHWC-only NEON kernels (Convolution2d, DepthwiseConvolution2d, Pooling2d).
//
// The vector kernels keep channels contiguous (NHWC). An NCHW node is run as: input (and, for
// Convolution2d, [O,I,H,W] weights) transposed to NHWC / [O,H,W,I] in scratch, the NHWC kernel into a
// scratch output, that output transposed back to NCHW. Transposition moves bytes only, so results are
// exactly those of the NHWC kernel on the same data (bit-exact for 8-bit, the same float bound).
#pragma once

#include <cstddef>

#include "core/types.h"

namespace npurun::kernels::neon {

// [N, C, H, W] -> the shape of the same tensor in NHWC, [N, H, W, C] (also [O,I,H,W] -> [O,H,W,I]).
inline Shape nhwc_of_nchw(const Shape& s) { return Shape{s[0], s[2], s[3], s[1]}; }

// dst[n, h, w, c] = src[n, c, h, w]; `nchw` is src's shape, `elem` the element size in bytes.
void nchw_to_nhwc(const void* src, void* dst, const Shape& nchw, size_t elem);
// dst[n, c, h, w] = src[n, h, w, c]; `nchw` is dst's shape.
void nhwc_to_nchw(const void* src, void* dst, const Shape& nchw, size_t elem);

constexpr size_t round_up64(size_t n) { return (n + 63) & ~size_t(63); }

}  // namespace npurun::kernels::neon

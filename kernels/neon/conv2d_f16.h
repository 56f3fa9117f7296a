// The fp16-arithmetic convolution engine (FEAT_FP16's FMLA on 8 half lanes: twice the multiply-adds of fp32 per
// instruction), behind the optional CPU path SessionOptions::cpu_fp16. Semantics, and the oracle it matches bit
// for bit: kernels/ref/fp16_arithmetic.h. Used for Float32 NHWC Convolution2d and FullyConnected (a 1x1
// convolution over batch "pixels"); tensors stay Float32, the input is rounded to fp16 once per run.
//
// Vectorized over output channels: lane l of an accumulator is output channel o0 + l, and each lane sums its
// products in the reference order, one FMLA per product, so any blocking or thread split gives the same bits.
// Weights are packed once (prepare) as [ceil(oc/16)][K][16] halves, K = kh*kw*ic in (ky, kx, c) order, channels
// past oc zero; a block of 8 output pixels x 16 channels keeps 16 accumulators live, loads each product's 16
// weights once for the 8 pixels and takes each input half as a lane of an 8-half load (FMLA by element): 8 input
// and 16 weight loads per 1024 multiply-adds (a row's last pixels: blocks of 4, then 1).
//
// Everything here runs only when fp16_arithmetic_available() (cpu_features.h): aarch64 builds on a CPU with
// FEAT_FP16. SIMDe (Debian 12's 0.7.4) has no fp16 arithmetic, so elsewhere the engine is not compiled.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/neon/conv_geometry.h"

namespace npurun::kernels::neon {

constexpr size_t kF16TileOc = 16;  // output channels per packed weight tile

// Bytes of the packed weights of a layer with oc output channels and k products per output.
size_t conv2d_f16_packed_bytes(size_t oc, size_t k);
// Packs Float32 weights, element (o, j) at w[o * o_stride + j * k_stride], rounded to fp16.
void conv2d_f16_pack(const float* w, size_t oc, size_t k, size_t o_stride, size_t k_stride, uint16_t* dst);
// Rounds `count` floats to fp16 bit patterns (round to nearest even), split over the thread pool.
void convert_f32_to_f16(const float* x, size_t count, uint16_t* dst);

// y [n,oh,ow,oc] (fp32) = conv(x16 [n,ih,iw,ic] fp16, packed) + bias (fp32, or nullptr). zero_row: ic fp16 zeros,
// read by padding taps. Requires fp16_arithmetic_available().
void conv2d_f16(const ConvGeometry& g, const uint16_t* x16, const uint16_t* zero_row, const uint16_t* packed,
                const float* bias, float* y);

// Depthwise, multiplier 1: y [n,oh,ow,c] (fp32) = depthwise(x16 [n,ih,iw,c] fp16, w16 [kh*kw][c8] fp16, c8 = c
// rounded up to 8, channels past c zero) + bias. Vectorized over 8 channels; each lane sums its taps inside the
// input in (ky, kx) order (the reference's). Requires fp16_arithmetic_available().
void depthwise_f16(const ConvGeometry& g, const uint16_t* x16, const uint16_t* w16, const float* bias, float* y);

}  // namespace npurun::kernels::neon

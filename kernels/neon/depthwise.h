// NEON depthwise convolution entry points.
#pragma once

#include "kernels/neon/conv2d_quant.h"
#include "kernels/neon/conv_geometry.h"

namespace npurun::kernels::neon {

// Depth multiplier 1: x [n,ih,iw,c], w [1,kh,kw,c], bias [c] or nullptr, y [n,oh,ow,c].
void depthwise_f32(const ConvGeometry& g, const float* x, const float* w, const float* bias, float* y);
// Quantized, same operands with 8-bit codes; `t` holds the prepared multiplier and bias tables
// (quant_tables.h, without the conv rows).
void depthwise_quant(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, const uint8_t* x, const uint8_t* w,
                     uint8_t* y);
// Bytes of the zero-point row depthwise_quant's 3x3 path reads for taps above or below the input (t.zero_row,
// prepared by the kernel; without it the general loop runs).
size_t depthwise_quant_zero_row_bytes(const ConvGeometry& g);

}  // namespace npurun::kernels::neon

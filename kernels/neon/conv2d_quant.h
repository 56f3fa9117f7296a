// Quantized NHWC convolution entry points (see conv2d_quant.cpp for the arithmetic contract).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/neon/conv_geometry.h"
#include "kernels/neon/quant_tables.h"

namespace npurun::kernels::neon {

// x [n,ih,iw,ic], w [oc,kh,kw,ic], y [n,oh,ow,oc]. `t` holds the prepared multiplier, bias, zero row and (read on
// the dot-product path only) sum_w tables (quant_tables.h, with_conv_rows).
void conv2d_quant(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, const uint8_t* x, const uint8_t* w,
                  uint8_t* y);
// Whether conv2d_quant takes the ARMv8.2 dot-product path for these types on this CPU right now.
bool conv2d_quant_uses_dotprod(const QuantConvParams& q);

}  // namespace npurun::kernels::neon

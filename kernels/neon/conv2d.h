// NEON convolution entry points (float and quantized), used by the Convolution2d kernel and the benchmark.
#pragma once

#include <cstddef>

#include "kernels/neon/conv_geometry.h"

namespace npurun::kernels::neon {

// x [n,ih,iw,ic], w [oc,kh,kw,ic], bias [oc] or nullptr, y [n,oh,ow,oc]; zero_row: ic zeros (the padding taps' input,
// prepared once).
void conv2d_f32(const ConvGeometry& g, const float* x, const float* w, const float* bias, float* y, const float* zero_row);

}  // namespace npurun::kernels::neon

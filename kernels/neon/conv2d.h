// NEON convolution entry points (float and quantized), used by the Convolution2d kernel and the benchmark.
#pragma once

#include <cstddef>

#include "kernels/neon/conv_geometry.h"

namespace npurun::kernels::neon {

// x [n,ih,iw,ic], w [oc,kh,kw,ic], bias [oc] or nullptr, y [n,oh,ow,oc]; scratch: conv2d_f32_scratch bytes.
void conv2d_f32(const ConvGeometry& g, const float* x, const float* w, const float* bias, float* y, void* scratch);
size_t conv2d_f32_scratch(const ConvGeometry& g);

}  // namespace npurun::kernels::neon

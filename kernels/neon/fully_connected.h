// NEON FullyConnected entry points.
#pragma once

#include <cstddef>

namespace npurun::kernels::neon {

// x [batch, in], weights [out, in] (weights_oi) or [in, out], bias [out] or nullptr, y [batch, out].
void fully_connected_f32(const float* x, const float* w, const float* bias, float* y, size_t batch, size_t in,
                         size_t out, bool weights_oi);

}  // namespace npurun::kernels::neon

// The reference's per-element activation, f(x) in float exactly as kernels/ref/activation.cpp computes it.
// Shared by every 8-bit lookup table built from it (the NEON kernel's 256 codes, the NPU's DPU table), so that
// those tables are bit-exact with the reference by construction.
#pragma once

#include "ir/ops.h"

namespace npurun::kernels::ref {

float activation_value(ActivationFunction f, float x, float a, float b);

}  // namespace npurun::kernels::ref

// The reference's per-element binary operation, op(a, b) in float exactly as kernels/ref/elementwise_binary.cpp
// computes it. Shared by the 8-bit lookup tables built from it (the NPU's DPU table for Pow by a constant
// exponent), so that those tables are bit-exact with the reference by construction.
#pragma once

#include "ir/ops.h"

namespace npurun::kernels::ref {

float binary_value(BinaryOp op, float a, float b);

}  // namespace npurun::kernels::ref

// The NEON kernel registry: consulted by the executor before kernels/ref. Returns nullptr for ops
// without a NEON kernel; a returned kernel may still refuse a particular node in `check` (then the
// reference kernel runs it).
#pragma once

#include "kernels/kernel.h"
#include "ir/ops.h"

namespace npurun::kernels {

const Kernel* neon_kernel(OpKind op);

// The kernel of the optional fp16-arithmetic path (SessionOptions::cpu_fp16) for `op`, or nullptr when the path
// does not cover the op (it covers Convolution2d, DepthwiseConvolution2d and FullyConnected). Its check refuses nodes it cannot run in
// fp16 (then the executor takes neon_kernel). Semantics: kernels/ref/fp16_arithmetic.h.
const Kernel* neon_fp16_arithmetic_kernel(OpKind op);

}  // namespace npurun::kernels

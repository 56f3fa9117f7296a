// The NEON kernel registry: consulted by the executor before kernels/ref. Returns nullptr for ops
// without a NEON kernel; a returned kernel may still refuse a particular node in `check` (then the
// reference kernel runs it).
#pragma once

#include "kernels/kernel.h"
#include "ir/ops.h"

namespace npurun::kernels {

const Kernel* neon_kernel(OpKind op);

}  // namespace npurun::kernels

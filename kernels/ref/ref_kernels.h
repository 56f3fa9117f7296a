// The portable reference kernels (kernels/ref): one per op kind, or nullptr when the op has none.
#pragma once

#include "kernels/kernel.h"

namespace npurun::kernels {

const Kernel* ref_kernel(OpKind op);

}  // namespace npurun::kernels

// The NEON kernels, one per op kind (private to kernels/neon; the public entry is registry.h).
#pragma once

#include "kernels/kernel.h"

namespace npurun::kernels::neon {

extern const Kernel kConvolution2d;

}  // namespace npurun::kernels::neon

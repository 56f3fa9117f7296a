// The NEON kernels, one per op kind (private to kernels/neon; the public entry is registry.h).
#pragma once

#include "kernels/kernel.h"

namespace npurun::kernels::neon {

extern const Kernel kActivation;
extern const Kernel kConvolution2d;
extern const Kernel kConvolution2dFp16;  // the fp16-arithmetic path (fp16_arithmetic_kernels.cpp)
extern const Kernel kDepthwiseConvolution2d;
extern const Kernel kDepthwiseConvolution2dFp16;
extern const Kernel kDequantize;
extern const Kernel kElementwiseBinary;
extern const Kernel kFullyConnected;
extern const Kernel kFullyConnectedFp16;
extern const Kernel kPooling2d;
extern const Kernel kQuantize;
extern const Kernel kPermute;
extern const Kernel kSoftmax;
extern const Kernel kTranspose;

}  // namespace npurun::kernels::neon

// The reference kernel objects, one per op (or op family), defined in kernels/ref/<op>.cpp.
// To add an op: write kernels/ref/<op>.cpp defining `const Kernel k<Op>`, declare it here, list the file
// in kernels/meson.build and point the op's line in registry.cpp at it.
#pragma once

#include "kernels/kernel.h"

namespace npurun::kernels::ref {

extern const Kernel kActivation;
extern const Kernel kBatchNormalization;
extern const Kernel kConcat;
extern const Kernel kConvolution2d;
extern const Kernel kDepthwiseConvolution2d;
extern const Kernel kDequantize;
extern const Kernel kElementwiseBinary;
extern const Kernel kElementwiseUnary;
extern const Kernel kFloor;
extern const Kernel kFullyConnected;
extern const Kernel kMean;
extern const Kernel kPad;
extern const Kernel kPermute;
extern const Kernel kPooling2d;
extern const Kernel kQuantize;
extern const Kernel kReshape;
extern const Kernel kResize;
extern const Kernel kSoftmax;
extern const Kernel kSplitter;
extern const Kernel kTranspose;

}  // namespace npurun::kernels::ref

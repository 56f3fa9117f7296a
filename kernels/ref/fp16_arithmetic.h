// Reference semantics of the optional fp16-arithmetic CPU path (SessionOptions::cpu_fp16, `npurun --cpu-fp16`)
// for Float32 Convolution2d (NHWC), DepthwiseConvolution2d (NHWC, multiplier 1) and
// FullyConnected layers: the oracle kernels/neon/conv2d_f16.cpp is tested
// against, bit for bit.
//
// The layer keeps Float32 tensors; only its arithmetic is half precision, as on a CPU with FEAT_FP16:
//   1. input and weights are rounded to fp16 (round to nearest, ties to even; core/fp16.h);
//   2. each output element sums its products in one fp16 accumulator that starts at +0, in the order
//      (kernel row, kernel column, input channel) for a convolution, (kernel row, kernel column) for a
//      depthwise one and input index for a fully connected layer, each step one fused multiply-add rounded once to fp16 (FMLA's semantics; subnormals kept, as
//      Linux leaves FPCR.FZ16 clear). Padding taps contribute nothing;
//   3. the sum is widened to fp32 (exact) and the fp32 bias is added in fp32.
// That is one fixed order per output, so the result does not depend on how the work is split over threads.
#pragma once

#include <cstdint>

#include "ir/ops.h"
#include "kernels/kernel.h"

namespace npurun::kernels {

// The reference kernel of the fp16-arithmetic path for `op`, or nullptr when the path does not cover it.
const Kernel* ref_fp16_arithmetic_kernel(OpKind op);

namespace ref {

// round_fp16(a * b + c) for fp16 bit patterns, rounded once (the exact sum is formed in double, see the .cpp).
uint16_t fp16_fma(uint16_t a, uint16_t b, uint16_t c);

}  // namespace ref
}  // namespace npurun::kernels

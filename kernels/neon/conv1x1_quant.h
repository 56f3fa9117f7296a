// Quantized convolution as a GEMM on the ARMv8.2 dot-product instructions, or on the ARMv8.6 8-bit matrix
// multiply (i8mm) where the CPU has it, with the weights packed once by the kernel's prepare: 1x1 stride-1 layers read their input rows directly, other windows (up to 1024 codes) are
// gathered per tile of 8 pixels. Bit-exact with kernels/ref (see conv1x1_quant.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/neon/conv_geometry.h"
#include "kernels/neon/quant_tables.h"

namespace npurun::kernels::neon {

// The micro-kernel a GEMM's weights are packed for, and run with (each has its own weight layout).
enum class GemmKernel : uint8_t { None, Dot, I8mm };
// What the GEMM would run on now (cpu_features.h): None while the dot-product path is off (the widening kernels
// run instead), else i8mm when in use, else the dot product. i8mm refines the dot-product path: it uses SDOT too.
GemmKernel conv1x1_kernel_in_use();
// The layout prepare packs: the micro-kernel in use, or the dot product's when none is (a later set_dotprod).
GemmKernel conv1x1_kernel_to_pack();
// Whether weights packed for `packed` run on the GEMM now: Dot while the dot-product path is in use, I8mm while
// i8mm is. A path switched off since prepare leaves the layer to conv2d_quant (same bytes, the slower kernel).
bool conv1x1_runs_now(GemmKernel packed);

// Whether the geometry and types fit the packed GEMM kernel (input and weight codes of the same signedness, and
// either pointwise/stride 1/unpadded with input channels a multiple of 4, or a window of at most 1024 codes). Independent of the CPU: prepare packs
// whenever this holds (for the micro-kernel in use then, the dot product's layout if none), and run takes the GEMM
// only while that micro-kernel is still in use.
bool conv1x1_quant_fits(const ConvGeometry& g, const QuantConvParams& q);
// Bytes of the packed form: the per-channel zero-point corrections and the weights in the micro-kernel's order.
size_t conv1x1_packed_bytes(const ConvGeometry& g);
// Packs w [oc, kh*kw*ic] (raw codes) with its per-channel code sums sum_w [oc] into `packed` (conv1x1_packed_bytes),
// in the layout of `kernel` (Dot or I8mm).
void conv1x1_pack(const ConvGeometry& g, const QuantConvParams& q, GemmKernel kernel, const uint8_t* w, const int32_t* sum_w,
                  uint8_t* packed);
// y [n,oh,ow,oc] from x [n,ih,iw,ic] with the packed weights and the prepared multiplier and bias tables.
// `kernel` is the one the weights were packed for, and must be usable here (Dot: dotprod_available(), I8mm:
// i8mm_available()).
void conv1x1_quant(const ConvGeometry& g, const QuantConvParams& q, const QuantTables& t, GemmKernel kernel,
                   const uint8_t* packed, const uint8_t* x, uint8_t* y);

}  // namespace npurun::kernels::neon

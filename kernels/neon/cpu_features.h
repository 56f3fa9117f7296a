// Run-time CPU feature detection for the NEON kernels.
//
// The ARMv8.2 dot-product instructions (SDOT/UDOT) are optional: RK3588's Cortex-A76/A55 have them, older
// cores (A53, A72) do not. The kernels are compiled for plain ARMv8-A and take the dot-product path only
// when the kernel reports HWCAP_ASIMDDP. Tests can force either path to cover both on any machine.
#pragma once

namespace npurun::kernels::neon {

// True when the int8 kernels use the dot-product path. Initialized from the CPU on first use.
bool use_dotprod();

// Forces the dot-product path on or off (tests, benchmarks). Forcing it on is only honoured when the
// path can execute here: on aarch64 the CPU must have it; through SIMDe it is always emulated.
// Returns the value now in effect.
bool set_dotprod(bool enabled);

// Whether this CPU (or the SIMDe emulation) can execute the dot-product path at all.
bool dotprod_available();

// The ARMv8.6 8-bit matrix multiply-accumulate (FEAT_I8MM: SMMLA/UMMLA, one 2x8 by 8x2 block product per
// instruction, twice the multiply-adds of an SDOT) is optional too: RK3588's A76/A55 lack it, Cortex-A78/X1
// and later cores have it. Reported by the kernel as HWCAP2_I8MM. SIMDe (Debian 12's 0.7.4) does not
// implement vmmlaq_*, so the path exists on aarch64 builds only; elsewhere it is never available.
// When in use together with the dot-product path, the packed GEMM convolution (conv1x1_quant.h) takes it
// instead of the dot-product micro-kernel.
bool use_i8mm();
// Forces the i8mm path on or off (tests, benchmarks); on is only honoured when i8mm_available().
// Returns the value now in effect.
bool set_i8mm(bool enabled);
// Whether this CPU can execute the i8mm path: an aarch64 build on a CPU with both FEAT_I8MM and the dot
// product (the i8mm kernel also uses SDOT/UDOT, for the per-pixel code sums).
bool i8mm_available();

// The ARMv8.2 half-precision arithmetic (FEAT_FP16: FMLA and friends on 8 fp16 lanes), which the optional
// fp16-arithmetic path (conv2d_f16.h) needs: RK3588's A76 and A55 have it. Reported by the kernel as
// HWCAP_ASIMDHP. SIMDe has no fp16 arithmetic, so it is available on aarch64 builds only.
bool fp16_arithmetic_available();

}  // namespace npurun::kernels::neon

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

}  // namespace npurun::kernels::neon

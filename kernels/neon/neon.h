// The one place that decides where NEON intrinsics come from.
//
// On aarch64 they are the compiler's own (<arm_neon.h>). Elsewhere (x86 CI machines) the very same
// kernel source is compiled through SIMDe, which implements every NEON intrinsic portably (mapped onto
// SSE/AVX where it can), so the NEON kernels are built and tested on every machine, not only on boards.
// Kernels include this header and nothing else for SIMD.
#pragma once

#if defined(__aarch64__)
#include <arm_neon.h>
#define NPURUN_NEON_NATIVE 1
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#define NPURUN_NEON_NATIVE 0
#endif

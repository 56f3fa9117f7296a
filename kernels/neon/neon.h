// The one place that decides where NEON intrinsics come from.
//
// On aarch64 they are the compiler's own (<arm_neon.h>). Elsewhere (x86 CI machines) the very same
// kernel source is compiled through SIMDe, which implements NEON intrinsics portably (mapped onto
// SSE/AVX where it can), so the NEON kernels are built and tested on every machine, not only on boards.
// Kernels include this header and nothing else for SIMD.
//
// Debian 12's SIMDe (0.7.4) lacks the AArch64-only vdivq_f32, vsqrtq_f32 and vrndaq_f64: kernels call
// them as div_f32x4 / sqrt_f32x4 / round_away_f64x2, which are the real instructions on aarch64 and
// per-lane IEEE operations through SIMDe (identical results: all are exactly defined per lane).
#pragma once

#if defined(__aarch64__)
#include <arm_neon.h>
#define NPURUN_NEON_NATIVE 1
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#define NPURUN_NEON_NATIVE 0
#include <cmath>
#endif

// Functions using the ARMv8.2 dot-product instructions (called only when cpu_features.h says they are in use).
#if NPURUN_NEON_NATIVE
#define NPURUN_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))
#else
#define NPURUN_DOTPROD
#endif

// Functions using the ARMv8.6 8-bit matrix multiply (SMMLA/UMMLA) and the dot product, aarch64 builds only
// (SIMDe lacks vmmlaq_*): defined inside `#if NPURUN_NEON_NATIVE` and called only when use_i8mm() holds.
#if NPURUN_NEON_NATIVE
#define NPURUN_I8MM __attribute__((target("arch=armv8.2-a+dotprod+i8mm")))
#endif

namespace npurun::kernels::neon {

inline float32x4_t div_f32x4(float32x4_t a, float32x4_t b) {
#if NPURUN_NEON_NATIVE
    return vdivq_f32(a, b);
#else
    float x[4], y[4];
    vst1q_f32(x, a);
    vst1q_f32(y, b);
    for (int i = 0; i < 4; ++i) x[i] /= y[i];
    return vld1q_f32(x);
#endif
}

// acc + a*b. On aarch64 the fused FMLA (one rounding). Through SIMDe a fused multiply-add has no SSE
// instruction and is emulated with scalar fmaf (~50x slower), so there it is a multiply then an add
// (two roundings). The float kernels' stated error bounds hold for both; results are deterministic per
// platform but may differ in the last bits between an x86 and an aarch64 build.
inline float32x4_t fma_f32x4(float32x4_t acc, float32x4_t a, float32x4_t b) {
#if NPURUN_NEON_NATIVE
    return vfmaq_f32(acc, a, b);
#else
    return vaddq_f32(acc, vmulq_f32(a, b));
#endif
}

inline float32x4_t sqrt_f32x4(float32x4_t a) {
#if NPURUN_NEON_NATIVE
    return vsqrtq_f32(a);
#else
    float x[4];
    vst1q_f32(x, a);
    for (int i = 0; i < 4; ++i) x[i] = std::sqrt(x[i]);
    return vld1q_f32(x);
#endif
}

// Rounds each lane to an integer, halfway cases away from zero: FRINTA on aarch64, std::round (the same
// function, and the one quant::requantize uses) per lane through SIMDe.
inline float64x2_t round_away_f64x2(float64x2_t a) {
#if NPURUN_NEON_NATIVE
    return vrndaq_f64(a);
#else
    const float64x2_t lo = vdupq_n_f64(std::round(vgetq_lane_f64(a, 0)));
    return vsetq_lane_f64(std::round(vgetq_lane_f64(a, 1)), lo, 1);
#endif
}

}  // namespace npurun::kernels::neon

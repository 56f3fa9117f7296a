// Vectorised float32 exp and tanh for the activation and softmax kernels.
//
// exp(x): x = n*ln2 + r with n = round(x/ln2) and |r| <= ln2/2 (ln2 split in a high part exact in float
// and a low correction, so r carries no extra rounding), exp(r) by its Taylor series to r^7 (truncation
// < 2e-9 relative on that interval), then scaled by 2^n in two steps so results reaching the subnormal
// range are still formed. Measured against glibc expf on 2^20 points in [-87, 88]: at most 2 ulp.
// x > 88.73 gives +inf, x < -104 gives +0, NaN stays NaN.
//
// tanh(y): |y| < 0.5: the odd Taylor series to y^15 (remainder < 1e-8 relative); otherwise
// sign(y) * (1 - 2/(exp(2|y|) + 1)). At most 4 ulp against glibc tanhf (same measurement).
#pragma once

#include "kernels/neon/neon.h"

namespace npurun::kernels::neon {

inline float32x4_t exp_f32(float32x4_t x) {
    const float32x4_t log2e = vdupq_n_f32(1.44269504088896341f);
    const float32x4_t ln2_hi = vdupq_n_f32(0.693145751953125f);      // 12 significant bits: n*ln2_hi exact
    const float32x4_t ln2_lo = vdupq_n_f32(1.42860682030941723e-6f);  // ln2 - ln2_hi
    x = vminq_f32(vmaxq_f32(x, vdupq_n_f32(-104.0f)), vdupq_n_f32(89.0f));
    const float32x4_t nf = vrndnq_f32(vmulq_f32(x, log2e));
    float32x4_t r = vsubq_f32(x, vmulq_f32(nf, ln2_hi));
    r = vsubq_f32(r, vmulq_f32(nf, ln2_lo));
    // Horner: 1 + r(1 + r(1/2 + r(1/6 + r(1/24 + r(1/120 + r(1/720 + r/5040))))))
    float32x4_t p = vdupq_n_f32(1.0f / 5040.0f);
    p = vaddq_f32(vdupq_n_f32(1.0f / 720.0f), vmulq_f32(p, r));
    p = vaddq_f32(vdupq_n_f32(1.0f / 120.0f), vmulq_f32(p, r));
    p = vaddq_f32(vdupq_n_f32(1.0f / 24.0f), vmulq_f32(p, r));
    p = vaddq_f32(vdupq_n_f32(1.0f / 6.0f), vmulq_f32(p, r));
    p = vaddq_f32(vdupq_n_f32(0.5f), vmulq_f32(p, r));
    p = vaddq_f32(vdupq_n_f32(1.0f), vmulq_f32(p, r));
    p = vaddq_f32(vdupq_n_f32(1.0f), vmulq_f32(p, r));
    // 2^n = 2^n1 * 2^n2 with n1 = n/2, both within the normal exponent range for n in [-150, 129].
    const int32x4_t n = vcvtq_s32_f32(nf);
    const int32x4_t n1 = vshrq_n_s32(n, 1), n2 = vsubq_s32(n, n1);
    const float32x4_t s1 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n1, vdupq_n_s32(127)), 23));
    const float32x4_t s2 = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(n2, vdupq_n_s32(127)), 23));
    return vmulq_f32(vmulq_f32(p, s1), s2);
}

inline float32x4_t tanh_f32(float32x4_t y) {
    const float32x4_t ay = vabsq_f32(y);
    // Large |y|: 1 - 2/(e^{2|y|} + 1), sign restored below.
    const float32x4_t e = exp_f32(vaddq_f32(ay, ay));
    const float32x4_t big = vsubq_f32(vdupq_n_f32(1.0f), div_f32x4(vdupq_n_f32(2.0f), vaddq_f32(e, vdupq_n_f32(1.0f))));
    // Small |y|: y * P(y^2), Taylor coefficients of tanh.
    const float32x4_t y2 = vmulq_f32(ay, ay);
    float32x4_t p = vdupq_n_f32(-929569.0f / 638512875.0f);
    p = vaddq_f32(vdupq_n_f32(21844.0f / 6081075.0f), vmulq_f32(p, y2));
    p = vaddq_f32(vdupq_n_f32(-1382.0f / 155925.0f), vmulq_f32(p, y2));
    p = vaddq_f32(vdupq_n_f32(62.0f / 2835.0f), vmulq_f32(p, y2));
    p = vaddq_f32(vdupq_n_f32(-17.0f / 315.0f), vmulq_f32(p, y2));
    p = vaddq_f32(vdupq_n_f32(2.0f / 15.0f), vmulq_f32(p, y2));
    p = vaddq_f32(vdupq_n_f32(-1.0f / 3.0f), vmulq_f32(p, y2));
    const float32x4_t small = vaddq_f32(ay, vmulq_f32(ay, vmulq_f32(p, y2)));
    const float32x4_t mag = vbslq_f32(vcltq_f32(ay, vdupq_n_f32(0.5f)), small, big);
    // Copy the sign of y (also keeps NaN a NaN: big/small are NaN for NaN input).
    const uint32x4_t sign = vandq_u32(vreinterpretq_u32_f32(y), vdupq_n_u32(0x80000000u));
    return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(mag), sign));
}

}  // namespace npurun::kernels::neon

// IEEE 754 binary16 <-> binary32 conversion, the one definition for every layer (the NPU lowering, the
// CPU kernels through core/quantization.h, the simulator). fp32 -> fp16 rounds to nearest, ties to even;
// overflow gives infinity; NaN stays NaN (quiet, payload kept in the top mantissa bits). fp16 -> fp32 is exact.
//
// Inline, because the simulator converts every fp16 element it reads and writes (slim-320 --fp16: a third of
// the simulated inference's time went to out-of-line calls of these two). Both are exact for every input:
// tests/unit/quantization_test.cpp compares them with an independent definition over every half and a sweep
// of floats.
#pragma once

#include <cstdint>
#include <cstring>

namespace npurun {

inline float fp16_to_fp32(uint16_t h) {
    const uint32_t sign = uint32_t{h & 0x8000u} << 16;
    const uint32_t a = h & 0x7FFFu;
    uint32_t bits;
    if (a >= 0x7C00u) {  // infinity, NaN (payload kept)
        bits = 0x7F800000u | ((a & 0x3FFu) << 13);
    } else if (a >= 0x400u) {  // normal: rebias the exponent
        bits = (a << 13) + (uint32_t(127 - 15) << 23);
    } else if (a == 0) {  // zero (common: padding channels, ReLU outputs), apart so it skips the multiply
        bits = 0;
    } else {  // subnormal: a * 2^-24, exact in float (a < 1024, the scale a power of two)
        const float v = float(a) * 5.9604644775390625e-8f;
        std::memcpy(&bits, &v, sizeof bits);
    }
    bits |= sign;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline uint16_t fp32_to_fp16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t a = x & 0x7FFFFFFFu;
    if (a >= 0x47800000u) {  // |f| >= 2^16, infinity, NaN
        if (a > 0x7F800000u) return uint16_t(sign | 0x7C00u | 0x200u | ((a & 0x7FFFFFu) >> 13));
        return uint16_t(sign | 0x7C00u);
    }
    if (a < 0x38800000u) {  // |f| < 2^-14: a half subnormal or zero
        if (a == 0) return uint16_t(sign);
        // 0.5 + |f|: the float's last mantissa bit is worth 2^-24, the half subnormal's unit, so the FPU's own
        // round-to-nearest-even leaves round(|f| / 2^-24) in the low bits (1024 = the smallest normal half).
        float v;
        std::memcpy(&v, &a, sizeof v);
        v += 0.5f;
        uint32_t r;
        std::memcpy(&r, &v, sizeof r);
        return uint16_t(sign | (r - 0x3F000000u));
    }
    // Normal: rebias the exponent and round the 13 dropped bits to nearest even; a carry into the exponent
    // (up to infinity) is the correct result.
    const uint32_t odd = (a >> 13) & 1u;
    a += (uint32_t(15 - 127) << 23) + 0xFFFu + odd;
    return uint16_t(sign | (a >> 13));
}

}  // namespace npurun

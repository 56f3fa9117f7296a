#include "core/fp16.h"

#include <cstring>

namespace npudrv {

float fp16_to_fp32(uint16_t h) {
    const uint32_t sign = uint32_t{h & 0x8000u} << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    uint32_t bits = 0;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            int e = -1;
            do {
                ++e;
                mant <<= 1;
            } while ((mant & 0x400u) == 0);
            bits = sign | (uint32_t(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
        }
    } else if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else {
        bits = sign | ((exp + (127 - 15)) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

uint16_t fp32_to_fp16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t mant = x & 0x7FFFFFu;
    if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (mant ? 0x200u | (mant >> 13) : 0u));
    const int e = static_cast<int>(exp) - 127 + 15;
    if (e >= 0x1F) return static_cast<uint16_t>(sign | 0x7C00u);  // overflow -> inf
    if (e <= 0) {
        if (e < -10) return sign;  // underflows to zero (even after rounding)
        mant |= 0x800000u;         // implicit one
        const int shift = 14 - e;  // 13 + (1 - e)
        const uint32_t half = 1u << (shift - 1);
        const uint32_t rest = mant & ((1u << shift) - 1);
        uint32_t r = mant >> shift;
        if (rest > half || (rest == half && (r & 1u))) ++r;
        return static_cast<uint16_t>(sign | r);  // a carry into the exponent field is the correct result
    }
    uint32_t r = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (r & 1u))) ++r;  // may carry into exp / to inf: correct
    return static_cast<uint16_t>(sign | r);
}

}  // namespace npudrv

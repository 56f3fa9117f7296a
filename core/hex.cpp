#include "core/hex.h"

#include <cstdio>

namespace npurun {

std::string hex(uint64_t value, int min_digits, HexCase letters) {
    char buf[32];  // "0x" + at most 16 digits (min_digits is clamped to 16) + NUL
    const int digits = min_digits < 0 ? 0 : (min_digits > 16 ? 16 : min_digits);
    std::snprintf(buf, sizeof buf, letters == HexCase::Upper ? "0x%0*llX" : "0x%0*llx", digits,
                  static_cast<unsigned long long>(value));
    return buf;
}

}  // namespace npurun

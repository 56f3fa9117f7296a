// Hexadecimal text of an integer, for messages and decoded dumps ("0x1F"). The one definition for every
// layer: the driver's messages use lowercase digits (as the kernel's logs do), the register decoder and the
// simulator uppercase, so the case is a parameter rather than a second function.
#pragma once

#include <cstdint>
#include <string>

namespace npurun {

enum class HexCase { Upper, Lower };

// "0x" followed by at least `min_digits` digits (zero-padded), e.g. hex(31) == "0x1F",
// hex(31, 4) == "0x001F", hex(31, 0, HexCase::Lower) == "0x1f".
std::string hex(uint64_t value, int min_digits = 0, HexCase letters = HexCase::Upper);

}  // namespace npurun

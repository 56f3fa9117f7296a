// core/hex.h and core/align.h: the one hex formatter and the one align_up every layer uses.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/align.h"
#include "core/hex.h"

namespace npurun {
namespace {

TEST(CoreHex, UpperByDefaultLowerOnRequest) {
    EXPECT_EQ(hex(0), "0x0");
    EXPECT_EQ(hex(0x1f), "0x1F");
    EXPECT_EQ(hex(0x1f, 0, HexCase::Lower), "0x1f");
    EXPECT_EQ(hex(0xffffffffffffffffull), "0xFFFFFFFFFFFFFFFF");
}

TEST(CoreHex, MinimumDigitsArePaddedWithZeros) {
    EXPECT_EQ(hex(0x1f, 4), "0x001F");
    EXPECT_EQ(hex(0x12345, 4), "0x12345");  // never truncated
    EXPECT_EQ(hex(1, 40), "0x0000000000000001");  // clamped to 16 digits
    EXPECT_EQ(hex(1, -3), "0x1");
}

TEST(CoreAlign, RoundsUpToAnyMultiple) {
    EXPECT_EQ(align_up(0u, 16), 0u);
    EXPECT_EQ(align_up(1u, 16), 16u);
    EXPECT_EQ(align_up(16u, 16), 16u);
    EXPECT_EQ(align_up(17u, 16), 32u);
    EXPECT_EQ(align_up(7u, 3), 9u);  // not only powers of two
    EXPECT_EQ(align_up(uint64_t{65}, 64), uint64_t{128});
    static_assert(align_up(uint32_t{5}, 4) == 8u, "usable in constant expressions");
}

}  // namespace
}  // namespace npurun

// The judging rules themselves: a harness that cannot fail would make every conformance case hollow.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tests/conformance/harness/compare.h"

using namespace conformance;

TEST(CompareValues, FloatIsRelativeAboveOneAbsoluteBelow) {
    EXPECT_EQ(compare_values(CompareMode::Float, 1e-4f, {1000.05}, {1000.0}), "");   // 5e-5 relative
    EXPECT_NE(compare_values(CompareMode::Float, 1e-4f, {1000.2}, {1000.0}), "");    // 2e-4 relative
    EXPECT_EQ(compare_values(CompareMode::Float, 1e-4f, {0.00005}, {0.0}), "");      // absolute below 1
    EXPECT_NE(compare_values(CompareMode::Float, 1e-4f, {0.0002}, {0.0}), "");
    EXPECT_NE(compare_values(CompareMode::Float, 1e-4f, {std::nan("")}, {0.0}), "");
    EXPECT_EQ(compare_values(CompareMode::Float, 1e-4f, {std::nan("")}, {std::nan("")}), "");
    EXPECT_NE(compare_values(CompareMode::Float, 1e-4f, {1.0, 2.0}, {1.0}), "");      // element count
}

TEST(CompareValues, QuantizedAllowsOneInTheInteger) {
    EXPECT_EQ(compare_values(CompareMode::Quantized, 1, {10, 255, 0}, {11, 254, 0}), "");
    EXPECT_NE(compare_values(CompareMode::Quantized, 1, {10, 255, 0}, {12, 254, 0}), "");
    EXPECT_NE(compare_values(CompareMode::Quantized, 0, {10}, {11}), "");
}

TEST(CompareValues, Top1AcceptsTiesAndBoundsTheDifference) {
    EXPECT_EQ(compare_values(CompareMode::Top1, 10, {0, 90, 90}, {0, 95, 95}), "");  // tie at the top
    EXPECT_NE(compare_values(CompareMode::Top1, 10, {0, 91, 90}, {0, 90, 95}), "");  // other class wins
    EXPECT_NE(compare_values(CompareMode::Top1, 10, {0, 120, 0}, {0, 95, 0}), "");   // same top-1, 25 apart
}

TEST(DecodeValues, EveryDataTypeAndBadSizes) {
    const float f = -1.5f;
    std::vector<uint8_t> b(4);
    std::memcpy(b.data(), &f, 4);
    EXPECT_EQ(decode_values("Float32", b), std::vector<double>{-1.5});
    EXPECT_EQ(decode_values("QAsymmU8", {200}), std::vector<double>{200});
    EXPECT_EQ(decode_values("QAsymmS8", {200}), std::vector<double>{-56});
    EXPECT_EQ(decode_values("QSymmS16", {0x00, 0x80}), std::vector<double>{-32768});
    EXPECT_EQ(decode_values("Float16", {0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00}),
              (std::vector<double>{1.0, -2.0, std::ldexp(1.0, -24)}));
    EXPECT_THROW(decode_values("Float32", {1, 2, 3}), std::runtime_error);
    EXPECT_THROW(decode_values("Complex64", {}), std::runtime_error);
}

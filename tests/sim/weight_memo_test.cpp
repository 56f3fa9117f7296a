// WeightMemo (drv/sim/weight_memo.h): an entry is found only for the same address, geometry and bytes,
// and the memo empties itself past its budget.
#include "drv/sim/weight_memo.h"

#include <gtest/gtest.h>

namespace npudrv::sim {
namespace {

const WeightMemo::Geometry kGeo{16, 32, 3, 3, 2, false};

TEST(WeightMemo, FindsOnlyTheSameAddressGeometryAndBytes) {
    WeightMemo memo;
    const std::vector<uint8_t> raw{1, 2, 3, 4};
    EXPECT_EQ(memo.find<float>(0x100, kGeo, raw), nullptr);
    const std::vector<float>& kept = memo.keep<float>(0x100, kGeo, raw, {1.5f, 2.5f});
    EXPECT_EQ(kept, (std::vector<float>{1.5f, 2.5f}));
    ASSERT_NE(memo.find<float>(0x100, kGeo, raw), nullptr);
    EXPECT_EQ(*memo.find<float>(0x100, kGeo, raw), kept);

    EXPECT_EQ(memo.find<float>(0x104, kGeo, raw), nullptr);                                 // address
    EXPECT_EQ(memo.find<float>(0x100, kGeo, std::vector<uint8_t>{1, 2, 3, 5}), nullptr);    // one byte
    EXPECT_EQ(memo.find<float>(0x100, kGeo, std::vector<uint8_t>{1, 2, 3}), nullptr);       // length
    for (int field = 0; field < 6; ++field) {
        WeightMemo::Geometry g = kGeo;
        if (field == 0) g.K = 17;
        if (field == 1) g.C = 31;
        if (field == 2) g.kh = 1;
        if (field == 3) g.kw = 1;
        if (field == 4) g.precision = 5;
        if (field == 5) g.depthwise = true;
        EXPECT_EQ(memo.find<float>(0x100, g, raw), nullptr) << field;
    }
    // The int8 values of an entry decoded as float are not there.
    EXPECT_EQ(memo.find<int16_t>(0x100, kGeo, raw), nullptr);
}

TEST(WeightMemo, ReplacesAnEntryAndEmptiesPastItsBudget) {
    WeightMemo memo;
    const std::vector<uint8_t> a{1}, b{2};
    memo.keep<int16_t>(0x100, kGeo, a, {7});
    memo.keep<int16_t>(0x100, kGeo, b, {8});
    EXPECT_EQ(memo.find<int16_t>(0x100, kGeo, a), nullptr);
    ASSERT_NE(memo.find<int16_t>(0x100, kGeo, b), nullptr);
    EXPECT_EQ(memo.find<int16_t>(0x100, kGeo, b)->at(0), 8);

    // An entry that would take the memo past its budget empties it first.
    const std::vector<uint8_t> big(WeightMemo::kMaxBytes / 2, 1);
    memo.keep<int16_t>(0x200, kGeo, big, {1});
    EXPECT_NE(memo.find<int16_t>(0x100, kGeo, b), nullptr);
    memo.keep<int16_t>(0x300, kGeo, big, {2});
    EXPECT_EQ(memo.find<int16_t>(0x100, kGeo, b), nullptr);
    EXPECT_EQ(memo.find<int16_t>(0x200, kGeo, big), nullptr);
    EXPECT_NE(memo.find<int16_t>(0x300, kGeo, big), nullptr);
}

}  // namespace
}  // namespace npudrv::sim

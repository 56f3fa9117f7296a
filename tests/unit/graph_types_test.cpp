#include <gtest/gtest.h>

#include "core/error.h"
#include "ir/graph.h"

using namespace npurun;

TEST(Shape, NumElementsAndString) {
    Shape s{1, 28, 28, 1};
    EXPECT_EQ(s.num_elements(), 784u);
    EXPECT_EQ(s.str(), "1x28x28x1");
    EXPECT_EQ(Shape().num_elements(), 1u);  // scalar
    EXPECT_EQ(Shape().str(), "scalar");
}

TEST(Shape, OverflowIsABadModel) {
    Shape s{0xffffffffu, 0xffffffffu, 0xffffffffu};
    try {
        (void)s.num_elements();
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::BadModel);
    }
}

TEST(Shape, RankAboveMaximumRejected) {
    EXPECT_THROW(Shape::from(std::vector<uint32_t>(kMaxRank + 1, 1)), Error);
}

TEST(TensorInfo, Bytes) {
    TensorInfo t;
    t.dtype = DataType::Float16;
    t.shape = Shape{2, 3};
    EXPECT_EQ(t.num_bytes(), 12u);
}

TEST(Graph, OwnedStorageIsAlignedAndZeroed) {
    Graph g;
    uint8_t* p = g.allocate_owned(100);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(p[i], 0);
}

// BatchToSpaceNd, SpaceToBatchNd, DepthToSpace, SpaceToDepth, ChannelShuffle, Gather, GatherNd, Slice,
// StridedSlice, Stack, Fill, Shape, Rank. Expected values are TensorFlow's documented examples or worked by hand.
#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

template <class Attrs>
std::vector<float> one(OpKind k, Attrs a, Shape in, std::vector<float> v, Shape out) {
    return run_unary_f32(k, a, in, v, out);
}

const std::vector<float> kBlocks{1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16};  // TF's example
const std::vector<float> kPadded{0, 1, 3, 0, 9, 11, 0, 2, 4, 0, 10, 12, 0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16};

}  // namespace

TEST(RefBatchToSpaceNd, TensorFlowExamples) {
    BatchToSpaceNdAttrs a;
    a.block_shape = {2, 2};
    a.crops = {{0, 0}, {0, 0}};
    EXPECT_EQ(one(OpKind::BatchToSpaceNd, a, {4, 1, 1, 3}, iota(12), {1, 2, 2, 3}), iota(12));
    EXPECT_EQ(one(OpKind::BatchToSpaceNd, a, {4, 2, 2, 1}, kBlocks, {1, 4, 4, 1}), iota(16));
    a.crops = {{0, 0}, {2, 0}};  // undoes SpaceToBatchNd's padding below
    EXPECT_EQ(one(OpKind::BatchToSpaceNd, a, {8, 1, 3, 1}, kPadded, {2, 2, 4, 1}), iota(16));
}

TEST(RefBatchToSpaceNd, NchwMatchesNhwc) {
    BatchToSpaceNdAttrs a;
    a.block_shape = {2, 2};
    a.crops = {{0, 0}, {0, 0}};
    a.layout = DataLayout::NCHW;
    EXPECT_EQ(one(OpKind::BatchToSpaceNd, a, {4, 1, 2, 2}, kBlocks, {1, 1, 4, 4}), iota(16));
}

TEST(RefSpaceToBatchNd, TensorFlowExamplesWithPadding) {
    SpaceToBatchNdAttrs a;
    a.block_shape = {2, 2};
    a.pads = {{0, 0}, {0, 0}};
    EXPECT_EQ(one(OpKind::SpaceToBatchNd, a, {1, 4, 4, 1}, iota(16), {4, 2, 2, 1}), kBlocks);
    a.pads = {{0, 0}, {2, 0}};
    EXPECT_EQ(one(OpKind::SpaceToBatchNd, a, {2, 2, 4, 1}, iota(16), {8, 1, 3, 1}), kPadded);
}

TEST(RefSpaceToBatchNd, QuantizedPaddingIsTheZeroPoint) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {1, 1, 1, 1}, 0.5f, 7), std::vector<uint8_t>{9});
    auto y = t.output(info(DataType::QAsymmU8, {2, 1, 1, 1}, 0.5f, 7));
    SpaceToBatchNdAttrs a;
    a.block_shape = {2, 1};
    a.pads = {{0, 1}, {0, 0}};
    t.op(OpKind::SpaceToBatchNd, a, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{9, 7}));
}

TEST(RefSpaceBatch, ShapeErrors) {
    OneOp t;
    auto x = t.tensor(f32({3, 1, 1, 1}), std::vector<float>(3));
    auto y = t.output(f32({1, 2, 2, 1}));
    BatchToSpaceNdAttrs a;
    a.block_shape = {2, 2};
    a.crops = {{0, 0}, {0, 0}};
    t.op(OpKind::BatchToSpaceNd, a, {x}, {y});
    EXPECT_NE(std::string(expect_error([&] { t.infer(); }).what()).find("not divisible"), std::string::npos);
}

TEST(RefDepthToSpace, TensorFlowExamplesAndInverse) {
    const std::vector<float> dcr{1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16};
    DepthToSpaceAttrs a{2, DataLayout::NHWC};
    EXPECT_EQ(one(OpKind::DepthToSpace, a, {1, 1, 1, 12}, iota(12), {1, 2, 2, 3}), iota(12));
    EXPECT_EQ(one(OpKind::DepthToSpace, a, {1, 2, 2, 4}, iota(16), {1, 4, 4, 1}), dcr);
    EXPECT_EQ(one(OpKind::SpaceToDepth, a, {1, 4, 4, 1}, dcr, {1, 2, 2, 4}), iota(16));
    EXPECT_EQ(one(OpKind::SpaceToDepth, a, {1, 2, 2, 3}, iota(12), {1, 1, 1, 12}), iota(12));
}

TEST(RefDepthToSpace, Nchw) {
    // channels {1,2},{3,4},{5,6},{7,8} (W = 2) -> rows {1,3,2,4} and {5,7,6,8}
    DepthToSpaceAttrs a{2, DataLayout::NCHW};
    EXPECT_EQ(one(OpKind::DepthToSpace, a, {1, 4, 1, 2}, iota(8), {1, 1, 2, 4}),
              (std::vector<float>{1, 3, 2, 4, 5, 7, 6, 8}));
    EXPECT_EQ(one(OpKind::SpaceToDepth, a, {1, 1, 2, 4}, (std::vector<float>{1, 3, 2, 4, 5, 7, 6, 8}), {1, 4, 1, 2}),
              iota(8));
}

TEST(RefChannelShuffle, GroupsTransposed) {
    EXPECT_EQ(one(OpKind::ChannelShuffle, ChannelShuffleAttrs{1, 2}, {1, 6}, iota(6, 0), {1, 6}),
              (std::vector<float>{0, 3, 1, 4, 2, 5}));
    // axis 0 with an inner dimension of 2: rows shuffled as units
    EXPECT_EQ(one(OpKind::ChannelShuffle, ChannelShuffleAttrs{0, 2}, {4, 2}, iota(8, 0), {4, 2}),
              (std::vector<float>{0, 1, 4, 5, 2, 3, 6, 7}));
}

namespace {

std::vector<float> gather(int32_t axis, Shape ps, std::vector<float> p, Shape is, std::vector<int32_t> idx, Shape out,
                          bool constant = false) {
    OneOp t;
    auto x = t.tensor(f32(ps), p);
    auto i = t.tensor(info(DataType::Signed32, is), idx, constant);
    auto y = t.output(f32(out));
    t.op(OpKind::Gather, GatherAttrs{axis}, {x, i}, {y});
    t.run();
    return t.out<float>();
}

}  // namespace

TEST(RefGather, AnyAxis) {
    EXPECT_EQ(gather(0, {3, 2}, iota(6), {2}, {2, 0}, {2, 2}), (std::vector<float>{5, 6, 1, 2}));
    EXPECT_EQ(gather(1, {3, 2}, iota(6), {2}, {1, 1}, {3, 2}), (std::vector<float>{2, 2, 4, 4, 6, 6}));
    EXPECT_EQ(gather(-1, {2, 3}, iota(6), {2, 2}, {0, 2, 1, 1}, {2, 2, 2}),
              (std::vector<float>{1, 3, 2, 2, 4, 6, 5, 5}));
    EXPECT_EQ(gather(0, {3}, iota(3), {}, {1}, {}), (std::vector<float>{2}));  // scalar index: rank drops
}

TEST(RefGather, OutOfRangeIndices) {
    // Constant indices: a model error at load. Run-time indices: the selected elements become 0.
    OneOp t;
    auto x = t.tensor(f32({2}), std::vector<float>{1, 2});
    auto i = t.tensor(info(DataType::Signed32, {1}), std::vector<int32_t>{2}, true);
    auto y = t.output(f32({1}));
    t.op(OpKind::Gather, GatherAttrs{0}, {x, i}, {y});
    EXPECT_NE(std::string(expect_error([&] { t.infer(); }).what()).find("index 2 is out of range"), std::string::npos);
    EXPECT_EQ(gather(0, {2, 2}, iota(4), {2}, {-1, 1}, {2, 2}), (std::vector<float>{0, 0, 3, 4}));
}

TEST(RefGatherNd, FullAndPartialIndices) {
    auto run = [](Shape is, std::vector<int32_t> idx, Shape out) {
        OneOp t;
        auto x = t.tensor(f32({2, 2}), iota(4));
        auto i = t.tensor(info(DataType::Signed32, is), idx);
        auto y = t.output(f32(out));
        t.op(OpKind::GatherNd, std::monostate{}, {x, i}, {y});
        t.run();
        return t.out<float>();
    };
    EXPECT_EQ(run({2, 2}, {0, 0, 1, 1}, {2}), (std::vector<float>{1, 4}));
    EXPECT_EQ(run({2, 1}, {1, 0}, {2, 2}), (std::vector<float>{3, 4, 1, 2}));
    EXPECT_EQ(run({1, 2}, {0, 1}, {1}), (std::vector<float>{2}));
    EXPECT_EQ(run({2, 2}, {0, 5, 1, 0}, {2}), (std::vector<float>{0, 3}));  // out of range at run time -> 0
}

TEST(RefSlice, BeginAndSize) {
    EXPECT_EQ(one(OpKind::Slice, SliceAttrs{{1, 0}, {2, 2}}, {3, 3}, iota(9), {2, 2}), (std::vector<float>{4, 5, 7, 8}));
    OneOp t;
    auto x = t.tensor(f32({3}), iota(3));
    auto y = t.output(f32({2}));
    t.op(OpKind::Slice, SliceAttrs{{2}, {2}}, {x}, {y});
    EXPECT_EQ(expect_error([&] { t.infer(); }).kind(), ErrorKind::BadModel);
}

namespace {

StridedSliceAttrs ss(std::vector<int32_t> b, std::vector<int32_t> e, std::vector<int32_t> s, int32_t bm = 0,
                     int32_t em = 0, int32_t sm = 0) {
    return StridedSliceAttrs{b, e, s, bm, em, sm};
}

}  // namespace

TEST(RefStridedSlice, StridesAndMasks) {
    const auto x = iota(12, 0);  // [3, 4]
    EXPECT_EQ(one(OpKind::StridedSlice, ss({0, 1}, {3, 4}, {2, 2}), {3, 4}, x, {2, 2}),
              (std::vector<float>{1, 3, 9, 11}));
    // negative stride with endMask on both axes: rows reversed, all columns
    EXPECT_EQ(one(OpKind::StridedSlice, ss({-1, 0}, {0, 0}, {-1, 1}, 0, 3), {3, 4}, x, {3, 4}),
              (std::vector<float>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}));
    // beginMask on axis 0: rows from 0; columns 2..3
    EXPECT_EQ(one(OpKind::StridedSlice, ss({2, 2}, {3, 4}, {1, 1}, 1), {3, 4}, x, {3, 2}),
              (std::vector<float>{2, 3, 6, 7, 10, 11}));
    // shrinkAxisMask on axis 0: row 1, rank drops
    EXPECT_EQ(one(OpKind::StridedSlice, ss({1, 0}, {2, 4}, {1, 1}, 0, 0, 1), {3, 4}, x, {4}),
              (std::vector<float>{4, 5, 6, 7}));
    // every axis shrunk: shape [1]
    EXPECT_EQ(one(OpKind::StridedSlice, ss({1, 2}, {2, 3}, {1, 1}, 0, 0, 3), {3, 4}, x, {1}), (std::vector<float>{6}));
    // negative begin and end count from the end: rows -2..-1 -> row 1
    EXPECT_EQ(one(OpKind::StridedSlice, ss({-2, -3}, {-1, -1}, {1, 1}), {3, 4}, x, {1, 2}), (std::vector<float>{5, 6}));
}

TEST(RefStridedSlice, EllipsisAndNewAxisMasksAreIgnoredLikeArmNN) {
    // Decision (reference/armnn-format.md §2): Arm NN stores ellipsisMask/newAxisMask but ignores them.
    StridedSliceAttrs a = ss({0, 1}, {3, 4}, {2, 2});
    a.ellipsis_mask = 1;
    a.new_axis_mask = 2;
    EXPECT_EQ(one(OpKind::StridedSlice, a, {3, 4}, iota(12, 0), {2, 2}), (std::vector<float>{1, 3, 9, 11}));
}

TEST(RefStridedSlice, Errors) {
    auto err = [](StridedSliceAttrs a) {
        OneOp t;
        auto x = t.tensor(f32({3, 4}), std::vector<float>(12));
        auto y = t.output(f32({1}));
        t.op(OpKind::StridedSlice, a, {x}, {y});
        return std::string(expect_error([&] { t.infer(); }).what());
    };
    EXPECT_NE(err(ss({0, 0}, {3, 4}, {1, 0})).find("stride of dimension 1 is 0"), std::string::npos);
    EXPECT_NE(err(ss({0, 0}, {3, 4}, {1, 1}, 0, 0, 1)).find("more than one element"), std::string::npos);
    EXPECT_NE(err(ss({0}, {3}, {1})).find("need 2 entries"), std::string::npos);
}

TEST(RefStack, AxisZeroAndOne) {
    for (uint32_t axis : {0u, 1u}) {
        OneOp t;
        auto a = t.tensor(f32({2}), std::vector<float>{1, 2});
        auto b = t.tensor(f32({2}), std::vector<float>{3, 4});
        auto y = t.output(f32({2, 2}));
        StackAttrs at;
        at.axis = axis;
        at.num_inputs = 2;
        at.input_shape = Shape{2};
        t.op(OpKind::Stack, at, {a, b}, {y});
        t.run();
        EXPECT_EQ(t.out<float>(), axis == 0 ? (std::vector<float>{1, 2, 3, 4}) : (std::vector<float>{1, 3, 2, 4}));
    }
}

TEST(RefFillShapeRank, Values) {
    {
        OneOp t;
        auto s = t.tensor(info(DataType::Signed32, {2}), std::vector<int32_t>{2, 3}, true);
        auto y = t.output(info(DataType::Signed32, {2, 3}));
        t.op(OpKind::Fill, FillAttrs{7.0f}, {s}, {y});
        t.run();
        EXPECT_EQ(t.out<int32_t>(), std::vector<int32_t>(6, 7));
    }
    {
        OneOp t;  // a constant shape operand that disagrees with the declared output
        auto s = t.tensor(info(DataType::Signed32, {2}), std::vector<int32_t>{3, 2}, true);
        auto y = t.output(f32({2, 3}));
        t.op(OpKind::Fill, FillAttrs{1.0f}, {s}, {y});
        EXPECT_EQ(expect_error([&] { t.infer(); }).kind(), ErrorKind::BadModel);
    }
    {
        OneOp t;
        auto x = t.tensor(info(DataType::QAsymmU8, {2, 3, 4}, 1.0f), std::vector<uint8_t>(24));
        auto y = t.output(info(DataType::Signed32, {3}));
        t.op(OpKind::Shape, std::monostate{}, {x}, {y});
        t.run();
        EXPECT_EQ(t.out<int32_t>(), (std::vector<int32_t>{2, 3, 4}));
    }
    {
        OneOp t;
        auto x = t.tensor(f32({2, 3, 4}), std::vector<float>(24));
        auto y = t.output(info(DataType::Signed32, {}));
        t.op(OpKind::Rank, std::monostate{}, {x}, {y});
        t.run();
        EXPECT_EQ(t.out<int32_t>(), (std::vector<int32_t>{3}));
    }
}

// Comparison, LogicalBinary, Prelu, Cast, LogSoftmax, ArgMinMax, Reduce: hand-computed expectations.
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

std::vector<uint8_t> compare(ComparisonOp op, Shape sa, std::vector<float> a, Shape sb, std::vector<float> b, Shape so) {
    OneOp t;
    auto x = t.tensor(f32(sa), a);
    auto z = t.tensor(f32(sb), b);
    auto y = t.output(info(DataType::Boolean, so));
    t.op(OpKind::Comparison, ComparisonAttrs{op}, {x, z}, {y});
    t.run();
    return t.out<uint8_t>();
}

}  // namespace

TEST(RefComparison, AllSixOps) {
    const std::vector<float> a{1, 2, 3}, b{2, 2, 2};
    using O = ComparisonOp;
    EXPECT_EQ(compare(O::Equal, {3}, a, {3}, b, {3}), (std::vector<uint8_t>{0, 1, 0}));
    EXPECT_EQ(compare(O::NotEqual, {3}, a, {3}, b, {3}), (std::vector<uint8_t>{1, 0, 1}));
    EXPECT_EQ(compare(O::Greater, {3}, a, {3}, b, {3}), (std::vector<uint8_t>{0, 0, 1}));
    EXPECT_EQ(compare(O::GreaterOrEqual, {3}, a, {3}, b, {3}), (std::vector<uint8_t>{0, 1, 1}));
    EXPECT_EQ(compare(O::Less, {3}, a, {3}, b, {3}), (std::vector<uint8_t>{1, 0, 0}));
    EXPECT_EQ(compare(O::LessOrEqual, {3}, a, {3}, b, {3}), (std::vector<uint8_t>{1, 1, 0}));
}

TEST(RefComparison, BroadcastsAndOutputsBoolean) {
    // [2,1] vs [1,3] -> [2,3]: rows {1, 5} compared with {0, 3, 6}.
    EXPECT_EQ(compare(ComparisonOp::Greater, {2, 1}, {1, 5}, {1, 3}, {0, 3, 6}, {2, 3}),
              (std::vector<uint8_t>{1, 0, 0, 1, 1, 0}));
    OneOp t;
    auto x = t.tensor(f32({2}), std::vector<float>{1, 2});
    auto z = t.tensor(f32({2}), std::vector<float>{1, 2});
    auto y = t.output(f32({2}));  // declared Float32: the layer produces Boolean
    t.op(OpKind::Comparison, ComparisonAttrs{}, {x, z}, {y});
    EXPECT_EQ(t.infer()[0].dtype, DataType::Boolean);
}

TEST(RefComparison, QuantizedComparesRealValues) {
    // a: s 0.5 zp 10, q {12, 14} = {1, 2}; b: s 1 zp 0, q {1, 1} = {1, 1} -> Equal {1, 0}
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {2}, 0.5f, 10), std::vector<uint8_t>{12, 14});
    auto z = t.tensor(info(DataType::QAsymmU8, {2}, 1.0f, 0), std::vector<uint8_t>{1, 1});
    auto y = t.output(info(DataType::Boolean, {2}));
    t.op(OpKind::Comparison, ComparisonAttrs{ComparisonOp::Equal}, {x, z}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{1, 0}));
}

TEST(RefComparison, Signed32IsExactBeyondFloatPrecision) {
    OneOp t;
    auto x = t.tensor(info(DataType::Signed32, {1}), std::vector<int32_t>{16777217});
    auto z = t.tensor(info(DataType::Signed32, {1}), std::vector<int32_t>{16777216});
    auto y = t.output(info(DataType::Boolean, {1}));
    t.op(OpKind::Comparison, ComparisonAttrs{ComparisonOp::Greater}, {x, z}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{1}));  // as floats both are 16777216
}

TEST(RefLogicalBinary, AndOrBroadcast) {
    for (auto op : {LogicalBinaryOp::And, LogicalBinaryOp::Or}) {
        OneOp t;
        auto x = t.tensor(info(DataType::Boolean, {2, 2}), std::vector<uint8_t>{0, 0, 1, 1});
        auto z = t.tensor(info(DataType::Boolean, {2}), std::vector<uint8_t>{0, 1});
        auto y = t.output(info(DataType::Boolean, {2, 2}));
        t.op(OpKind::LogicalBinary, LogicalBinaryAttrs{op}, {x, z}, {y});
        t.run();
        EXPECT_EQ(t.out<uint8_t>(), op == LogicalBinaryOp::And ? (std::vector<uint8_t>{0, 0, 0, 1})
                                                               : (std::vector<uint8_t>{0, 1, 1, 1}));
    }
    OneOp t;  // non-Boolean inputs are a model error
    auto x = t.tensor(f32({1}), std::vector<float>{1});
    auto y = t.output(info(DataType::Boolean, {1}));
    t.op(OpKind::LogicalBinary, LogicalBinaryAttrs{}, {x, x}, {y});
    EXPECT_EQ(expect_error([&] { t.infer(); }).kind(), ErrorKind::BadModel);
}

TEST(RefPrelu, BroadcastAlphaPerChannel) {
    // x [1,2,2] (H=2? rows) with alpha [2] broadcast along the last axis.
    OneOp t;
    auto x = t.tensor(f32({2, 2}), std::vector<float>{-1, -2, 3, -4});
    auto al = t.tensor(f32({2}), std::vector<float>{0.5f, 0.25f});
    auto y = t.output(f32({2, 2}));
    t.op(OpKind::Prelu, std::monostate{}, {x, al}, {y});
    t.run();
    EXPECT_EQ(t.out<float>(), (std::vector<float>{-0.5f, -0.5f, 3, -1}));
}

TEST(RefPrelu, OutputIsTheBroadcastShape) {
    OneOp t;
    auto x = t.tensor(f32({2, 1}), std::vector<float>{-2, 2});
    auto al = t.tensor(f32({1, 3}), std::vector<float>{1, 2, 3});
    auto y = t.output(f32({2, 3}));
    t.op(OpKind::Prelu, std::monostate{}, {x, al}, {y});
    t.run();
    EXPECT_EQ(t.out<float>(), (std::vector<float>{-2, -4, -6, 2, 2, 2}));
}

TEST(RefCast, FloatToIntTruncatesAndQuantizedDequantizes) {
    {
        OneOp t;
        auto x = t.tensor(f32({4}), std::vector<float>{1.9f, -1.9f, 0.5f, 3});
        auto y = t.output(info(DataType::Signed32, {4}));
        t.op(OpKind::Cast, std::monostate{}, {x}, {y});
        t.run();
        EXPECT_EQ(t.out<int32_t>(), (std::vector<int32_t>{1, -1, 0, 3}));
    }
    {
        OneOp t;  // q {0, 4, 255} s 0.5 zp 4 -> {-2, 0, 125.5}
        auto x = t.tensor(info(DataType::QAsymmU8, {3}, 0.5f, 4), std::vector<uint8_t>{0, 4, 255});
        auto y = t.output(f32({3}));
        t.op(OpKind::Cast, std::monostate{}, {x}, {y});
        t.run();
        EXPECT_EQ(t.out<float>(), (std::vector<float>{-2, 0, 125.5f}));
    }
    {
        OneOp t;
        auto x = t.tensor(info(DataType::Signed32, {3}), std::vector<int32_t>{0, 7, -1});
        auto y = t.output(info(DataType::Boolean, {3}));
        t.op(OpKind::Cast, std::monostate{}, {x}, {y});
        t.run();
        EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{0, 1, 1}));
    }
}

TEST(RefCast, IntegersConvertExactlyAndSaturate) {
    OneOp t;
    auto x = t.tensor(info(DataType::Signed64, {3}), std::vector<int64_t>{16777217, -5000000000LL, 0});
    auto y = t.output(info(DataType::Signed32, {3}));
    t.op(OpKind::Cast, std::monostate{}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<int32_t>(), (std::vector<int32_t>{16777217, INT32_MIN, 0}));
}

TEST(RefLogSoftmax, MatchesHandValues) {
    // x {1, 2, 3}, beta 1: log-sum-exp = 3 + log(e^-2 + e^-1 + 1) = 3.4076059; out = x - 3.4076059
    OneOp t;
    auto x = t.tensor(f32({1, 3}), std::vector<float>{1, 2, 3});
    auto y = t.output(f32({1, 3}));
    t.op(OpKind::LogSoftmax, SoftmaxAttrs{1.0f, -1}, {x}, {y});
    t.run();
    EXPECT_FLOATS_NEAR(t.out<float>(), (std::vector<float>{-2.4076059f, -1.4076059f, -0.4076059f}), 1e-6);
}

TEST(RefLogSoftmax, BetaAndAxis0) {
    // columns along axis 0: {0, 2} with beta 0.5 -> scaled {0, 1}: lse = log(1 + e) = 1.3132617
    OneOp t;
    auto x = t.tensor(f32({2, 1}), std::vector<float>{0, 2});
    auto y = t.output(f32({2, 1}));
    t.op(OpKind::LogSoftmax, SoftmaxAttrs{0.5f, 0}, {x}, {y});
    t.run();
    EXPECT_FLOATS_NEAR(t.out<float>(), (std::vector<float>{-1.3132617f, -0.3132617f}), 1e-6);
}

TEST(RefArgMinMax, MaxAndMinAlongAxesFirstIndexWins) {
    const std::vector<float> v{1, 5, 5, 0, 2, -1};  // [2,3]
    auto run = [&](bool is_max, int32_t axis, Shape out) {
        OneOp t;
        auto x = t.tensor(f32({2, 3}), v);
        auto y = t.output(info(DataType::Signed32, out));
        t.op(OpKind::ArgMinMax, ArgMinMaxAttrs{is_max, axis}, {x}, {y});
        t.run();
        return t.out<int32_t>();
    };
    EXPECT_EQ(run(true, 1, {2}), (std::vector<int32_t>{1, 1}));   // {1,5,5}: first 5 wins; {0,2,-1}: 2
    EXPECT_EQ(run(false, -1, {2}), (std::vector<int32_t>{0, 2}));
    EXPECT_EQ(run(true, 0, {3}), (std::vector<int32_t>{0, 0, 0}));  // 1>0, 5>2, 5>-1
    EXPECT_EQ(run(false, 0, {3}), (std::vector<int32_t>{1, 1, 1}));
}

TEST(RefArgMinMax, Signed64OutputAndQuantizedInput) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmS8, {4}, 0.1f, 0), std::vector<int8_t>{-3, 7, 2, 7});
    auto y = t.output(info(DataType::Signed64, {1}));
    t.op(OpKind::ArgMinMax, ArgMinMaxAttrs{true, 0}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<int64_t>(), (std::vector<int64_t>{1}));
}

namespace {

std::vector<float> reduce(ReduceAttrs::Op op, std::vector<uint32_t> axes, bool keep, Shape out) {
    OneOp t;
    auto x = t.tensor(f32({2, 3}), std::vector<float>{1, 2, 3, 4, 5, 6});
    auto y = t.output(f32(out));
    ReduceAttrs a;
    a.op = op;
    a.axes = std::move(axes);
    a.keep_dims = keep;
    t.op(OpKind::Reduce, a, {x}, {y});
    t.run();
    return t.out<float>();
}

}  // namespace

TEST(RefReduce, EveryOperation) {
    using O = ReduceAttrs::Op;
    EXPECT_EQ(reduce(O::Sum, {1}, false, {2}), (std::vector<float>{6, 15}));
    EXPECT_EQ(reduce(O::Sum, {0}, true, {1, 3}), (std::vector<float>{5, 7, 9}));
    EXPECT_EQ(reduce(O::Max, {1}, false, {2}), (std::vector<float>{3, 6}));
    EXPECT_EQ(reduce(O::Min, {0}, false, {3}), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(reduce(O::Prod, {1}, true, {2, 1}), (std::vector<float>{6, 120}));
    EXPECT_EQ(reduce(O::Mean, {}, false, {1}), (std::vector<float>{3.5f}));  // all axes, no keepDims -> [1]
    EXPECT_EQ(reduce(O::Prod, {0, 1}, true, {1, 1}), (std::vector<float>{720}));
}

TEST(RefReduce, KeepDimsShapesAndErrors) {
    OneOp t;
    auto x = t.tensor(f32({2, 3}), std::vector<float>(6));
    auto y = t.output(f32({2}));
    ReduceAttrs a;
    a.op = ReduceAttrs::Op::Max;
    a.axes = {1};
    a.keep_dims = true;
    t.op(OpKind::Reduce, a, {x}, {y});
    EXPECT_EQ(t.infer()[0].shape, (Shape{2, 1}));
    a.axes = {2};
    t.g.nodes.back().attrs = a;
    EXPECT_EQ(expect_error([&] { t.infer(); }).kind(), ErrorKind::BadModel);
}

TEST(RefReduce, QuantizedSumRequantizes) {
    // q {10, 20, 30} s 0.1 zp 0 = {1, 2, 3}; sum 6 -> out s 0.5 zp 1: 12 + 1 = 13
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {3}, 0.1f, 0), std::vector<uint8_t>{10, 20, 30});
    auto y = t.output(info(DataType::QAsymmU8, {1}, 0.5f, 1));
    ReduceAttrs a;
    t.op(OpKind::Reduce, a, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{13}));
}

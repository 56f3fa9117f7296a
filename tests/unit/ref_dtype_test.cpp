// Data-type coverage of the layout and reduction kernels: each test is a small hand-computed case in a
// type the other test files do not use for that kernel.
#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

TEST(RefDtypes, ResizeBilinearUint8) {
    // [0, 100] (s 1 zp 0) to width 4, no flags: src x*0.5 -> [0, 50, 100, 100]
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {1, 1, 2, 1}, 1.0f, 0), std::vector<uint8_t>{0, 100});
    auto y = t.output(info(DataType::QAsymmU8, {1, 1, 4, 1}, 1.0f, 0));
    ResizeAttrs a;
    a.method = ResizeMethod::Bilinear;
    a.target_height = 1;
    a.target_width = 4;
    t.op(OpKind::Resize, a, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{0, 50, 100, 100}));
}

TEST(RefDtypes, PadInt8RawValueSaturates) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmS8, {1}, 0.1f, -3), std::vector<int8_t>{-100});
    auto y = t.output(info(DataType::QAsymmS8, {3}, 0.1f, -3));
    PadAttrs a;
    a.pads = {{1, 1}};
    a.value = -500.7f;  // raw, truncated toward zero, saturated to -128
    t.op(OpKind::Pad, a, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<int8_t>(), (std::vector<int8_t>{-128, -100, -128}));
}

TEST(RefDtypes, TransposeFloat16AndConcatInt16) {
    OneOp t;
    auto x = t.tensor(info(DataType::Float16, {2, 3}), to_f16({1, 2, 3, 4, 5, 6}));
    auto y = t.output(info(DataType::Float16, {3, 2}));
    t.op(OpKind::Transpose, PermuteAttrs{{1, 0}}, {x}, {y});
    t.run();
    EXPECT_EQ(from_f16(t.out<uint16_t>()), (std::vector<float>{1, 4, 2, 5, 3, 6}));

    OneOp c;
    auto a = c.tensor(info(DataType::QSymmS16, {2}, 0.5f), std::vector<int16_t>{-2, 4});
    auto b = c.tensor(info(DataType::QSymmS16, {1}, 1.0f), std::vector<int16_t>{300});
    auto z = c.output(info(DataType::QSymmS16, {3}, 0.5f));
    ConcatAttrs at;
    at.view_origins = {{0}, {2}};
    c.op(OpKind::Concat, at, {a, b}, {z});
    c.run();
    EXPECT_EQ(c.out<int16_t>(), (std::vector<int16_t>{-2, 4, 600}));
}

TEST(RefDtypes, MeanAndSoftmaxFloat16) {
    OneOp m;
    auto x = m.tensor(info(DataType::Float16, {2, 2}), to_f16({1, 2, 4, 8}));
    auto y = m.output(info(DataType::Float16, {2}));
    ReduceAttrs ra;
    ra.op = ReduceAttrs::Op::Mean;
    ra.axes = {0};
    m.op(OpKind::Mean, ra, {x}, {y});
    m.run();
    EXPECT_EQ(from_f16(m.out<uint16_t>()), (std::vector<float>{2.5f, 5}));

    OneOp s;
    auto sx = s.tensor(info(DataType::Float16, {4}), to_f16({0, 0, 0, 0}));
    auto sy = s.output(info(DataType::Float16, {4}));
    s.op(OpKind::Softmax, SoftmaxAttrs{}, {sx}, {sy});
    s.run();
    EXPECT_EQ(from_f16(s.out<uint16_t>()), (std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f}));
}

TEST(RefDtypes, SplitterQSymmS8ToDifferentScales) {
    OneOp t;
    auto x = t.tensor(info(DataType::QSymmS8, {4}, 1.0f), std::vector<int8_t>{10, -20, 30, -41});
    auto y0 = t.output(info(DataType::QSymmS8, {2}, 1.0f));
    auto y1 = t.output(info(DataType::QSymmS8, {2}, 2.0f));
    SplitterAttrs a;
    a.view_origins = {{0}, {2}};
    a.view_sizes = {{2}, {2}};
    t.op(OpKind::Splitter, a, {x}, {y0, y1});
    t.run();
    EXPECT_EQ(t.out<int8_t>(0), (std::vector<int8_t>{10, -20}));
    EXPECT_EQ(t.out<int8_t>(1), (std::vector<int8_t>{15, -21}));  // -20.5 rounds away from zero
}

TEST(RefDtypes, BatchNormUint8) {
    // x s 0.5 zp 10: q [12, 14] = [1, 2]; mean 1 var 1 beta 0 gamma 3 -> 3(x-1) = [0, 3]; out s 0.5 zp 10 -> [10, 16]
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {1, 1, 2, 1}, 0.5f, 10), std::vector<uint8_t>{12, 14});
    auto mean = t.tensor(f32({1}), std::vector<float>{1}, true);
    auto var = t.tensor(f32({1}), std::vector<float>{1}, true);
    auto beta = t.tensor(f32({1}), std::vector<float>{0}, true);
    auto gamma = t.tensor(f32({1}), std::vector<float>{3}, true);
    auto y = t.output(info(DataType::QAsymmU8, {1, 1, 2, 1}, 0.5f, 10));
    BatchNormalizationAttrs a;
    t.op(OpKind::BatchNormalization, a, {x, mean, var, beta, gamma}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{10, 16}));
}

TEST(RefDtypes, KernelCheckRejectsUnsupportedTypes) {
    OneOp t;
    auto x = t.tensor(info(DataType::Signed32, {2}), std::vector<int32_t>{1, 2});
    auto y = t.output(info(DataType::Signed32, {2}));
    t.op(OpKind::Floor, std::monostate{}, {x}, {y});
    const kernels::Kernel* k = kernels::ref_kernel(OpKind::Floor);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->check(exec::KernelNodeView(t.node(), t.g)), "Signed32 input 0 not supported");
}

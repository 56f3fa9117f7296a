// Pooling2d reference kernel: CpuRef's deserializer examples, padding methods, roundings, layouts.
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

Pooling2dAttrs pool(PoolingAlgorithm alg, uint32_t size, uint32_t stride, DataLayout layout = DataLayout::NHWC) {
    Pooling2dAttrs a;
    a.algorithm = alg;
    a.pool_width = a.pool_height = size;
    a.stride_x = a.stride_y = stride;
    a.layout = layout;
    return a;
}

std::vector<float> run_f32(const Pooling2dAttrs& a, Shape in_shape, std::vector<float> in, Shape out_shape) {
    return run_unary_f32(OpKind::Pooling2d, a, in_shape, in, out_shape);
}

}  // namespace

// The examples of Arm NN's DeserializePooling2d.cpp (run there on CpuRef).
TEST(RefPooling2d, ArmnnDeserializerExamples) {
    EXPECT_EQ(run_f32(pool(PoolingAlgorithm::Average, 2, 2), {1, 2, 2, 1}, {2, 3, 5, 2}, {1, 1, 1, 1}),
              std::vector<float>{3});
    EXPECT_FLOAT_EQ(run_f32(pool(PoolingAlgorithm::L2, 2, 2), {1, 2, 2, 1}, {2, 3, 5, 2}, {1, 1, 1, 1})[0],
                    3.2403703f);
    EXPECT_EQ(run_f32(pool(PoolingAlgorithm::Max, 2, 2), {1, 2, 2, 1}, {2, 3, 5, 2}, {1, 1, 1, 1}),
              std::vector<float>{5});

    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {1, 2, 2, 1}, 1.0f, 0), std::vector<uint8_t>{20, 40, 60, 80});
    auto y = t.output(info(DataType::QAsymmU8, {1, 1, 1, 1}, 1.0f, 0));
    t.op(OpKind::Pooling2d, pool(PoolingAlgorithm::Average, 2, 2), {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), std::vector<uint8_t>{50});
}

// 3x3 input 1..9, pool 2 stride 2, pad right/bottom 1: windows {1,2,4,5}, {3,6}, {7,8}, {9}.
TEST(RefPooling2d, PaddingMethods) {
    Pooling2dAttrs a = pool(PoolingAlgorithm::Average, 2, 2);
    a.pad_right = a.pad_bottom = 1;
    const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9};
    a.padding_method = PaddingMethod::IgnoreValue;  // divisor 4 everywhere (padding counts as zeros)
    EXPECT_EQ(run_f32(a, {1, 3, 3, 1}, in, {1, 2, 2, 1}), (std::vector<float>{3, 2.25f, 3.75f, 2.25f}));
    a.padding_method = PaddingMethod::Exclude;  // divisor = real elements
    EXPECT_EQ(run_f32(a, {1, 3, 3, 1}, in, {1, 2, 2, 1}), (std::vector<float>{3, 4.5f, 7.5f, 9}));
    a.algorithm = PoolingAlgorithm::Max;
    EXPECT_EQ(run_f32(a, {1, 3, 3, 1}, in, {1, 2, 2, 1}), (std::vector<float>{5, 6, 8, 9}));
    a.algorithm = PoolingAlgorithm::L2;
    a.padding_method = PaddingMethod::IgnoreValue;
    const auto l2 = run_f32(a, {1, 3, 3, 1}, in, {1, 2, 2, 1});
    EXPECT_FLOAT_EQ(l2[1], std::sqrt((9.0f + 36.0f) / 4.0f));
    EXPECT_FLOAT_EQ(l2[3], std::sqrt(81.0f / 4.0f));
}

// Width 5, pool 2, stride 2: floor gives 2 outputs, ceiling 3 (the last window holds one element; its
// IgnoreValue divisor is clipped at in + padHigh = 5, so it is 1).
TEST(RefPooling2d, OutputShapeRounding) {
    Pooling2dAttrs a = pool(PoolingAlgorithm::Average, 2, 2);
    a.pool_height = 1;
    a.stride_y = 1;
    const std::vector<float> in{1, 2, 3, 4, 5};
    EXPECT_EQ(run_f32(a, {1, 1, 5, 1}, in, {1, 1, 2, 1}), (std::vector<float>{1.5f, 3.5f}));
    a.rounding = OutputShapeRounding::Ceiling;
    EXPECT_EQ(run_f32(a, {1, 1, 5, 1}, in, {1, 1, 3, 1}), (std::vector<float>{1.5f, 3.5f, 5}));
}

// A window wholly inside the padding outputs 0; max pooling never sees padding values.
TEST(RefPooling2d, WindowOnlyInPaddingIsZero) {
    Pooling2dAttrs a = pool(PoolingAlgorithm::Max, 2, 2);
    a.pool_height = 1;
    a.stride_y = 1;
    a.pad_left = 2;
    EXPECT_EQ(run_f32(a, {1, 1, 2, 1}, {-5, -7}, {1, 1, 2, 1}), (std::vector<float>{0, -5}));
}

TEST(RefPooling2d, NchwTwoChannelsStride1) {
    // 1x2x2x3 NCHW, pool 2x2 stride 1 -> 1x2x1x2: channel 0 = 0..5, channel 1 = 10 * channel 0.
    const auto out = run_f32(pool(PoolingAlgorithm::Max, 2, 1, DataLayout::NCHW), {1, 2, 2, 3},
                             {0, 1, 2, 3, 4, 5, 0, 10, 20, 30, 40, 50}, {1, 2, 1, 2});
    EXPECT_EQ(out, (std::vector<float>{4, 5, 40, 50}));
    const auto avg = run_f32(pool(PoolingAlgorithm::Average, 2, 1, DataLayout::NCHW), {1, 2, 2, 3},
                             {0, 1, 2, 3, 4, 5, 0, 10, 20, 30, 40, 50}, {1, 2, 1, 2});
    EXPECT_EQ(avg, (std::vector<float>{2, 3, 20, 30}));
}

TEST(RefPooling2d, GlobalPoolingWithZeroStrides) {
    Pooling2dAttrs a = pool(PoolingAlgorithm::Average, 0, 0);
    a.pool_width = 3;
    a.pool_height = 2;
    EXPECT_EQ(run_f32(a, {1, 2, 3, 2}, {1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60}, {1, 1, 1, 2}),
              (std::vector<float>{3.5f, 35}));
}

TEST(RefPooling2d, Int8AndInt16AndFloat16) {
    {
        OneOp t;  // real [-1, -3, 2, 4] (s 0.5 zp 1): average 0.5 -> q = 0.5/0.25 + 0 = 2
        auto x = t.tensor(info(DataType::QAsymmS8, {1, 2, 2, 1}, 0.5f, 1), std::vector<int8_t>{-1, -5, 5, 9});
        auto y = t.output(info(DataType::QAsymmS8, {1, 1, 1, 1}, 0.25f, 0));
        t.op(OpKind::Pooling2d, pool(PoolingAlgorithm::Average, 2, 2), {x}, {y});
        t.run();
        EXPECT_EQ(t.out<int8_t>(), std::vector<int8_t>{2});
    }
    {
        OneOp t;
        auto x = t.tensor(info(DataType::QSymmS16, {1, 2, 2, 1}, 2.0f), std::vector<int16_t>{-300, 7, 1000, 2});
        auto y = t.output(info(DataType::QSymmS16, {1, 1, 1, 1}, 2.0f));
        t.op(OpKind::Pooling2d, pool(PoolingAlgorithm::Max, 2, 2), {x}, {y});
        t.run();
        EXPECT_EQ(t.out<int16_t>(), std::vector<int16_t>{1000});
    }
    {
        OneOp t;
        auto x = t.tensor(info(DataType::Float16, {1, 2, 2, 1}), to_f16({1, 2, 3, 5}));
        auto y = t.output(info(DataType::Float16, {1, 1, 1, 1}));
        t.op(OpKind::Pooling2d, pool(PoolingAlgorithm::Average, 2, 2), {x}, {y});
        t.run();
        EXPECT_EQ(from_f16(t.out<uint16_t>()), std::vector<float>{2.75f});
    }
}

TEST(RefPooling2dShape, LastWindowMustStartInsideInputOrLowPadding) {
    // in 2, pads 0/2, pool 2, stride 2: (2+2-2)/2+1 = 2, but window 1 would start at 2 >= in+padLow -> 1.
    OneOp t;
    auto x = t.tensor(f32({1, 1, 2, 1}), std::vector<float>{1, 2});
    auto y = t.output(f32({1, 1, 1, 1}));
    Pooling2dAttrs a = pool(PoolingAlgorithm::Max, 2, 2);
    a.pool_height = 1;
    a.stride_y = 1;
    a.pad_right = 2;
    t.op(OpKind::Pooling2d, a, {x}, {y});
    EXPECT_EQ(t.infer()[0].shape, (Shape{1, 1, 1, 1}));
}

TEST(RefPooling2dShape, Errors) {
    auto make = [](Pooling2dAttrs a, Shape in) {
        OneOp t;
        auto x = t.tensor(f32(in), std::vector<float>(in.num_elements()));
        auto y = t.output(f32({1, 1, 1, 1}));
        t.op(OpKind::Pooling2d, a, {x}, {y});
        return expect_error([&] { t.infer(); });
    };
    Pooling2dAttrs a = pool(PoolingAlgorithm::Max, 3, 1);
    Error e = make(a, {1, 2, 2, 1});
    EXPECT_EQ(e.kind(), ErrorKind::BadModel);
    EXPECT_NE(std::string(e.what()).find("larger than the padded input"), std::string::npos) << e.what();
    a = pool(PoolingAlgorithm::Max, 1, 1);
    a.stride_y = 0;
    e = make(a, {1, 2, 2, 1});
    EXPECT_NE(std::string(e.what()).find("stride height is 0"), std::string::npos) << e.what();
    a = pool(PoolingAlgorithm::Max, 1, 1);
    e = make(a, {1, 2, 2});
    EXPECT_NE(std::string(e.what()).find("rank 3"), std::string::npos) << e.what();
    a.layout = DataLayout::NDHWC;
    e = make(a, {1, 2, 2, 1});
    EXPECT_NE(std::string(e.what()).find("NDHWC"), std::string::npos) << e.what();
    a = pool(PoolingAlgorithm::Max, 1, 1);
    a.pad_left = 0xffffffffu;
    e = make(a, {1, 2, 2, 1});
    EXPECT_NE(std::string(e.what()).find("overflows"), std::string::npos) << e.what();
}

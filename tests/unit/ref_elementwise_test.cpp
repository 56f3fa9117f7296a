// Activation, ElementwiseBinary, ElementwiseUnary, Floor, Softmax, Quantize/Dequantize, BatchNormalization.
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

std::vector<float> activation(ActivationFunction f, float a, float b, std::vector<float> in) {
    OneOp t;
    const Shape s{uint32_t(in.size())};
    auto x = t.tensor(f32(s), in);
    auto y = t.output(f32(s));
    ActivationAttrs at;
    at.function = f;
    at.a = a;
    at.b = b;
    t.op(OpKind::Activation, at, {x}, {y});
    t.run();
    return t.out<float>();
}

std::vector<float> binary(BinaryOp op, Shape sa, std::vector<float> a, Shape sb, std::vector<float> b, Shape so) {
    OneOp t;
    auto x = t.tensor(f32(sa), a);
    auto z = t.tensor(f32(sb), b);
    auto y = t.output(f32(so));
    ElementwiseBinaryAttrs at;
    at.op = op;
    t.op(OpKind::ElementwiseBinary, at, {x, z}, {y});
    t.run();
    return t.out<float>();
}

}  // namespace

TEST(RefActivation, EveryFunction) {
    using F = ActivationFunction;
    EXPECT_FLOATS_NEAR(activation(F::Sigmoid, 0, 0, {0, 2}), (std::vector<float>{0.5f, 0.8807971f}), 1e-6);
    EXPECT_FLOATS_NEAR(activation(F::TanH, 2, 0.5f, {2, 0}), (std::vector<float>{1.5231883f, 0}), 1e-6);
    EXPECT_EQ(activation(F::TanH, 0, 0, {3}), std::vector<float>{0});  // a = b = 0 gives 0 (Arm NN)
    EXPECT_EQ(activation(F::Linear, 2, 1, {3, -1}), (std::vector<float>{7, -1}));
    EXPECT_EQ(activation(F::ReLu, 0, 0, {-1, 2}), (std::vector<float>{0, 2}));
    EXPECT_EQ(activation(F::BoundedReLu, 6, -1, {-3, 3, 9}), (std::vector<float>{-1, 3, 6}));  // a upper, b lower
    EXPECT_EQ(activation(F::BoundedReLu, 6, 0, {-3, 7}), (std::vector<float>{0, 6}));           // ReLU6
    EXPECT_FLOATS_NEAR(activation(F::SoftReLu, 0, 0, {0, 1}), (std::vector<float>{0.6931472f, 1.3132616f}), 1e-6);
    EXPECT_FLOATS_NEAR(activation(F::LeakyReLu, 0.1f, 0, {-2, 3}), (std::vector<float>{-0.2f, 3}), 1e-7);
    EXPECT_EQ(activation(F::Abs, 0, 0, {-2, 3}), (std::vector<float>{2, 3}));
    EXPECT_EQ(activation(F::Sqrt, 0, 0, {9, 0.25f}), (std::vector<float>{3, 0.5f}));
    EXPECT_EQ(activation(F::Square, 0, 0, {-3, 0.5f}), (std::vector<float>{9, 0.25f}));
    EXPECT_FLOATS_NEAR(activation(F::Elu, 1, 0, {-1, 2}), (std::vector<float>{-0.6321206f, 2}), 1e-6);
    EXPECT_FLOATS_NEAR(activation(F::HardSwish, 0, 0, {1, -4, 4, -1.5f}),
                       (std::vector<float>{0.6666667f, 0, 4, -0.375f}), 1e-6);
}

TEST(RefActivation, QuantizedReluRequantizes) {
    // in s 0.1 zp 128: q [100, 150] = real [-2.8, 2.2]; ReLu -> [0, 2.2]; out s 0.05 zp 10 -> [10, 54].
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {2}, 0.1f, 128), std::vector<uint8_t>{100, 150});
    auto y = t.output(info(DataType::QAsymmU8, {2}, 0.05f, 10));
    ActivationAttrs at;
    at.function = ActivationFunction::ReLu;
    t.op(OpKind::Activation, at, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{10, 54}));
}

TEST(RefElementwiseBinary, SameShapeEveryOp) {
    const std::vector<float> a{1, -2, 6, 0.5f}, b{4, 3, -2, 0.25f};
    EXPECT_EQ(binary(BinaryOp::Add, {4}, a, {4}, b, {4}), (std::vector<float>{5, 1, 4, 0.75f}));
    EXPECT_EQ(binary(BinaryOp::Sub, {4}, a, {4}, b, {4}), (std::vector<float>{-3, -5, 8, 0.25f}));
    EXPECT_EQ(binary(BinaryOp::Mul, {4}, a, {4}, b, {4}), (std::vector<float>{4, -6, -12, 0.125f}));
    EXPECT_EQ(binary(BinaryOp::Div, {4}, a, {4}, b, {4}), (std::vector<float>{0.25f, -2.0f / 3.0f, -3, 2}));
    EXPECT_EQ(binary(BinaryOp::Maximum, {4}, a, {4}, b, {4}), (std::vector<float>{4, 3, 6, 0.5f}));
    EXPECT_EQ(binary(BinaryOp::Minimum, {4}, a, {4}, b, {4}), (std::vector<float>{1, -2, -2, 0.25f}));
}

TEST(RefElementwiseBinary, Broadcasting) {
    // [2,1] + [1,3] -> [2,3]
    EXPECT_EQ(binary(BinaryOp::Add, {2, 1}, {10, 20}, {1, 3}, {1, 2, 3}, {2, 3}),
              (std::vector<float>{11, 12, 13, 21, 22, 23}));
    // Different ranks: [2,2,2] * [2] (right-aligned) -> scales the last dimension
    EXPECT_EQ(binary(BinaryOp::Mul, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}, {2}, {1, 10}, {2, 2, 2}),
              (std::vector<float>{1, 20, 3, 40, 5, 60, 7, 80}));
    // Scalar-like [1] on the left of a subtraction keeps the operand order.
    EXPECT_EQ(binary(BinaryOp::Sub, {1}, {10}, {3}, {1, 2, 3}, {3}), (std::vector<float>{9, 8, 7}));
    // Middle-dimension broadcast [2,1,3] vs [1,2,1] -> [2,2,3]
    EXPECT_EQ(binary(BinaryOp::Maximum, {2, 1, 3}, {1, 5, 9, 2, 6, 10}, {1, 2, 1}, {4, 7}, {2, 2, 3}),
              (std::vector<float>{4, 5, 9, 7, 7, 9, 4, 6, 10, 7, 7, 10}));
}

TEST(RefElementwiseBinary, QuantizedDifferentScales) {
    // a s 0.5 zp 0 [2, 4] = [1, 2]; b s 0.25 zp 4 [8, 12] = [1, 2]; sum [2, 4] -> out s 1 zp 100 -> [102, 104]
    OneOp t;
    auto a = t.tensor(info(DataType::QAsymmU8, {2}, 0.5f, 0), std::vector<uint8_t>{2, 4});
    auto b = t.tensor(info(DataType::QAsymmU8, {2}, 0.25f, 4), std::vector<uint8_t>{8, 12});
    auto y = t.output(info(DataType::QAsymmU8, {2}, 1.0f, 100));
    t.op(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{BinaryOp::Add}, {a, b}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{102, 104}));
}

TEST(RefElementwiseBinary, Float16RoundsOnceOnStore) {
    // 1 + 2^-11 is not representable in fp16: computed in float, stored once -> ties to even -> 1.
    OneOp t;
    auto a = t.tensor(info(DataType::Float16, {2}), to_f16({1, 2048}));
    auto b = t.tensor(info(DataType::Float16, {2}), to_f16({std::ldexp(1.0f, -11), 1}));
    auto y = t.output(info(DataType::Float16, {2}));
    t.op(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{BinaryOp::Add}, {a, b}, {y});
    t.run();
    EXPECT_EQ(from_f16(t.out<uint16_t>()), (std::vector<float>{1, 2048}));  // 2049 -> 2048 (even)
}

TEST(RefElementwiseBinaryShape, IncompatibleShapesRejected) {
    OneOp t;
    auto a = t.tensor(f32({2, 3}), std::vector<float>(6));
    auto b = t.tensor(f32({2}), std::vector<float>(2));
    auto y = t.output(f32({2, 3}));
    t.op(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{BinaryOp::Add}, {a, b}, {y});
    Error e = expect_error([&] { t.infer(); });
    EXPECT_EQ(e.kind(), ErrorKind::BadModel);
    EXPECT_NE(std::string(e.what()).find("cannot be broadcast"), std::string::npos) << e.what();
}

TEST(RefElementwiseUnary, EveryOp) {
    auto unary = [](UnaryOp op, std::vector<float> in) {
        OneOp t;
        const Shape s{uint32_t(in.size())};
        auto x = t.tensor(f32(s), in);
        auto y = t.output(f32(s));
        t.op(OpKind::ElementwiseUnary, ElementwiseUnaryAttrs{op}, {x}, {y});
        t.run();
        return t.out<float>();
    };
    EXPECT_EQ(unary(UnaryOp::Abs, {-1.5f, 2}), (std::vector<float>{1.5f, 2}));
    EXPECT_EQ(unary(UnaryOp::Rsqrt, {4, 0.25f}), (std::vector<float>{0.5f, 2}));
    EXPECT_EQ(unary(UnaryOp::Sqrt, {16}), (std::vector<float>{4}));
    EXPECT_FLOATS_NEAR(unary(UnaryOp::Exp, {0, 1}), (std::vector<float>{1, 2.7182817f}), 1e-6);
    EXPECT_EQ(unary(UnaryOp::Neg, {3, -0.5f}), (std::vector<float>{-3, 0.5f}));
    EXPECT_FLOATS_NEAR(unary(UnaryOp::Log, {1, 2.7182817f}), (std::vector<float>{0, 1}), 1e-6);
    EXPECT_FLOATS_NEAR(unary(UnaryOp::Sin, {0, 1.5707964f}), (std::vector<float>{0, 1}), 1e-6);

    OneOp t;
    auto x = t.tensor(info(DataType::Boolean, {3}), std::vector<uint8_t>{0, 1, 1});
    auto y = t.output(info(DataType::Boolean, {3}));
    t.op(OpKind::ElementwiseUnary, ElementwiseUnaryAttrs{UnaryOp::LogicalNot}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{1, 0, 0}));
}

TEST(RefFloor, FloatAndQuantized) {
    OneOp t;
    auto x = t.tensor(f32({4}), std::vector<float>{1.5f, -1.5f, 2, -0.1f});
    auto y = t.output(f32({4}));
    t.op(OpKind::Floor, std::monostate{}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<float>(), (std::vector<float>{1, -2, 2, -1}));

    OneOp q;  // s 0.5: q [3, -3] = [1.5, -1.5] -> [1, -2] -> [2, -4]
    auto qx = q.tensor(info(DataType::QSymmS16, {2}, 0.5f), std::vector<int16_t>{3, -3});
    auto qy = q.output(info(DataType::QSymmS16, {2}, 0.5f));
    q.op(OpKind::Floor, std::monostate{}, {qx}, {qy});
    q.run();
    EXPECT_EQ(q.out<int16_t>(), (std::vector<int16_t>{2, -4}));
}

TEST(RefSoftmax, LastAxisAndBeta) {
    OneOp t;
    auto x = t.tensor(f32({2, 2}), std::vector<float>{0, 0, 1, 3});
    auto y = t.output(f32({2, 2}));
    t.op(OpKind::Softmax, SoftmaxAttrs{1.0f, -1}, {x}, {y});
    t.run();
    // exp(-2) / (1 + exp(-2)) = 0.11920292
    EXPECT_FLOATS_NEAR(t.out<float>(), (std::vector<float>{0.5f, 0.5f, 0.11920292f, 0.88079708f}), 1e-6);

    OneOp b;  // beta 0.5 on [0, 2]: softmax of [0, 1]
    auto bx = b.tensor(f32({2}), std::vector<float>{0, 2});
    auto by = b.output(f32({2}));
    b.op(OpKind::Softmax, SoftmaxAttrs{0.5f, 0}, {bx}, {by});
    b.run();
    EXPECT_FLOATS_NEAR(b.out<float>(), (std::vector<float>{0.26894142f, 0.73105858f}), 1e-6);
}

TEST(RefSoftmax, FirstAxisOfThree) {
    // [2,1,2] along axis 0: pairs (x[0,0,j], x[1,0,j]).
    OneOp t;
    auto x = t.tensor(f32({2, 1, 2}), std::vector<float>{1, 5, 1, 3});
    auto y = t.output(f32({2, 1, 2}));
    t.op(OpKind::Softmax, SoftmaxAttrs{1.0f, 0}, {x}, {y});
    t.run();
    EXPECT_FLOATS_NEAR(t.out<float>(), (std::vector<float>{0.5f, 0.88079708f, 0.5f, 0.11920292f}), 1e-6);
}

TEST(RefSoftmax, Uint8Output) {
    // Arm NN uint8 softmax output: s 1/256 zp 0; [0.5, 0.5] -> 128.
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {2}, 1.0f, 0), std::vector<uint8_t>{7, 7});
    auto y = t.output(info(DataType::QAsymmU8, {2}, 1.0f / 256, 0));
    t.op(OpKind::Softmax, SoftmaxAttrs{}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<uint8_t>(), (std::vector<uint8_t>{128, 128}));
}

TEST(RefQuantize, FloatToEachQuantizedType) {
    const std::vector<float> in{-1.25f, 0.25f, 100.0f};
    auto quantize = [&](TensorInfo out) {
        OneOp t;
        auto x = t.tensor(f32({3}), in);
        auto y = t.output(out);
        t.op(OpKind::Quantize, std::monostate{}, {x}, {y});
        t.run();
        return t;
    };
    // /0.5 -> [-2.5 -> -3, 0.5 -> 1, 200]
    EXPECT_EQ(quantize(info(DataType::QAsymmU8, {3}, 0.5f, 10)).out<uint8_t>(), (std::vector<uint8_t>{7, 11, 210}));
    EXPECT_EQ(quantize(info(DataType::QAsymmS8, {3}, 0.5f, -1)).out<int8_t>(), (std::vector<int8_t>{-4, 0, 127}));
    EXPECT_EQ(quantize(info(DataType::QSymmS8, {3}, 0.5f)).out<int8_t>(), (std::vector<int8_t>{-3, 1, 127}));
    EXPECT_EQ(quantize(info(DataType::QSymmS16, {3}, 0.5f)).out<int16_t>(), (std::vector<int16_t>{-3, 1, 200}));
}

TEST(RefQuantize, RequantizeU8ToS8) {
    OneOp t;  // u8 s 1 zp 128 [0, 128, 255] = [-128, 0, 127] -> s8 s 2 zp 0 -> [-64, 0, 64 (63.5 rounds away)]
    auto x = t.tensor(info(DataType::QAsymmU8, {3}, 1.0f, 128), std::vector<uint8_t>{0, 128, 255});
    auto y = t.output(info(DataType::QAsymmS8, {3}, 2.0f, 0));
    t.op(OpKind::Quantize, std::monostate{}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<int8_t>(), (std::vector<int8_t>{-64, 0, 64}));
}

TEST(RefDequantize, PerTensorPerAxisAndFloat16) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmU8, {2}, 0.5f, 10), std::vector<uint8_t>{12, 7});
    auto y = t.output(f32({2}));
    t.op(OpKind::Dequantize, std::monostate{}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<float>(), (std::vector<float>{1, -1.5f}));

    OneOp p;  // [2, 2] per-axis along axis 1: scales [0.5, 2]
    TensorInfo pi = info(DataType::QSymmS8, {2, 2});
    pi.quant.scales = {0.5f, 2.0f};
    pi.quant.axis = 1;
    auto px = p.tensor(pi, std::vector<int8_t>{2, 2, -4, 3});
    auto py = p.output(info(DataType::Float16, {2, 2}));
    p.op(OpKind::Dequantize, std::monostate{}, {px}, {py});
    p.run();
    EXPECT_EQ(from_f16(p.out<uint16_t>()), (std::vector<float>{1, 4, -2, 6}));
}

TEST(RefBatchNormalization, NhwcAndNchw) {
    // channel 0: mean 1, var 4, beta 0.5, gamma 2 -> (x-1)/2*2 + 0.5 = x - 0.5
    // channel 1: mean 0, var 0.25, beta 0, gamma 1 -> x / 0.5 = 2x (eps 0)
    auto bn = [](DataLayout layout, Shape s, std::vector<float> in) {
        OneOp t;
        auto x = t.tensor(f32(s), in);
        auto mean = t.tensor(f32({2}), std::vector<float>{1, 0}, true);
        auto var = t.tensor(f32({2}), std::vector<float>{4, 0.25f}, true);
        auto beta = t.tensor(f32({2}), std::vector<float>{0.5f, 0}, true);
        auto gamma = t.tensor(f32({2}), std::vector<float>{2, 1}, true);
        auto y = t.output(f32(s));
        BatchNormalizationAttrs a;
        a.layout = layout;
        t.op(OpKind::BatchNormalization, a, {x, mean, var, beta, gamma}, {y});
        t.run();
        return t.out<float>();
    };
    EXPECT_EQ(bn(DataLayout::NHWC, {1, 1, 2, 2}, {1, 2, 3, 4}), (std::vector<float>{0.5f, 4, 2.5f, 8}));
    EXPECT_EQ(bn(DataLayout::NCHW, {1, 2, 1, 2}, {1, 3, 2, 4}), (std::vector<float>{0.5f, 2.5f, 4, 8}));
}

// Issue 12: what the schema gained after seed 001 (Arm NN 23.05 .. 26.07), one file per layer type and enum
// value, written with tools/modelwriter, run on the CPU and (where the NPU can take it) on the simulator.
// Expected values are worked by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "include/npurun/npurun.hpp"
#include "runtime/session/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "tools/modelwriter/model_writer.h"

using namespace npurun;
namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

namespace {

std::vector<uint8_t> run_on(const std::vector<uint8_t>& file, const std::vector<std::vector<uint8_t>>& inputs,
                            DeviceKind d, bool* any_npu = nullptr) {
    auto model = Model::load_from_memory(file.data(), file.size(), "new.armnn");
    SessionOptions o;
    o.device = d;
    Session s(model, o);
    for (size_t i = 0; i < inputs.size(); ++i) {
        EXPECT_EQ(s.input(i).info.num_bytes(), inputs[i].size());
        std::memcpy(s.input(i).data, inputs[i].data(), inputs[i].size());
    }
    if (any_npu) {
        const npu::NpuBackend* b = SessionFactory::npu_backend(s);
        *any_npu = b != nullptr && !b->placement().segments.empty();
    }
    s.run();
    const auto* p = static_cast<const uint8_t*>(s.output(0).data);
    return std::vector<uint8_t>(p, p + s.output(0).info.num_bytes());
}

template <class T> std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}
std::vector<float> floats(const std::vector<uint8_t>& b) {
    std::vector<float> v(b.size() / 4);
    std::memcpy(v.data(), b.data(), b.size());
    return v;
}

// a [2,3] op b [1,3] (b broadcast over rows).
std::vector<uint8_t> binary_file(fb::BinaryOperation op, const mw::TensorDesc& a, const mw::TensorDesc& b,
                                 const mw::TensorDesc& out) {
    mw::ModelWriter w;
    const uint32_t ia = w.add_input("a", a, 0);
    const uint32_t ib = w.add_input("b", b, 1);
    w.add_output("out", w.add_elementwise_binary("bin", ia, ib, out, op), 0);
    return w.finish();
}

}  // namespace

// a = [1, -2, 3, 4, 0.5, -6], b = [2, 4, -1.5]:
//   Add  [3, 2, 1.5, 6, 4.5, -7.5]     Sub [-1, -6, 4.5, 2, -3.5, -4.5]
//   Mul  [2, -8, -4.5, 8, 2, 9]        Div [0.5, -0.5, -2, 2, 0.125, 4]
//   Max  [2, 4, 3, 4, 4, -1.5]         Min [1, -2, -1.5, 2, 0.5, -6]
TEST(NewSchema, ElementwiseBinaryEveryOperationFloat32OnCpu) {
    const std::vector<float> a{1, -2, 3, 4, 0.5f, -6}, b{2, 4, -1.5f};
    const struct {
        fb::BinaryOperation op;
        std::vector<float> want;
    } cases[] = {
        {fb::BinaryOperation::Add, {3, 2, 1.5f, 6, 4.5f, -7.5f}},
        {fb::BinaryOperation::Sub, {-1, -6, 4.5f, 2, -3.5f, -4.5f}},
        {fb::BinaryOperation::Mul, {2, -8, -4.5f, 8, 2, 9}},
        {fb::BinaryOperation::Div, {0.5f, -0.5f, -2, 2, 0.125f, 4}},
        {fb::BinaryOperation::Maximum, {2, 4, 3, 4, 4, -1.5f}},
        {fb::BinaryOperation::Minimum, {1, -2, -1.5f, 2, 0.5f, -6}},
    };
    for (const auto& c : cases) {
        const auto file = binary_file(c.op, mw::tensor({2, 3}), mw::tensor({1, 3}), mw::tensor({2, 3}));
        EXPECT_EQ(floats(run_on(file, {bytes_of(a), bytes_of(b)}, DeviceKind::Cpu)), c.want)
            << fb::EnumNameBinaryOperation(c.op);
    }
}

// int8 on the simulator (NPU: Add/Sub/Mul/Max/Min): a = codes [10, -20, 30, 40, 5, -60] at scale 0.1 (1, -2,
// 3, 4, 0.5, -6), b = [20, 40, -15] at 0.1 (2, 4, -1.5), output scale 0.1: the float results above / 0.1.
TEST(NewSchema, ElementwiseBinaryInt8OnCpuAndSim) {
    const std::vector<int8_t> a{10, -20, 30, 40, 5, -60}, b{20, 40, -15};
    const struct {
        fb::BinaryOperation op;
        std::vector<int8_t> want;
    } cases[] = {
        {fb::BinaryOperation::Add, {30, 20, 15, 60, 45, -75}},
        {fb::BinaryOperation::Sub, {-10, -60, 45, 20, -35, -45}},
        {fb::BinaryOperation::Mul, {20, -80, -45, 80, 20, 90}},
        {fb::BinaryOperation::Maximum, {20, 40, 30, 40, 40, -15}},
        {fb::BinaryOperation::Minimum, {10, -20, -15, 20, 5, -60}},
    };
    const auto q = [](std::vector<uint32_t> d) { return mw::tensor(std::move(d), fb::DataType::QAsymmS8, 0.1f, 0); };
    for (const auto& c : cases) {
        const auto file = binary_file(c.op, q({1, 2, 2, 3}), q({1, 1, 1, 3}), q({1, 2, 2, 3}));
        std::vector<int8_t> a4(a);
        a4.insert(a4.end(), a.begin(), a.end());
        std::vector<int8_t> want4(c.want);
        want4.insert(want4.end(), c.want.begin(), c.want.end());
        const auto want = bytes_of(want4);
        EXPECT_EQ(run_on(file, {bytes_of(a4), bytes_of(b)}, DeviceKind::Cpu), want) << fb::EnumNameBinaryOperation(c.op);
        bool npu = false;
        EXPECT_EQ(run_on(file, {bytes_of(a4), bytes_of(b)}, DeviceKind::Sim, &npu), want) << fb::EnumNameBinaryOperation(c.op);
        EXPECT_TRUE(npu) << fb::EnumNameBinaryOperation(c.op) << " did not go to the NPU";
    }
}

// Values after Power = 7 are not in Arm NN's schema (e3cc7166): refused by number.
TEST(NewSchema, ElementwiseBinaryOperationsAfterPowerAreRefusedByNumber) {
    for (int v : {8, 100}) {
        const auto file = binary_file(static_cast<fb::BinaryOperation>(v), mw::tensor({3}), mw::tensor({3}), mw::tensor({3}));
        try {
            (void)Model::load_from_memory(file.data(), file.size(), "binop.armnn");
            ADD_FAILURE() << "binary operation " << v << " loaded";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::BadModel);
            const std::string m = e.what();
            EXPECT_NE(m.find("unknown binary operation " + std::to_string(v) + " (known: 0..7)"), std::string::npos) << m;
        }
    }
}

// SqDiff (6), a [2,3] and b [3] broadcast over rows, a = [1, -2, 3, 4, 0.5, -6], b = [2, 4, -1.5]:
//   (1-2)^2 = 1, (-2-4)^2 = 36, (3+1.5)^2 = 20.25, (4-2)^2 = 4, (0.5-4)^2 = 12.25, (-6+1.5)^2 = 20.25.
// Power (7), a = [1, -2, 3, 4, 0.25, -6], b = [2, 3, -1]:
//   1^2 = 1, (-2)^3 = -8, 3^-1 = 1/3, 4^2 = 16, 0.25^3 = 0.015625, (-6)^-1 = -1/6.
// Neither has an NPU algorithm: the simulator session runs them on the CPU, with the same bytes.
TEST(NewSchema, ElementwiseBinarySqDiffAndPowerOnCpu) {
    const struct {
        fb::BinaryOperation op;
        std::vector<float> a, b, want;
    } cases[] = {
        {fb::BinaryOperation::SqDiff, {1, -2, 3, 4, 0.5f, -6}, {2, 4, -1.5f}, {1, 36, 20.25f, 4, 12.25f, 20.25f}},
        {fb::BinaryOperation::Power, {1, -2, 3, 4, 0.25f, -6}, {2, 3, -1}, {1, -8, 1.0f / 3, 16, 0.015625f, -1.0f / 6}},
    };
    for (const auto& c : cases) {
        const auto file = binary_file(c.op, mw::tensor({2, 3}), mw::tensor({3}), mw::tensor({2, 3}));
        const auto y = floats(run_on(file, {bytes_of(c.a), bytes_of(c.b)}, DeviceKind::Cpu));
        ASSERT_EQ(y.size(), 6u);
        for (size_t k = 0; k < 6; ++k) EXPECT_FLOAT_EQ(y[k], c.want[k]) << fb::EnumNameBinaryOperation(c.op) << " " << k;
        bool npu = true;
        EXPECT_EQ(floats(run_on(file, {bytes_of(c.a), bytes_of(c.b)}, DeviceKind::Sim, &npu)), y);
        EXPECT_FALSE(npu) << fb::EnumNameBinaryOperation(c.op);
    }
}

// Ceil: [-1.5, -0.5, 0, 0.2, 2] -> [-1, -0, 0, 1, 2].
TEST(NewSchema, UnaryCeil) {
    mw::ModelWriter w;
    const uint32_t i = w.add_input("in", mw::tensor({5}), 0);
    w.add_output("out", w.add_elementwise_unary("ceil", i, mw::tensor({5}), fb::UnaryOperation::Ceil), 0);
    const auto y = floats(run_on(w.finish(), {bytes_of(std::vector<float>{-1.5f, -0.5f, 0, 0.2f, 2})}, DeviceKind::Cpu));
    EXPECT_EQ(y, (std::vector<float>{-1, 0, 0, 1, 2}));
    EXPECT_TRUE(std::signbit(y[1]));  // ceil(-0.5) is -0
}

// Gelu x * 0.5 * (1 + erf(x / sqrt 2)): gelu(0) = 0, gelu(1) = 0.841345, gelu(-1) = -0.158655,
// gelu(2) = 1.954500 (erf(1/sqrt 2) = 0.682689, erf(sqrt 2) = 0.954500).
TEST(NewSchema, ActivationGelu) {
    mw::ModelWriter w;
    const uint32_t i = w.add_input("in", mw::tensor({4}), 0);
    w.add_output("out", w.add_activation("gelu", i, mw::tensor({4}), fb::ActivationFunction::Gelu), 0);
    const auto file = w.finish();
    const auto y = floats(run_on(file, {bytes_of(std::vector<float>{0, 1, -1, 2})}, DeviceKind::Cpu));
    const std::vector<float> want{0, 0.841345f, -0.158655f, 1.954500f};
    for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(y[k], want[k], 1e-5f) << k;
    // Not an NPU operation: the simulator session runs it on the CPU with the same bytes.
    bool npu = true;
    EXPECT_EQ(floats(run_on(file, {bytes_of(std::vector<float>{0, 1, -1, 2})}, DeviceKind::Sim, &npu)), y);
    EXPECT_FALSE(npu);
}

// Union members after ScatterNdLayer (74, the last one in Arm NN's schema at e3cc7166, is 73): a clean error
// naming the layer and the number.
TEST(NewSchema, LayerTypesAfterScatterNdAreACleanRefusal) {
    for (int u : {74, 100}) {
        mw::ModelWriter w;
        const uint32_t i = w.add_input("in", mw::tensor({2}), 0);
        const uint32_t l = w.add_layer(static_cast<fb::Layer>(u), fb::LayerType::Floor, "later", {i}, {mw::tensor({2})},
                                       [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                           return fb::CreateFloorLayer(b, base).Union();
                                       });
        w.add_output("out", l, 0);
        const auto file = w.finish();
        try {
            (void)Model::load_from_memory(file.data(), file.size(), "later.armnn");
            ADD_FAILURE() << "union type " << u << " loaded";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::BadModel);
            const std::string m = e.what();
            EXPECT_NE(m.find("'later'"), std::string::npos) << m;
            EXPECT_NE(m.find("unknown layer type " + std::to_string(u)), std::string::npos) << m;
            EXPECT_NE(m.find("knows types 1..73"), std::string::npos) << m;
        }
    }
}

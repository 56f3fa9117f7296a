// Issue 12: the enum values Arm NN 20.08 cannot write, checked the way the rest of the conformance suite
// checks the values it can: a file per value (written here with tools/modelwriter in the 23.05+ encoding),
// run through npurun on the CPU and the simulator, compared with an expectation. CpuRef cannot produce these
// files, so the expectation is the defining formula evaluated in double precision with <cmath> (never
// npurun's own kernels). Together with the generated suite (tests/conformance/generator, which fails when a
// 20.08 value has no case) every ActivationFunction, UnaryOperation, BinaryOperation and ComparisonOperation
// value of the IR is covered: the last test checks that partition.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "ir/ops.h"
#include "tools/modelwriter/model_writer.h"

using namespace npurun;
namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

namespace {

// Runs a one-layer float model on `device` and returns output 0.
std::vector<float> run(const std::vector<uint8_t>& file, const std::vector<std::vector<float>>& inputs, DeviceKind device) {
    auto model = Model::load_from_memory(file.data(), file.size(), "hand.armnn");
    SessionOptions o;
    o.device = device;
    Session s(model, o);
    for (size_t i = 0; i < inputs.size(); ++i) {
        EXPECT_EQ(s.input(i).info.num_bytes(), inputs[i].size() * 4);
        std::memcpy(s.input(i).data, inputs[i].data(), inputs[i].size() * 4);
    }
    s.run();
    std::vector<float> y(s.output(0).info.shape.num_elements());
    std::memcpy(y.data(), s.output(0).data, y.size() * 4);
    return y;
}

// Each output within a few float ulps of the double-precision formula, on the CPU and on the simulator.
void expect_formula(const std::string& what, const std::vector<uint8_t>& file, const std::vector<std::vector<float>>& in,
                    const std::function<double(size_t)>& want) {
    for (DeviceKind d : {DeviceKind::Cpu, DeviceKind::Sim}) {
        const std::vector<float> y = run(file, in, d);
        for (size_t k = 0; k < y.size(); ++k) {
            const double w = want(k);
            EXPECT_NEAR(y[k], w, 4e-7 * std::max(1.0, std::fabs(w))) << what << " element " << k << " on " << to_string(d);
        }
    }
}

const std::vector<float> kX = {-2.5f, -1.0f, -0.3f, 0.0f, 0.4f, 1.0f, 2.75f, 5.0f};
const std::vector<float> kPositive = {0.01f, 0.3f, 1.0f, 2.0f, 7.5f, 100.0f, 1e-3f, 42.0f};

}  // namespace

// Gelu (ActivationFunction 12, Arm NN 23.11): x/2 (1 + erf(x / sqrt 2)).
TEST(HandComputed, ActivationGelu) {
    mw::ModelWriter w;
    const uint32_t i = w.add_input("x", mw::tensor({8}), 0);
    w.add_output("y", w.add_activation("gelu", i, mw::tensor({8}), fb::ActivationFunction::Gelu), 0);
    expect_formula("Gelu", w.finish(), {kX}, [](size_t k) { return 0.5 * kX[k] * (1.0 + std::erf(kX[k] / std::sqrt(2.0))); });
}

// UnaryOperation values after 20.08's five: Log (6), Sin (7), Ceil (8, 23.05); LogicalNot (5) is Boolean, below.
TEST(HandComputed, UnaryLogSinCeil) {
    struct Case {
        fb::UnaryOperation op;
        const std::vector<float>* x;
        double (*f)(double);
    };
    for (const Case& c : {Case{fb::UnaryOperation::Log, &kPositive, [](double v) { return std::log(v); }},
                          Case{fb::UnaryOperation::Sin, &kX, [](double v) { return std::sin(v); }},
                          Case{fb::UnaryOperation::Ceil, &kX, [](double v) { return std::ceil(v); }}}) {
        mw::ModelWriter w;
        const uint32_t i = w.add_input("x", mw::tensor({8}), 0);
        w.add_output("y", w.add_elementwise_unary("u", i, mw::tensor({8}), c.op), 0);
        const std::vector<float>& x = *c.x;
        expect_formula(fb::EnumNameUnaryOperation(c.op), w.finish(), {x}, [&](size_t k) { return c.f(x[k]); });
    }
}

// LogicalNot (UnaryOperation 5): Boolean in, Boolean out, 1 byte per element, any non-zero byte is true.
TEST(HandComputed, UnaryLogicalNot) {
    mw::ModelWriter w;
    const uint32_t i = w.add_input("x", mw::tensor({6}, fb::DataType::Boolean), 0);
    w.add_output("y", w.add_elementwise_unary("not", i, mw::tensor({6}, fb::DataType::Boolean), fb::UnaryOperation::LogicalNot), 0);
    const std::vector<uint8_t> file = w.finish();
    const uint8_t x[6] = {0, 1, 0, 1, 1, 0};
    for (DeviceKind d : {DeviceKind::Cpu, DeviceKind::Sim}) {
        auto model = Model::load_from_memory(file.data(), file.size(), "not.armnn");
        SessionOptions o;
        o.device = d;
        Session s(model, o);
        std::memcpy(s.input(0).data, x, 6);
        s.run();
        const auto* y = static_cast<const uint8_t*>(s.output(0).data);
        for (size_t k = 0; k < 6; ++k) EXPECT_EQ(y[k] != 0, x[k] == 0) << k << " on " << to_string(d);
    }
}

// Every BinaryOperation of the ElementwiseBinary layer (type 69, 23.05+): 0..5 are also the old binary layers
// (the generated suite and conformance-elementwise-twin cover those encodings), SqDiff 6 and Power 7 exist
// only here. a is [2,4], b is [1,4] broadcast over the rows.
TEST(HandComputed, ElementwiseBinaryEveryOperation) {
    const std::vector<float> a = {1.5f, -2.0f, 3.0f, 0.25f, -0.5f, 4.0f, 2.0f, 9.0f};
    const std::vector<float> b = {2.0f, 0.5f, -1.5f, 3.0f};
    const std::vector<float> base = {1.5f, 0.5f, 3.0f, 0.25f, 0.5f, 4.0f, 2.0f, 9.0f};  // Power: positive bases
    struct Case {
        fb::BinaryOperation op;
        double (*f)(double, double);
    };
    const Case cases[] = {
        {fb::BinaryOperation::Add, [](double p, double q) { return p + q; }},
        {fb::BinaryOperation::Sub, [](double p, double q) { return p - q; }},
        {fb::BinaryOperation::Mul, [](double p, double q) { return p * q; }},
        {fb::BinaryOperation::Div, [](double p, double q) { return p / q; }},
        {fb::BinaryOperation::Maximum, [](double p, double q) { return std::max(p, q); }},
        {fb::BinaryOperation::Minimum, [](double p, double q) { return std::min(p, q); }},
        {fb::BinaryOperation::SqDiff, [](double p, double q) { return (p - q) * (p - q); }},
        {fb::BinaryOperation::Power, [](double p, double q) { return std::pow(p, q); }},
    };
    for (const Case& c : cases) {
        const std::vector<float>& x = c.op == fb::BinaryOperation::Power ? base : a;
        mw::ModelWriter w;
        const uint32_t ia = w.add_input("a", mw::tensor({2, 4}), 0);
        const uint32_t ib = w.add_input("b", mw::tensor({1, 4}), 1);
        w.add_output("y", w.add_elementwise_binary("bin", ia, ib, mw::tensor({2, 4}), c.op), 0);
        expect_formula(fb::EnumNameBinaryOperation(c.op), w.finish(), {x, b},
                       [&](size_t k) { return c.f(x[k], b[k % 4]); });
    }
}

// The partition: each IR enum value is either one Arm NN 20.08 writes (the generated suite has a case for
// it, or its generator fails) or one of the tests above. A value added to the IR without a case fails here.
TEST(HandComputed, EveryEnumValueHasACase) {
    const std::set<std::string> by_armnn_2008 = {
        "Activation/Sigmoid", "Activation/TanH", "Activation/Linear", "Activation/ReLu", "Activation/BoundedReLu",
        "Activation/SoftReLu", "Activation/LeakyReLu", "Activation/Abs", "Activation/Sqrt", "Activation/Square",
        "Activation/Elu", "Activation/HardSwish",
        "Unary/Abs", "Unary/Rsqrt", "Unary/Sqrt", "Unary/Exp", "Unary/Neg",
        "Binary/Add", "Binary/Sub", "Binary/Mul", "Binary/Div", "Binary/Maximum", "Binary/Minimum",
        "Comparison/Equal", "Comparison/Greater", "Comparison/GreaterOrEqual", "Comparison/Less",
        "Comparison/LessOrEqual", "Comparison/NotEqual"};
    const std::set<std::string> here = {"Activation/Gelu", "Unary/Log", "Unary/Sin", "Unary/Ceil", "Unary/LogicalNot",
                                        "Binary/Add", "Binary/Sub", "Binary/Mul", "Binary/Div", "Binary/Maximum",
                                        "Binary/Minimum", "Binary/SquaredDifference", "Binary/Power"};
    std::vector<std::string> all;
    for (int v = 0; v <= int(ActivationFunction::Gelu); ++v) all.push_back(std::string("Activation/") + to_string(ActivationFunction(v)));
    for (int v = 0; v <= int(UnaryOp::Ceil); ++v) all.push_back(std::string("Unary/") + to_string(UnaryOp(v)));
    for (int v = 0; v <= int(BinaryOp::Power); ++v) all.push_back(std::string("Binary/") + to_string(BinaryOp(v)));
    // ComparisonOp has no to_string: its names in declaration order (ir/ops.h), tied to the enum's size.
    const char* const comparison[] = {"Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "NotEqual"};
    static_assert(std::size(comparison) == size_t(ComparisonOp::NotEqual) + 1);
    for (const char* c : comparison) all.push_back(std::string("Comparison/") + c);
    size_t hand = 0;
    for (const std::string& v : all) {
        EXPECT_TRUE(by_armnn_2008.count(v) || here.count(v)) << v << " has no conformance case";
        hand += here.count(v) && !by_armnn_2008.count(v);
    }
    std::printf("enum values: %zu in the IR, %zu generated with Arm NN 20.08, %zu hand-computed only\n", all.size(),
                by_armnn_2008.size(), hand);
}

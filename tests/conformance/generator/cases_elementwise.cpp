// Addition, Subtraction, Multiplication, Division, Maximum, Minimum (with broadcasting; 20.08 needs
// equal ranks and broadcasts size-1 dimensions), ElementwiseUnary (Abs, Exp, Sqrt, Rsqrt, Neg), Floor.
#include <algorithm>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

enum class Binary { Add, Sub, Mul, Div, Max, Min };

struct BinaryParams {
    Binary op;
    const char* tag;
    const char* layer;
    float b_lo, b_hi;      // second operand range (Division keeps away from 0)
    float out_lo, out_hi;  // output range for quantized outputs
};

const BinaryParams kBinary[] = {
    {Binary::Add, "addition", "Addition", -2, 2, -4, 4},
    {Binary::Sub, "subtraction", "Subtraction", -2, 2, -4, 4},
    {Binary::Mul, "multiplication", "Multiplication", -2, 2, -4, 4},
    {Binary::Div, "division", "Division", 0.5f, 2, -4, 4},
    {Binary::Max, "maximum", "Maximum", -2, 2, -2, 2},
    {Binary::Min, "minimum", "Minimum", -2, 2, -2, 2},
};

struct BroadcastShapes {
    const char* tag;
    armnn::TensorShape a, b;
};

const BroadcastShapes kShapes[] = {
    {"same_1x4x5x3", armnn::TensorShape({1, 4, 5, 3}), armnn::TensorShape({1, 4, 5, 3})},
    {"bcast_channel", armnn::TensorShape({1, 4, 5, 3}), armnn::TensorShape({1, 1, 1, 3})},
    {"bcast_both", armnn::TensorShape({2, 1, 5, 1}), armnn::TensorShape({1, 4, 1, 3})},
    {"bcast_2d", armnn::TensorShape({3, 1}), armnn::TensorShape({1, 6})},
    {"bcast_scalar_like_first", armnn::TensorShape({1, 1, 1, 1}), armnn::TensorShape({2, 3, 2, 5})},
    // One channel broadcast across 20 and along H or W (seed 003 [b,1,1,w], [b,1,h,1]; the NPU repeats the channel
    // by a 1x1 convolution first).
    {"bcast_row_of_one", armnn::TensorShape({1, 4, 5, 20}), armnn::TensorShape({1, 1, 5, 1})},
    {"bcast_column_of_one", armnn::TensorShape({1, 4, 5, 20}), armnn::TensorShape({1, 4, 1, 1})},
};

armnn::TensorShape broadcast(const armnn::TensorShape& a, const armnn::TensorShape& b) {
    std::vector<unsigned> d(a.GetNumDimensions());
    for (unsigned i = 0; i < d.size(); ++i) d[i] = std::max(a[i], b[i]);
    return armnn::TensorShape(static_cast<unsigned>(d.size()), d.data());
}

armnn::IConnectableLayer* add_binary(armnn::INetwork& net, Binary op) {
    switch (op) {
        case Binary::Add: return net.AddAdditionLayer("add");
        case Binary::Sub: return net.AddSubtractionLayer("sub");
        case Binary::Mul: return net.AddMultiplicationLayer("mul");
        case Binary::Div: return net.AddDivisionLayer("div");
        case Binary::Max: return net.AddMaximumLayer("max");
        case Binary::Min: return net.AddMinimumLayer("min");
    }
    return nullptr;
}

CaseSpec binary_case(const TypeVariant& v, const BinaryParams& p, const BroadcastShapes& s) {
    const std::string name = std::string(p.tag) + "_" + v.tag + "_" + s.tag;
    CaseSpec c = make_case(name, p.layer, v, [v, p, s](Net& net) {
        // Different quantization on each side and on the output, so requantization is exercised.
        auto& a = net.input(ranged_info(v, s.a, -2, 2), {-2, 2});
        auto& b = net.input(ranged_info(v, s.b, std::min(p.b_lo, -p.b_hi), p.b_hi), {p.b_lo, p.b_hi});
        auto* layer = add_binary(net.net(), p.op);
        net.output(net.wire(layer, {&a, &b}, ranged_info(v, broadcast(s.a, s.b), p.out_lo, p.out_hi)));
    });
    c.covers = std::string("Binary/") + p.layer;
    return c;
}

struct UnaryParams {
    armnn::UnaryOperation op;
    const char* tag;
    float in_lo, in_hi, out_lo, out_hi;
};

const UnaryParams kUnary[] = {
    {armnn::UnaryOperation::Abs, "abs", -4, 4, 0, 4},
    {armnn::UnaryOperation::Exp, "exp", -3, 2, 0, 7.5f},
    {armnn::UnaryOperation::Sqrt, "sqrt", 0, 4, 0, 2},
    {armnn::UnaryOperation::Rsqrt, "rsqrt", 0.1f, 4, 0, 3.2f},
    {armnn::UnaryOperation::Neg, "neg", -4, 4, -4, 4},
};

}  // namespace

void add_elementwise_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : {kF32, kF16, kU8, kS8, kS16})
        for (const BinaryParams& p : kBinary)
            for (const BroadcastShapes& s : kShapes) {
                if (v.type != armnn::DataType::Float32 && v.type != armnn::DataType::QAsymmU8 &&
                    std::string(s.tag) != "bcast_both")
                    continue;  // other integer types: one broadcast shape each
                out.push_back(binary_case(v, p, s));
            }
    const armnn::TensorShape shapes[] = {armnn::TensorShape({1, 3, 4, 5}), armnn::TensorShape({7})};
    for (const TypeVariant& v : {kF32, kF16, kU8, kS8, kS16})
        for (const UnaryParams& p : kUnary)
            for (unsigned si = 0; si < 2; ++si) {
                if (si == 1 && v.type != armnn::DataType::Float32) continue;
                const std::string name = std::string("elementwise_unary_") + p.tag + "_" + v.tag + "_shape" + std::to_string(si);
                const armnn::TensorShape shape = shapes[si];
                CaseSpec c = make_case(name, "ElementwiseUnary", v, [v, p, shape](Net& net) {
                    auto& in = net.input(ranged_info(v, shape, p.in_lo, p.in_hi), {p.in_lo, p.in_hi});
                    auto* layer = net.net().AddElementwiseUnaryLayer(armnn::ElementwiseUnaryDescriptor(p.op), "unary");
                    net.output(net.wire(layer, {&in}, ranged_info(v, shape, p.out_lo, p.out_hi)));
                });
                // The 20.08 serializer writes ElementwiseUnaryLayer with its operation (checked with a
                // flatc JSON dump), but the 20.08 deserializer rejects it ("Layer type ... not recognized").
                c.covers = std::string("Unary/") + armnn::GetUnaryOperationAsCString(p.op);
                c.oracle_from_built = true;
                c.note = "20.08 deserializer cannot read ElementwiseUnary; CpuRef ran the network as built";
                out.push_back(c);
            }
    for (const TypeVariant& v : {kF32, kF16, kU8, kS16})
        for (unsigned si = 0; si < 2; ++si) {
            const std::string name = std::string("floor_") + v.tag + "_shape" + std::to_string(si);
            const armnn::TensorShape shape = shapes[si];
            out.push_back(make_case(name, "Floor", v, [v, shape](Net& net) {
                auto& in = net.input(ranged_info(v, shape, -4, 4), {-4, 4});
                auto* layer = net.net().AddFloorLayer("floor");
                net.output(net.wire(layer, {&in}, ranged_info(v, shape, -4, 4)));
            }));
        }
}

}  // namespace conformance

// Layer mapping, element-wise layers: binary (the six legacy layers and ElementwiseBinary), Comparison, ElementwiseUnary, LogicalBinary, Activation, Cast, (De)Quantize, Floor, Prelu.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

// Arm NN 23.05+ writes every Addition .. Minimum as this layer. It becomes the very node the old layers give
// (same op kind and attribute), so everything downstream (NEON, NPU placement and lowering, pad folding,
// fusion) treats both forms alike and outputs match byte for byte.
void elementwise_binary(LayerContext& c, const fb::ElementwiseBinaryDescriptor* d) {
    binary(c.n, elementwise_binary_op(d->operation()));
}

void comparison_layer(LayerContext& c, const fb::ComparisonDescriptor* d) {
    check_enum(d->operation(), 5, "comparison operation");
    comparison(c.n, static_cast<ComparisonOp>(enum_value(d->operation())));
}

void elementwise_unary(LayerContext& c, const fb::ElementwiseUnaryDescriptor* d) {
    check_enum(d->operation(), 8, "unary operation");
    unary(c.n, static_cast<UnaryOp>(enum_value(d->operation())));
}

void logical_binary(LayerContext& c, const fb::LogicalBinaryDescriptor* d) {
    check_enum(d->operation(), 1, "logical binary operation");
    expect_io(c.n, 2, 1);
    set_op(c.n, OpKind::LogicalBinary, LogicalBinaryAttrs{static_cast<LogicalBinaryOp>(enum_value(d->operation()))});
}

void activation_layer(LayerContext& c, const fb::ActivationDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::Activation, ActivationAttrs{activation(d->activationFunction()), d->a(), d->b()});
}

}  // namespace

std::vector<LayerMapper> elementwise_layers() {
    using L = fb::Layer;
    return {binary_row<L::AdditionLayer, BinaryOp::Add>(),
            binary_row<L::SubtractionLayer, BinaryOp::Sub>(),
            binary_row<L::MultiplicationLayer, BinaryOp::Mul>(),
            binary_row<L::DivisionLayer, BinaryOp::Div>(),
            binary_row<L::MaximumLayer, BinaryOp::Maximum>(),
            binary_row<L::MinimumLayer, BinaryOp::Minimum>(),
            descriptor_row<fb::ElementwiseBinaryLayer, elementwise_binary>(),
            comparison_row<L::EqualLayer, ComparisonOp::Equal>(),
            comparison_row<L::GreaterLayer, ComparisonOp::Greater>(),
            descriptor_row<fb::ComparisonLayer, comparison_layer>(),
            unary_row<L::AbsLayer, UnaryOp::Abs>(),
            unary_row<L::RsqrtLayer, UnaryOp::Rsqrt>(),
            descriptor_row<fb::ElementwiseUnaryLayer, elementwise_unary>(),
            descriptor_row<fb::LogicalBinaryLayer, logical_binary>(),
            descriptor_row<fb::ActivationLayer, activation_layer>(),
            plain_row<L::CastLayer, OpKind::Cast, 1, 1>(),
            plain_row<L::DequantizeLayer, OpKind::Dequantize, 1, 1>(),
            plain_row<L::QuantizeLayer, OpKind::Quantize, 1, 1>(),
            plain_row<L::FloorLayer, OpKind::Floor, 1, 1>(),
            plain_row<L::PreluLayer, OpKind::Prelu, 2, 1>()};
}

}  // namespace npurun::armnn::mapping

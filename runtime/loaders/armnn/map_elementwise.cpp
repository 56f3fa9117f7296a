// Layer mapping, element-wise layers: binary (the six legacy layers and ElementwiseBinary), Comparison, ElementwiseUnary, LogicalBinary, Activation, Cast, (De)Quantize, Floor, Prelu.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_elementwise_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::AdditionLayer: binary(n, BinaryOp::Add); return true;
        case L::SubtractionLayer: binary(n, BinaryOp::Sub); return true;
        case L::MultiplicationLayer: binary(n, BinaryOp::Mul); return true;
        case L::DivisionLayer: binary(n, BinaryOp::Div); return true;
        case L::MaximumLayer: binary(n, BinaryOp::Maximum); return true;
        case L::MinimumLayer: binary(n, BinaryOp::Minimum); return true;
        case L::ElementwiseBinaryLayer: {
            // Arm NN 23.05+ writes every Addition .. Minimum as this layer. It becomes the very node the old
            // layers give (same op kind and attribute), so everything downstream (NEON, NPU placement and
            // lowering, pad folding, fusion) treats both forms alike and outputs match byte for byte.
            const auto* d =
                NPURUN_DESC(ElementwiseBinaryDescriptor, static_cast<const fb::ElementwiseBinaryLayer*>(t)->descriptor());
            binary(n, elementwise_binary_op(d->operation()));
            return true;
        }
        case L::EqualLayer: comparison(n, ComparisonOp::Equal); return true;
        case L::GreaterLayer: comparison(n, ComparisonOp::Greater); return true;
        case L::ComparisonLayer: {
            const auto* d = NPURUN_DESC(ComparisonDescriptor, static_cast<const fb::ComparisonLayer*>(t)->descriptor());
            check_enum(d->operation(), 5, "comparison operation");
            comparison(n, static_cast<ComparisonOp>(enum_value(d->operation())));
            return true;
        }
        case L::AbsLayer: unary(n, UnaryOp::Abs); return true;
        case L::RsqrtLayer: unary(n, UnaryOp::Rsqrt); return true;
        case L::ElementwiseUnaryLayer: {
            const auto* d = NPURUN_DESC(ElementwiseUnaryDescriptor, static_cast<const fb::ElementwiseUnaryLayer*>(t)->descriptor());
            check_enum(d->operation(), 8, "unary operation");
            unary(n, static_cast<UnaryOp>(enum_value(d->operation())));
            return true;
        }
        case L::LogicalBinaryLayer: {
            const auto* d = NPURUN_DESC(LogicalBinaryDescriptor, static_cast<const fb::LogicalBinaryLayer*>(t)->descriptor());
            check_enum(d->operation(), 1, "logical binary operation");
            expect_io(n, 2, 1);
            n.op = OpKind::LogicalBinary;
            n.attrs = LogicalBinaryAttrs{static_cast<LogicalBinaryOp>(enum_value(d->operation()))};
            return true;
        }

        case L::ActivationLayer: {
            const auto* d = NPURUN_DESC(ActivationDescriptor, static_cast<const fb::ActivationLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Activation;
            n.attrs = ActivationAttrs{activation(d->activationFunction()), d->a(), d->b()};
            return true;
        }
        case L::CastLayer: plain(n, OpKind::Cast, 1, 1); return true;
        case L::DequantizeLayer: plain(n, OpKind::Dequantize, 1, 1); return true;
        case L::QuantizeLayer: plain(n, OpKind::Quantize, 1, 1); return true;
        case L::FloorLayer: plain(n, OpKind::Floor, 1, 1); return true;
        case L::PreluLayer: plain(n, OpKind::Prelu, 2, 1); return true;
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

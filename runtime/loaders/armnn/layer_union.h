// The Layer union of the Arm NN schema (seed 001, extended to ScatterNdLayer): its members, their base tables and names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ArmnnSchema_generated.h"

// Every member of `union Layer` whose `base` field is a plain LayerBase (all but Input and Output, whose
// base is a BindableLayerBase). Order does not matter; the union numbering comes from the schema.
#define NPURUN_ARMNN_PLAIN_LAYERS(X)                                                                         \
    X(ActivationLayer) X(AdditionLayer) X(BatchToSpaceNdLayer) X(BatchNormalizationLayer) X(ConstantLayer)   \
    X(Convolution2dLayer) X(DepthwiseConvolution2dLayer) X(FullyConnectedLayer) X(MultiplicationLayer)       \
    X(PermuteLayer) X(Pooling2dLayer) X(ReshapeLayer) X(SoftmaxLayer) X(SpaceToBatchNdLayer)                 \
    X(DivisionLayer) X(MinimumLayer) X(EqualLayer) X(MaximumLayer) X(NormalizationLayer) X(PadLayer)         \
    X(RsqrtLayer) X(FloorLayer) X(GreaterLayer) X(ResizeBilinearLayer) X(SubtractionLayer)                   \
    X(StridedSliceLayer) X(GatherLayer) X(MeanLayer) X(MergerLayer) X(L2NormalizationLayer)                  \
    X(SplitterLayer) X(DetectionPostProcessLayer) X(LstmLayer) X(QuantizedLstmLayer) X(QuantizeLayer)        \
    X(DequantizeLayer) X(MergeLayer) X(SwitchLayer) X(ConcatLayer) X(SpaceToDepthLayer) X(PreluLayer)        \
    X(TransposeConvolution2dLayer) X(ResizeLayer) X(StackLayer) X(AbsLayer) X(ArgMinMaxLayer) X(SliceLayer)  \
    X(DepthToSpaceLayer) X(InstanceNormalizationLayer) X(LogSoftmaxLayer) X(ComparisonLayer)                 \
    X(StandInLayer) X(ElementwiseUnaryLayer) X(TransposeLayer) X(QLstmLayer) X(FillLayer) X(RankLayer)       \
    X(LogicalBinaryLayer) X(ReduceLayer) X(CastLayer) X(ShapeLayer) X(UnidirectionalSequenceLstmLayer)       \
    X(ChannelShuffleLayer) X(Convolution3dLayer) X(Pooling3dLayer) X(GatherNdLayer) X(BatchMatMulLayer)   \
    X(ElementwiseBinaryLayer) X(ReverseV2Layer) X(TileLayer) X(ScatterNdLayer)

namespace npurun::armnn {

// Highest union type this reader knows (ScatterNdLayer = 73, Arm NN schema at e3cc7166; seed 001 ended at
// BatchMatMulLayer = 69).
constexpr uint8_t kMaxKnownLayerType = static_cast<uint8_t>(armnnSerializer::Layer::MAX);

inline bool is_known_layer_type(armnnSerializer::Layer t) {
    const auto v = static_cast<uint8_t>(t);
    return v >= 1 && v <= kMaxKnownLayerType;
}

// The LayerBase of a layer of known type, nullptr when the file omits it (or the table itself).
const armnnSerializer::LayerBase* layer_base(const armnnSerializer::AnyLayer* layer);

// For a layer whose union type this reader does not know: its LayerBase when the table looks like every
// Arm NN layer table (base as field 0) and that base passes the verifier, else nullptr. Used only to name
// the layer in the error message; the verifier never checked such tables, hence the separate check.
const armnnSerializer::LayerBase* unknown_layer_base(const uint8_t* buf, size_t size,
                                                     const armnnSerializer::AnyLayer* layer);

// Short type name for messages: "Convolution2d" for Convolution2dLayer.
std::string layer_type_name(armnnSerializer::Layer t);

}  // namespace npurun::armnn

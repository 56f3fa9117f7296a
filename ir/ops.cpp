#include "ir/ops.h"

#include <algorithm>
#include <climits>
#include <iterator>

#include "core/enum_names.h"

namespace npurun {

const char* to_string(OpKind v) {
    switch (v) {
        case OpKind::Input: return "Input";
        case OpKind::Output: return "Output";
        case OpKind::Constant: return "Constant";
        case OpKind::Activation: return "Activation";
        case OpKind::ArgMinMax: return "ArgMinMax";
        case OpKind::BatchMatMul: return "BatchMatMul";
        case OpKind::BatchNormalization: return "BatchNormalization";
        case OpKind::BatchToSpaceNd: return "BatchToSpaceNd";
        case OpKind::Cast: return "Cast";
        case OpKind::ChannelShuffle: return "ChannelShuffle";
        case OpKind::Comparison: return "Comparison";
        case OpKind::Concat: return "Concat";
        case OpKind::Convolution2d: return "Convolution2d";
        case OpKind::Convolution3d: return "Convolution3d";
        case OpKind::DepthToSpace: return "DepthToSpace";
        case OpKind::DepthwiseConvolution2d: return "DepthwiseConvolution2d";
        case OpKind::Dequantize: return "Dequantize";
        case OpKind::DetectionOutput: return "DetectionOutput";
        case OpKind::DetectionPostProcess: return "DetectionPostProcess";
        case OpKind::ElementwiseBinary: return "ElementwiseBinary";
        case OpKind::ElementwiseUnary: return "ElementwiseUnary";
        case OpKind::Fill: return "Fill";
        case OpKind::Floor: return "Floor";
        case OpKind::FullyConnected: return "FullyConnected";
        case OpKind::Gather: return "Gather";
        case OpKind::GatherNd: return "GatherNd";
        case OpKind::InstanceNormalization: return "InstanceNormalization";
        case OpKind::L2Normalization: return "L2Normalization";
        case OpKind::LogicalBinary: return "LogicalBinary";
        case OpKind::LogSoftmax: return "LogSoftmax";
        case OpKind::Lstm: return "Lstm";
        case OpKind::Mean: return "Mean";
        case OpKind::Merge: return "Merge";
        case OpKind::Normalization: return "Normalization";
        case OpKind::Pad: return "Pad";
        case OpKind::Permute: return "Permute";
        case OpKind::Pooling2d: return "Pooling2d";
        case OpKind::Pooling3d: return "Pooling3d";
        case OpKind::Prelu: return "Prelu";
        case OpKind::QLstm: return "QLstm";
        case OpKind::Quantize: return "Quantize";
        case OpKind::QuantizedLstm: return "QuantizedLstm";
        case OpKind::Rank: return "Rank";
        case OpKind::Reduce: return "Reduce";
        case OpKind::Reshape: return "Reshape";
        case OpKind::Resize: return "Resize";
        case OpKind::ReverseV2: return "ReverseV2";
        case OpKind::RoiPooling: return "RoiPooling";
        case OpKind::ScatterNd: return "ScatterNd";
        case OpKind::Shape: return "Shape";
        case OpKind::Slice: return "Slice";
        case OpKind::Softmax: return "Softmax";
        case OpKind::SpaceToBatchNd: return "SpaceToBatchNd";
        case OpKind::SpaceToDepth: return "SpaceToDepth";
        case OpKind::Splitter: return "Splitter";
        case OpKind::Stack: return "Stack";
        case OpKind::StandIn: return "StandIn";
        case OpKind::StridedSlice: return "StridedSlice";
        case OpKind::Switch: return "Switch";
        case OpKind::Tile: return "Tile";
        case OpKind::Transpose: return "Transpose";
        case OpKind::TransposeConvolution2d: return "TransposeConvolution2d";
        case OpKind::UnidirectionalSequenceLstm: return "UnidirectionalSequenceLstm";
        default: break;
    }
    return "?";
}

// Enumerators named by a table in declaration order (core/enum_names.h); the enums below have no explicit
// values.

const char* const kActivationFunctionNames[] = {"Sigmoid", "TanH", "Linear", "ReLu", "BoundedReLu", "SoftReLu",
    "LeakyReLu", "Abs", "Sqrt", "Square", "Elu", "HardSwish", "Gelu"};
static_assert(std::size(kActivationFunctionNames) == size_t(ActivationFunction::Gelu) + 1);

const char* to_string(ActivationFunction v) { return enum_name(v, kActivationFunctionNames); }

const char* const kBinaryOpNames[] = {"Add", "Sub", "Mul", "Div", "Maximum", "Minimum", "SquaredDifference", "Power"};
static_assert(std::size(kBinaryOpNames) == size_t(BinaryOp::Power) + 1);

const char* to_string(BinaryOp v) { return enum_name(v, kBinaryOpNames); }

const char* const kUnaryOpNames[] = {"Abs", "Rsqrt", "Sqrt", "Exp", "Neg", "LogicalNot", "Log", "Sin", "Ceil"};
static_assert(std::size(kUnaryOpNames) == size_t(UnaryOp::Ceil) + 1);

const char* to_string(UnaryOp v) { return enum_name(v, kUnaryOpNames); }

const char* const kScatterNdFunctionNames[] = {"Update", "Add", "Sub", "Max", "Min"};  // schema order
static_assert(std::size(kScatterNdFunctionNames) == size_t(ScatterNdFunction::Min) + 1);

const char* to_string(ScatterNdFunction v) { return enum_name(v, kScatterNdFunctionNames); }

}  // namespace npurun

namespace npurun::ops {

StridedSliceRange strided_slice_range(const StridedSliceAttrs& a, const Shape& s, uint32_t d) {
    const int64_t size = s[d];
    const int64_t stride = a.stride[d];
    int64_t start = a.begin[d];
    if (a.begin_mask & (1 << d)) start = stride > 0 ? INT_MIN : INT_MAX;
    if (start < 0) start += size;
    start = std::max<int64_t>(0, std::min<int64_t>(start, size - 1));
    int64_t stop;
    if (a.shrink_axis_mask & (1 << d)) {
        stop = start + 1;
    } else {
        stop = a.end[d];
        if (a.end_mask & (1 << d)) stop = stride > 0 ? INT_MAX : INT_MIN;
        if (stop < 0) stop += size;
        stop = stride > 0 ? std::max<int64_t>(0, std::min<int64_t>(stop, size))
                          : std::max<int64_t>(-1, std::min<int64_t>(stop, size - 1));
    }
    int64_t count = stride > 0 ? (stop - start + stride - 1) / stride : (start - stop - stride - 1) / -stride;
    StridedSliceRange r;
    r.start = start;
    r.stride = stride;
    r.count = count < 0 ? 0 : uint32_t(count);
    r.shrink = (a.shrink_axis_mask & (1 << d)) != 0;
    return r;
}

BatchMatMulAxes batch_matmul_axes(DataLayout layout, uint32_t rank) {
    const bool channels_last = layout == DataLayout::NHWC || layout == DataLayout::NDHWC;
    BatchMatMulAxes r;
    r.row = channels_last ? rank - 3 : rank - 2;
    r.col = r.row + 1;
    return r;
}

}  // namespace npurun::ops

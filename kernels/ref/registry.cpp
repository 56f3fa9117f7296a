// OpKind -> reference kernel. One line per op kind; the switch has no default, so a kind added to
// ops.h without a line here is a compile error (-Wswitch with -Werror).
#include "kernels/ref/registry.h"

#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels {

const Kernel* ref_kernel(OpKind kind) {
    using namespace ref;
    switch (kind) {
        case OpKind::Input: return nullptr;     // bound by the executor
        case OpKind::Output: return nullptr;    // bound by the executor
        case OpKind::Constant: return nullptr;  // data lives in the graph
        case OpKind::Activation: return &kActivation;
        case OpKind::ArgMinMax: return &kArgMinMax;
        case OpKind::BatchMatMul: return &kBatchMatMul;
        case OpKind::BatchNormalization: return &kBatchNormalization;
        case OpKind::BatchToSpaceNd: return &kBatchToSpaceNd;
        case OpKind::Cast: return &kCast;
        case OpKind::ChannelShuffle: return &kChannelShuffle;
        case OpKind::Comparison: return &kComparison;
        case OpKind::Concat: return &kConcat;
        case OpKind::Convolution2d: return &kConvolution2d;
        case OpKind::Convolution3d: return &kConvolution3d;
        case OpKind::DepthToSpace: return &kDepthToSpace;
        case OpKind::DepthwiseConvolution2d: return &kDepthwiseConvolution2d;
        case OpKind::Dequantize: return &kDequantize;
        case OpKind::DetectionOutput: return &kDetectionOutput;
        case OpKind::DetectionPostProcess: return &kDetectionPostProcess;
        case OpKind::ElementwiseBinary: return &kElementwiseBinary;
        case OpKind::ElementwiseUnary: return &kElementwiseUnary;
        case OpKind::Fill: return &kFill;
        case OpKind::Floor: return &kFloor;
        case OpKind::FullyConnected: return &kFullyConnected;
        case OpKind::Gather: return &kGather;
        case OpKind::GatherNd: return &kGatherNd;
        case OpKind::InstanceNormalization: return &kInstanceNormalization;
        case OpKind::L2Normalization: return &kL2Normalization;
        case OpKind::LogicalBinary: return &kLogicalBinary;
        case OpKind::LogSoftmax: return &kLogSoftmax;
        case OpKind::Lstm: return &kLstm;
        case OpKind::Mean: return &kMean;
        case OpKind::Merge: return &kMerge;
        case OpKind::Normalization: return &kNormalization;
        case OpKind::Pad: return &kPad;
        case OpKind::Permute: return &kPermute;
        case OpKind::Pooling2d: return &kPooling2d;
        case OpKind::Pooling3d: return &kPooling3d;
        case OpKind::Prelu: return &kPrelu;
        case OpKind::QLstm: return &kQLstm;
        case OpKind::Quantize: return &kQuantize;
        case OpKind::QuantizedLstm: return &kQuantizedLstm;
        case OpKind::Rank: return &kRank;
        case OpKind::Reduce: return &kReduce;
        case OpKind::Reshape: return &kReshape;
        case OpKind::Resize: return &kResize;
        case OpKind::ReverseV2: return &kReverseV2;
        case OpKind::RoiPooling: return &kRoiPooling;
        case OpKind::ScatterNd: return &kScatterNd;
        case OpKind::Shape: return &kShape;
        case OpKind::Slice: return &kSlice;
        case OpKind::Softmax: return &kSoftmax;
        case OpKind::SpaceToBatchNd: return &kSpaceToBatchNd;
        case OpKind::SpaceToDepth: return &kSpaceToDepth;
        case OpKind::Splitter: return &kSplitter;
        case OpKind::Stack: return &kStack;
        case OpKind::StandIn: return &kStandIn;
        case OpKind::StridedSlice: return &kStridedSlice;
        case OpKind::Switch: return &kSwitch;
        case OpKind::Tile: return &kTile;
        case OpKind::Transpose: return &kTranspose;
        case OpKind::TransposeConvolution2d: return &kTransposeConvolution2d;
        case OpKind::UnidirectionalSequenceLstm: return &kUnidirectionalSequenceLstm;
        case OpKind::Count_: return nullptr;
    }
    return nullptr;
}

}  // namespace npurun::kernels

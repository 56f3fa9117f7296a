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
        case OpKind::ArgMinMax: return nullptr;
        case OpKind::BatchMatMul: return nullptr;
        case OpKind::BatchNormalization: return &kBatchNormalization;
        case OpKind::BatchToSpaceNd: return nullptr;
        case OpKind::Cast: return nullptr;
        case OpKind::ChannelShuffle: return nullptr;
        case OpKind::Comparison: return nullptr;
        case OpKind::Concat: return &kConcat;
        case OpKind::Convolution2d: return &kConvolution2d;
        case OpKind::Convolution3d: return nullptr;
        case OpKind::DepthToSpace: return nullptr;
        case OpKind::DepthwiseConvolution2d: return &kDepthwiseConvolution2d;
        case OpKind::Dequantize: return &kDequantize;
        case OpKind::DetectionPostProcess: return nullptr;
        case OpKind::ElementwiseBinary: return &kElementwiseBinary;
        case OpKind::ElementwiseUnary: return &kElementwiseUnary;
        case OpKind::Fill: return nullptr;
        case OpKind::Floor: return &kFloor;
        case OpKind::FullyConnected: return &kFullyConnected;
        case OpKind::Gather: return nullptr;
        case OpKind::GatherNd: return nullptr;
        case OpKind::InstanceNormalization: return nullptr;
        case OpKind::L2Normalization: return nullptr;
        case OpKind::LogicalBinary: return nullptr;
        case OpKind::LogSoftmax: return nullptr;
        case OpKind::Lstm: return nullptr;
        case OpKind::Mean: return &kMean;
        case OpKind::Merge: return nullptr;
        case OpKind::Normalization: return nullptr;
        case OpKind::Pad: return &kPad;
        case OpKind::Permute: return &kPermute;
        case OpKind::Pooling2d: return &kPooling2d;
        case OpKind::Pooling3d: return nullptr;
        case OpKind::Prelu: return nullptr;
        case OpKind::QLstm: return nullptr;
        case OpKind::Quantize: return &kQuantize;
        case OpKind::QuantizedLstm: return nullptr;
        case OpKind::Rank: return nullptr;
        case OpKind::Reduce: return nullptr;
        case OpKind::Reshape: return &kReshape;
        case OpKind::Resize: return &kResize;
        case OpKind::Shape: return nullptr;
        case OpKind::Slice: return nullptr;
        case OpKind::Softmax: return &kSoftmax;
        case OpKind::SpaceToBatchNd: return nullptr;
        case OpKind::SpaceToDepth: return nullptr;
        case OpKind::Splitter: return &kSplitter;
        case OpKind::Stack: return nullptr;
        case OpKind::StandIn: return nullptr;
        case OpKind::StridedSlice: return nullptr;
        case OpKind::Switch: return nullptr;
        case OpKind::Transpose: return &kTranspose;
        case OpKind::TransposeConvolution2d: return nullptr;
        case OpKind::UnidirectionalSequenceLstm: return nullptr;
        case OpKind::Count_: return nullptr;
    }
    return nullptr;
}

}  // namespace npurun::kernels

// OpKind -> infer function. One line per op kind (the switch has no default, so the compiler flags a
// kind added to ops.h without a line here); nullptr means "not supported yet".
#include "runtime/graph/error.h"
#include "runtime/ops/infer_fns.h"
#include "runtime/ops/op_semantics.h"

namespace npurun::ops {

InferFn infer_fn(OpKind kind) {
    switch (kind) {
        case OpKind::Input: return infer_input;
        case OpKind::Output: return infer_output;
        case OpKind::Constant: return infer_constant;
        case OpKind::Activation: return infer_activation;
        case OpKind::ArgMinMax: return nullptr;
        case OpKind::BatchMatMul: return nullptr;
        case OpKind::BatchNormalization: return infer_batch_normalization;
        case OpKind::BatchToSpaceNd: return nullptr;
        case OpKind::Cast: return nullptr;
        case OpKind::ChannelShuffle: return nullptr;
        case OpKind::Comparison: return nullptr;
        case OpKind::Concat: return infer_concat;
        case OpKind::Convolution2d: return infer_convolution2d;
        case OpKind::Convolution3d: return nullptr;
        case OpKind::DepthToSpace: return nullptr;
        case OpKind::DepthwiseConvolution2d: return infer_depthwise_convolution2d;
        case OpKind::Dequantize: return infer_dequantize;
        case OpKind::DetectionPostProcess: return nullptr;
        case OpKind::ElementwiseBinary: return infer_elementwise_binary;
        case OpKind::ElementwiseUnary: return infer_elementwise_unary;
        case OpKind::Fill: return nullptr;
        case OpKind::Floor: return infer_floor;
        case OpKind::FullyConnected: return infer_fully_connected;
        case OpKind::Gather: return nullptr;
        case OpKind::GatherNd: return nullptr;
        case OpKind::InstanceNormalization: return nullptr;
        case OpKind::L2Normalization: return nullptr;
        case OpKind::LogicalBinary: return nullptr;
        case OpKind::LogSoftmax: return nullptr;
        case OpKind::Lstm: return nullptr;
        case OpKind::Mean: return infer_mean;
        case OpKind::Merge: return nullptr;
        case OpKind::Normalization: return nullptr;
        case OpKind::Pad: return infer_pad;
        case OpKind::Permute: return infer_permute;
        case OpKind::Pooling2d: return infer_pooling2d;
        case OpKind::Pooling3d: return nullptr;
        case OpKind::Prelu: return nullptr;
        case OpKind::QLstm: return nullptr;
        case OpKind::Quantize: return infer_quantize;
        case OpKind::QuantizedLstm: return nullptr;
        case OpKind::Rank: return nullptr;
        case OpKind::Reduce: return nullptr;
        case OpKind::Reshape: return infer_reshape;
        case OpKind::Resize: return infer_resize;
        case OpKind::Shape: return nullptr;
        case OpKind::Slice: return nullptr;
        case OpKind::Softmax: return infer_softmax;
        case OpKind::SpaceToBatchNd: return nullptr;
        case OpKind::SpaceToDepth: return nullptr;
        case OpKind::Splitter: return infer_splitter;
        case OpKind::Stack: return nullptr;
        case OpKind::StandIn: return nullptr;
        case OpKind::StridedSlice: return nullptr;
        case OpKind::Switch: return nullptr;
        case OpKind::Transpose: return infer_transpose;
        case OpKind::TransposeConvolution2d: return nullptr;
        case OpKind::UnidirectionalSequenceLstm: return nullptr;
        case OpKind::Count_: return nullptr;
    }
    return nullptr;
}

std::vector<TensorInfo> infer_outputs(const Node& node, const Graph& graph) {
    InferFn fn = infer_fn(node.op);
    if (!fn) fail(ErrorKind::Unsupported, node.describe() + ": " + to_string(node.op) + " is not supported yet");
    return fn(node, graph);
}

}  // namespace npurun::ops

// OpKind -> infer function. One line per op kind (the switch has no default, so the compiler flags a
// kind added to ops.h without a line here); nullptr means "not supported yet".
#include "core/error.h"
#include "ir/ops/infer_fns.h"
#include "ir/ops/op_semantics.h"

namespace npurun::ops {

InferFn infer_fn(OpKind kind) {
    switch (kind) {
        case OpKind::Input: return infer_input;
        case OpKind::Output: return infer_output;
        case OpKind::Constant: return infer_constant;
        case OpKind::Activation: return infer_activation;
        case OpKind::ArgMinMax: return infer_arg_min_max;
        case OpKind::BatchMatMul: return infer_batch_matmul;
        case OpKind::BatchNormalization: return infer_batch_normalization;
        case OpKind::BatchToSpaceNd: return infer_batch_to_space_nd;
        case OpKind::Cast: return infer_cast;
        case OpKind::ChannelShuffle: return infer_channel_shuffle;
        case OpKind::Comparison: return infer_comparison;
        case OpKind::Concat: return infer_concat;
        case OpKind::Convolution2d: return infer_convolution2d;
        case OpKind::Convolution3d: return infer_convolution3d;
        case OpKind::DepthToSpace: return infer_depth_to_space;
        case OpKind::DepthwiseConvolution2d: return infer_depthwise_convolution2d;
        case OpKind::Dequantize: return infer_dequantize;
        case OpKind::DetectionOutput: return infer_detection_output;
        case OpKind::DetectionPostProcess: return infer_detection_post_process;
        case OpKind::ElementwiseBinary: return infer_elementwise_binary;
        case OpKind::ElementwiseUnary: return infer_elementwise_unary;
        case OpKind::Fill: return infer_fill;
        case OpKind::Floor: return infer_floor;
        case OpKind::FullyConnected: return infer_fully_connected;
        case OpKind::Gather: return infer_gather;
        case OpKind::GatherNd: return infer_gather_nd;
        case OpKind::InstanceNormalization: return infer_instance_normalization;
        case OpKind::L2Normalization: return infer_l2_normalization;
        case OpKind::LogicalBinary: return infer_logical_binary;
        case OpKind::LogSoftmax: return infer_log_softmax;
        case OpKind::Lstm: return infer_lstm;
        case OpKind::Mean: return infer_mean;
        case OpKind::Merge: return infer_merge;
        case OpKind::Normalization: return infer_normalization;
        case OpKind::Pad: return infer_pad;
        case OpKind::Permute: return infer_permute;
        case OpKind::Pooling2d: return infer_pooling2d;
        case OpKind::Pooling3d: return infer_pooling3d;
        case OpKind::Prelu: return infer_prelu;
        case OpKind::QLstm: return infer_qlstm;
        case OpKind::Quantize: return infer_quantize;
        case OpKind::QuantizedLstm: return infer_quantized_lstm;
        case OpKind::Rank: return infer_rank;
        case OpKind::Reduce: return infer_reduce;
        case OpKind::Reshape: return infer_reshape;
        case OpKind::Resize: return infer_resize;
        case OpKind::ReverseV2: return infer_reverse_v2;
        case OpKind::RoiPooling: return infer_roi_pooling;
        case OpKind::ScatterNd: return infer_scatter_nd;
        case OpKind::Shape: return infer_shape_op;
        case OpKind::Slice: return infer_slice;
        case OpKind::Softmax: return infer_softmax;
        case OpKind::SpaceToBatchNd: return infer_space_to_batch_nd;
        case OpKind::SpaceToDepth: return infer_space_to_depth;
        case OpKind::Splitter: return infer_splitter;
        case OpKind::Stack: return infer_stack;
        case OpKind::StandIn: return infer_stand_in;
        case OpKind::StridedSlice: return infer_strided_slice;
        case OpKind::Switch: return infer_switch;
        case OpKind::Tile: return infer_tile;
        case OpKind::Transpose: return infer_transpose;
        case OpKind::TransposeConvolution2d: return infer_transpose_convolution2d;
        case OpKind::UnidirectionalSequenceLstm: return infer_unidirectional_sequence_lstm;
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

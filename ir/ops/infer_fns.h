// Declarations of the per-op infer functions; the table in op_table.cpp maps OpKind to them.
// To add an op: implement `std::vector<TensorInfo> infer_<op>(const Node&, const Graph&)` in the
// ir/ops/infer_<family>.cpp file of its family (or a new one listed in runtime/meson.build),
// declare it here, and point its line in op_table.cpp at it.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace npurun::ops {

#define NPURUN_INFER(name) std::vector<TensorInfo> name(const Node& node, const Graph& graph)

// infer_io.cpp
NPURUN_INFER(infer_input);
NPURUN_INFER(infer_output);
NPURUN_INFER(infer_constant);

// infer_conv.cpp
NPURUN_INFER(infer_convolution2d);
NPURUN_INFER(infer_depthwise_convolution2d);
NPURUN_INFER(infer_fully_connected);

// infer_pooling.cpp
NPURUN_INFER(infer_pooling2d);

// infer_elementwise.cpp
NPURUN_INFER(infer_activation);
NPURUN_INFER(infer_elementwise_binary);
NPURUN_INFER(infer_elementwise_unary);
NPURUN_INFER(infer_floor);
NPURUN_INFER(infer_softmax);
NPURUN_INFER(infer_quantize);
NPURUN_INFER(infer_dequantize);
NPURUN_INFER(infer_batch_normalization);

// infer_shape.cpp (data movement)
NPURUN_INFER(infer_reshape);
NPURUN_INFER(infer_permute);
NPURUN_INFER(infer_transpose);
NPURUN_INFER(infer_concat);
NPURUN_INFER(infer_splitter);
NPURUN_INFER(infer_pad);
NPURUN_INFER(infer_resize);

// infer_reduce.cpp
NPURUN_INFER(infer_mean);
NPURUN_INFER(infer_reduce);
NPURUN_INFER(infer_arg_min_max);

// infer_elementwise.cpp (continued)
NPURUN_INFER(infer_comparison);
NPURUN_INFER(infer_logical_binary);
NPURUN_INFER(infer_prelu);
NPURUN_INFER(infer_cast);
NPURUN_INFER(infer_log_softmax);

// infer_normalization.cpp
NPURUN_INFER(infer_normalization);
NPURUN_INFER(infer_instance_normalization);
NPURUN_INFER(infer_l2_normalization);

// infer_movement.cpp
NPURUN_INFER(infer_batch_to_space_nd);
NPURUN_INFER(infer_space_to_batch_nd);
NPURUN_INFER(infer_depth_to_space);
NPURUN_INFER(infer_space_to_depth);
NPURUN_INFER(infer_channel_shuffle);
NPURUN_INFER(infer_gather);
NPURUN_INFER(infer_gather_nd);
NPURUN_INFER(infer_slice);
NPURUN_INFER(infer_strided_slice);
NPURUN_INFER(infer_stack);
NPURUN_INFER(infer_fill);
NPURUN_INFER(infer_shape_op);
NPURUN_INFER(infer_rank);

// infer_conv.cpp (continued), infer_pooling.cpp (continued)
NPURUN_INFER(infer_convolution3d);
NPURUN_INFER(infer_transpose_convolution2d);
NPURUN_INFER(infer_batch_matmul);
NPURUN_INFER(infer_pooling3d);

// infer_lstm.cpp
NPURUN_INFER(infer_lstm);
NPURUN_INFER(infer_unidirectional_sequence_lstm);
NPURUN_INFER(infer_qlstm);
NPURUN_INFER(infer_quantized_lstm);

// infer_control.cpp
NPURUN_INFER(infer_detection_output);
NPURUN_INFER(infer_roi_pooling);
NPURUN_INFER(infer_detection_post_process);
NPURUN_INFER(infer_merge);
NPURUN_INFER(infer_switch);
NPURUN_INFER(infer_stand_in);

// infer_reverse_tile.cpp, infer_scatter_nd.cpp (Arm NN layer types 70..72)
NPURUN_INFER(infer_reverse_v2);
NPURUN_INFER(infer_tile);
NPURUN_INFER(infer_scatter_nd);

#undef NPURUN_INFER

// Semantic helpers the reference kernels share with shape inference (one definition of the rule).

// strided_slice_range and batch_matmul_axes: ir/ops.h (the kernels use them too).

}  // namespace npurun::ops

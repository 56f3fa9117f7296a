// Declarations of the per-op infer functions; the table in op_table.cpp maps OpKind to them.
// To add an op: implement `std::vector<TensorInfo> infer_<op>(const Node&, const Graph&)` in the
// runtime/ops/infer_<family>.cpp file of its family (or a new one listed in runtime/meson.build),
// declare it here, and point its line in op_table.cpp at it.
#pragma once

#include <vector>

#include "runtime/graph/graph.h"

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

#undef NPURUN_INFER

}  // namespace npurun::ops

// The units of the NPU operation table (npu_op.cpp), one file each.
#pragma once

#include "runtime/npu/npu_op.h"

namespace npurun::npu::ops {

extern const NpuOpUnit kConvolution;       // conv_op.cpp: Convolution2d
extern const NpuOpUnit kDepthwise;         // conv_op.cpp: DepthwiseConvolution2d
extern const NpuOpUnit kFullyConnected;    // conv_op.cpp: FullyConnected as a 1x1 convolution over one pixel
extern const NpuOpUnit kPooling;           // pool_op.cpp: Pooling2d max / average, one PPU task
extern const NpuOpUnit kElementwise;       // eltwise_op.cpp: ElementwiseBinary, DPU flying tasks
extern const NpuOpUnit kPad;               // pad_op.cpp: Pad along H/W, DPU flying copies
extern const NpuOpUnit kReshape;           // view_op.cpp: Reshape as a view of its input's region
extern const NpuOpUnit kConcat;            // view_op.cpp: channel Concat, inputs as views into the output
extern const NpuOpUnit kSlice;             // view_op.cpp: channel Slice as a view; slice_op.cpp: rows / columns copied
extern const NpuOpUnit kSplitter;          // view_op.cpp: channel Splitter, every output a view into the input
extern const NpuOpUnit kActivation;        // activation_op.cpp: standalone activations, DPU flying tasks (lookup table)
extern const NpuOpUnit kGather;            // gather_op.cpp: Gather along H/W by constant indices, DPU flying copies
extern const NpuOpUnit kExpand;            // expand_op.cpp: Tile of size-1 axes (seed 003 Expand) along H/W, DPU flying copies


// activation_op.cpp: a Mul with a Sigmoid gate fused into it (x * sigmoid(x), placement's fold_silu_gate), which
// kElementwise's prepare hands over.
Refusal prepare_silu(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out);
// activation_op.cpp: an ElementwiseBinary Power by a constant exponent (seed 003 Pow), lowered as an activation of
// its base, which kElementwise's check and prepare hand over.
Refusal check_power(const Graph& g, const Node& node, NpuDomain d);
Refusal prepare_power_op(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out);
// slice_op.cpp: a Slice of rows and / or columns (all channels) as DPU flying copies, which kSlice's check and
// prepare hand over when the Slice is not a channel view.
Refusal check_slice_copy(const Graph& g, const Node& node, NpuDomain d);
Refusal prepare_slice_copy_op(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out);

}  // namespace npurun::npu::ops

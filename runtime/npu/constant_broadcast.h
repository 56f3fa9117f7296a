// Constant element-wise operands the DPU cannot broadcast, expanded once at load.
//
// DPU_RDMA reads an EW operand per pixel or per channel (eltwise_layer.h), never one value for all channels,
// so a scalar (x + 3, x * 0.1666: [b,1,1,1] in NCHW, or of rank 0..3) or a per-pixel [b,1,h,w] operand has no
// DPU mode as such. When the operand is a constant (seed 003: "B a const tensor") it is expanded on the host
// into a shape the DPU reads, and packed into the op's constants block like any constant operand:
//   one value          -> [1,1,1,C]   per-channel operand (C values: the smallest form)
//   anything else      -> [1,H,W,C]   the full output (H*W*C values, never more than the output map)
// A run-time operand of these shapes stays a refusal (it would need an Expand of the feature map).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace npurun::npu {

// True when the DPU needs the constant `t` expanded to reach output shape `out` (NHWC rank 4, batch 1).
bool constant_needs_expansion(const TensorInfo& t, const Shape& out);

// The expanded form of constant `t` (NumPy broadcasting, trailing dims aligned) as above: `info` gets the
// expanded shape, dtype and quantization kept. False with `why` when `t` is not a constant of rank <= 4 or
// does not broadcast to `out`. Cheap: placement's check calls it without touching the elements.
bool expanded_constant_info(const Tensor& t, const Shape& out, TensorInfo* info, std::string* why);

// The elements of `t` expanded to `expanded` (the info expanded_constant_info gave for the same `t`).
std::vector<uint8_t> expand_constant(const Tensor& t, const TensorInfo& expanded);

}  // namespace npurun::npu

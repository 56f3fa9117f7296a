// The reference kernels: portable, obviously correct implementations with Arm NN CpuRef semantics
// (reference/armnn-format.md §2). They are the oracle the NEON kernels and the NPU are tested against.
//
// Kernels assume the graph passed npurun::validate_graph (ir/ops/op_semantics.h): operand counts,
// shapes, ranks and attribute ranges are already checked; `check` only decides data-type support.
#pragma once

#include "kernels/kernel.h"
#include "ir/ops.h"

namespace npurun::kernels {

// The reference kernel for an op kind, or nullptr when there is none (not implemented yet, or an op the
// executor handles itself: Input, Output, Constant).
const Kernel* ref_kernel(OpKind kind);

}  // namespace npurun::kernels

// Which layer types and element types the CPU (reference kernels) can run, derived from the op semantics
// (ir/ops) and the kernels' own check functions rather than from a hand-kept list: for every op kind a
// representative one-layer graph is built with the element type under test, its outputs are inferred, and
// the kernel's check decides. Used by `npurun --list-layers` and by the coverage tests.
#pragma once

#include <string>

#include "ir/ops.h"
#include "core/types.h"

namespace npurun::exec {

// "" when the reference kernels run `op` with `dtype` as its main element type; otherwise why not
// (the semantics reject the type, the kernel's check refuses it, or there is no kernel).
std::string cpu_support(OpKind op, DataType dtype);

}  // namespace npurun::exec

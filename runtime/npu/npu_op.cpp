#include "runtime/npu/npu_op.h"

#include "runtime/npu/ops/units.h"

namespace npurun::npu {

namespace {
// The table: every op kind the NPU backend lowers, and its unit.
const NpuOpUnit* const kUnits[] = {
    &ops::kConvolution, &ops::kDepthwise, &ops::kFullyConnected, &ops::kPooling, &ops::kElementwise,
    &ops::kPad,         &ops::kReshape,   &ops::kConcat,         &ops::kSlice,   &ops::kSplitter,
    &ops::kActivation,  &ops::kGather,    &ops::kExpand,
};
}  // namespace

const NpuOpUnit* npu_op_unit(OpKind op) {
    for (const NpuOpUnit* u : kUnits)
        if (u->kind == op) return u;
    return nullptr;
}

Refusal npu_lowering_refusal(const Graph& g, const Node& node, NpuDomain d) {
    const NpuOpUnit* u = npu_op_unit(node.op);
    if (u == nullptr) return Refusal::because(std::string(to_string(node.op)) + " has no NPU lowering yet");
    return u->check(g, node, d);
}

}  // namespace npurun::npu

// Merge and Switch, the control-flow pair, and StandIn.
//
// Arm NN serializes Switch and Merge but no Arm NN backend executes them, so npurun defines their meaning
// for a static data-flow graph (every node runs every time, no dead tensors):
//   Switch(data, predicate) -> (output_false, output_true). Element-wise, with the predicate broadcast when
//     it has one element: output_true[i] = data[i] where predicate[i] != 0, else real 0; output_false[i] =
//     data[i] where predicate[i] == 0, else real 0. Exactly one output carries each element; the other holds
//     0 (the zero point for quantized tensors).
//   Merge(a, b) -> a + b, element-wise on real values. Merging the two outputs of one Switch gives the data
//     back; branches that map 0 to 0 element-wise (ReLU, scaling, ...) compose exactly. A branch that maps
//     0 elsewhere (adds a bias) does not behave like TensorFlow's dead-branch semantics -- documented limit.
// StandIn is a placeholder for a layer Arm NN could not represent; it has no computation, so `check` refuses
// it on every device and session creation fails with Unsupported naming the layer.
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run_switch(const KernelArgs& a) {
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& pi = in_info(a, 1);
    const Reader x(xi, a.inputs[0]), p(pi, a.inputs[1]);
    const Writer off(out_info(a, 0), a.outputs[0]), on(out_info(a, 1), a.outputs[1]);
    const bool single = pi.shape.num_elements() == 1;
    for (size_t i = 0, n = xi.shape.num_elements(); i < n; ++i) {
        const bool take = p[single ? 0 : i] != 0.0f;
        const float v = x[i];
        on.set(i, take ? v : 0.0f);
        off.set(i, take ? 0.0f : v);
    }
}

void run_merge(const KernelArgs& a) {
    const TensorInfo& ai = in_info(a, 0);
    const Reader x(ai, a.inputs[0]), y(in_info(a, 1), a.inputs[1]);
    const Writer out(out_info(a, 0), a.outputs[0]);
    for (size_t i = 0, n = ai.shape.num_elements(); i < n; ++i) out.set(i, x[i] + y[i]);
}

void run_nothing(const KernelArgs&) {}

std::string check_switch(const KernelNode& node) {
    const DataType t = node.in(0).dtype;
    if (!is_numeric(t)) return std::string(to_string(t)) + " input not supported";
    return {};
}

std::string check_stand_in(const KernelNode&) {
    return "StandIn is a placeholder for a layer Arm NN could not represent; it has no computation to run";
}

}  // namespace

const Kernel kSwitch = {check_switch, nullptr, run_switch};
const Kernel kMerge = {check_numeric_io, nullptr, run_merge};
const Kernel kStandIn = {check_stand_in, nullptr, run_nothing};

}  // namespace npurun::kernels::ref

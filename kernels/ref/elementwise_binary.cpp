// ElementwiseBinary (Add, Sub, Mul, Div, Maximum, Minimum, SquaredDifference, Power) with NumPy broadcasting,
// computed in float.
#include <algorithm>
#include <cmath>

#include "kernels/ref/binary_function.h"
#include "kernels/ref/broadcast.h"
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {

float binary_value(BinaryOp op, float a, float b) {
    switch (op) {
        case BinaryOp::Add: return a + b;
        case BinaryOp::Sub: return a - b;
        case BinaryOp::Mul: return a * b;
        case BinaryOp::Div: return a / b;
        case BinaryOp::Maximum: return std::max(a, b);
        case BinaryOp::Minimum: return std::min(a, b);
        // Arm NN squares the float difference with pow(d, 2) in double; the exact square of a float fits in a
        // double, so rounding it once to float equals the single float product d * d.
        case BinaryOp::SquaredDifference: { const float d = a - b; return d * d; }
        case BinaryOp::Power: return std::pow(a, b);  // Arm NN's reference: std::pow on the float values
    }
    return 0.0f;
}

namespace {

void run(const KernelArgs& a) {
    const BinaryOp op = a.node.attr<ElementwiseBinaryAttrs>().op;
    const TensorInfo& ai = in_info(a, 0);
    const TensorInfo& bi = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    const Reader ar(ai, a.inputs[0]), br(bi, a.inputs[1]);
    const Writer y(yi, a.outputs[0]);
    for_each_broadcast(ai.shape, bi.shape, yi.shape,
                       [&](size_t o, size_t ia, size_t ib) { y.set(o, binary_value(op, ar[ia], br[ib])); });
}

}  // namespace

const Kernel kElementwiseBinary = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

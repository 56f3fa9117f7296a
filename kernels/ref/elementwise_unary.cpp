// ElementwiseUnary (Abs, Rsqrt, Sqrt, Exp, Neg, LogicalNot, Log, Sin, Ceil) and Floor, per element in float
// (LogicalNot on Boolean bytes).
#include <cmath>

#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

float apply(UnaryOp op, float x) {
    switch (op) {
        case UnaryOp::Abs: return std::fabs(x);
        case UnaryOp::Rsqrt: return 1.0f / std::sqrt(x);
        case UnaryOp::Sqrt: return std::sqrt(x);
        case UnaryOp::Exp: return std::exp(x);
        case UnaryOp::Neg: return -x;
        case UnaryOp::LogicalNot: return x != 0.0f ? 0.0f : 1.0f;
        case UnaryOp::Log: return std::log(x);
        case UnaryOp::Sin: return std::sin(x);
        case UnaryOp::Ceil: return std::ceil(x);
    }
    return x;
}

void run_unary(const KernelArgs& a) {
    const UnaryOp op = a.node.attr<ElementwiseUnaryAttrs>().op;
    const TensorInfo& xi = in_info(a, 0);
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    const size_t count = xi.shape.num_elements();
    for (size_t i = 0; i < count; ++i) y.set(i, apply(op, x[i]));
}

std::string check_unary(const KernelNode& node) {
    if (node.attr<ElementwiseUnaryAttrs>().op == UnaryOp::LogicalNot) {
        if (node.in(0).dtype != DataType::Boolean || node.out(0).dtype != DataType::Boolean)
            return "LogicalNot needs Boolean tensors";
        return {};
    }
    return check_numeric_io(node);
}

void run_floor(const KernelArgs& a) {
    const TensorInfo& xi = in_info(a, 0);
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    const size_t count = xi.shape.num_elements();
    for (size_t i = 0; i < count; ++i) y.set(i, std::floor(x[i]));
}

}  // namespace

const Kernel kElementwiseUnary = {check_unary, nullptr, run_unary};
const Kernel kFloor = {check_numeric_io, nullptr, run_floor};

}  // namespace npurun::kernels::ref

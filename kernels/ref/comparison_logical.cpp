// Comparison (Equal, Greater, GreaterOrEqual, Less, LessOrEqual, NotEqual) on the real values of both
// inputs (quantized inputs are dequantized first, as CpuRef), LogicalBinary (And, Or) on Booleans, and
// Prelu (x > 0 ? x : alpha * x). All three broadcast NumPy-style; outputs are Boolean 0/1 for the first two.
#include "kernels/ref/broadcast.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

bool compare(ComparisonOp op, float a, float b) {
    switch (op) {
        case ComparisonOp::Equal: return a == b;
        case ComparisonOp::Greater: return a > b;
        case ComparisonOp::GreaterOrEqual: return a >= b;
        case ComparisonOp::Less: return a < b;
        case ComparisonOp::LessOrEqual: return a <= b;
        case ComparisonOp::NotEqual: return a != b;
    }
    return false;
}

void run_comparison(const KernelArgs& a) {
    const ComparisonOp op = a.node.attr<ComparisonAttrs>().op;
    const TensorInfo& ai = in_info(a, 0);
    const TensorInfo& bi = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    uint8_t* y = static_cast<uint8_t*>(a.outputs[0]);
    if (ai.dtype == DataType::Signed32) {  // exact integer comparison (float would merge values above 2^24)
        const int32_t* pa = static_cast<const int32_t*>(a.inputs[0]);
        const int32_t* pb = static_cast<const int32_t*>(a.inputs[1]);
        if (ai.quant.scale() == 0.0f && bi.quant.scale() == 0.0f) {
            for_each_broadcast(ai.shape, bi.shape, yi.shape, [&](size_t o, size_t ia, size_t ib) {
                const int32_t u = pa[ia], v = pb[ib];
                bool r = false;
                switch (op) {
                    case ComparisonOp::Equal: r = u == v; break;
                    case ComparisonOp::Greater: r = u > v; break;
                    case ComparisonOp::GreaterOrEqual: r = u >= v; break;
                    case ComparisonOp::Less: r = u < v; break;
                    case ComparisonOp::LessOrEqual: r = u <= v; break;
                    case ComparisonOp::NotEqual: r = u != v; break;
                }
                y[o] = r ? 1 : 0;
            });
            return;
        }
    }
    const Reader ar(ai, a.inputs[0]), br(bi, a.inputs[1]);
    for_each_broadcast(ai.shape, bi.shape, yi.shape,
                       [&](size_t o, size_t ia, size_t ib) { y[o] = compare(op, ar[ia], br[ib]) ? 1 : 0; });
}

void run_logical(const KernelArgs& a) {
    const LogicalBinaryOp op = a.node.attr<LogicalBinaryAttrs>().op;
    const TensorInfo& ai = in_info(a, 0);
    const TensorInfo& bi = in_info(a, 1);
    const uint8_t* pa = static_cast<const uint8_t*>(a.inputs[0]);
    const uint8_t* pb = static_cast<const uint8_t*>(a.inputs[1]);
    uint8_t* y = static_cast<uint8_t*>(a.outputs[0]);
    for_each_broadcast(ai.shape, bi.shape, out_info(a, 0).shape, [&](size_t o, size_t ia, size_t ib) {
        const bool u = pa[ia] != 0, v = pb[ib] != 0;
        y[o] = (op == LogicalBinaryOp::And ? (u && v) : (u || v)) ? 1 : 0;
    });
}

void run_prelu(const KernelArgs& a) {
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& ai = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    const Reader x(xi, a.inputs[0]), alpha(ai, a.inputs[1]);
    const Writer y(yi, a.outputs[0]);
    for_each_broadcast(xi.shape, ai.shape, yi.shape, [&](size_t o, size_t ix, size_t ia) {
        const float v = x[ix];
        y.set(o, v > 0.0f ? v : alpha[ia] * v);
    });
}

std::string check_comparison(const KernelNode& node) {
    return accept_numeric_or(node.in(0).dtype, {DataType::Signed32, DataType::Boolean}, " inputs not supported");
}

std::string check_logical(const KernelNode& node) {
    for (const TensorInfo* t : {&node.in(0), &node.in(1), &node.out(0)})
        if (t->dtype != DataType::Boolean) return std::string(to_string(t->dtype)) + " not supported";
    return {};
}

}  // namespace

const Kernel kComparison = {check_comparison, nullptr, run_comparison};
const Kernel kLogicalBinary = {check_logical, nullptr, run_logical};
const Kernel kPrelu = {check_numeric_io, nullptr, run_prelu};

}  // namespace npurun::kernels::ref

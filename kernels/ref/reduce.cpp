// Reduce (Sum, Max, Mean, Min, Prod over a set of axes, keepDims only shapes the output), Mean (the same
// walk with the Mean operation: the float sum in increasing input order divided by the count) and ArgMinMax.
// Reduce visits the reduced elements of each output in increasing input order (CpuRef's order) with
// Arm NN's initial values: Sum/Mean 0, Prod 1, Max -FLT_MAX, Min +FLT_MAX.
#include <algorithm>
#include <cfloat>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void reduce(const KernelArgs& a, const std::vector<uint32_t>& axes, ReduceAttrs::Op op) {
    const TensorInfo& xi = in_info(a, 0);
    const Shape& s = xi.shape;
    const Strides st(s);
    const ReducedAxes reduced(axes, s.rank);
    Shape kept, red;
    size_t kept_stride[kMaxRank], red_stride[kMaxRank];
    for (uint32_t d = 0; d < s.rank; ++d) {
        if (reduced[d]) { red_stride[red.rank] = st[d]; red.dims[red.rank++] = s[d]; }
        else { kept_stride[kept.rank] = st[d]; kept.dims[kept.rank++] = s[d]; }
    }
    const size_t per_output = red.num_elements();
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    for_each_index(kept, [&](const uint32_t* k, size_t o) {
        size_t base = 0;
        for (uint32_t i = 0; i < kept.rank; ++i) base += k[i] * kept_stride[i];
        float acc;
        switch (op) {
            case ReduceAttrs::Op::Prod: acc = 1.0f; break;
            case ReduceAttrs::Op::Max: acc = -FLT_MAX; break;
            case ReduceAttrs::Op::Min: acc = FLT_MAX; break;
            default: acc = 0.0f; break;
        }
        for_each_index(red, [&](const uint32_t* r, size_t) {
            size_t off = base;
            for (uint32_t i = 0; i < red.rank; ++i) off += r[i] * red_stride[i];
            const float v = x[off];
            switch (op) {
                case ReduceAttrs::Op::Sum:
                case ReduceAttrs::Op::Mean: acc += v; break;
                case ReduceAttrs::Op::Prod: acc *= v; break;
                case ReduceAttrs::Op::Max: acc = std::max(acc, v); break;
                case ReduceAttrs::Op::Min: acc = std::min(acc, v); break;
            }
        });
        if (op == ReduceAttrs::Op::Mean) acc = per_output ? acc / float(per_output) : 0.0f;
        y.set(o, acc);
    });
}

void run_reduce(const KernelArgs& a) {
    const auto& at = a.node.attr<ReduceAttrs>();
    reduce(a, at.axes, at.op);
}

// Mean layers carry ReduceAttrs too; the operation is Mean whatever `op` says.
void run_mean(const KernelArgs& a) { reduce(a, a.node.attr<ReduceAttrs>().axes, ReduceAttrs::Op::Mean); }

// ArgMinMax: the first index of the extreme value along the axis (ties keep the lowest index, CpuRef).
void run_arg_min_max(const KernelArgs& a) {
    const auto& at = a.node.attr<ArgMinMaxAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    const uint32_t axis = at.axis < 0 ? uint32_t(at.axis + int32_t(xi.shape.rank)) : uint32_t(at.axis);
    size_t outer = 1, inner = 1;
    for (uint32_t d = 0; d < axis; ++d) outer *= xi.shape[d];
    for (uint32_t d = axis + 1; d < xi.shape.rank; ++d) inner *= xi.shape[d];
    const uint32_t len = xi.shape[axis];
    const Reader x(xi, a.inputs[0]);
    for (size_t o = 0; o < outer; ++o)
        for (size_t i = 0; i < inner; ++i) {
            uint32_t best = 0;
            float bv = x[o * len * inner + i];
            for (uint32_t k = 1; k < len; ++k) {
                const float v = x[(o * len + k) * inner + i];
                if (at.is_max ? v > bv : v < bv) { bv = v; best = k; }
            }
            if (yi.dtype == DataType::Signed64) static_cast<int64_t*>(a.outputs[0])[o * inner + i] = best;
            else static_cast<int32_t*>(a.outputs[0])[o * inner + i] = int32_t(best);
        }
}

std::string check_arg_min_max(const KernelNode& node) {
    return accept_numeric_or(node.in(0).dtype, {DataType::Signed32}, " input not supported");
}

}  // namespace

const Kernel kReduce = {check_numeric_io, nullptr, run_reduce};
const Kernel kMean = {check_numeric_io, nullptr, run_mean};
const Kernel kArgMinMax = {check_arg_min_max, nullptr, run_arg_min_max};

}  // namespace npurun::kernels::ref

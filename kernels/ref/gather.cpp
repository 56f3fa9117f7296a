// Gather (any axis) and GatherNd. Indices are Signed32. Constant indices were range-checked when the model
// loaded; an out-of-range run-time index cannot raise an error on the run path, so (decision) it yields the
// real value 0 for the elements it would have selected, never an out-of-bounds read.
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"
#include "ir/ops.h"

namespace npurun::kernels::ref {
namespace {

void run_gather(const KernelArgs& a) {
    const TensorInfo& pi = in_info(a, 0);
    const TensorInfo& ii = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    const int32_t axis_attr = a.node.attr<GatherAttrs>().axis;
    const uint32_t axis = axis_attr < 0 ? uint32_t(axis_attr + int32_t(pi.shape.rank)) : uint32_t(axis_attr);
    size_t outer = 1, inner = 1;
    for (uint32_t d = 0; d < axis; ++d) outer *= pi.shape[d];
    for (uint32_t d = axis + 1; d < pi.shape.rank; ++d) inner *= pi.shape[d];
    const size_t n_idx = ii.shape.num_elements();
    const uint32_t len = pi.shape[axis];
    const int32_t* idx = static_cast<const int32_t*>(a.inputs[1]);
    const ElementCopier copy(pi, a.inputs[0], yi, a.outputs[0]);
    size_t o = 0;
    for (size_t b = 0; b < outer; ++b)
        for (size_t k = 0; k < n_idx; ++k) {
            const int32_t v = idx[k];
            const bool valid = v >= 0 && uint32_t(v) < len;
            for (size_t i = 0; i < inner; ++i, ++o) {
                if (valid) copy.copy(o, (b * len + size_t(v)) * inner + i);
                else copy.zero(o);
            }
        }
}

void run_gather_nd(const KernelArgs& a) {
    const TensorInfo& pi = in_info(a, 0);
    const TensorInfo& ii = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    const uint32_t k = ii.shape[ii.shape.rank - 1];
    const size_t n_idx = ii.shape.num_elements() / k;
    size_t inner = 1;
    for (uint32_t d = k; d < pi.shape.rank; ++d) inner *= pi.shape[d];
    const Strides ps(pi.shape);
    const int32_t* idx = static_cast<const int32_t*>(a.inputs[1]);
    const ElementCopier copy(pi, a.inputs[0], yi, a.outputs[0]);
    for (size_t r = 0; r < n_idx; ++r) {
        size_t base = 0;
        bool valid = true;
        for (uint32_t d = 0; d < k; ++d) {
            const int32_t v = idx[r * k + d];
            if (v < 0 || uint32_t(v) >= pi.shape[d]) valid = false;
            else base += size_t(v) * ps[d];
        }
        for (size_t i = 0; i < inner; ++i) {
            if (valid) copy.copy(r * inner + i, base + i);
            else copy.zero(r * inner + i);
        }
    }
}

}  // namespace

const Kernel kGather = {check_any, nullptr, run_gather};
const Kernel kGatherNd = {check_any, nullptr, run_gather_nd};

}  // namespace npurun::kernels::ref

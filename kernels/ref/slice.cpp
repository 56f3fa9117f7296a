// Slice (begin + size per dimension) and StridedSlice (Arm NN's start/stop rule, shared with shape
// inference through ops::strided_slice_range; ellipsisMask and newAxisMask are ignored as in Arm NN).
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"
#include "ir/ops.h"

namespace npurun::kernels::ref {
namespace {

void run_slice(const KernelArgs& a) {
    const auto& at = a.node.attr<SliceAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const Strides xs(xi.shape);
    copy_from_source(a, [&](const uint32_t* o) {
        size_t src = 0;
        for (uint32_t d = 0; d < xi.shape.rank; ++d) src += size_t(o[d] + at.begin[d]) * xs[d];
        return src;
    });
}

void run_strided_slice(const KernelArgs& a) {
    const auto& at = a.node.attr<StridedSliceAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    const Strides xs(xi.shape);
    ops::StridedSliceRange r[kMaxRank];
    Shape walk;  // the input rank, shrunk dimensions with one element
    walk.rank = xi.shape.rank;
    for (uint32_t d = 0; d < xi.shape.rank; ++d) {
        r[d] = ops::strided_slice_range(at, xi.shape, d);
        walk[d] = r[d].shrink ? 1 : r[d].count;
    }
    const ElementCopier copy(xi, a.inputs[0], yi, a.outputs[0]);
    for_each_index(walk, [&](const uint32_t* o, size_t flat) {
        size_t src = 0;
        for (uint32_t d = 0; d < xi.shape.rank; ++d) src += size_t(r[d].start + int64_t(o[d]) * r[d].stride) * xs[d];
        copy.copy(flat, src);
    });
}

}  // namespace

const Kernel kSlice = {check_any, nullptr, run_slice};
const Kernel kStridedSlice = {check_any, nullptr, run_strided_slice};

}  // namespace npurun::kernels::ref

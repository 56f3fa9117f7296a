// Softmax along one axis (negative axes count from the end): exp((x - max) * beta) / sum, in float,
// as CpuRef's Softmax.cpp.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

// Walks every 1-D slice along the softmax axis (negative axes count from the end) and hands `finish` the
// slice's (x - max) * beta and `per_slice(sum of exp((x - max) * beta))`, computed once per slice;
// Softmax and LogSoftmax differ only in those two functions.
template <class PerSlice, class Finish>
void for_each_axis_slice(const KernelArgs& a, PerSlice per_slice, Finish finish) {
    const auto& at = a.node.attr<SoftmaxAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const Shape& s = xi.shape;
    const uint32_t axis = at.axis < 0 ? uint32_t(at.axis + int32_t(s.rank)) : uint32_t(at.axis);
    size_t outer = 1, inner = 1;
    for (uint32_t d = 0; d < axis; ++d) outer *= s[d];
    for (uint32_t d = axis + 1; d < s.rank; ++d) inner *= s[d];
    const uint32_t len = s[axis];
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    for (size_t o = 0; o < outer; ++o)
        for (size_t i = 0; i < inner; ++i) {
            const size_t base = o * len * inner + i;
            float mx = -FLT_MAX;
            for (uint32_t k = 0; k < len; ++k) mx = std::max(mx, x[base + k * inner]);
            float sum = 0.0f;
            for (uint32_t k = 0; k < len; ++k) sum += std::exp((x[base + k * inner] - mx) * at.beta);
            const float norm = per_slice(sum);
            for (uint32_t k = 0; k < len; ++k) {
                const size_t idx = base + k * inner;
                y.set(idx, finish((x[idx] - mx) * at.beta, norm));
            }
        }
}

void run(const KernelArgs& a) {
    for_each_axis_slice(a, [](float sum) { return sum; }, [](float shifted, float sum) { return std::exp(shifted) / sum; });
}

// LogSoftmax (CpuRef's LogSoftmax.cpp): (x - max) * beta - log(sum exp((x - max) * beta)) along the axis.
void run_log(const KernelArgs& a) {
    for_each_axis_slice(a, [](float sum) { return std::log(sum); },
                        [](float shifted, float log_sum) { return shifted - log_sum; });
}

}  // namespace

const Kernel kSoftmax = {check_numeric_io, nullptr, run};
const Kernel kLogSoftmax = {check_numeric_io, nullptr, run_log};

}  // namespace npurun::kernels::ref

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

void run(const KernelArgs& a) {
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
            for (uint32_t k = 0; k < len; ++k)
                y.set(base + k * inner, std::exp((x[base + k * inner] - mx) * at.beta) / sum);
        }
}

}  // namespace

const Kernel kSoftmax = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

// BatchNormalization, as CpuRef's BatchNormImpl: per channel mult = gamma / sqrt(var + eps),
// add = beta - mult * mean, out = mult * x + add (in float).
#include <cmath>

#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<BatchNormalizationAttrs>();
    const ImageInOut io(a, at.layout);
    const ImageIndexer& ix = io.ix;
    const Reader mean(in_info(a, 1), a.inputs[1]), var(in_info(a, 2), a.inputs[2]);
    const Reader beta(in_info(a, 3), a.inputs[3]), gamma(in_info(a, 4), a.inputs[4]);
    for (uint32_t c = 0; c < ix.c; ++c) {
        const float mult = gamma[c] / std::sqrt(var[c] + at.eps);
        const float add = beta[c] - mult * mean[c];
        for (uint32_t n = 0; n < ix.n; ++n)
            for (uint32_t h = 0; h < ix.h; ++h)
                for (uint32_t w = 0; w < ix.w; ++w) {
                    const size_t i = ix(n, c, h, w);
                    io.y.set(i, mult * io.x[i] + add);
                }
    }
}

}  // namespace

const Kernel kBatchNormalization = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

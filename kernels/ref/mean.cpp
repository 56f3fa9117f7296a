// Mean over a set of axes (ReduceAttrs; empty = all): per output, the float sum of its reduced elements in
// increasing input order (CpuRef's accumulation order), divided by the number of reduced elements.
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<ReduceAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const Shape& s = xi.shape;
    const Strides st(s);
    const ReducedAxes reduced(at.axes, s.rank);
    // Kept and reduced dimensions, each in input order.
    uint32_t kept_dims[kMaxRank], red_dims[kMaxRank];
    uint32_t nk = 0, nr = 0;
    size_t outputs = 1, per_output = 1;
    for (uint32_t d = 0; d < s.rank; ++d) {
        if (reduced[d]) { red_dims[nr++] = d; per_output *= s[d]; }
        else { kept_dims[nk++] = d; outputs *= s[d]; }
    }
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    uint32_t kidx[kMaxRank] = {};
    for (size_t o = 0; o < outputs; ++o) {
        size_t base = 0;
        for (uint32_t k = 0; k < nk; ++k) base += kidx[k] * st[kept_dims[k]];
        float sum = 0.0f;
        uint32_t ridx[kMaxRank] = {};
        size_t off = base;
        for (size_t r = 0; r < per_output; ++r) {
            sum += x[off];
            for (uint32_t k = nr; k-- > 0;) {
                const uint32_t d = red_dims[k];
                ++ridx[k];
                off += st[d];
                if (ridx[k] < s[d]) break;
                off -= st[d] * ridx[k];
                ridx[k] = 0;
            }
        }
        y.set(o, per_output ? sum / float(per_output) : 0.0f);
        for (uint32_t k = nk; k-- > 0;) {
            if (++kidx[k] < s[kept_dims[k]]) break;
            kidx[k] = 0;
        }
    }
}

}  // namespace

const Kernel kMean = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

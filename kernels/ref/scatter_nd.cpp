// ScatterNd with Arm NN's reference semantics: the output starts as a copy of the input (or zeros without
// one); for each position i, every element j of its slice becomes f(original input element, updates[i, j]),
// computed in float. The *input* element, not the partially updated output, is combined, so of two updates
// at one position the later one wins for every function (Arm NN refuses repeats only for Update).
#include <algorithm>
#include <string>

#include "core/error.h"
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

float combine(ScatterNdFunction f, float x, float u) {
    switch (f) {
        case ScatterNdFunction::Update: return u;
        case ScatterNdFunction::Add: return x + u;
        case ScatterNdFunction::Sub: return x - u;
        case ScatterNdFunction::Max: return std::max(x, u);
        case ScatterNdFunction::Min: return std::min(x, u);
    }
    return u;
}

void run(const KernelArgs& a) {
    const TensorInfo& yi = out_info(a, 0);
    const uint32_t n = in_info(a, 1).shape[0], k = in_info(a, 1).shape[1];  // indices [N, K]
    const auto& at = a.node.attr<ScatterNdAttrs>();
    const Strides st(yi.shape);
    const size_t slice = k == yi.shape.rank ? 1 : st[k - 1];  // elements each position receives
    const size_t total = yi.shape.num_elements();
    const Writer y(yi, a.outputs[0]);
    const Reader u(in_info(a, 2), a.inputs[2]);
    const Reader x(in_info(a, 0), a.inputs[0]);  // read only with input_enabled (else input 0 is the shape)
    if (at.input_enabled) {
        const ElementCopier copy(in_info(a, 0), a.inputs[0], yi, a.outputs[0]);
        for (size_t e = 0; e < total; ++e) copy.copy(e, e);
    } else {
        for (size_t e = 0; e < total; ++e) y.set(e, 0.0f);
    }
    const int32_t* idx = static_cast<const int32_t*>(a.inputs[1]);
    for (uint32_t i = 0; i < n; ++i) {
        size_t base = 0;
        for (uint32_t d = 0; d < k; ++d) {
            const int32_t v = idx[size_t(i) * k + d];
            // Indices computed at run time are checked here (shape inference checked constant ones).
            if (v < 0 || uint32_t(v) >= yi.shape[d])
                fail(ErrorKind::BadInput, "ScatterNd: index " + std::to_string(v) + " of position " + std::to_string(i) +
                                              " is out of range for dimension " + std::to_string(yi.shape[d]));
            base += size_t(v) * st[d];
        }
        for (size_t j = 0; j < slice; ++j) {
            const float before = at.input_enabled ? x[base + j] : 0.0f;
            y.set(base + j, combine(at.function, before, u[size_t(i) * slice + j]));
        }
    }
}

}  // namespace

const Kernel kScatterNd = {check_any, nullptr, run};

}  // namespace npurun::kernels::ref

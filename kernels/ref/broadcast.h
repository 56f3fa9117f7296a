// NumPy-style broadcasting walk shared by the binary element-wise kernels (ElementwiseBinary, and the
// Comparison / LogicalBinary / Prelu kernels that follow the same rule): visits every output element in
// row-major order together with the matching element offsets of both inputs. No allocation.
#pragma once

#include <cstddef>

#include "core/types.h"

namespace npurun::kernels::ref {

// f(output_index, a_index, b_index) for every output element; shapes are right-aligned and size-1
// (or missing) input dimensions repeat. The shapes must be broadcast-compatible (ir/ops checks).
template <class F> void for_each_broadcast(const Shape& a, const Shape& b, const Shape& out, F&& f) {
    size_t sa[kMaxRank] = {}, sb[kMaxRank] = {};
    auto strides = [&out](const Shape& in, size_t* s) {
        size_t acc = 1;
        const uint32_t lead = out.rank - in.rank;
        for (uint32_t d = out.rank; d-- > 0;) {
            if (d < lead) { s[d] = 0; continue; }
            const uint32_t dim = in[d - lead];
            s[d] = dim == 1 ? 0 : acc;
            acc *= dim;
        }
    };
    strides(a, sa);
    strides(b, sb);
    const size_t count = out.num_elements();
    uint32_t idx[kMaxRank] = {};
    size_t ia = 0, ib = 0;
    for (size_t o = 0; o < count; ++o) {
        f(o, ia, ib);
        for (uint32_t d = out.rank; d-- > 0;) {
            ++idx[d];
            ia += sa[d];
            ib += sb[d];
            if (idx[d] < out[d]) break;
            ia -= sa[d] * idx[d];
            ib -= sb[d] * idx[d];
            idx[d] = 0;
        }
    }
}

}  // namespace npurun::kernels::ref

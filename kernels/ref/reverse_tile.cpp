// ReverseV2 (reverse the listed axes) and Tile (repeat the input multiples[d] times along every dimension d).
// Both only move elements, so an element keeps its bytes when input and output share type and quantization
// (ElementCopier), as in Arm NN's reference, which decodes and re-encodes with the same parameters.
#include <string>

#include "core/error.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run_reverse_v2(const KernelArgs& a) {
    const TensorInfo& xi = in_info(a, 0);
    const uint32_t rank = xi.shape.rank;
    // The axes may be computed at run time, so they are checked here too (shape inference checked constant ones).
    bool flip[kMaxRank] = {};
    const int32_t* axes = static_cast<const int32_t*>(a.inputs[1]);
    for (uint32_t i = 0, n = in_info(a, 1).shape[0]; i < n; ++i) {
        const int32_t v = axes[i];
        if (v < -int32_t(rank) || v >= int32_t(rank))
            fail(ErrorKind::BadInput, "ReverseV2: axis " + std::to_string(v) + " is out of range for rank " + std::to_string(rank));
        flip[v < 0 ? v + int32_t(rank) : v] = true;  // listed twice: still reversed once (Arm NN sets a flag)
    }
    const Strides st(xi.shape);
    copy_from_source(a, [&](const uint32_t* idx) {
        size_t from = 0;
        for (uint32_t d = 0; d < rank; ++d) from += (flip[d] ? xi.shape[d] - 1 - idx[d] : idx[d]) * st[d];
        return from;
    });
}

void run_tile(const KernelArgs& a) {
    const Shape& xs = in_info(a, 0).shape;
    const Strides st(xs);
    copy_from_source(a, [&](const uint32_t* idx) {
        size_t from = 0;
        for (uint32_t d = 0; d < xs.rank; ++d) from += (idx[d] % xs[d]) * st[d];
        return from;
    });
}

}  // namespace

const Kernel kReverseV2 = {check_any, nullptr, run_reverse_v2};
const Kernel kTile = {check_any, nullptr, run_tile};

}  // namespace npurun::kernels::ref

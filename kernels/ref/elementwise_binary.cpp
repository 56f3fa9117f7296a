// ElementwiseBinary (Add, Sub, Mul, Div, Maximum, Minimum) with NumPy broadcasting, computed in float.
#include <algorithm>

#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

float apply(BinaryOp op, float a, float b) {
    switch (op) {
        case BinaryOp::Add: return a + b;
        case BinaryOp::Sub: return a - b;
        case BinaryOp::Mul: return a * b;
        case BinaryOp::Div: return a / b;
        case BinaryOp::Maximum: return std::max(a, b);
        case BinaryOp::Minimum: return std::min(a, b);
    }
    return 0.0f;
}

// Strides of `in` seen through the output's rank: 0 along broadcast (size-1 or missing) dimensions.
void broadcast_strides(const Shape& in, const Shape& out, size_t* strides) {
    const Strides s(in);
    const uint32_t lead = out.rank - in.rank;
    for (uint32_t d = 0; d < out.rank; ++d)
        strides[d] = (d < lead || in[d - lead] == 1) ? 0 : s[d - lead];
}

void run(const KernelArgs& a) {
    const BinaryOp op = a.node.attr<ElementwiseBinaryAttrs>().op;
    const TensorInfo& ai = in_info(a, 0);
    const TensorInfo& bi = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    const Reader ar(ai, a.inputs[0]), br(bi, a.inputs[1]);
    const Writer y(yi, a.outputs[0]);
    const Shape& os = yi.shape;
    size_t sa[kMaxRank] = {}, sb[kMaxRank] = {};
    broadcast_strides(ai.shape, os, sa);
    broadcast_strides(bi.shape, os, sb);
    const size_t count = os.num_elements();
    uint32_t idx[kMaxRank] = {};
    size_t ia = 0, ib = 0;
    for (size_t o = 0; o < count; ++o) {
        y.set(o, apply(op, ar[ia], br[ib]));
        // Advance the multi-index (row-major), keeping the input offsets in step.
        for (uint32_t d = os.rank; d-- > 0;) {
            ++idx[d];
            ia += sa[d];
            ib += sb[d];
            if (idx[d] < os[d]) break;
            ia -= sa[d] * idx[d];
            ib -= sb[d] * idx[d];
            idx[d] = 0;
        }
    }
}

}  // namespace

const Kernel kElementwiseBinary = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

// Permute and Transpose: raw element moves (CpuRef permutes bytes; quantization is not applied).
// The two differ only in the meaning of the mapping (ir/ops.h):
//   Permute:   output dimension mapping[i] is input dimension i;
//   Transpose: output dimension i is input dimension mapping[i].
#include <cstring>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

// dst_stride[d]: output stride (elements) of input dimension d.
void move_elements(const KernelArgs& a, const size_t* dst_stride) {
    const TensorInfo& xi = in_info(a, 0);
    const Shape& s = xi.shape;
    const size_t es = element_size(xi.dtype);
    const auto* src = static_cast<const uint8_t*>(a.inputs[0]);
    auto* dst = static_cast<uint8_t*>(a.outputs[0]);
    for_each_strided(s, dst_stride, 0, [&](size_t i, size_t o) { std::memcpy(dst + o * es, src + i * es, es); });
}

void run_permute(const KernelArgs& a) {
    const auto& m = a.node.attr<PermuteAttrs>().mapping;
    const Strides out(out_info(a, 0).shape);
    size_t dst_stride[kMaxRank] = {};
    for (uint32_t i = 0; i < m.size(); ++i) dst_stride[i] = out[m[i]];
    move_elements(a, dst_stride);
}

void run_transpose(const KernelArgs& a) {
    const auto& m = a.node.attr<PermuteAttrs>().mapping;
    const Strides out(out_info(a, 0).shape);
    size_t dst_stride[kMaxRank] = {};
    for (uint32_t i = 0; i < m.size(); ++i) dst_stride[m[i]] = out[i];
    move_elements(a, dst_stride);
}

}  // namespace

const Kernel kPermute = {check_same_type, nullptr, run_permute};
const Kernel kTranspose = {check_same_type, nullptr, run_transpose};

}  // namespace npurun::kernels::ref

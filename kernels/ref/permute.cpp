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
    const size_t count = s.num_elements();
    const auto* src = static_cast<const uint8_t*>(a.inputs[0]);
    auto* dst = static_cast<uint8_t*>(a.outputs[0]);
    uint32_t idx[kMaxRank] = {};
    size_t o = 0;
    for (size_t i = 0; i < count; ++i) {
        std::memcpy(dst + o * es, src + i * es, es);
        for (uint32_t d = s.rank; d-- > 0;) {
            ++idx[d];
            o += dst_stride[d];
            if (idx[d] < s[d]) break;
            o -= dst_stride[d] * idx[d];
            idx[d] = 0;
        }
    }
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

std::string check(const KernelNode& node) {
    if (node.in(0).dtype != node.out(0).dtype) return "input and output types differ";
    return {};
}

}  // namespace

const Kernel kPermute = {check, nullptr, run_permute};
const Kernel kTranspose = {check, nullptr, run_transpose};

}  // namespace npurun::kernels::ref

// Stack (inputs joined along a new axis) and ChannelShuffle (the axis viewed as [groups, n] and
// transposed to [n, groups]: output index i * groups + g takes input index g * n + i).
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run_stack(const KernelArgs& a) {
    const auto& at = a.node.attr<StackAttrs>();
    const TensorInfo& yi = out_info(a, 0);
    size_t outer = 1, inner = 1;
    for (uint32_t d = 0; d < at.axis; ++d) outer *= at.input_shape[d];
    for (uint32_t d = at.axis; d < at.input_shape.rank; ++d) inner *= at.input_shape[d];
    const size_t n = a.node.num_inputs();
    for (size_t k = 0; k < n; ++k) {
        const ElementCopier copy(in_info(a, k), a.inputs[k], yi, a.outputs[0]);
        for (size_t o = 0; o < outer; ++o)
            for (size_t i = 0; i < inner; ++i) copy.copy((o * n + k) * inner + i, o * inner + i);
    }
}

void run_channel_shuffle(const KernelArgs& a) {
    const auto& at = a.node.attr<ChannelShuffleAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    size_t outer = 1, inner = 1;
    for (uint32_t d = 0; d < at.axis; ++d) outer *= xi.shape[d];
    for (uint32_t d = at.axis + 1; d < xi.shape.rank; ++d) inner *= xi.shape[d];
    const uint32_t len = xi.shape[at.axis], groups = at.num_groups, per_group = len / groups;
    const ElementCopier copy(xi, a.inputs[0], yi, a.outputs[0]);
    for (size_t o = 0; o < outer; ++o)
        for (uint32_t g = 0; g < groups; ++g)
            for (uint32_t i = 0; i < per_group; ++i)
                for (size_t j = 0; j < inner; ++j)
                    copy.copy((o * len + i * groups + g) * inner + j, (o * len + g * per_group + i) * inner + j);
}

}  // namespace

const Kernel kStack = {check_any, nullptr, run_stack};
const Kernel kChannelShuffle = {check_any, nullptr, run_channel_shuffle};

}  // namespace npurun::kernels::ref

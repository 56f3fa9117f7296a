// Reshape: the bytes are unchanged (CpuRef copies memory; quantization parameters are not applied).
#include <cstring>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run(const KernelArgs& a) {
    const size_t bytes = in_info(a, 0).num_bytes();
    if (bytes && a.outputs[0] != a.inputs[0]) std::memmove(a.outputs[0], a.inputs[0], bytes);
}

std::string check(const KernelNode& node) {
    if (node.in(0).dtype != node.out(0).dtype) return "input and output types differ";
    return {};
}

}  // namespace

const Kernel kReshape = {check, nullptr, run};

}  // namespace npurun::kernels::ref

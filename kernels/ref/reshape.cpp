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

}  // namespace

const Kernel kReshape = {check_same_type, nullptr, run};

}  // namespace npurun::kernels::ref

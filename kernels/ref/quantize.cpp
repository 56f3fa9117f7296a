// Quantize (float or quantized -> quantized, i.e. also requantization) and Dequantize (quantized ->
// float): decode each element to a real value and encode it in the output type (Arm NN's Quantize and
// Dequantize, core/quantization.h). Per-axis QSymmS8 inputs use one scale per channel.
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run(const KernelArgs& a) {
    const TensorInfo& xi = in_info(a, 0);
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    const size_t count = xi.shape.num_elements();
    for (size_t i = 0; i < count; ++i) y.set(i, x[i]);
}

}  // namespace

const Kernel kQuantize = {check_numeric_io, nullptr, run};
const Kernel kDequantize = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

// FullyConnected: y[n, o] = sum_k x[n, k] * W(k, o) + bias[o], with W stored [O, K] when transpose_weights
// (TfLite) or [K, O] otherwise; the input's dimensions after the first are flattened into K.
// Float: sum in float over k (CpuRef's order), bias added last. Quantized: the integer pipeline of
// core/quantization.h, as for Convolution2d.
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<FullyConnectedAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& wi = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    const uint32_t batches = yi.shape[0], outs = yi.shape[1];
    const uint32_t k_count = at.transpose_weights ? wi.shape[1] : wi.shape[0];
    const bool has_bias = at.bias_enabled && a.node.num_inputs() > 2 && a.inputs[2] != nullptr;
    auto widx = [&](uint32_t k, uint32_t o) -> size_t {
        return at.transpose_weights ? size_t(o) * k_count + k : size_t(k) * outs + o;
    };

    if (is_float(xi.dtype)) {
        const Reader x(xi, a.inputs[0]), w(wi, a.inputs[1]);
        const Writer y(yi, a.outputs[0]);
        for (uint32_t n = 0; n < batches; ++n)
            for (uint32_t o = 0; o < outs; ++o) {
                float sum = 0.0f;
                for (uint32_t k = 0; k < k_count; ++k) sum += x[size_t(n) * k_count + k] * w[widx(k, o)];
                if (has_bias) sum += Reader(in_info(a, 2), a.inputs[2])[o];
                y.set(size_t(n) * outs + o, sum);
            }
        return;
    }

    const int32_t zx = xi.quant.offset;
    const int32_t zw = wi.quant.per_axis() ? 0 : wi.quant.offset;
    for (uint32_t o = 0; o < outs; ++o) {
        const float sw = wi.quant.scale(o);
        const double m = quant::multiplier(xi.quant.scale(), sw, yi.quant.scale());
        const int32_t bias = has_bias ? quant::accumulator_bias(load_int(a.inputs[2], DataType::Signed32, o),
                                                                in_info(a, 2).quant.scale(o), xi.quant.scale(), sw)
                                      : 0;
        for (uint32_t n = 0; n < batches; ++n) {
            int64_t acc = bias;
            for (uint32_t k = 0; k < k_count; ++k)
                acc += int64_t(load_int(a.inputs[0], xi.dtype, size_t(n) * k_count + k) - zx) *
                       (load_int(a.inputs[1], wi.dtype, widx(k, o)) - zw);
            const int32_t q = quant::requantize(acc, m, yi.quant.offset, yi.dtype);
            store_quantized(a.outputs[0], yi.dtype, size_t(n) * outs + o, q);
        }
    }
}

}  // namespace

const Kernel kFullyConnected = {check_weighted_operands, nullptr, run};

}  // namespace npurun::kernels::ref

// Activation: every function of Arm NN's Activation.cpp, computed in float per element.
#include <algorithm>
#include <cmath>

#include "kernels/ref/activation_function.h"
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {

float activation_value(ActivationFunction f, float x, float a, float b) {
    switch (f) {
        case ActivationFunction::Sigmoid: return 1.0f / (1.0f + std::exp(-x));
        case ActivationFunction::TanH: return a * std::tanh(b * x);
        case ActivationFunction::Linear: return a * x + b;
        case ActivationFunction::ReLu: return std::max(0.0f, x);
        case ActivationFunction::BoundedReLu: return std::min(a, std::max(b, x));  // a upper, b lower
        case ActivationFunction::SoftReLu: return std::log(1.0f + std::exp(x));
        case ActivationFunction::LeakyReLu: return x > 0.0f ? x : a * x;
        case ActivationFunction::Abs: return std::fabs(x);
        case ActivationFunction::Sqrt: return std::sqrt(x);
        case ActivationFunction::Square: return x * x;
        case ActivationFunction::Elu: return x >= 0.0f ? x : a * (std::exp(x) - 1.0f);
        case ActivationFunction::HardSwish: return x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f;
        case ActivationFunction::Gelu: return x * 0.5f * (1.0f + std::erf(x * 0.70710678118654752f));  // 23.11
    }
    return x;
}

namespace {

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<ActivationAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    const size_t count = xi.shape.num_elements();
    for (size_t i = 0; i < count; ++i) y.set(i, activation_value(at.function, x[i], at.a, at.b));
}

}  // namespace

const Kernel kActivation = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

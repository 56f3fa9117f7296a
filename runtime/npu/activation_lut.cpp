#include "runtime/npu/activation_lut.h"

#include <algorithm>
#include <cmath>

#include "core/quantization.h"
#include "kernels/ref/activation_function.h"
#include "kernels/ref/binary_function.h"

namespace npurun::npu {

namespace {

constexpr int32_t kSteps = npudrv::regcmd::kDpuLutEntries - 1;  // 512 steps per table
constexpr uint32_t kIndexSelect = 5;  // a curve's table step: 2^5 input units
constexpr double kEntryOne = 16384.0;  // f = 1 as an entry: 2^14, so that +-1 fits int16 with room

// The layout every npurun table has: LE over [-512, 0] steps, LO over [0, 512] steps of 2^index_select input
// units, meeting at 0 (answered by LO); past either end the end entry (zero slopes). entry(k) is the entry of
// step k in -512..512.
template <class Entry> DpuLutProgram symmetric_tables(uint32_t index_select, Entry entry) {
    DpuLutProgram p;
    for (int32_t i = 0; i <= kSteps; ++i) {
        p.le[static_cast<size_t>(i)] = entry(i - kSteps);
        p.lo[static_cast<size_t>(i)] = entry(i);
    }
    const int32_t span = kSteps << index_select;
    p.le_start = -span, p.le_end = 0;
    p.lo_start = 0, p.lo_end = span;
    p.le_index_select = p.lo_index_select = index_select;
    p.hybrid_lo = true, p.oflow_lo = true, p.uflow_lo = false;
    return p;
}

// The curve f over [-range, range]; its entries are f * factor (|f * factor| <= 1), built only with `entries`.
template <class F> LutCurve make_curve(F f, double range, double factor = 1.0, bool entries = true) {
    LutCurve c;
    c.range = static_cast<float>(range);
    c.index_scale = static_cast<float>((kSteps << kIndexSelect) / range);
    c.entry_scale = static_cast<float>(1.0 / kEntryOne);
    if (entries) {
        c.program = symmetric_tables(kIndexSelect, [&](int32_t k) {
            return static_cast<int16_t>(std::clamp(std::round(f(range * k / kSteps) * factor * kEntryOne), -32768.0, 32767.0));
        });
    }
    return c;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double tanh_(double x) { return std::tanh(x); }
double normal_cdf(double x) { return 0.5 * (1.0 + std::erf(x * 0.70710678118654752)); }
double softplus_remainder(double x) { return std::log1p(std::exp(-std::fabs(x))); }
double elu_remainder(double x) { return x < 0.0 ? std::expm1(x) : 0.0; }

}  // namespace

const LutCurve& sigmoid_curve() {
    static const LutCurve c = make_curve(sigmoid, 16.0);  // 1 - sigmoid(16) = 1.1e-7
    return c;
}

const LutCurve& tanh_curve() {
    static const LutCurve c = make_curve(tanh_, 8.0);  // 1 - tanh(8) = 2.3e-7
    return c;
}

const LutCurve& gelu_gate_curve() {
    static const LutCurve c = make_curve(normal_cdf, 8.0);  // 1 - Phi(8) = 6.2e-16
    return c;
}

const LutCurve& softplus_remainder_curve() {
    // log(1 + e^-16) = 1.1e-7. The kink of |x| at 0 is a table point (LE ends, LO starts there): no
    // interpolation crosses it.
    static const LutCurve c = make_curve(softplus_remainder, 16.0);
    return c;
}

LutCurve elu_remainder_curve(float alpha, bool entries) {
    const bool folded = std::fabs(alpha) <= 1.0f;
    LutCurve c = make_curve(elu_remainder, 16.0, folded ? alpha : 1.0, entries);  // e^-16 = 1.1e-7
    if (!folded) c.entry_scale *= alpha;
    return c;
}

namespace {

// One entry per input code in the NPU's signed domain: quantize(f(dequantize(q))) as the reference computes it.
template <class F> DpuLutProgram int8_table(const TensorInfo& x, const TensorInfo& y, F f) {
    const int32_t x_shift = x.dtype == DataType::QAsymmU8 ? 128 : 0;  // signed domain: q - 128 for uint8
    const int32_t y_shift = y.dtype == DataType::QAsymmU8 ? 128 : 0;
    return symmetric_tables(0, [&](int32_t code_s) {  // one step per input code
        const int32_t q = std::clamp(code_s, -128, 127) + x_shift;  // codes the input cannot hold: never indexed
        const float v = f(quant::dequantize(q, x.quant.scale(), x.quant.offset));
        return static_cast<int16_t>(quant::quantize(v, y.quant.scale(), y.quant.offset, y.dtype) - y_shift);
    });
}

}  // namespace

DpuLutProgram int8_activation_table(const ActivationAttrs& f, const TensorInfo& x, const TensorInfo& y) {
    return int8_table(x, y, [&](float v) { return kernels::ref::activation_value(f.function, v, f.a, f.b); });
}

DpuLutProgram int8_power_table(float exponent, const TensorInfo& x, const TensorInfo& y) {
    return int8_table(x, y, [&](float v) { return kernels::ref::binary_value(BinaryOp::Power, v, exponent); });
}

}  // namespace npurun::npu

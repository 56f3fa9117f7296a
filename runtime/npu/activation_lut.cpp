#include "runtime/npu/activation_lut.h"

#include <algorithm>
#include <cmath>

#include "core/quantization.h"
#include "kernels/ref/activation_function.h"

namespace npurun::npu {

namespace {

constexpr uint32_t kIndexSelect = 5;  // a table step of 2^5 input units
constexpr double kEntryOne = 16384.0;  // f = 1 as an entry: 2^14, so that +-1 fits int16 with room

LutCurve make_curve(double (*f)(double), double range) {
    constexpr uint32_t n = npudrv::regcmd::kDpuLutEntries - 1;  // 512 steps per table
    const auto span = static_cast<int32_t>(n << kIndexSelect);  // 16384 input units per table
    LutCurve c;
    c.range = static_cast<float>(range);
    c.index_scale = static_cast<float>(span / range);
    c.entry_scale = static_cast<float>(1.0 / kEntryOne);
    auto entry = [&](double x) {
        return static_cast<int16_t>(std::clamp(std::round(f(x) * kEntryOne), -32768.0, 32767.0));
    };
    DpuLutProgram& p = c.program;
    for (uint32_t i = 0; i <= n; ++i) {
        p.le[i] = entry(-range + range * i / n);  // LE: [-range, 0]
        p.lo[i] = entry(range * i / n);           // LO: [0, range]
    }
    p.le_start = -span, p.le_end = 0;
    p.lo_start = 0, p.lo_end = span;
    p.le_index_select = p.lo_index_select = kIndexSelect;
    p.hybrid_lo = true, p.oflow_lo = true, p.uflow_lo = false;  // v = 0 from LO; past either end the end entry
    return c;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double tanh_(double x) { return std::tanh(x); }

}  // namespace

const LutCurve& sigmoid_curve() {
    static const LutCurve c = make_curve(sigmoid, 16.0);  // 1 - sigmoid(16) = 1.1e-7
    return c;
}

const LutCurve& tanh_curve() {
    static const LutCurve c = make_curve(tanh_, 8.0);  // 1 - tanh(8) = 2.3e-7
    return c;
}

DpuLutProgram int8_activation_table(const ActivationAttrs& f, const TensorInfo& x, const TensorInfo& y) {
    constexpr int32_t n = npudrv::regcmd::kDpuLutEntries - 1;  // 512 codes per table
    const int32_t x_shift = x.dtype == DataType::QAsymmU8 ? 128 : 0;  // signed domain: q - 128 for uint8
    const int32_t y_shift = y.dtype == DataType::QAsymmU8 ? 128 : 0;
    auto entry = [&](int32_t code_s) {
        const int32_t q = std::clamp(code_s, -128, 127) + x_shift;  // codes the input cannot hold: never indexed
        const float v = kernels::ref::activation_value(f.function, quant::dequantize(q, x.quant.scale(), x.quant.offset), f.a, f.b);
        return static_cast<int16_t>(quant::quantize(v, y.quant.scale(), y.quant.offset, y.dtype) - y_shift);
    };
    DpuLutProgram p;
    for (int32_t i = 0; i <= n; ++i) {
        p.le[static_cast<size_t>(i)] = entry(i - n);  // LE: codes -512..0
        p.lo[static_cast<size_t>(i)] = entry(i);      // LO: codes 0..512
    }
    p.le_start = -n, p.le_end = 0;
    p.lo_start = 0, p.lo_end = n;
    p.le_index_select = p.lo_index_select = 0;
    return p;
}

}  // namespace npurun::npu

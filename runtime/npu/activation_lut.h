// Curve activations as DPU lookup tables for fp16 tasks. The LUT interpolates 16-bit integer
// entries (drv/sim/dpu_lut.h says what is assumed of it), so a curve is a table of f at 1025 points over
// [-range, range] held as round(f * 2^14), plus two multipliers the BS stage applies:
//   task 1: v = x * index_scale (BS MUL), y' = LUT(v)       the table's step is 2^5 in v, i.e. range/512 in x
//   task 2: y = y' * entry_scale (BS MUL, in place)         entry_scale = 2^-14
// range is where f has saturated (sigmoid: 16, tanh: 8, the Gelu gate: 8, the Elu and SoftReLu remainders: 16);
// beyond it the table holds its end entry (zero slopes). Every table is bounded (|f| <= 1), because task 1 stores
// the entries as fp16: a curve that grows like x (Elu, SoftReLu) is written relu(x) + a bounded remainder r(x),
// the table holding r, and a third task adds relu(x) (runtime/npu/ops/activation_op.cpp). Error against the CPU's float: interpolation (h^2/8 * max|f''|, under 2.5e-5), entries
// (2^-15), the fp16 intermediate (half an fp16 ulp) and the fp16 output; one LUT input unit is at most 1/1024
// of x, so a fixed-point index on the hardware moves y by under 1e-3.
#pragma once

#include "core/types.h"
#include "ir/ops.h"
#include "runtime/npu/dpu_flying.h"

namespace npurun::npu {

struct LutCurve {
    DpuLutProgram program;
    float range = 0.0f;        // the tables cover x in [-range, range]
    float index_scale = 0.0f;  // x -> the LUT's input domain: 2^14 / range
    float entry_scale = 0.0f;  // an entry -> f: 2^-14
};

const LutCurve& sigmoid_curve();
const LutCurve& tanh_curve();
const LutCurve& gelu_gate_curve();           // Phi(x) = 0.5 (1 + erf(x / sqrt 2)): Gelu = x * Phi(x)
const LutCurve& softplus_remainder_curve();  // log(1 + e^-|x|): SoftReLu = relu(x) + it
// Elu's remainder alpha (e^min(x,0) - 1): Elu = relu(x) + it. With |alpha| <= 1 alpha is folded into the entries
// (the entry scale stays 2^-14: a multiplier alpha * 2^-14 would be an fp16 subnormal), above 1 into the entry
// scale (entries for alpha 1). The table is built only with `entries`; the scales always.
LutCurve elu_remainder_curve(float alpha, bool entries);

// Any activation of an 8-bit tensor as one DPU task: the table is indexed by the input code in the NPU's signed
// domain with index select 0, one entry per code, so the hardware's fraction never matters; each entry is the
// output code (signed domain) the reference computes, quantize(f(dequantize(q))) with the reference's own f
// (kernels/ref/activation_function.h): bit-exact with the CPU by construction. No BS stage, identity output
// converter. x and y are per-tensor 8-bit (QAsymmU8 / QAsymmS8 / QSymmS8).
DpuLutProgram int8_activation_table(const ActivationAttrs& f, const TensorInfo& x, const TensorInfo& y);
// The same for x^exponent (Pow by a constant, seed 003) with the reference's own pow (kernels/ref/binary_function.h).
DpuLutProgram int8_power_table(float exponent, const TensorInfo& x, const TensorInfo& y);

}  // namespace npurun::npu

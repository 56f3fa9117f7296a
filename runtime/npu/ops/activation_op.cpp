// The standalone activation unit: fp16 activations the DPU computes, over the whole map:
//   HardSwish: hard_sigmoid(x) = min(max((x + 3) * 1/6, 0), 1)   BS stage: ALU add 3.0 (fp32 register), MUL 1/6
//                                                                (fp16 register), ReLU, ReLU-X 1.0
//              y = x * hard_sigmoid(x)                           EW stage: multiply by the operand, ERDMA reading
//                                                                the same input map per pixel
//   LeakyReLu: y = x < 0 ? alpha * x : x                         BS stage: MUL alpha (fp16 register) with
//                                                                BS_MUL_PRELU (negative values only, ref. §4.6)
//   Square:    y = x * x (Pow with exponent 2, seed 003)         EW stage: multiply by the same map (ERDMA)
//   Abs:       y = max(-x, x)                                    BS MUL -1, EW max with the same map: exact
//   Linear:    y = a * x + b = (x + b / a) * a                   BS stage: ALU add b / a (fp32 register), MUL a
//                                                                (fp16 register); a = 0 is refused (0 * x is NaN
//                                                                for x = inf, which no register write gives)
// and the lookup-table curves (activation_lut.h), a first task that scales x into the table (BS MUL, the EW
// lookup) and writes the entries, then a second that turns them into values in place (BS MUL by the entry scale):
//   Sigmoid:   y = 1 / (1 + e^-x)
//   TanH:      y = a * tanh(b * x)                               b in the index scale, a in the entry scale
//   Gelu:      y = x * Phi(x)                                    the second task also multiplies by x (EW, per
//                                                                pixel), as SiLU's does
//   Elu:       y = relu(x) + alpha (e^min(x,0) - 1)              curves that grow like x: the table holds the
//   SoftReLu:  y = relu(x) + log(1 + e^-|x|)                     bounded remainder (its fp16 entries cannot
//                                                                hold x), a third task adds relu(x): BS ReLU on
//                                                                x, EW add of the remainder map, in place
// The only rounding beyond the CPU's is a multiplier held as fp16 (1/6: relative 2.4e-4; alpha, TanH's a and b:
// relative <= 4.9e-4), the lookup table's (activation_lut.h), the fp16 intermediates and the fp16 output. Linear's
// b / a is fp32 (relative 6e-8 of b), its a held as fp16 within 1e-3 like alpha. Sqrt is refused with its reason.
// int8: every function but the fused-only ReLu / BoundedReLu in one task through the table, one entry per input
// code (activation_lut.h), bit-exact with the CPU. SiLU (x * sigmoid(x)): a Mul with its Sigmoid gate folded in (prepare_silu), the Sigmoid's two tasks
// with the multiply by x in the second.
#include "core/fp16.h"
#include "runtime/npu/activation_lut.h"
#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/units.h"
#include "runtime/passes/npu_limits.h"
#include "runtime/passes/npu_support.h"

#include <cmath>
#include <cstring>
#include <memory>

namespace npurun::npu::ops {

namespace {

uint32_t fp32_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// What a curve's tasks after the lookup do with its values (see the header comment).
enum class CurveUse {
    Value,       // y = the curve (Sigmoid, TanH)
    TimesInput,  // y = x * the curve (Gelu, SiLU)
    PlusRelu,    // y = relu(x) + the curve (Elu, SoftReLu)
};

struct ActivationLayer {
    ActivationFunction f = ActivationFunction::HardSwish;
    float alpha = 0.0f;
    std::shared_ptr<const LutCurve> curve;  // fp16 lookup-table curves (the static ones not owned)
    CurveUse use = CurveUse::Value;
    std::shared_ptr<const DpuLutProgram> int8_table;  // int8: every function, one entry per input code (lowering only)
    uint16_t in_mul = 0, out_mul = 0;  // their fp16 BS multipliers: index scale (x b), entry scale (x a)
    uint32_t pow = 0;  // fp16 Pow by a constant: 1 (a copy) or 3 (Square, then times x); by 2 it is f = Square
    bool ones = false;  // fp16 Pow by 0: the output is 1 everywhere, whatever x is (OnesOp)
    float linear_add = 0.0f;  // fp16 Linear: b / a, the BS ALU operand (the multiplier a is alpha)
    FeatureGeometry g;
    uint32_t tasks() const { return curve == nullptr ? (pow == 3 ? 2 : 1) : use == CurveUse::PlusRelu ? 3 : 2; }
};

constexpr const char* kNoFp16Lowering =
    "has no NPU lowering (fp16: HardSwish, LeakyReLu, Square, Abs, Linear and the lookup-table curves Sigmoid, TanH, "
    "Gelu, Elu, SoftReLu; int8 runs every function through one table)";

std::shared_ptr<const LutCurve> static_curve(const LutCurve& c) { return std::shared_ptr<const LutCurve>(std::shared_ptr<const LutCurve>(), &c); }

// A multiplier the BS stage holds as fp16: refused unless finite, normal (a subnormal keeps too few bits) or 0,
// and within 1e-3 relative of the wanted value.
bool fp16_multiplier(float m, uint16_t* bits) {
    const float held = fp16_to_fp32(fp32_to_fp16(m));
    if (!(std::fabs(m) <= 65504.0f) || std::fabs(held - m) > 1e-3f * std::fabs(m)) return false;
    if (m != 0.0f && std::fabs(held) < 6.103515625e-05f) return false;
    *bits = fp32_to_fp16(m);
    return true;
}

// Whether prepare_activation builds an int8 layer's table (lowering) or only checks the layer (placement's
// check: the same refusals, no 1026 activation values computed).
enum class Tables { CheckOnly, Build };

// The one feature map an activation reads and writes, the same shape in and out.
Refusal map_geometry(const Graph& g, TensorId x, TensorId y, NpuDomain d, FeatureGeometry* out) {
    std::string why;
    FeatureGeometry gi, go;
    if (!feature_geometry(g.info(x), d, &gi, &why) || !feature_geometry(g.info(y), d, &go, &why)) return Refusal::because(why);
    if (gi.c != go.c || gi.h != go.h || gi.w != go.w) return Refusal::because("input and output shapes differ");
    if (gi.c > npu_limits::kCubeMaxDim || gi.h > npu_limits::kCubeMaxDim || gi.w > npu_limits::kCubeMaxDim)
        return Refusal::because("cube above " + std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    *out = gi;
    return {};
}

Refusal prepare_activation(const Graph& g, const Node& node, NpuDomain d, Tables tables, ActivationLayer* out) {
    if (node.inputs.size() != 1 || node.outputs.size() != 1) return Refusal::because("not a one-input activation");
    const auto& attrs = node.attr<ActivationAttrs>();
    const auto f = attrs.function;
    if (d != NpuDomain::Fp16) {
        // int8: every function through the lookup table, one entry per input code.
        const TensorInfo &xi = g.info(node.inputs[0]), &yi = g.info(node.outputs[0]);
        if (xi.quant.per_axis() || yi.quant.per_axis()) return Refusal::because("int8 activation with per-axis quantization");
        if (tables == Tables::Build) out->int8_table = std::make_shared<const DpuLutProgram>(int8_activation_table(attrs, xi, yi));
    }
    if (d == NpuDomain::Fp16) {
        float index_factor = 1.0f, entry_factor = 1.0f;  // TanH's b and a
        switch (f) {
            case ActivationFunction::Sigmoid: out->curve = static_curve(sigmoid_curve()); break;
            case ActivationFunction::TanH:
                out->curve = static_curve(tanh_curve());
                index_factor = attrs.b, entry_factor = attrs.a;
                break;
            case ActivationFunction::Gelu:
                out->curve = static_curve(gelu_gate_curve());
                out->use = CurveUse::TimesInput;
                break;
            case ActivationFunction::SoftReLu:
                out->curve = static_curve(softplus_remainder_curve());
                out->use = CurveUse::PlusRelu;
                break;
            case ActivationFunction::Elu:
                if (!std::isfinite(attrs.a)) return Refusal::because("Elu alpha " + std::to_string(attrs.a) + " is not finite");
                out->curve = std::make_shared<const LutCurve>(elu_remainder_curve(attrs.a, tables == Tables::Build));
                out->use = CurveUse::PlusRelu;
                break;
            case ActivationFunction::HardSwish:
            case ActivationFunction::LeakyReLu:
            case ActivationFunction::Square:
            case ActivationFunction::Abs: break;
            case ActivationFunction::Linear: {
                // (x + b / a) * a: the multiplier a as an fp16 register within 1e-3, b / a an fp32 one.
                if (attrs.a == 0.0f)
                    return Refusal::because(
                        "fp16 Linear with slope 0 (0 * x is NaN for an infinite x; the BS stage cannot give it)");
                uint16_t bits = 0;
                const float add = attrs.b / attrs.a;
                if (!fp16_multiplier(attrs.a, &bits) || !std::isfinite(add))
                    return Refusal::because("fp16 Linear slope " + std::to_string(attrs.a) + ", offset " +
                                            std::to_string(attrs.b) +
                                            " is not an fp16 multiplier within 1e-3 and a finite fp32 offset / slope");
                out->alpha = attrs.a;
                out->linear_add = add;
                break;
            }
            case ActivationFunction::Sqrt:
                return Refusal::because("fp16 Sqrt has no NPU lowering: it neither saturates nor grows like x, so no "
                                        "bounded fp16 lookup table spans it");
            default: return Refusal::because(std::string("fp16 ") + to_string(f) + " " + kNoFp16Lowering);
        }
        if (out->curve != nullptr) {
            const float in = out->curve->index_scale * index_factor, o = out->curve->entry_scale * entry_factor;
            if (!fp16_multiplier(in, &out->in_mul) || !fp16_multiplier(o, &out->out_mul)) {
                return Refusal::because(std::string(to_string(f)) + " a " + std::to_string(attrs.a) + ", b " +
                                        std::to_string(attrs.b) + " do not scale the lookup table by fp16 multipliers within 1e-3");
            }
        }
    }
    if (d == NpuDomain::Fp16 && f == ActivationFunction::LeakyReLu) {
        // alpha is held as an fp16 multiplier: a value fp16 cannot hold within 1e-3 relative stays on the CPU.
        const float held = fp16_to_fp32(fp32_to_fp16(attrs.a));
        if (!(std::fabs(attrs.a) <= 65504.0f) || std::fabs(held - attrs.a) > 1e-3f * std::fabs(attrs.a))
            return Refusal::because("LeakyReLu alpha " + std::to_string(attrs.a) + " is not an fp16 value within 1e-3");
        out->alpha = attrs.a;
    }
    out->f = f;
    return map_geometry(g, node.inputs[0], node.outputs[0], d, &out->g);
}

// Pow by a constant exponent (seed 003; Arm NN's ElementwiseBinary Power) as an activation of its base: int8 every
// exponent the checker allows through the table, one entry per code; fp16 x^0 a map of ones (OnesOp), x^1 a copy,
// x^2 Square, x^3 Square then an in-place multiply by x.
Refusal prepare_power(const Graph& g, const Node& node, NpuDomain d, Tables tables, ActivationLayer* out) {
    float e = 0.0f;
    std::string why;
    if (!pow_exponent(g, node, &e, &why)) return Refusal::because(why);
    const TensorInfo &xi = g.info(node.inputs[0]), &yi = g.info(node.outputs[0]);
    if (d != NpuDomain::Fp16) {
        if (xi.quant.per_axis() || yi.quant.per_axis()) return Refusal::because("int8 Pow with per-axis quantization");
        if (tables == Tables::Build) out->int8_table = std::make_shared<const DpuLutProgram>(int8_power_table(e, xi, yi));
    } else if (e == 1.0f || e == 3.0f) {
        out->f = ActivationFunction::Square;  // x^3's first task; unused for x^1
        out->pow = static_cast<uint32_t>(e);
    } else if (e == 2.0f) {
        out->f = ActivationFunction::Square;
    } else if (e == 0.0f) {
        out->ones = true;  // x^0 = 1 for every x, NaN and infinities included (C's pow): written, not computed
    } else {
        return Refusal::because("fp16 Pow exponent " + std::string(e > 0 ? "0.5" : "-0.5") +
                                " has no NPU lowering: a square root neither saturates nor grows like x, so no bounded "
                                "fp16 lookup table spans it (int8 runs it through one)");
    }
    return map_geometry(g, node.inputs[0], node.outputs[0], d, &out->g);
}

// The activation over the whole map as one task (HardSwish and Square read the input twice: MRDMA and ERDMA);
// a curve's first task (into the lookup table).
DpuFlyingTask activation_task(const ActivationLayer& L, const OpAddresses& a) {
    const FeatureGeometry& g = L.g;
    DpuFlyingTask t;
    t.int8 = L.int8_table != nullptr;
    t.c = g.c, t.h = g.h, t.w = g.w;
    t.src = a.input, t.dst = a.output;
    t.src_plane = t.dst_plane = t.h * t.w;
    if (t.int8) {  // the table holds the output codes: no BS stage, identity output converter
        t.lut = L.int8_table.get();
        return t;
    }
    if (L.pow == 1) return t;  // x^1: the map copied
    if (L.f == ActivationFunction::LeakyReLu) {
        t.bs_mul_en = true, t.bs_prelu = true, t.bs_mul = fp32_to_fp16(L.alpha);
        return t;
    }
    if (L.curve != nullptr) {
        t.bs_mul_en = true, t.bs_mul = L.in_mul;
        t.lut = &L.curve->program;
        return t;
    }
    if (L.f == ActivationFunction::Linear) {
        t.bs_add_en = true, t.bs_add = fp32_bits(L.linear_add);
        t.bs_mul_en = true, t.bs_mul = fp32_to_fp16(L.alpha);
        return t;
    }
    if (L.f == ActivationFunction::Abs) {
        t.bs_mul_en = true, t.bs_mul = fp32_to_fp16(-1.0f);
        t.operand = DpuFlyingTask::Operand::PerPixel;
        t.ew_addr = a.input, t.ew_plane = t.h * t.w;
        t.ew_algo = 0;  // max
        return t;
    }
    if (L.f == ActivationFunction::Square) {
        t.operand = DpuFlyingTask::Operand::PerPixel;
        t.ew_addr = a.input, t.ew_plane = t.h * t.w;
        t.ew_mul = true;
        return t;
    }
    t.bs_add_en = true, t.bs_add = fp32_bits(3.0f);
    t.bs_mul_en = true, t.bs_mul = fp32_to_fp16(1.0f / 6.0f);
    t.bs_relu = true, t.bs_relux = true, t.bs_relux_bits = fp32_bits(1.0f);
    t.operand = DpuFlyingTask::Operand::PerPixel;
    t.ew_addr = a.input, t.ew_plane = t.h * t.w;
    t.ew_mul = true;
    return t;
}

// A curve's second task: its entries to values in place (each element is read before it is written). For a
// CurveUse::TimesInput curve (Gelu; a SiLU, y = x * sigmoid(x), a Mul with its Sigmoid gate folded in) it also
// multiplies by x, read per pixel (EW), so that the curve's map is never stored: for SiLU one task and two map
// transfers fewer than Sigmoid then Mul.
DpuFlyingTask entry_scale_task(const ActivationLayer& L, const OpAddresses& a) {
    const uint32_t plane = L.g.h * L.g.w;
    DpuFlyingTask t = flying_copy_task(false, L.g.c, plane, plane);
    t.h = L.g.h, t.w = L.g.w;
    t.src = t.dst = a.output;
    t.bs_mul_en = true, t.bs_mul = L.out_mul;
    if (L.use == CurveUse::TimesInput) {
        t.operand = DpuFlyingTask::Operand::PerPixel;
        t.ew_addr = a.input, t.ew_plane = plane;
        t.ew_mul = true;
    }
    return t;
}

// A CurveUse::PlusRelu curve's third task: relu(x) (BS ReLU on the input) plus the remainder the second task left
// in the output (EW add, per pixel), written over that remainder element by element.
DpuFlyingTask plus_relu_task(const ActivationLayer& L, const OpAddresses& a) {
    const uint32_t plane = L.g.h * L.g.w;
    DpuFlyingTask t = flying_copy_task(false, L.g.c, plane, plane);
    t.h = L.g.h, t.w = L.g.w;
    t.src = a.input, t.dst = a.output;
    t.bs_relu = true;
    t.operand = DpuFlyingTask::Operand::PerPixel;
    t.ew_addr = a.output, t.ew_plane = plane;
    t.ew_algo = 2;  // add
    return t;
}

// x^3's second task: the square the first left in the output times x (EW multiply, per pixel), in place.
DpuFlyingTask times_input_task(const ActivationLayer& L, const OpAddresses& a) {
    const uint32_t plane = L.g.h * L.g.w;
    DpuFlyingTask t = flying_copy_task(false, L.g.c, plane, plane);
    t.h = L.g.h, t.w = L.g.w;
    t.src = t.dst = a.output;
    t.operand = DpuFlyingTask::Operand::PerPixel;
    t.ew_addr = a.input, t.ew_plane = plane;
    t.ew_mul = true;
    return t;
}

class ActivationOp : public NpuOp {
public:
    // silu: the op is the Mul of x and its folded Sigmoid gate (prepare_silu); x is both input and operand.
    ActivationOp(TensorId in, TensorId out, const ActivationLayer& L, bool silu) : layer_(L) {
        input = in, output = out;
        if (silu) operand = in;
    }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        emit_dpu_flying_task(lanes[0], activation_task(layer_, a));
        if (layer_.curve != nullptr) emit_dpu_flying_task(lanes[0], entry_scale_task(layer_, a));
        if (layer_.curve != nullptr && layer_.use == CurveUse::PlusRelu) emit_dpu_flying_task(lanes[0], plus_relu_task(layer_, a));
        if (layer_.pow == 3) emit_dpu_flying_task(lanes[0], times_input_task(layer_, a));
        return layer_.tasks();
    }

private:
    ActivationLayer layer_;
};

// fp16 x^0: a map of 1.0 without reading x (a product x * 0 + 1 would give NaN for infinite or NaN x, where
// pow gives 1). One row of 1.0 in the op's constants (real channels only; padding channels stay 0) is copied
// into the output's first row, then rows are doubled as Expand does: rows [0, k) to [k, 2k), 1 + ceil(log2 H)
// DPU copies.
class OnesOp : public NpuOp {
public:
    OnesOp(TensorId in, TensorId out, const FeatureGeometry& g) : g_(g) { input = in, output = out; }
    uint64_t constant_bytes() const override { return uint64_t{g_.planes()} * g_.w * 16; }
    void write_constants(uint8_t* block) const override {
        const uint16_t one = fp32_to_fp16(1.0f);
        for (uint32_t p = 0; p < g_.planes(); ++p)
            for (uint32_t x = 0; x < g_.w; ++x)
                for (uint32_t e = 0; e < g_.c2() && p * g_.c2() + e < g_.c; ++e)
                    std::memcpy(block + (size_t{p} * g_.w + x) * 16 + e * 2, &one, 2);
    }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        DpuFlyingTask t = flying_copy_task(false, g_.c, g_.w, g_.h * g_.w);
        t.h = 1, t.w = g_.w;
        t.src = a.constants, t.dst = a.output;
        emit_dpu_flying_task(lanes[0], t);
        return 1 + emit_row_doublings(lanes[0], false, g_.c, g_.h, g_.w, 1, a.output);
    }

private:
    FeatureGeometry g_;
};

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    ActivationLayer L;
    Refusal r = f.activation != nullptr ? Refusal::because("fused activation") : prepare_activation(g, *f.node, d, Tables::Build, &L);
    if (!r.refused()) *out = std::make_unique<ActivationOp>(f.node->inputs[0], f.node->outputs[0], L, false);
    return r;
}

}  // namespace

Refusal prepare_silu(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    if (d != NpuDomain::Fp16) return Refusal::because("SiLU gate outside the fp16 domain");
    if (f.activation != nullptr) return Refusal::because("SiLU with a fused activation after it");
    ActivationLayer L;
    if (Refusal r = prepare_activation(g, *f.gate, d, Tables::Build, &L); r.refused()) return r;
    const TensorId x = f.gate->inputs[0], y = f.node->outputs[0];
    std::string why;
    FeatureGeometry gy;
    if (!feature_geometry(g.info(y), d, &gy, &why)) return Refusal::because(why);
    if (gy.c != L.g.c || gy.h != L.g.h || gy.w != L.g.w) return Refusal::because("SiLU output shape differs from its input");
    L.use = CurveUse::TimesInput;  // the Sigmoid's second task multiplies by x
    *out = std::make_unique<ActivationOp>(x, y, L, true);
    return {};
}

Refusal check_power(const Graph& g, const Node& node, NpuDomain d) {
    ActivationLayer L;
    return prepare_power(g, node, d, Tables::CheckOnly, &L);
}

Refusal prepare_power_op(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    if (f.activation != nullptr) return Refusal::because("Pow with a fused activation after it");
    ActivationLayer L;
    if (Refusal r = prepare_power(g, *f.node, d, Tables::Build, &L); r.refused()) return r;
    if (L.ones)
        *out = std::make_unique<OnesOp>(f.node->inputs[0], f.node->outputs[0], L.g);
    else
        *out = std::make_unique<ActivationOp>(f.node->inputs[0], f.node->outputs[0], L, false);
    return {};
}

const NpuOpUnit kActivation{OpKind::Activation,
                            [](const Graph& g, const Node& node, NpuDomain d) {
                                ActivationLayer L;
                                return prepare_activation(g, node, d, Tables::CheckOnly, &L);
                            },
                            prepare};

}  // namespace npurun::npu::ops

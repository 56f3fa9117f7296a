// The standalone activation unit: fp16 activations the DPU computes without a lookup table, each one DPU
// flying task over the whole map:
//   HardSwish: hard_sigmoid(x) = min(max((x + 3) * 1/6, 0), 1)   BS stage: ALU add 3.0 (fp32 register), MUL 1/6
//                                                                (fp16 register), ReLU, ReLU-X 1.0
//              y = x * hard_sigmoid(x)                           EW stage: multiply by the operand, ERDMA reading
//                                                                the same input map per pixel
//   LeakyReLu: y = x < 0 ? alpha * x : x                         BS stage: MUL alpha (fp16 register) with
//                                                                BS_MUL_PRELU (negative values only, ref. §4.6)
//   Square:    y = x * x (Pow with exponent 2, seed 003)         EW stage: multiply by the same map (ERDMA)
// The only rounding beyond the CPU's is a multiplier held as fp16 (1/6: relative 2.4e-4; alpha: relative
// <= 4.9e-4) and the fp16 output. int8 and the curve activations (Sigmoid, TanH, Elu, SoftReLu, Sqrt, ...)
// are refused with their reason: they need the DPU lookup table, whose index math the register reference
// marks unknown (§12), so it is neither emitted nor simulated. No constants.
#include "core/fp16.h"
#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/units.h"
#include "runtime/passes/npu_limits.h"

#include <cmath>
#include <cstring>

namespace npurun::npu::ops {

namespace {

uint32_t fp32_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

struct ActivationLayer {
    ActivationFunction f = ActivationFunction::HardSwish;
    float alpha = 0.0f;
    FeatureGeometry g;
};

Refusal prepare_activation(const Graph& g, const Node& node, NpuDomain d, ActivationLayer* out) {
    if (node.inputs.size() != 1 || node.outputs.size() != 1) return Refusal::because("not a one-input activation");
    const auto f = node.attr<ActivationAttrs>().function;
    const auto& attrs = node.attr<ActivationAttrs>();
    if (f != ActivationFunction::HardSwish && f != ActivationFunction::LeakyReLu && f != ActivationFunction::Square) {
        return Refusal::because(std::string("activation ") + to_string(f) +
                                " needs the DPU lookup table (index math unknown, reference §12: not programmed)");
    }
    if (d != NpuDomain::Fp16) {
        return Refusal::because(std::string("int8 ") + to_string(f) +
                                " needs the DPU lookup table or requantization (not programmed; fp16 only)");
    }
    if (f == ActivationFunction::LeakyReLu) {
        // alpha is held as an fp16 multiplier: a value fp16 cannot hold within 1e-3 relative stays on the CPU.
        const float held = fp16_to_fp32(fp32_to_fp16(attrs.a));
        if (!(std::fabs(attrs.a) <= 65504.0f) || std::fabs(held - attrs.a) > 1e-3f * std::fabs(attrs.a))
            return Refusal::because("LeakyReLu alpha " + std::to_string(attrs.a) + " is not an fp16 value within 1e-3");
        out->alpha = attrs.a;
    }
    out->f = f;
    std::string why;
    FeatureGeometry gi, go;
    if (!feature_geometry(g.info(node.inputs[0]), d, &gi, &why) || !feature_geometry(g.info(node.outputs[0]), d, &go, &why))
        return Refusal::because(why);
    if (gi.c != go.c || gi.h != go.h || gi.w != go.w) return Refusal::because("input and output shapes differ");
    if (gi.c > npu_limits::kCubeMaxDim || gi.h > npu_limits::kCubeMaxDim || gi.w > npu_limits::kCubeMaxDim)
        return Refusal::because("cube above " + std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    out->g = gi;
    return {};
}

// The activation over the whole map as one task (HardSwish and Square read the input twice: MRDMA and ERDMA).
DpuFlyingTask activation_task(const ActivationLayer& L, const OpAddresses& a) {
    const FeatureGeometry& g = L.g;
    DpuFlyingTask t;
    t.int8 = false;
    t.c = g.c, t.h = g.h, t.w = g.w;
    t.src = a.input, t.dst = a.output;
    t.src_plane = t.dst_plane = t.h * t.w;
    if (L.f == ActivationFunction::LeakyReLu) {
        t.bs_mul_en = true, t.bs_prelu = true, t.bs_mul = fp32_to_fp16(L.alpha);
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

class ActivationOp : public NpuOp {
public:
    ActivationOp(TensorId in, TensorId out, const ActivationLayer& L) : layer_(L) { input = in, output = out; }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        emit_dpu_flying_task(lanes[0], activation_task(layer_, a));
        return 1;
    }

private:
    ActivationLayer layer_;
};

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    ActivationLayer L;
    Refusal r = f.activation != nullptr ? Refusal::because("fused activation") : prepare_activation(g, *f.node, d, &L);
    if (!r.refused()) *out = std::make_unique<ActivationOp>(f.node->inputs[0], f.node->outputs[0], L);
    return r;
}

}  // namespace

const NpuOpUnit kActivation{OpKind::Activation,
                            [](const Graph& g, const Node& node, NpuDomain d) {
                                ActivationLayer L;
                                return prepare_activation(g, node, d, &L);
                            },
                            prepare};

}  // namespace npurun::npu::ops

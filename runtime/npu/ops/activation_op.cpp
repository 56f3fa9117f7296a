// The standalone activation unit: HardSwish in fp16 as one DPU flying task, without a lookup table:
//   hard_sigmoid(x) = min(max((x + 3) * 1/6, 0), 1)    BS stage: ALU add 3.0 (fp32 register), MUL 1/6 (fp16
//                                                       register), ReLU, ReLU-X 1.0
//   y = x * hard_sigmoid(x)                             EW stage: multiply by the operand, ERDMA reading the
//                                                       same input map per pixel
// The only rounding beyond the CPU's is 1/6 held as fp16 (relative 2.4e-4 of the sigmoid term) and the fp16
// output. ReLU / ReLU-X standalone, int8 HardSwish and the curve activations (Sigmoid, TanH, Elu, ...) are
// refused with their reason: they need the DPU lookup table, which is not programmed yet. No constants.
#include "core/fp16.h"
#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/units.h"
#include "runtime/passes/npu_limits.h"

#include <cstring>

namespace npurun::npu::ops {

namespace {

uint32_t fp32_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

struct HardSwishLayer {
    FeatureGeometry g;
};

Refusal prepare_hard_swish(const Graph& g, const Node& node, NpuDomain d, HardSwishLayer* out) {
    if (node.inputs.size() != 1 || node.outputs.size() != 1) return Refusal::because("not a one-input activation");
    const auto f = node.attr<ActivationAttrs>().function;
    if (f != ActivationFunction::HardSwish) {
        return Refusal::because(std::string("activation ") + to_string(f) + " needs the DPU lookup table (not programmed yet)");
    }
    if (d != NpuDomain::Fp16) return Refusal::because("int8 HardSwish needs the DPU lookup table (not programmed yet; fp16 only)");
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

// y = x * hard_sigmoid(x) over the whole map: one task, the input read twice (MRDMA and ERDMA).
DpuFlyingTask hard_swish_task(const FeatureGeometry& g, const OpAddresses& a) {
    DpuFlyingTask t;
    t.int8 = false;
    t.c = g.c, t.h = g.h, t.w = g.w;
    t.src = a.input, t.dst = a.output;
    t.src_plane = t.dst_plane = t.h * t.w;
    t.bs_add_en = true, t.bs_add = fp32_bits(3.0f);
    t.bs_mul_en = true, t.bs_mul = fp32_to_fp16(1.0f / 6.0f);
    t.bs_relu = true, t.bs_relux = true, t.bs_relux_bits = fp32_bits(1.0f);
    t.operand = DpuFlyingTask::Operand::PerPixel;
    t.ew_addr = a.input, t.ew_plane = t.h * t.w;
    t.ew_mul = true;
    return t;
}

class HardSwishOp : public NpuOp {
public:
    HardSwishOp(TensorId in, TensorId out, const HardSwishLayer& L) : layer_(L) { input = in, output = out; }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        emit_dpu_flying_task(lanes[0], hard_swish_task(layer_.g, a));
        return 1;
    }

private:
    HardSwishLayer layer_;
};

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    HardSwishLayer L;
    Refusal r = f.activation != nullptr ? Refusal::because("fused activation") : prepare_hard_swish(g, *f.node, d, &L);
    if (!r.refused()) *out = std::make_unique<HardSwishOp>(f.node->inputs[0], f.node->outputs[0], L);
    return r;
}

}  // namespace

const NpuOpUnit kActivation{OpKind::Activation,
                            [](const Graph& g, const Node& node, NpuDomain d) {
                                HardSwishLayer L;
                                return prepare_hard_swish(g, node, d, &L);
                            },
                            prepare};

}  // namespace npurun::npu::ops

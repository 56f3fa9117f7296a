// The Pad unit: Pad along H and W (pad_layer.h). A constant border is written into the output region once
// at load; the tasks copy the interior (and, for reflect, the mirrored pixels and rows). No constants.
#include "runtime/npu/ops/units.h"
#include "runtime/npu/pad_layer.h"

namespace npurun::npu::ops {

namespace {

class PadOp : public NpuOp {
public:
    PadOp(const Node& node, const PadLayer& L) : layer_(L) {
        input = node.inputs[0];
        output = node.outputs[0];
    }
    bool output_written_at_load() const override { return true; }
    void write_output_at_load(uint8_t* output_region) const override {
        if (!layer_.reflect) write_pad_border(layer_, output_region);
    }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        return emit_pad_tasks(lanes[0], layer_, a.input, a.output);
    }

private:
    PadLayer layer_;
};

Refusal check(const Graph& g, const Node& node, NpuDomain d) {
    PadLayer L;
    return prepare_pad_layer(g, node, d, &L);
}

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    if (f.activation != nullptr) return Refusal::because("fused activation");
    PadLayer L;
    if (Refusal r = prepare_pad_layer(g, *f.node, d, &L); r.refused()) return r;
    *out = std::make_unique<PadOp>(*f.node, L);
    return {};
}

}  // namespace

const NpuOpUnit kPad{OpKind::Pad, check, prepare};

}  // namespace npurun::npu::ops

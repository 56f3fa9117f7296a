// The element-wise unit: Add/Sub/Mul/Max/Min (int8, fp16), Div (fp16), Pow by a constant (as an activation of its
// base: activation_op.cpp), with a fused ReLU / ReLU-X and
// broadcast or constant operands, as DPU flying tasks (eltwise_layer.h). Constants: a constant EW operand, or the
// weights of a run-time operand's channel expansion (channel_expansion.h), whose map is the op's scratch region.
#include <cstring>

#include "runtime/npu/eltwise_layer.h"
#include "runtime/npu/ops/units.h"

namespace npurun::npu::ops {

namespace {

class EltwiseOp : public NpuOp {
public:
    EltwiseOp(const Node& node, const Node* act, EltwiseLayer L) : layer_(std::move(L)) {
        input = node.inputs[layer_.main_input];
        if (layer_.operand_constant.empty()) operand = node.inputs[layer_.operand_input()];
        output = act ? act->outputs[0] : node.outputs[0];
    }
    // Constants: a constant operand, or the channel expansion's weights (the operand is then a run-time map).
    uint64_t macs() const override { return layer_.expand_operand ? layer_.expand_operand->macs() : 0; }
    uint64_t constant_bytes() const override {
        return layer_.expand_operand ? layer_.expand_operand->constant_bytes() : layer_.operand_constant.size();
    }
    void write_constants(uint8_t* block) const override {
        if (layer_.expand_operand)
            layer_.expand_operand->write_constants(block);
        else if (!layer_.operand_constant.empty())
            std::memcpy(block, layer_.operand_constant.data(), layer_.operand_constant.size());
    }
    uint64_t scratch_bytes() const override {
        return layer_.expand_operand ? layer_.expand_operand->scratch_bytes() : 0;
    }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        if (layer_.expand_operand) {
            const uint32_t n = layer_.expand_operand->emit(lanes[0], a.operand, a.scratch, a.constants);
            return n + emit_eltwise_tasks(lanes[0], layer_, a.input, a.scratch, a.output);
        }
        const uint32_t op = operand != kNoTensor ? a.operand : a.constants;
        return emit_eltwise_tasks(lanes[0], layer_, a.input, op, a.output);
    }

private:
    EltwiseLayer layer_;
};

bool is_power(const Node& node) { return node.attr<ElementwiseBinaryAttrs>().op == BinaryOp::Power; }

Refusal check(const Graph& g, const Node& node, NpuDomain d) {
    if (is_power(node)) return check_power(g, node, d);  // activation_op.cpp
    EltwiseLayer L;
    return prepare_eltwise_layer(g, node, nullptr, d, EltwiseConstants::CheckOnly, &L);
}

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    if (f.gate != nullptr) return prepare_silu(g, f, d, out);  // x * sigmoid(x): activation_op.cpp
    if (is_power(*f.node)) return prepare_power_op(g, f, d, out);
    EltwiseLayer L;
    if (Refusal r = prepare_eltwise_layer(g, *f.node, f.activation, d, EltwiseConstants::Pack, &L); r.refused()) return r;
    *out = std::make_unique<EltwiseOp>(*f.node, f.activation, std::move(L));
    return {};
}

}  // namespace

const NpuOpUnit kElementwise{OpKind::ElementwiseBinary, check, prepare};

}  // namespace npurun::npu::ops

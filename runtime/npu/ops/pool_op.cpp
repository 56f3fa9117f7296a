// The pooling unit: Pooling2d max / average (global too) as one PPU flying task (pool_layer.h). No constants.
#include "runtime/npu/ops/units.h"
#include "runtime/npu/pool_layer.h"

namespace npurun::npu::ops {

namespace {

class PoolOp : public NpuOp {
public:
    PoolOp(const Node& node, const PoolLayer& L) : layer_(L) {
        input = node.inputs[0];
        output = node.outputs[0];
    }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        emit_pool_task(lanes[0], layer_, a.input, a.output);
        return 1;
    }

private:
    PoolLayer layer_;
};

Refusal check(const Graph& g, const Node& node, NpuDomain d) {
    PoolLayer L;
    return prepare_pool_layer(g, node, d, &L);
}

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    if (f.activation != nullptr) return Refusal::because("fused activation");
    PoolLayer L;
    if (Refusal r = prepare_pool_layer(g, *f.node, d, &L); r.refused()) return r;
    *out = std::make_unique<PoolOp>(*f.node, L);
    return {};
}

}  // namespace

const NpuOpUnit kPooling{OpKind::Pooling2d, check, prepare};

}  // namespace npurun::npu::ops

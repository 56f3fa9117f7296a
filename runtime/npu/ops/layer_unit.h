// The op, check and prepare of a unit whose lowering is one prepared layer description (PadLayer, PoolLayer,
// GatherLayer) and which takes no fused activation. LayerOp holds the layer and the node's one input and
// output feature maps. `check` prepares the layer and drops it: preparing
// computes geometry and limits only, no constants, so placement's question stays cheap. `prepare` keeps
// the layer in the unit's op, constructed as Op(node, layer).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "runtime/npu/npu_op.h"

namespace npurun::npu::ops {

template <class Layer> class LayerOp : public NpuOp {
public:
    LayerOp(const Node& node, Layer L) : layer_(std::move(L)) {
        input = node.inputs[0];
        output = node.outputs[0];
    }

protected:
    Layer layer_;
};

template <class Layer>
using EmitLayer = uint32_t (*)(npudrv::regcmd::RegcmdWriter& w, const Layer& L, uint32_t input, uint32_t output);

// A LayerOp whose tasks all go to the first lane, emitted by Emit from the input region to the output region.
template <class Layer, EmitLayer<Layer> Emit> class OneLaneLayerOp : public LayerOp<Layer> {
public:
    using LayerOp<Layer>::LayerOp;
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        return Emit(lanes[0], this->layer_, a.input, a.output);
    }
};

template <class Layer> using PrepareLayer = Refusal (*)(const Graph& g, const Node& node, NpuDomain d, Layer* out);

template <class Layer, PrepareLayer<Layer> Prepare> Refusal check_layer(const Graph& g, const Node& node, NpuDomain d) {
    Layer L;
    return Prepare(g, node, d, &L);
}

template <class Op, class Layer, PrepareLayer<Layer> Prepare>
Refusal prepare_layer_op(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    if (f.activation != nullptr) return Refusal::because("fused activation");
    Layer L;
    if (Refusal r = Prepare(g, *f.node, d, &L); r.refused()) return r;
    *out = std::make_unique<Op>(*f.node, std::move(L));
    return {};
}

}  // namespace npurun::npu::ops

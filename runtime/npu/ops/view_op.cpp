// The view units: Reshape (equal C and H*W), channel Concat and channel Slice / Splitter as views of other
// layers' regions (buffer_alias.h): no task, no copy, no constants.
#include "runtime/npu/ops/units.h"

namespace npurun::npu::ops {

namespace {

class ViewOp : public NpuOp {
public:
    ViewOp(const Graph& g, const Node& node) : graph_(g), node_(node) {
        input = node.inputs[0];
        output = node.outputs[0];
    }
    bool is_view() const override { return true; }
    void add_views(AliasMap* aliases) const override { add_buffer_alias(graph_, node_, aliases); }
    std::vector<TensorId> view_tensors() const override {
        std::vector<TensorId> t = node_.inputs;
        t.insert(t.end(), node_.outputs.begin(), node_.outputs.end());  // a Splitter's outputs beyond `output`
        return t;
    }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>&, const OpAddresses&) const override { return 0; }

private:
    const Graph& graph_;
    const Node& node_;
};

Refusal check(const Graph& g, const Node& node, NpuDomain d) {
    return buffer_alias_refusal(g, node, d);
}

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain, std::unique_ptr<NpuOp>* out) {
    *out = std::make_unique<ViewOp>(g, *f.node);
    return {};
}

}  // namespace

const NpuOpUnit kReshape{OpKind::Reshape, check, prepare};
const NpuOpUnit kConcat{OpKind::Concat, check, prepare};
const NpuOpUnit kSlice{OpKind::Slice, check, prepare};
const NpuOpUnit kSplitter{OpKind::Splitter, check, prepare};

}  // namespace npurun::npu::ops

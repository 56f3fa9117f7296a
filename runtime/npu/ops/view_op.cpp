// The view units: Reshape (equal C and H*W), channel Concat and channel Slice / Splitter as views of other
// layers' regions (buffer_alias.h): no task, no copy, no constants. A Slice of rows / columns is a copy instead
// (slice_op.cpp).
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

// A Slice is a view when it cuts channels on the atom, else a copy of rows / columns (slice_op.cpp).
Refusal check_slice(const Graph& g, const Node& node, NpuDomain d) {
    const Refusal view = buffer_alias_refusal(g, node, d);
    if (!view.refused()) return {};
    const Refusal copy = check_slice_copy(g, node, d);
    if (!copy.refused()) return {};
    return Refusal::because("neither a view (" + view.reason() + ") nor a copy (" + copy.reason() + ")");
}

Refusal prepare_slice(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    if (!buffer_alias_refusal(g, *f.node, d).refused()) return prepare(g, f, d, out);
    return prepare_slice_copy_op(g, f, d, out);
}

}  // namespace

const NpuOpUnit kReshape{OpKind::Reshape, check, prepare};
const NpuOpUnit kConcat{OpKind::Concat, check, prepare};
const NpuOpUnit kSlice{OpKind::Slice, check_slice, prepare_slice};
const NpuOpUnit kSplitter{OpKind::Splitter, check, prepare};

}  // namespace npurun::npu::ops

// Layer mapping, Concat/Merger, Reshape, Resize(Bilinear), Splitter, Stack.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

// Merger is Concat's pre-19.08 name; both carry an OriginsDescriptor.
template <class LayerT> void concat(LayerContext& c, const LayerT* l) {
    expect_outputs(c.n, 1);
    if (c.n.inputs.empty()) bad("has no inputs");
    c.n.attrs = origins(l->descriptor(), c.n.inputs.size(), "inputs");
    for (size_t k = 0; k < c.n.inputs.size(); ++k)
        check_count(c.n.attr<ConcatAttrs>().view_origins[k].size(), input_rank(c.g, c.n, k), "view origin");
    c.n.op = OpKind::Concat;
}

void reshape(LayerContext& c, const fb::ReshapeDescriptor* d) {
    expect_io(c.n, 1, 1);
    const std::vector<uint32_t> target = uints(d->targetShape());
    if (target.size() > kMaxRank)
        bad("target shape rank " + std::to_string(target.size()) + " exceeds the maximum of " +
            std::to_string(kMaxRank));
    set_op(c.n, OpKind::Reshape, ReshapeAttrs{Shape::from(target)});
}

void resize_bilinear(LayerContext& c, const fb::ResizeBilinearDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::Resize,
           resize_attrs(d->targetHeight(), d->targetWidth(), ResizeMethod::Bilinear, d->dataLayout(), d->alignCorners(),
                        d->halfPixelCenters()));
}

void resize(LayerContext& c, const fb::ResizeDescriptor* d) {
    check_enum(d->method(), 1, "resize method");
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::Resize,
           resize_attrs(d->targetHeight(), d->targetWidth(), static_cast<ResizeMethod>(enum_value(d->method())),
                        d->dataLayout(), d->alignCorners(), d->halfPixelCenters()));
}

void splitter(LayerContext& c, const fb::ViewsDescriptor* d) {
    expect_inputs(c.n, 1);
    if (c.n.outputs.empty()) bad("has no outputs");
    const ConcatAttrs o = origins(d->origins(), c.n.outputs.size(), "outputs");
    check_count(o.view_origins.at(0).size(), input_rank(c.g, c.n, 0), "view origin");
    SplitterAttrs a;
    a.view_origins = o.view_origins;
    const auto* sizes = d->viewSizes();
    if (!sizes || sizes->size() != a.view_origins.size())
        bad("viewSizes has " + std::to_string(sizes ? sizes->size() : 0) + " entries for " +
            std::to_string(a.view_origins.size()) + " views");
    for (uint32_t i = 0; i < sizes->size(); ++i) {
        const auto* v = sizes->Get(i)->data();
        if (!v || v->size() != a.view_origins[i].size())
            bad("view " + std::to_string(i) + " size has " + std::to_string(v ? v->size() : 0) + " entries, expected " +
                std::to_string(a.view_origins[i].size()));
        a.view_sizes.push_back(uints(v));
    }
    set_op(c.n, OpKind::Splitter, a);
}

void stack(LayerContext& c, const fb::StackDescriptor* d) {
    expect_outputs(c.n, 1);
    StackAttrs a;
    a.axis = d->axis();
    a.num_inputs = d->numInputs();
    const std::vector<uint32_t> shape = uints(d->inputShape());
    if (shape.size() > kMaxRank) bad("stack input shape rank " + std::to_string(shape.size()) + " is too large");
    a.input_shape = Shape::from(shape);
    if (a.num_inputs == 0 || a.num_inputs != c.n.inputs.size())
        bad("numInputs is " + std::to_string(a.num_inputs) + " but the layer has " + std::to_string(c.n.inputs.size()) +
            " inputs");
    if (a.axis > a.input_shape.rank)
        bad("stack axis " + std::to_string(a.axis) + " is out of range for input rank " +
            std::to_string(a.input_shape.rank));
    set_op(c.n, OpKind::Stack, a);
}

}  // namespace

std::vector<LayerMapper> shape_layers() {
    return {layer_row<fb::ConcatLayer, concat<fb::ConcatLayer>>(),
            layer_row<fb::MergerLayer, concat<fb::MergerLayer>>(),
            descriptor_row<fb::ReshapeLayer, reshape>(),
            descriptor_row<fb::ResizeBilinearLayer, resize_bilinear>(),
            descriptor_row<fb::ResizeLayer, resize>(),
            descriptor_row<fb::SplitterLayer, splitter>(),
            descriptor_row<fb::StackLayer, stack>()};
}

}  // namespace npurun::armnn::mapping

// Layer mapping, Concat/Merger, Reshape, Resize(Bilinear), Splitter, Stack.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_shape_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::ConcatLayer:
        case L::MergerLayer: {
            // Merger is Concat's pre-19.08 name; both carry an OriginsDescriptor.
            const fb::OriginsDescriptor* od = layer->layer_type() == L::ConcatLayer
                                                  ? static_cast<const fb::ConcatLayer*>(t)->descriptor()
                                                  : static_cast<const fb::MergerLayer*>(t)->descriptor();
            expect_outputs(n, 1);
            if (n.inputs.empty()) bad("has no inputs");
            n.attrs = origins(od, n.inputs.size(), "inputs");
            for (size_t k = 0; k < n.inputs.size(); ++k)
                check_count(n.attr<ConcatAttrs>().view_origins[k].size(), input_rank(g, n, k), "view origin");
            n.op = OpKind::Concat;
            return true;
        }
        case L::ReshapeLayer: {
            const auto* d = NPURUN_DESC(ReshapeDescriptor, static_cast<const fb::ReshapeLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            const std::vector<uint32_t> target = uints(d->targetShape());
            if (target.size() > kMaxRank)
                bad("target shape rank " + std::to_string(target.size()) + " exceeds the maximum of " + std::to_string(kMaxRank));
            n.op = OpKind::Reshape;
            n.attrs = ReshapeAttrs{Shape::from(target)};
            return true;
        }
        case L::ResizeBilinearLayer: {
            const auto* d = NPURUN_DESC(ResizeBilinearDescriptor, static_cast<const fb::ResizeBilinearLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Resize;
            n.attrs = resize_attrs(d->targetHeight(), d->targetWidth(), ResizeMethod::Bilinear, d->dataLayout(),
                                   d->alignCorners(), d->halfPixelCenters());
            return true;
        }
        case L::ResizeLayer: {
            const auto* d = NPURUN_DESC(ResizeDescriptor, static_cast<const fb::ResizeLayer*>(t)->descriptor());
            check_enum(d->method(), 1, "resize method");
            expect_io(n, 1, 1);
            n.op = OpKind::Resize;
            n.attrs = resize_attrs(d->targetHeight(), d->targetWidth(), static_cast<ResizeMethod>(enum_value(d->method())),
                                   d->dataLayout(), d->alignCorners(), d->halfPixelCenters());
            return true;
        }
        case L::SplitterLayer: {
            const auto* d = NPURUN_DESC(ViewsDescriptor, static_cast<const fb::SplitterLayer*>(t)->descriptor());
            expect_inputs(n, 1);
            if (n.outputs.empty()) bad("has no outputs");
            const ConcatAttrs o = origins(d->origins(), n.outputs.size(), "outputs");
            check_count(o.view_origins.at(0).size(), input_rank(g, n, 0), "view origin");
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
            n.op = OpKind::Splitter;
            n.attrs = a;
            return true;
        }
        case L::StackLayer: {
            const auto* d = NPURUN_DESC(StackDescriptor, static_cast<const fb::StackLayer*>(t)->descriptor());
            expect_outputs(n, 1);
            StackAttrs a;
            a.axis = d->axis();
            a.num_inputs = d->numInputs();
            const std::vector<uint32_t> shape = uints(d->inputShape());
            if (shape.size() > kMaxRank) bad("stack input shape rank " + std::to_string(shape.size()) + " is too large");
            a.input_shape = Shape::from(shape);
            if (a.num_inputs == 0 || a.num_inputs != n.inputs.size())
                bad("numInputs is " + std::to_string(a.num_inputs) + " but the layer has " + std::to_string(n.inputs.size()) + " inputs");
            if (a.axis > a.input_shape.rank)
                bad("stack axis " + std::to_string(a.axis) + " is out of range for input rank " + std::to_string(a.input_shape.rank));
            n.op = OpKind::Stack;
            n.attrs = a;
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

// Layer mapping, ArgMinMax, Mean, Reduce.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_reduce_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::ArgMinMaxLayer: {
            const auto* d = NPURUN_DESC(ArgMinMaxDescriptor, static_cast<const fb::ArgMinMaxLayer*>(t)->descriptor());
            check_enum(d->argMinMaxFunction(), 1, "ArgMinMax function");
            expect_io(n, 1, 1);
            n.op = OpKind::ArgMinMax;
            n.attrs = ArgMinMaxAttrs{d->argMinMaxFunction() == fb::ArgMinMaxFunction::Max, d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return true;
        }
        case L::MeanLayer: {
            const auto* d = NPURUN_DESC(MeanDescriptor, static_cast<const fb::MeanLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Mean;
            n.attrs = reduce_attrs(ReduceAttrs::Op::Mean, d->axis(), d->keepDims());
            check_axes(n.attr<ReduceAttrs>().axes, input_rank(g, n, 0));
            return true;
        }
        case L::ReduceLayer: {
            const auto* d = NPURUN_DESC(ReduceDescriptor, static_cast<const fb::ReduceLayer*>(t)->descriptor());
            check_enum(d->reduceOperation(), 4, "reduce operation");
            expect_io(n, 1, 1);
            n.op = OpKind::Reduce;
            n.attrs = reduce_attrs(static_cast<ReduceAttrs::Op>(enum_value(d->reduceOperation())), d->axis(), d->keepDims());
            check_axes(n.attr<ReduceAttrs>().axes, input_rank(g, n, 0));
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

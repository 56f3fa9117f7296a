// Layer mapping, BatchNormalization, InstanceNormalization, L2Normalization, LogSoftmax, Softmax, Normalization.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_normalization_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::BatchNormalizationLayer: {
            const auto* l = static_cast<const fb::BatchNormalizationLayer*>(t);
            const auto* d = NPURUN_DESC(BatchNormalizationDescriptor, l->descriptor());
            expect_io(n, 1, 1);
            BatchNormalizationAttrs a;
            a.eps = d->eps();
            a.layout = layout_2d(d->dataLayout());
            n.inputs.push_back(add_constant(g, l->mean(), n, "mean"));
            n.inputs.push_back(add_constant(g, l->variance(), n, "variance"));
            n.inputs.push_back(add_constant(g, l->beta(), n, "beta"));
            n.inputs.push_back(add_constant(g, l->gamma(), n, "gamma"));
            n.op = OpKind::BatchNormalization;
            n.attrs = a;
            return true;
        }
        case L::InstanceNormalizationLayer: {
            const auto* d = NPURUN_DESC(InstanceNormalizationDescriptor, static_cast<const fb::InstanceNormalizationLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::InstanceNormalization;
            n.attrs = InstanceNormalizationAttrs{d->gamma(), d->beta(), d->eps(), layout_2d(d->dataLayout())};
            return true;
        }
        case L::L2NormalizationLayer: {
            const auto* d = NPURUN_DESC(L2NormalizationDescriptor, static_cast<const fb::L2NormalizationLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::L2Normalization;
            n.attrs = L2NormalizationAttrs{layout_2d(d->dataLayout()), d->eps()};
            return true;
        }
        case L::LogSoftmaxLayer: {
            const auto* d = NPURUN_DESC(LogSoftmaxDescriptor, static_cast<const fb::LogSoftmaxLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::LogSoftmax;
            n.attrs = SoftmaxAttrs{d->beta(), d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return true;
        }
        case L::SoftmaxLayer: {
            // beta has no default in the schema: an absent beta is 0, exactly as Arm NN reads it.
            const auto* d = NPURUN_DESC(SoftmaxDescriptor, static_cast<const fb::SoftmaxLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Softmax;
            n.attrs = SoftmaxAttrs{d->beta(), d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return true;
        }
        case L::NormalizationLayer: {
            const auto* d = NPURUN_DESC(NormalizationDescriptor, static_cast<const fb::NormalizationLayer*>(t)->descriptor());
            check_enum(d->normChannelType(), 1, "normalization channel type");
            check_enum(d->normMethodType(), 1, "normalization method");
            expect_io(n, 1, 1);
            NormalizationAttrs a;
            a.channel = static_cast<NormChannel>(enum_value(d->normChannelType()));
            a.method = static_cast<NormMethod>(enum_value(d->normMethodType()));
            a.norm_size = d->normSize();
            a.alpha = d->alpha();
            a.beta = d->beta();
            a.k = d->k();
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::Normalization;
            n.attrs = a;
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

// Layer mapping, BatchNormalization, InstanceNormalization, L2Normalization, LogSoftmax, Softmax, Normalization.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

void batch_normalization(LayerContext& c, const fb::BatchNormalizationLayer* l) {
    const auto* d = descriptor_of(l);
    expect_io(c.n, 1, 1);
    BatchNormalizationAttrs a;
    a.eps = d->eps();
    a.layout = layout_2d(d->dataLayout());
    // The statistics are embedded constants, appended in the IR's operand order.
    const std::pair<const fb::ConstTensor*, const char*> statistics[] = {
        {l->mean(), "mean"}, {l->variance(), "variance"}, {l->beta(), "beta"}, {l->gamma(), "gamma"}};
    for (const auto& [tensor, what] : statistics) c.n.inputs.push_back(add_constant(c.g, tensor, c.n, what));
    set_op(c.n, OpKind::BatchNormalization, a);
}

void instance_normalization(LayerContext& c, const fb::InstanceNormalizationDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::InstanceNormalization,
           InstanceNormalizationAttrs{d->gamma(), d->beta(), d->eps(), layout_2d(d->dataLayout())});
}

void l2_normalization(LayerContext& c, const fb::L2NormalizationDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::L2Normalization, L2NormalizationAttrs{layout_2d(d->dataLayout()), d->eps()});
}

// Softmax and LogSoftmax: beta has no default in the schema, so an absent beta is 0, exactly as Arm NN
// reads it.
template <OpKind Op, class Desc> void softmax(LayerContext& c, const Desc* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, Op, SoftmaxAttrs{d->beta(), d->axis()});
    check_axis(d->axis(), input_rank(c.g, c.n, 0), "axis");
}

void normalization(LayerContext& c, const fb::NormalizationDescriptor* d) {
    check_enum(d->normChannelType(), 1, "normalization channel type");
    check_enum(d->normMethodType(), 1, "normalization method");
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::Normalization,
           NormalizationAttrs{static_cast<NormChannel>(enum_value(d->normChannelType())),
                              static_cast<NormMethod>(enum_value(d->normMethodType())), d->normSize(), d->alpha(),
                              d->beta(), d->k(), layout_2d(d->dataLayout())});
}

}  // namespace

std::vector<LayerMapper> normalization_layers() {
    return {layer_row<fb::BatchNormalizationLayer, batch_normalization>(),
            descriptor_row<fb::InstanceNormalizationLayer, instance_normalization>(),
            descriptor_row<fb::L2NormalizationLayer, l2_normalization>(),
            descriptor_row<fb::LogSoftmaxLayer, softmax<OpKind::LogSoftmax, fb::LogSoftmaxDescriptor>>(),
            descriptor_row<fb::SoftmaxLayer, softmax<OpKind::Softmax, fb::SoftmaxDescriptor>>(),
            descriptor_row<fb::NormalizationLayer, normalization>()};
}

}  // namespace npurun::armnn::mapping

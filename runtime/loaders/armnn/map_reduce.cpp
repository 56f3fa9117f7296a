// Layer mapping, ArgMinMax, Mean, Reduce.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

void arg_min_max(LayerContext& c, const fb::ArgMinMaxDescriptor* d) {
    check_enum(d->argMinMaxFunction(), 1, "ArgMinMax function");
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::ArgMinMax, ArgMinMaxAttrs{d->argMinMaxFunction() == fb::ArgMinMaxFunction::Max, d->axis()});
    check_axis(d->axis(), input_rank(c.g, c.n, 0), "axis");
}

// Mean and Reduce end alike: the reduction, then the axes checked against the input rank.
void set_reduce(LayerContext& c, OpKind op, ReduceAttrs a) {
    set_op(c.n, op, std::move(a));
    check_axes(c.n.attr<ReduceAttrs>().axes, input_rank(c.g, c.n, 0));
}

void mean(LayerContext& c, const fb::MeanDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_reduce(c, OpKind::Mean, reduce_attrs(ReduceAttrs::Op::Mean, d->axis(), d->keepDims()));
}

void reduce(LayerContext& c, const fb::ReduceDescriptor* d) {
    check_enum(d->reduceOperation(), 4, "reduce operation");
    expect_io(c.n, 1, 1);
    set_reduce(c, OpKind::Reduce,
               reduce_attrs(static_cast<ReduceAttrs::Op>(enum_value(d->reduceOperation())), d->axis(), d->keepDims()));
}

}  // namespace

std::vector<LayerMapper> reduce_layers() {
    return {descriptor_row<fb::ArgMinMaxLayer, arg_min_max>(), descriptor_row<fb::MeanLayer, mean>(),
            descriptor_row<fb::ReduceLayer, reduce>()};
}

}  // namespace npurun::armnn::mapping

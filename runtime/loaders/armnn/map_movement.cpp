// Layer mapping, data movement: BatchToSpaceNd, SpaceToBatchNd, ChannelShuffle, DepthToSpace, SpaceToDepth, Gather(Nd), Pad, Permute, Transpose, Slice, StridedSlice.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

void batch_to_space(LayerContext& c, const fb::BatchToSpaceNdDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::BatchToSpaceNd,
           BatchToSpaceNdAttrs{uints(d->blockShape()), pairs(d->crops(), "crops"), layout_2d(d->dataLayout())});
}

void space_to_batch(LayerContext& c, const fb::SpaceToBatchNdDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::SpaceToBatchNd,
           SpaceToBatchNdAttrs{uints(d->blockShape()), pairs(d->padList(), "padList"), layout_2d(d->dataLayout())});
}

void channel_shuffle(LayerContext& c, const fb::ChannelShuffleDescriptor* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, OpKind::ChannelShuffle, ChannelShuffleAttrs{d->axis(), d->numGroups()});
    check_axis(d->axis(), input_rank(c.g, c.n, 0), "axis");
}

// DepthToSpace and SpaceToDepth: one descriptor shape and one IR attribute type.
template <OpKind Op, class Desc> void depth_space(LayerContext& c, const Desc* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, Op, DepthToSpaceAttrs{d->blockSize(), layout_2d(d->dataLayout())});
}

// 19.x files have no Gather descriptor: axis 0, the only axis Gather had then.
void gather(LayerContext& c, const fb::GatherDescriptor* d) {
    expect_io(c.n, 2, 1);
    set_op(c.n, OpKind::Gather, GatherAttrs{d->axis()});
    check_axis(d->axis(), input_rank(c.g, c.n, 0), "axis");
}

void pad(LayerContext& c, const fb::PadDescriptor* d) {
    check_enum(d->paddingMode(), 2, "padding mode");
    expect_io(c.n, 1, 1);
    PadAttrs a;
    a.pads = pairs(d->padList(), "padList");
    a.value = d->padValue();
    a.mode = static_cast<PaddingMode>(enum_value(d->paddingMode()));
    check_count(a.pads.size(), input_rank(c.g, c.n, 0), "padList");
    set_op(c.n, OpKind::Pad, a);
}

// Permute and Transpose: both a dimension mapping, one entry per input dimension.
template <OpKind Op, class Desc> void permute(LayerContext& c, const Desc* d) {
    expect_io(c.n, 1, 1);
    set_op(c.n, Op, PermuteAttrs{permutation(d->dimMappings())});
    check_count(c.n.attr<PermuteAttrs>().mapping.size(), input_rank(c.g, c.n, 0), "dimension mapping");
}

void slice(LayerContext& c, const fb::SliceDescriptor* d) {
    expect_io(c.n, 1, 1);
    SliceAttrs a{uints(d->begin()), uints(d->size())};
    if (a.begin.size() != a.size.size()) bad("slice begin and size have different lengths");
    check_count(a.begin.size(), input_rank(c.g, c.n, 0), "slice begin");
    set_op(c.n, OpKind::Slice, a);
}

void strided_slice(LayerContext& c, const fb::StridedSliceDescriptor* d) {
    expect_io(c.n, 1, 1);
    // The masks are plain reads; only the lengths and then the layout can be refused, in that order.
    StridedSliceAttrs a{ints(d->begin()), ints(d->end()),      ints(d->stride()), d->beginMask(),
                        d->endMask(),     d->shrinkAxisMask(), d->ellipsisMask(), d->newAxisMask()};
    if (a.begin.size() != a.end.size() || a.begin.size() != a.stride.size())
        bad("strided slice begin, end and stride have different lengths");
    a.layout = layout_2d(d->dataLayout());
    set_op(c.n, OpKind::StridedSlice, a);
}

}  // namespace

std::vector<LayerMapper> movement_layers() {
    // Fixed rows first, as in the other families.
    return {plain_row<fb::Layer::GatherNdLayer, OpKind::GatherNd, 2, 1>(),
            descriptor_row<fb::BatchToSpaceNdLayer, batch_to_space>(),
            descriptor_row<fb::SpaceToBatchNdLayer, space_to_batch>(),
            descriptor_row<fb::ChannelShuffleLayer, channel_shuffle>(),
            descriptor_row<fb::DepthToSpaceLayer, depth_space<OpKind::DepthToSpace, fb::DepthToSpaceDescriptor>>(),
            descriptor_row<fb::SpaceToDepthLayer, depth_space<OpKind::SpaceToDepth, fb::SpaceToDepthDescriptor>>(),
            descriptor_row<fb::GatherLayer, gather>(),
            descriptor_row<fb::PadLayer, pad>(),
            descriptor_row<fb::PermuteLayer, permute<OpKind::Permute, fb::PermuteDescriptor>>(),
            descriptor_row<fb::TransposeLayer, permute<OpKind::Transpose, fb::TransposeDescriptor>>(),
            descriptor_row<fb::SliceLayer, slice>(),
            descriptor_row<fb::StridedSliceLayer, strided_slice>()};
}

}  // namespace npurun::armnn::mapping

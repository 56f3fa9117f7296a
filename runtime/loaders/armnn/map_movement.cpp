// Layer mapping, data movement: BatchToSpaceNd, SpaceToBatchNd, ChannelShuffle, DepthToSpace, SpaceToDepth, Gather(Nd), Pad, Permute, Transpose, Slice, StridedSlice.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_movement_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::BatchToSpaceNdLayer: {
            const auto* d = NPURUN_DESC(BatchToSpaceNdDescriptor, static_cast<const fb::BatchToSpaceNdLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            BatchToSpaceNdAttrs a;
            a.block_shape = uints(d->blockShape());
            a.crops = pairs(d->crops(), "crops");
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::BatchToSpaceNd;
            n.attrs = a;
            return true;
        }
        case L::SpaceToBatchNdLayer: {
            const auto* d = NPURUN_DESC(SpaceToBatchNdDescriptor, static_cast<const fb::SpaceToBatchNdLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            SpaceToBatchNdAttrs a;
            a.block_shape = uints(d->blockShape());
            a.pads = pairs(d->padList(), "padList");
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::SpaceToBatchNd;
            n.attrs = a;
            return true;
        }
        case L::ChannelShuffleLayer: {
            const auto* d = NPURUN_DESC(ChannelShuffleDescriptor, static_cast<const fb::ChannelShuffleLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::ChannelShuffle;
            n.attrs = ChannelShuffleAttrs{d->axis(), d->numGroups()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return true;
        }
        case L::DepthToSpaceLayer: {
            const auto* d = NPURUN_DESC(DepthToSpaceDescriptor, static_cast<const fb::DepthToSpaceLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::DepthToSpace;
            n.attrs = DepthToSpaceAttrs{d->blockSize(), layout_2d(d->dataLayout())};
            return true;
        }
        case L::SpaceToDepthLayer: {
            const auto* d = NPURUN_DESC(SpaceToDepthDescriptor, static_cast<const fb::SpaceToDepthLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::SpaceToDepth;
            n.attrs = DepthToSpaceAttrs{d->blockSize(), layout_2d(d->dataLayout())};
            return true;
        }
        case L::GatherNdLayer: plain(n, OpKind::GatherNd, 2, 1); return true;
        case L::GatherLayer: {
            // 19.x files have no Gather descriptor: axis 0, the only axis Gather had then.
            const auto* d = NPURUN_DESC(GatherDescriptor, static_cast<const fb::GatherLayer*>(t)->descriptor());
            expect_io(n, 2, 1);
            n.op = OpKind::Gather;
            n.attrs = GatherAttrs{d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return true;
        }
        case L::PadLayer: {
            const auto* d = NPURUN_DESC(PadDescriptor, static_cast<const fb::PadLayer*>(t)->descriptor());
            check_enum(d->paddingMode(), 2, "padding mode");
            expect_io(n, 1, 1);
            PadAttrs a;
            a.pads = pairs(d->padList(), "padList");
            a.value = d->padValue();
            a.mode = static_cast<PaddingMode>(enum_value(d->paddingMode()));
            check_count(a.pads.size(), input_rank(g, n, 0), "padList");
            n.op = OpKind::Pad;
            n.attrs = a;
            return true;
        }
        case L::PermuteLayer: {
            const auto* d = NPURUN_DESC(PermuteDescriptor, static_cast<const fb::PermuteLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Permute;
            n.attrs = PermuteAttrs{permutation(d->dimMappings())};
            check_count(n.attr<PermuteAttrs>().mapping.size(), input_rank(g, n, 0), "dimension mapping");
            return true;
        }
        case L::TransposeLayer: {
            const auto* d = NPURUN_DESC(TransposeDescriptor, static_cast<const fb::TransposeLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Transpose;
            n.attrs = PermuteAttrs{permutation(d->dimMappings())};
            check_count(n.attr<PermuteAttrs>().mapping.size(), input_rank(g, n, 0), "dimension mapping");
            return true;
        }
        case L::SliceLayer: {
            const auto* d = NPURUN_DESC(SliceDescriptor, static_cast<const fb::SliceLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            SliceAttrs a{uints(d->begin()), uints(d->size())};
            if (a.begin.size() != a.size.size()) bad("slice begin and size have different lengths");
            check_count(a.begin.size(), input_rank(g, n, 0), "slice begin");
            n.op = OpKind::Slice;
            n.attrs = a;
            return true;
        }
        case L::StridedSliceLayer: {
            const auto* d = NPURUN_DESC(StridedSliceDescriptor, static_cast<const fb::StridedSliceLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            StridedSliceAttrs a;
            a.begin = ints(d->begin());
            a.end = ints(d->end());
            a.stride = ints(d->stride());
            if (a.begin.size() != a.end.size() || a.begin.size() != a.stride.size())
                bad("strided slice begin, end and stride have different lengths");
            a.begin_mask = d->beginMask();
            a.end_mask = d->endMask();
            a.shrink_axis_mask = d->shrinkAxisMask();
            a.ellipsis_mask = d->ellipsisMask();
            a.new_axis_mask = d->newAxisMask();
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::StridedSlice;
            n.attrs = a;
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

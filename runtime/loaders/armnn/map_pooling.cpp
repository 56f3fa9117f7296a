// Layer mapping, Pooling2d, Pooling3d.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_pooling_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::Pooling2dLayer: {
            const auto* d = NPURUN_DESC(Pooling2dDescriptor, static_cast<const fb::Pooling2dLayer*>(t)->descriptor());
            check_enum(d->poolType(), 2, "pooling algorithm");
            check_enum(d->outputShapeRounding(), 1, "output shape rounding");
            check_enum(d->paddingMethod(), 1, "padding method");
            expect_io(n, 1, 1);
            Pooling2dAttrs a;
            a.algorithm = static_cast<PoolingAlgorithm>(enum_value(d->poolType()));
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.pool_width = d->poolWidth();
            a.pool_height = d->poolHeight();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.rounding = static_cast<OutputShapeRounding>(enum_value(d->outputShapeRounding()));
            a.padding_method = static_cast<PaddingMethod>(enum_value(d->paddingMethod()));
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::Pooling2d;
            n.attrs = a;
            return true;
        }
        case L::Pooling3dLayer: {
            const auto* d = NPURUN_DESC(Pooling3dDescriptor, static_cast<const fb::Pooling3dLayer*>(t)->descriptor());
            check_enum(d->poolType(), 2, "pooling algorithm");
            check_enum(d->outputShapeRounding(), 1, "output shape rounding");
            check_enum(d->paddingMethod(), 1, "padding method");
            expect_io(n, 1, 1);
            Pooling3dAttrs a;
            a.algorithm = static_cast<PoolingAlgorithm>(enum_value(d->poolType()));
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.pad_front = d->padFront();
            a.pad_back = d->padBack();
            a.pool_width = d->poolWidth();
            a.pool_height = d->poolHeight();
            a.pool_depth = d->poolDepth();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.stride_z = d->strideZ();
            a.rounding = static_cast<OutputShapeRounding>(enum_value(d->outputShapeRounding()));
            a.padding_method = static_cast<PaddingMethod>(enum_value(d->paddingMethod()));
            // The schema gives Pooling3d's dataLayout no default, so an absent field reads NHWC (0): invalid.
            a.layout = layout_3d(d->dataLayout());
            n.op = OpKind::Pooling3d;
            n.attrs = a;
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

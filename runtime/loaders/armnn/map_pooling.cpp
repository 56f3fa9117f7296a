// Layer mapping, Pooling2d, Pooling3d.
#include "runtime/loaders/armnn/mapping_common.h"

#include <type_traits>

namespace npurun::armnn::mapping {
namespace {

// Pooling2d and Pooling3d share their enums and planar fields; Pooling3d adds the depth axis.
template <class Attrs, OpKind Op, class Desc> void pooling(LayerContext& c, const Desc* d) {
    check_enum(d->poolType(), 2, "pooling algorithm");
    check_enum(d->outputShapeRounding(), 1, "output shape rounding");
    check_enum(d->paddingMethod(), 1, "padding method");
    expect_io(c.n, 1, 1);
    Attrs a;
    a.algorithm = static_cast<PoolingAlgorithm>(enum_value(d->poolType()));
    copy_pads_strides(d, a);
    a.pool_width = d->poolWidth();
    a.pool_height = d->poolHeight();
    a.rounding = static_cast<OutputShapeRounding>(enum_value(d->outputShapeRounding()));
    a.padding_method = static_cast<PaddingMethod>(enum_value(d->paddingMethod()));
    if constexpr (std::is_same_v<Attrs, Pooling3dAttrs>) {
        copy_depth_pads_stride(d, a);
        a.pool_depth = d->poolDepth();
        // The schema gives Pooling3d's dataLayout no default, so an absent field reads NHWC (0): invalid.
        a.layout = layout_3d(d->dataLayout());
    } else {
        a.layout = layout_2d(d->dataLayout());
    }
    set_op(c.n, Op, a);
}

}  // namespace

std::vector<LayerMapper> pooling_layers() {
    return {descriptor_row<fb::Pooling2dLayer, pooling<Pooling2dAttrs, OpKind::Pooling2d, fb::Pooling2dDescriptor>>(),
            descriptor_row<fb::Pooling3dLayer, pooling<Pooling3dAttrs, OpKind::Pooling3d, fb::Pooling3dDescriptor>>()};
}

}  // namespace npurun::armnn::mapping

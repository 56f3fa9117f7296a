// Layer mapping, BatchMatMul, Convolution2d/3d, DepthwiseConvolution2d, FullyConnected, TransposeConvolution2d.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

void batch_mat_mul(LayerContext& c, const fb::BatchMatMulDescriptor* d) {
    expect_io(c.n, 2, 1);
    set_op(c.n, OpKind::BatchMatMul,
           BatchMatMulAttrs{d->transposeX(), d->transposeY(), d->adjointX(), d->adjointY(),
                            layout_any(d->dataLayoutX()), layout_any(d->dataLayoutY())});
}

// The layers whose weights and biases may be embedded in the layer table (see attach_weights): `attrs`
// MakeAttrs turns the descriptor into the IR attributes, which say whether there is a bias.
template <OpKind Op, bool Depthwise, auto MakeAttrs, class LayerT> void weighted(LayerContext& c, const LayerT* l) {
    const auto* d = descriptor_of(l);
    expect_outputs(c.n, 1);
    const auto a = MakeAttrs(d);
    attach_weights(c.g, c.fv, c.n, l->weights(), l->biases(), a.bias_enabled, Depthwise);
    set_op(c.n, Op, a);
}

FullyConnectedAttrs fully_connected_attrs(const fb::FullyConnectedDescriptor* d) {
    FullyConnectedAttrs a;
    a.bias_enabled = d->biasEnabled();
    a.transpose_weights = d->transposeWeightsMatrix();
    a.constant_weights = d->constantWeights();
    return a;
}

TransposeConvolution2dAttrs transpose_conv2d_attrs(const fb::TransposeConvolution2dDescriptor* d) {
    TransposeConvolution2dAttrs a;
    copy_pads_strides(d, a);
    a.bias_enabled = d->biasEnabled();
    a.layout = layout_2d(d->dataLayout());
    return a;
}

void convolution3d(LayerContext& c, const fb::Convolution3dDescriptor* d) {
    expect_outputs(c.n, 1);
    Convolution3dAttrs a;
    copy_pads_strides(d, a);
    copy_depth_pads_stride(d, a);
    a.dilation_x = d->dilationX();
    a.dilation_y = d->dilationY();
    a.dilation_z = d->dilationZ();
    a.bias_enabled = d->biasEnabled();
    a.layout = layout_3d(d->dataLayout());
    // Convolution3d has always taken its weights and bias on input slots.
    expect_inputs(c.n, a.bias_enabled ? 3 : 2);
    set_op(c.n, OpKind::Convolution3d, a);
}

}  // namespace

std::vector<LayerMapper> conv_layers() {
    using Conv = fb::Convolution2dLayer;
    using Depthwise = fb::DepthwiseConvolution2dLayer;
    using FullyConnected = fb::FullyConnectedLayer;
    using TransposeConv = fb::TransposeConvolution2dLayer;
    constexpr auto conv_attrs = conv2d_attrs<Convolution2dAttrs, fb::Convolution2dDescriptor>;
    constexpr auto depthwise_attrs = conv2d_attrs<DepthwiseConvolution2dAttrs, fb::DepthwiseConvolution2dDescriptor>;
    return {descriptor_row<fb::BatchMatMulLayer, batch_mat_mul>(),
            layer_row<Conv, weighted<OpKind::Convolution2d, false, conv_attrs, Conv>>(),
            layer_row<Depthwise, weighted<OpKind::DepthwiseConvolution2d, true, depthwise_attrs, Depthwise>>(),
            descriptor_row<fb::Convolution3dLayer, convolution3d>(),
            layer_row<FullyConnected, weighted<OpKind::FullyConnected, false, fully_connected_attrs, FullyConnected>>(),
            layer_row<TransposeConv,
                      weighted<OpKind::TransposeConvolution2d, false, transpose_conv2d_attrs, TransposeConv>>()};
}

}  // namespace npurun::armnn::mapping

// Layer mapping, BatchMatMul, Convolution2d/3d, DepthwiseConvolution2d, FullyConnected, TransposeConvolution2d.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_conv_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::BatchMatMulLayer: {
            const auto* d = NPURUN_DESC(BatchMatMulDescriptor, static_cast<const fb::BatchMatMulLayer*>(t)->descriptor());
            expect_io(n, 2, 1);
            BatchMatMulAttrs a;
            a.transpose_x = d->transposeX();
            a.transpose_y = d->transposeY();
            a.adjoint_x = d->adjointX();
            a.adjoint_y = d->adjointY();
            a.layout_x = layout_any(d->dataLayoutX());
            a.layout_y = layout_any(d->dataLayoutY());
            n.op = OpKind::BatchMatMul;
            n.attrs = a;
            return true;
        }
        case L::Convolution2dLayer: {
            const auto* l = static_cast<const fb::Convolution2dLayer*>(t);
            const auto* d = NPURUN_DESC(Convolution2dDescriptor, l->descriptor());
            expect_outputs(n, 1);
            Convolution2dAttrs a = conv2d_attrs(d);
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, false);
            n.op = OpKind::Convolution2d;
            n.attrs = a;
            return true;
        }
        case L::DepthwiseConvolution2dLayer: {
            const auto* l = static_cast<const fb::DepthwiseConvolution2dLayer*>(t);
            const auto* d = NPURUN_DESC(DepthwiseConvolution2dDescriptor, l->descriptor());
            expect_outputs(n, 1);
            const Convolution2dAttrs c = conv2d_attrs(d);
            DepthwiseConvolution2dAttrs a;
            a.pad_left = c.pad_left;
            a.pad_right = c.pad_right;
            a.pad_top = c.pad_top;
            a.pad_bottom = c.pad_bottom;
            a.stride_x = c.stride_x;
            a.stride_y = c.stride_y;
            a.dilation_x = c.dilation_x;
            a.dilation_y = c.dilation_y;
            a.bias_enabled = c.bias_enabled;
            a.layout = c.layout;
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, true);
            n.op = OpKind::DepthwiseConvolution2d;
            n.attrs = a;
            return true;
        }
        case L::Convolution3dLayer: {
            const auto* d = NPURUN_DESC(Convolution3dDescriptor, static_cast<const fb::Convolution3dLayer*>(t)->descriptor());
            expect_outputs(n, 1);
            Convolution3dAttrs a;
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.pad_front = d->padFront();
            a.pad_back = d->padBack();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.stride_z = d->strideZ();
            a.dilation_x = d->dilationX();
            a.dilation_y = d->dilationY();
            a.dilation_z = d->dilationZ();
            a.bias_enabled = d->biasEnabled();
            a.layout = layout_3d(d->dataLayout());
            // Convolution3d has always taken its weights and bias on input slots.
            expect_inputs(n, a.bias_enabled ? 3 : 2);
            n.op = OpKind::Convolution3d;
            n.attrs = a;
            return true;
        }
        case L::FullyConnectedLayer: {
            const auto* l = static_cast<const fb::FullyConnectedLayer*>(t);
            const auto* d = NPURUN_DESC(FullyConnectedDescriptor, l->descriptor());
            expect_outputs(n, 1);
            FullyConnectedAttrs a;
            a.bias_enabled = d->biasEnabled();
            a.transpose_weights = d->transposeWeightsMatrix();
            a.constant_weights = d->constantWeights();
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, false);
            n.op = OpKind::FullyConnected;
            n.attrs = a;
            return true;
        }
        case L::TransposeConvolution2dLayer: {
            const auto* l = static_cast<const fb::TransposeConvolution2dLayer*>(t);
            const auto* d = NPURUN_DESC(TransposeConvolution2dDescriptor, l->descriptor());
            expect_outputs(n, 1);
            TransposeConvolution2dAttrs a;
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.bias_enabled = d->biasEnabled();
            a.layout = layout_2d(d->dataLayout());
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, false);
            n.op = OpKind::TransposeConvolution2d;
            n.attrs = a;
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

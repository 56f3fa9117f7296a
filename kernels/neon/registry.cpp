#include "kernels/neon/registry.h"

#include "kernels/neon/kernel_list.h"

namespace npurun::kernels {

const Kernel* neon_kernel(OpKind op) {
    switch (op) {
        case OpKind::Activation: return &neon::kActivation;
        case OpKind::Convolution2d: return &neon::kConvolution2d;
        case OpKind::DepthwiseConvolution2d: return &neon::kDepthwiseConvolution2d;
        case OpKind::Dequantize: return &neon::kDequantize;
        case OpKind::ElementwiseBinary: return &neon::kElementwiseBinary;
        case OpKind::FullyConnected: return &neon::kFullyConnected;
        case OpKind::Permute: return &neon::kPermute;
        case OpKind::Pooling2d: return &neon::kPooling2d;
        case OpKind::Quantize: return &neon::kQuantize;
        case OpKind::Softmax: return &neon::kSoftmax;
        case OpKind::Transpose: return &neon::kTranspose;
        default: return nullptr;
    }
}

const Kernel* neon_fp16_arithmetic_kernel(OpKind op) {
    switch (op) {
        case OpKind::Convolution2d: return &neon::kConvolution2dFp16;
        case OpKind::FullyConnected: return &neon::kFullyConnectedFp16;
        case OpKind::DepthwiseConvolution2d: return &neon::kDepthwiseConvolution2dFp16;
        default: return nullptr;
    }
}

}  // namespace npurun::kernels

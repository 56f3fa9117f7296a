#include "kernels/neon/registry.h"

#include "kernels/neon/kernel_list.h"

namespace npurun::kernels {

const Kernel* neon_kernel(OpKind op) {
    switch (op) {
        case OpKind::Convolution2d: return &neon::kConvolution2d;
        default: return nullptr;
    }
}

}  // namespace npurun::kernels

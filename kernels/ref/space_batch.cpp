// BatchToSpaceNd, SpaceToBatchNd (TensorFlow's index rule, as CpuRef), DepthToSpace and SpaceToDepth
// (TensorFlow's DCR order: the channel block index is (by * block + bx) * C_out + c). Elements are moved,
// not computed; SpaceToBatchNd padding is the real value 0 (the zero point for quantized tensors).
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

template <class Attrs> uint32_t spatial_start(const Attrs& a) { return a.layout == DataLayout::NHWC ? 1 : 2; }

void run_batch_to_space(const KernelArgs& a) {
    const auto& at = a.node.attr<BatchToSpaceNdAttrs>();
    const MovedElements mv(a);
    const Strides& xs = mv.in_strides;
    const uint32_t s0 = spatial_start(at), m = uint32_t(at.block_shape.size());
    for_each_index(mv.out.shape, [&](const uint32_t* o, size_t flat) {
        size_t block = 0, src = 0;
        for (uint32_t i = 0; i < m; ++i) {
            const uint32_t p = o[s0 + i] + at.crops[i].first;
            block = block * at.block_shape[i] + p % at.block_shape[i];
            src += size_t(p / at.block_shape[i]) * xs[s0 + i];
        }
        src += (block * mv.out.shape[0] + o[0]) * xs[0];
        for (uint32_t d = 1; d < mv.in.shape.rank; ++d)
            if (d < s0 || d >= s0 + m) src += size_t(o[d]) * xs[d];
        mv.copy.copy(flat, src);
    });
}

void run_space_to_batch(const KernelArgs& a) {
    const auto& at = a.node.attr<SpaceToBatchNdAttrs>();
    const MovedElements mv(a);
    const Strides& xs = mv.in_strides;
    const Shape& xshape = mv.in.shape;
    const uint32_t s0 = spatial_start(at), m = uint32_t(at.block_shape.size());
    const uint32_t in_batch = xshape[0];
    for_each_index(mv.out.shape, [&](const uint32_t* o, size_t flat) {
        size_t block = o[0] / in_batch;
        size_t src = size_t(o[0] % in_batch) * xs[0];
        bool padding = false;
        for (uint32_t i = m; i-- > 0;) {  // block offsets in row-major order of the block dimensions
            const uint32_t off = uint32_t(block % at.block_shape[i]);
            block /= at.block_shape[i];
            const int64_t p = int64_t(o[s0 + i]) * at.block_shape[i] + off - at.pads[i].first;
            if (p < 0 || p >= int64_t(xshape[s0 + i])) padding = true;
            else src += size_t(p) * xs[s0 + i];
        }
        for (uint32_t d = 1; d < xshape.rank; ++d)
            if (d < s0 || d >= s0 + m) src += size_t(o[d]) * xs[d];
        if (padding) mv.copy.zero(flat);
        else mv.copy.copy(flat, src);
    });
}

// The DCR correspondence both block layers move elements along: f(space_index, depth_index) for every
// element (n, y, x, c) of the spatial tensor, whose place in the deep tensor is
// (n, y / b, x / b, ((y % b) * b + x % b) * C + c), C being the spatial tensor's channel count.
template <class F> void for_each_block_element(const ImageIndexer& space, const ImageIndexer& depth, uint32_t b, F&& f) {
    for (uint32_t n = 0; n < space.n; ++n)
        for (uint32_t y = 0; y < space.h; ++y)
            for (uint32_t x = 0; x < space.w; ++x)
                for (uint32_t c = 0; c < space.c; ++c)
                    f(space(n, c, y, x), depth(n, ((y % b) * b + x % b) * space.c + c, y / b, x / b));
}

void run_depth_to_space(const KernelArgs& a) {
    const auto& at = a.node.attr<DepthToSpaceAttrs>();
    const MovedElements m(a);
    for_each_block_element(ImageIndexer(m.out.shape, at.layout), ImageIndexer(m.in.shape, at.layout), at.block_size,
                           [&](size_t space, size_t depth) { m.copy.copy(space, depth); });
}

void run_space_to_depth(const KernelArgs& a) {
    const auto& at = a.node.attr<DepthToSpaceAttrs>();
    const MovedElements m(a);
    for_each_block_element(ImageIndexer(m.in.shape, at.layout), ImageIndexer(m.out.shape, at.layout), at.block_size,
                           [&](size_t space, size_t depth) { m.copy.copy(depth, space); });
}

}  // namespace

const Kernel kBatchToSpaceNd = {check_any, nullptr, run_batch_to_space};
const Kernel kSpaceToBatchNd = {check_any, nullptr, run_space_to_batch};
const Kernel kDepthToSpace = {check_any, nullptr, run_depth_to_space};
const Kernel kSpaceToDepth = {check_any, nullptr, run_space_to_depth};

}  // namespace npurun::kernels::ref

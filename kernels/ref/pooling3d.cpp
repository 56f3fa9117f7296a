// Pooling3d: Pooling2d's CpuRef rules (kernels/ref/pooling2d.cpp) extended to depth: the window starts at
// o*stride - padLow and ends at min(start + pool, in + padHigh); a window wholly in padding gives 0; only
// real elements are accumulated; the Average/L2 divisor is the window volume before clamping to the input
// (IgnoreValue) or the count of real elements (Exclude).
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

struct Window {
    int64_t start, end;
    bool padding_only;
};

Window window(uint32_t o, uint32_t stride, uint32_t pad_lo, uint32_t pad_hi, uint32_t pool, uint32_t size) {
    Window w;
    w.start = int64_t(o) * stride - pad_lo;
    w.end = std::min<int64_t>(w.start + pool, int64_t(size) + pad_hi);
    w.padding_only = w.end <= 0 || w.start > int64_t(size);
    return w;
}

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<Pooling3dAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    const bool ndhwc = at.layout == DataLayout::NDHWC;
    const uint32_t di = ndhwc ? 1 : 2, ci = ndhwc ? 4 : 1;
    const Strides xs(xi.shape), ys(yi.shape);
    const Reader x(xi, a.inputs[0]);
    const Writer y(yi, a.outputs[0]);
    // Global pooling (strides 0, a 1x1x1 output) uses the pool sizes as written, like Pooling2d.
    const uint32_t pd = at.pool_depth, ph = at.pool_height, pw = at.pool_width;
    for (uint32_t n = 0; n < yi.shape[0]; ++n)
        for (uint32_t c = 0; c < yi.shape[ci]; ++c)
            for (uint32_t oz = 0; oz < yi.shape[di]; ++oz)
                for (uint32_t oy = 0; oy < yi.shape[di + 1]; ++oy)
                    for (uint32_t ox = 0; ox < yi.shape[di + 2]; ++ox) {
                        Window wz = window(oz, at.stride_z, at.pad_front, at.pad_back, pd, xi.shape[di]);
                        Window wy = window(oy, at.stride_y, at.pad_top, at.pad_bottom, ph, xi.shape[di + 1]);
                        Window wx = window(ox, at.stride_x, at.pad_left, at.pad_right, pw, xi.shape[di + 2]);
                        const size_t o = n * ys[0] + c * ys[ci] + oz * ys[di] + oy * ys[di + 1] + ox * ys[di + 2];
                        if (wz.padding_only || wy.padding_only || wx.padding_only) {
                            y.set(o, 0.0f);
                            continue;
                        }
                        float volume = float((wz.end - wz.start) * (wy.end - wy.start) * (wx.end - wx.start));
                        auto clamp = [](Window& w, uint32_t size) {
                            w.start = std::max<int64_t>(w.start, 0);
                            w.end = std::min<int64_t>(w.end, size);
                        };
                        clamp(wz, xi.shape[di]);
                        clamp(wy, xi.shape[di + 1]);
                        clamp(wx, xi.shape[di + 2]);
                        if (at.padding_method == PaddingMethod::Exclude)
                            volume = float((wz.end - wz.start) * (wy.end - wy.start) * (wx.end - wx.start));
                        float acc = at.algorithm == PoolingAlgorithm::Max ? -FLT_MAX : 0.0f;
                        for (int64_t iz = wz.start; iz < wz.end; ++iz)
                            for (int64_t iy = wy.start; iy < wy.end; ++iy)
                                for (int64_t ix = wx.start; ix < wx.end; ++ix) {
                                    const float v = x[n * xs[0] + c * xs[ci] + size_t(iz) * xs[di] +
                                                      size_t(iy) * xs[di + 1] + size_t(ix) * xs[di + 2]];
                                    switch (at.algorithm) {
                                        case PoolingAlgorithm::Max: acc = std::max(acc, v); break;
                                        case PoolingAlgorithm::Average: acc += v; break;
                                        case PoolingAlgorithm::L2: acc += v * v; break;
                                    }
                                }
                        if (at.algorithm == PoolingAlgorithm::Average) acc /= volume;
                        if (at.algorithm == PoolingAlgorithm::L2) acc = std::sqrt(acc / volume);
                        y.set(o, acc);
                    }
}

}  // namespace

const Kernel kPooling3d = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

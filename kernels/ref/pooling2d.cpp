// Pooling2d, exactly CpuRef's Pooling2d.cpp (reference/armnn-format.md §2): per output the window starts at
// o*stride - padLow and ends at min(start + pool, in + padHigh); a window wholly in padding gives 0;
// otherwise only real elements are accumulated. The Average/L2 divisor is the window size before clamping
// to the input (IgnoreValue) or the count of real elements (Exclude). Computed in float.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

// True when [start, end) holds no real element of [0, size).
bool on_padding_only(int64_t start, int64_t end, int64_t size) { return end <= 0 || start > size; }

// Clamps [start, end) to [0, size); true when anything was cut.
bool clamp_range(int64_t& start, int64_t& end, int64_t size) {
    if (start < 0 || end > size) {
        start = std::min(std::max<int64_t>(start, 0), size);
        end = std::min(std::max<int64_t>(end, 0), size);
        return true;
    }
    return false;
}

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<Pooling2dAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    const ImageIndexer in(xi.shape, at.layout), out(yi.shape, at.layout);
    const Reader x(xi, a.inputs[0]);
    const Writer y(yi, a.outputs[0]);
    const int64_t H = in.h, W = in.w;

    for (uint32_t n = 0; n < out.n; ++n)
        for (uint32_t c = 0; c < out.c; ++c)
            for (uint32_t oy = 0; oy < out.h; ++oy)
                for (uint32_t ox = 0; ox < out.w; ++ox) {
                    int64_t hstart = int64_t(oy) * at.stride_y - at.pad_top;
                    int64_t wstart = int64_t(ox) * at.stride_x - at.pad_left;
                    int64_t hend = std::min<int64_t>(hstart + at.pool_height, H + at.pad_bottom);
                    int64_t wend = std::min<int64_t>(wstart + at.pool_width, W + at.pad_right);
                    float area = float((hend - hstart) * (wend - wstart));
                    const size_t o = out(n, c, oy, ox);
                    if (on_padding_only(hstart, hend, H) || on_padding_only(wstart, wend, W)) {
                        y.set(o, 0.0f);
                        continue;
                    }
                    const bool clamped_w = clamp_range(wstart, wend, W);
                    const bool clamped_h = clamp_range(hstart, hend, H);
                    if ((clamped_w || clamped_h) && at.padding_method == PaddingMethod::Exclude)
                        area = float((hend - hstart) * (wend - wstart));

                    float acc = at.algorithm == PoolingAlgorithm::Max ? -FLT_MAX : 0.0f;
                    for (int64_t iy = hstart; iy < hend; ++iy)
                        for (int64_t ix = wstart; ix < wend; ++ix) {
                            const float v = x[in(n, c, uint32_t(iy), uint32_t(ix))];
                            switch (at.algorithm) {
                                case PoolingAlgorithm::Max: acc = std::max(acc, v); break;
                                case PoolingAlgorithm::Average: acc += v; break;
                                case PoolingAlgorithm::L2: acc += v * v; break;
                            }
                        }
                    switch (at.algorithm) {
                        case PoolingAlgorithm::Max: break;
                        case PoolingAlgorithm::Average: acc /= area; break;
                        case PoolingAlgorithm::L2: acc = std::sqrt(acc / area); break;
                    }
                    y.set(o, acc);
                }
}

}  // namespace

const Kernel kPooling2d = {check_numeric_same_type, nullptr, run};

}  // namespace npurun::kernels::ref

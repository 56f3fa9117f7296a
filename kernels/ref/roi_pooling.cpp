// RoiPooling: Caffe's ROI max pooling with the arithmetic of MNN's CPUROIPooling (looked up for this
// kernel), so that outputs match the MNN runtime. Per ROI (b, x1, y1, x2, y2):
//   corners = round(coordinate * spatialScale) (half away from zero), roiW = max(x2 - x1 + 1, 1), roiH
//   likewise; bin size = roiW / pooledW in float. Bin starts and ends come from a float accumulator that
//   adds the bin size once per bin: start = x1 + floor(acc), end = x1 + ceil(acc + bin), both clamped to
//   [0, W] (and likewise for rows). Each output is the maximum over its window, or 0 for an empty window.
// Decisions where MNN leaves the behaviour undefined (it asserts or reads out of bounds): an ROI whose
// batch index is not an integer in [0, N) or whose coordinates are not finite yields zeros; coordinates
// are clamped to +-2^24 before the conversion to int.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

int corner(float v, float scale) {
    const float s = std::round(v * scale);
    return static_cast<int>(std::max(-16777216.0f, std::min(16777216.0f, s)));
}

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<RoiPoolingAttrs>();
    const Shape& xs = in_info(a, 0).shape;
    const uint32_t n = xs[0], c = xs[1], ih = xs[2], iw = xs[3];
    const uint32_t ph = at.pooled_height, pw = at.pooled_width;
    const uint32_t rois = in_info(a, 1).shape[0];
    const float* x = static_cast<const float*>(a.inputs[0]);
    const float* roi = static_cast<const float*>(a.inputs[1]);
    float* y = static_cast<float*>(a.outputs[0]);
    const size_t per_roi = size_t(c) * ph * pw;
    for (uint32_t r = 0; r < rois; ++r) {
        const float* v = roi + 5 * size_t(r);
        float* out = y + per_roi * r;
        const bool finite = std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]) && std::isfinite(v[3]) && std::isfinite(v[4]);
        if (!finite || v[0] < 0.0f || v[0] >= float(n) || v[0] != std::floor(v[0])) {
            std::fill(out, out + per_roi, 0.0f);
            continue;
        }
        const uint32_t batch = static_cast<uint32_t>(v[0]);
        const int x1 = corner(v[1], at.spatial_scale), y1 = corner(v[2], at.spatial_scale);
        const int x2 = corner(v[3], at.spatial_scale), y2 = corner(v[4], at.spatial_scale);
        const float bin_w = float(std::max(x2 - x1 + 1, 1)) / float(pw), bin_h = float(std::max(y2 - y1 + 1, 1)) / float(ph);
        auto clamp = [](int64_t p, uint32_t hi) { return static_cast<uint32_t>(std::min<int64_t>(std::max<int64_t>(p, 0), hi)); };
        for (uint32_t ch = 0; ch < c; ++ch) {
            const float* plane = x + (size_t(batch) * c + ch) * size_t(ih) * iw;
            float acc_h = 0.0f;
            for (uint32_t py = 0; py < ph; ++py) {
                const uint32_t h0 = clamp(int64_t(y1) + int64_t(std::floor(acc_h)), ih);
                acc_h += bin_h;
                const uint32_t h1 = clamp(int64_t(y1) + int64_t(std::ceil(acc_h)), ih);
                float acc_w = 0.0f;
                for (uint32_t px = 0; px < pw; ++px) {
                    const uint32_t w0 = clamp(int64_t(x1) + int64_t(std::floor(acc_w)), iw);
                    acc_w += bin_w;
                    const uint32_t w1 = clamp(int64_t(x1) + int64_t(std::ceil(acc_w)), iw);
                    float m = -FLT_MAX;
                    for (uint32_t yy = h0; yy < h1; ++yy)
                        for (uint32_t xx = w0; xx < w1; ++xx) m = std::max(m, plane[size_t(yy) * iw + xx]);
                    out[(size_t(ch) * ph + py) * pw + px] = (h1 > h0 && w1 > w0) ? m : 0.0f;
                }
            }
        }
    }
}

}  // namespace

const Kernel kRoiPooling = {check_any, nullptr, run};

}  // namespace npurun::kernels::ref

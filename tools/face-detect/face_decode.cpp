#include "tools/face-detect/face_decode.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace npurun::face {
namespace {

constexpr uint32_t kStrides[4] = {8, 16, 32, 64};
const std::vector<std::vector<float>> kMinSizes = {{10, 16, 24}, {32, 48}, {64, 96}, {128, 192, 256}};
constexpr float kCentreVariance = 0.1f, kSizeVariance = 0.2f;

float clip01(float v) { return std::min(1.0f, std::max(0.0f, v)); }

// Intersection over union of pixel boxes, with the "+1" pixel convention of the detector's own demo
// (a box from x1 to x2 covers x2 - x1 + 1 pixels), which decides which boxes merge at the threshold.
double iou(const Face& a, const Face& b) {
    const double iw = std::min(a.x2, b.x2) - std::max(a.x1, b.x1) + 1;
    const double ih = std::min(a.y2, b.y2) - std::max(a.y1, b.y1) + 1;
    if (iw <= 0 || ih <= 0) return 0;
    const double inter = iw * ih;
    const double area_a = (a.x2 - a.x1 + 1) * (a.y2 - a.y1 + 1), area_b = (b.x2 - b.x1 + 1) * (b.y2 - b.y1 + 1);
    return inter / (area_a + area_b - inter);
}

}  // namespace

std::vector<Prior> make_priors(uint32_t input_width, uint32_t input_height) {
    std::vector<Prior> priors;
    for (size_t level = 0; level < 4; ++level) {
        const uint32_t stride = kStrides[level];
        const uint32_t fw = (input_width + stride - 1) / stride, fh = (input_height + stride - 1) / stride;
        // Centres in units of the stride over the whole input (so a partial last cell keeps its position).
        const float scale_w = float(input_width) / float(stride), scale_h = float(input_height) / float(stride);
        for (uint32_t y = 0; y < fh; ++y)
            for (uint32_t x = 0; x < fw; ++x)
                for (float size : kMinSizes[level])
                    priors.push_back({clip01((float(x) + 0.5f) / scale_w), clip01((float(y) + 0.5f) / scale_h),
                                      clip01(size / float(input_width)), clip01(size / float(input_height))});
    }
    return priors;
}

size_t count_candidates(const float* scores, size_t n, float threshold) {
    size_t c = 0;
    for (size_t i = 0; i < n; ++i) c += scores[2 * i + 1] > threshold;
    return c;
}

std::vector<Face> decode_faces(const float* scores, const float* boxes, const std::vector<Prior>& priors,
                               uint32_t image_width, uint32_t image_height, const DecodeOptions& o) {
    if (scores == nullptr || boxes == nullptr) throw std::invalid_argument("no scores or boxes");
    std::vector<Face> candidates;
    for (size_t i = 0; i < priors.size(); ++i) {
        const float score = scores[2 * i + 1];
        if (!(score > o.score_threshold)) continue;
        const Prior& p = priors[i];
        const float* l = boxes + 4 * i;
        const float cx = l[0] * kCentreVariance * p.w + p.cx;
        const float cy = l[1] * kCentreVariance * p.h + p.cy;
        const float w = std::exp(l[2] * kSizeVariance) * p.w;
        const float h = std::exp(l[3] * kSizeVariance) * p.h;
        Face f;
        f.x1 = double(clip01(cx - w / 2)) * image_width;
        f.y1 = double(clip01(cy - h / 2)) * image_height;
        f.x2 = double(clip01(cx + w / 2)) * image_width;
        f.y2 = double(clip01(cy + h / 2)) * image_height;
        f.score = score;
        f.anchor = uint32_t(i);
        f.merged = 1;
        candidates.push_back(f);
    }
    // Descending score; equal scores keep the prior order (deterministic).
    std::stable_sort(candidates.begin(), candidates.end(), [](const Face& a, const Face& b) { return a.score > b.score; });
    std::vector<Face> out;
    std::vector<bool> used(candidates.size(), false);
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (used[i]) continue;
        std::vector<size_t> group;
        for (size_t j = i; j < candidates.size(); ++j) {
            if (used[j]) continue;
            if (j == i || iou(candidates[i], candidates[j]) > o.iou_threshold) {
                used[j] = true;
                group.push_back(j);
            }
        }
        Face kept = candidates[i];
        kept.merged = uint32_t(group.size());
        if (o.nms == Nms::Blending) {
            // Weights exp(score) / sum exp(score) over the group: coordinates and score blended.
            double total = 0;
            for (size_t k : group) total += std::exp(candidates[k].score);
            double x1 = 0, y1 = 0, x2 = 0, y2 = 0, s = 0;
            for (size_t k : group) {
                const double r = std::exp(candidates[k].score) / total;
                x1 += candidates[k].x1 * r, y1 += candidates[k].y1 * r, x2 += candidates[k].x2 * r, y2 += candidates[k].y2 * r;
                s += candidates[k].score * r;
            }
            kept.x1 = x1, kept.y1 = y1, kept.x2 = x2, kept.y2 = y2, kept.score = s;
        }
        out.push_back(kept);
    }
    return out;
}

}  // namespace npurun::face

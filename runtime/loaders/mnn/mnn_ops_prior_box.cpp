// MNN PriorBox (Caffe SSD) folded into a constant at load time.
//
// A PriorBox output depends only on the feature map's H and W, the image size and the attributes, never
// on tensor values, so npurun computes it once here and the graph carries a constant: no runtime op, and
// nothing for the NPU placement to refuse. The arithmetic follows MNN's CPUPriorBox / ShapePriorbox
// (looked up for this file): float throughout; the x centre is accumulated by repeated `+= stepW` from
// offset*stepW while the y centre is offset*stepH + i*stepH; the aspect-ratio list starts at 1 and skips
// ratios within 1e-6 of one already present, appending 1/ratio after each new one when flip is set;
// per position and per min size the order is the min box, the sqrt(min*max) box, then one box per ratio
// other than 1; clip clamps only the boxes. Output [1, 2, H*W*P*4, 1] (NCHW): channel 0 the boxes
// (x1, y1, x2, y2 normalised by the image size), channel 1 the four variances repeated per box.
#include <cmath>

#include "core/checked_math.h"
#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"

namespace npurun::mnn {

namespace {

// A prior-box constant above this many floats (256 MiB) is refused rather than allocated.
constexpr size_t kMaxPriorValues = size_t(1) << 26;

// Bounds on the attribute lists, far above any real detector (SSD uses up to 6 ratios, 1-2 sizes).
constexpr uint32_t kMaxSizes = 1024;

std::vector<float> positive_floats(const Builder& b, const flatbuffers::Vector<float>* v, const char* field) {
    std::vector<float> out;
    if (!v) return out;
    if (v->size() > kMaxSizes) b.bad(std::string(field) + " has " + std::to_string(v->size()) + " values (limit " + std::to_string(kMaxSizes) + ")");
    for (uint32_t i = 0; i < v->size(); ++i) {
        const float f = v->Get(i);
        if (!(std::isfinite(f) && f > 0.0f)) b.bad(std::string(field) + "[" + std::to_string(i) + "] is " + std::to_string(f) + " (must be positive)");
        out.push_back(f);
    }
    return out;
}

// H and W of a 4-D input, whatever order its IR tensor holds them in.
void height_width(const Builder& b, size_t k, const char* what, uint32_t* h, uint32_t* w) {
    const TensorState& s = b.raw(k);
    const Shape& shape = b.g.info(s.id).shape;
    if (shape.rank != 4) b.bad(std::string(what) + " (input " + std::to_string(k) + ") is " + shape.str() + ", expected 4-D");
    const bool hw_first = s.channels_last || s.layout == Layout::NHWC;
    *h = hw_first ? shape[1] : shape[2];
    *w = hw_first ? shape[2] : shape[3];
}

}  // namespace

void map_prior_box(Builder& b) {
    const auto* p = b.op->main_as_PriorBox();
    if (!p) b.bad("has no PriorBox parameters");
    uint32_t h = 0, w = 0;
    height_width(b, 0, "the feature map", &h, &w);
    if (h == 0 || w == 0) b.bad("the feature map has an empty height or width");

    int64_t image_w = p->imageWidth(), image_h = p->imageHeight();
    if (image_w <= 0 || image_h <= 0) {
        if (b.num_inputs() < 2) b.bad("imageWidth/imageHeight are not set and there is no image input to take them from");
        uint32_t ih = 0, iw = 0;
        height_width(b, 1, "the image", &ih, &iw);
        if (image_w <= 0) image_w = iw;
        if (image_h <= 0) image_h = ih;
    }
    if (image_w <= 0 || image_h <= 0) b.bad("the image size " + std::to_string(image_w) + "x" + std::to_string(image_h) + " is empty");
    float step_w = static_cast<float>(p->stepWidth()), step_h = static_cast<float>(p->stepHeight());
    if (step_w <= 0) step_w = static_cast<float>(image_w) / static_cast<float>(w);
    if (step_h <= 0) step_h = static_cast<float>(image_h) / static_cast<float>(h);
    const float offset = p->offset();
    if (!std::isfinite(offset)) b.bad("offset is not finite");

    const std::vector<float> min_sizes = positive_floats(b, p->minSizes(), "minSizes");
    const std::vector<float> max_sizes = positive_floats(b, p->maxSizes(), "maxSizes");
    const std::vector<float> ratios_in = positive_floats(b, p->aspectRatios(), "aspectRatios");
    if (min_sizes.empty()) b.bad("has no minSizes");
    // MNN reads maxSizes[k] for every min size k but counts only maxSizes.size() boxes: other counts are
    // inconsistent files.
    if (!max_sizes.empty() && max_sizes.size() != min_sizes.size())
        b.bad(std::to_string(max_sizes.size()) + " maxSizes for " + std::to_string(min_sizes.size()) + " minSizes (must match)");
    std::vector<float> variances;
    if (p->variances()) variances.assign(p->variances()->begin(), p->variances()->end());
    if (variances.size() == 1) variances.assign(4, variances[0]);  // Caffe's single shared variance
    if (variances.size() != 4)
        b.bad("variances has " + std::to_string(variances.size()) + " values (MNN reads 4, Caffe also accepts 1)");
    for (float v : variances)
        if (!std::isfinite(v)) b.bad("a variance is not finite");

    std::vector<float> ratios{1.0f};
    for (float r : ratios_in) {
        bool seen = false;
        for (float v : ratios) seen = seen || std::fabs(v - r) < 1e-6f;
        if (seen) continue;
        ratios.push_back(r);
        if (p->flip()) ratios.push_back(1.0f / r);
    }
    const size_t per_position = min_sizes.size() * ratios.size() + max_sizes.size();
    // MNN sizes the output by that count but skips, when writing, every ratio whose square root is within
    // 1e-6 of 1: a ratio that passes the first test and fails the second (1 + ~1.5e-6) would leave boxes
    // unwritten, so such a file is refused.
    size_t written = 1 + (max_sizes.empty() ? 0 : 1);
    for (float r : ratios) written += std::fabs(std::sqrt(r) - 1.0f) < 1e-6f ? 0 : 1;
    if (written * min_sizes.size() != per_position)
        b.bad("an aspect ratio lies so close to 1 that MNN counts its box but never writes it");
    size_t n = 0;  // floats per channel: H * W * P * 4
    if (!checked_mul<size_t>(size_t(h) * w, per_position, &n) || !checked_mul<size_t>(n, 4, &n) || n > kMaxPriorValues / 2)
        b.unsupported("the prior boxes (" + std::to_string(h) + "x" + std::to_string(w) + " positions x " +
                      std::to_string(per_position) + " boxes) exceed npurun's limit of " + std::to_string(kMaxPriorValues) + " values");

    std::vector<float> out(2 * n);
    float* box = out.data();
    const float iw = static_cast<float>(image_w), ih = static_cast<float>(image_h);
    auto put = [&](float cx, float cy, float bw, float bh) {
        box[0] = (cx - bw * 0.5f) / iw;
        box[1] = (cy - bh * 0.5f) / ih;
        box[2] = (cx + bw * 0.5f) / iw;
        box[3] = (cy + bh * 0.5f) / ih;
        box += 4;
    };
    for (uint32_t i = 0; i < h; ++i) {
        const float cy = offset * step_h + static_cast<float>(i) * step_h;
        float cx = offset * step_w;
        for (uint32_t j = 0; j < w; ++j, cx += step_w)
            for (size_t k = 0; k < min_sizes.size(); ++k) {
                const float mn = min_sizes[k];
                put(cx, cy, mn, mn);
                if (!max_sizes.empty()) {
                    const float s = std::sqrt(mn * max_sizes[k]);
                    put(cx, cy, s, s);
                }
                for (float r : ratios) {
                    const float rs = std::sqrt(r);
                    if (std::fabs(rs - 1.0f) < 1e-6f) continue;
                    put(cx, cy, mn * rs, mn / rs);
                }
            }
    }
    if (p->clip())
        for (size_t i = 0; i < n; ++i) out[i] = std::min(std::max(out[i], 0.0f), 1.0f);
    for (size_t i = 0; i < n; ++i) out[n + i] = variances[i % 4];

    const std::string name = b.net->tensorName()->Get(b.output_index(0))->str();
    b.produce(0, b.new_float_constant(name, Shape{1, 2, static_cast<uint32_t>(n), 1}, out), Layout::NCHW);
}

}  // namespace npurun::mnn

// DetectionOutput: Caffe SSD's post-processing with the semantics of MNN's CPUDetectionOutput (looked up
// for this kernel), so that outputs match the MNN runtime:
//   Decode (CENTER_SIZE, variances taken from the priors): per prior i with box p (x1,y1,x2,y2),
//     variances v and location l, in float:
//       pw = p2 - p0, ph = p3 - p1, pcx = (p0 + p2) * 0.5, pcy = (p1 + p3) * 0.5
//       cx = v0 * l0 * pw + pcx, cy = v1 * l1 * ph + pcy, w = exp(v2 * l2) * pw, h = exp(v3 * l3) * ph
//       box = (cx - w/2, cy - h/2, cx + w/2, cy + h/2)
//   Per class c = 1 .. C-1 (class 0, the background, is skipped): the priors whose confidence
//     conf[i*C + c] exceeds confidenceThreshold, sorted by score (descending); greedy NMS keeps a box
//     unless its IoU with an already kept box exceeds nmsThreshold (boxes that do not touch have IoU 0),
//     and stops after keepTopK kept boxes.
//   All kept boxes of all classes are sorted by score and the best keepTopK written as rows
//   (label, score, x1, y1, x2, y2) of the [1, 1, K, 6] output.
// Decisions where MNN is not defined or cannot be followed:
//   * ties: MNN's std::sort / std::partial_sort leave equal scores in an unspecified order; npurun orders
//     them by prior index within a class and by class across classes (a total order, so runs repeat);
//   * MNN shrinks the output to the detection count; the IR's shapes are static, so rows past the
//     detections hold label -1 and zeros (Caffe's "no detection" label).
//   * MNN's kernel reads neither nmsTopK, shareLocation, backgroundLabel, codeType nor
//     varianceEncodedTarget; neither does this one (the loader documents what it accepts).
// All working lists live in the scratch area (no allocation on the run path).
#include <algorithm>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

struct Sizes {
    size_t priors = 0, classes = 0, keep = 0;
    size_t per_class = 0;  // kept boxes per class at most: min(keep, priors)
    size_t total = 0;      // kept boxes over all classes at most
};

Sizes sizes(const KernelNode& node) {
    const auto& at = node.attr<DetectionOutputAttrs>();
    Sizes s;
    s.priors = node.in(0).shape.num_elements() / 4;
    s.classes = at.num_classes;
    s.keep = at.keep_top_k;
    s.per_class = std::min(s.keep, s.priors);
    s.total = s.per_class * (s.classes > 0 ? s.classes - 1 : 0);
    return s;
}

// Floats: decoded boxes (4P), candidate areas (P), candidate scores (P), kept scores (total);
// uint32: candidate priors (P), candidate order (P), per-class picks (per_class), kept priors, kept
// classes and the final order (total each).
size_t scratch_bytes(const KernelNode& node) {
    const Sizes s = sizes(node);
    return (6 * s.priors + s.total) * sizeof(float) + (2 * s.priors + s.per_class + 3 * s.total) * sizeof(uint32_t);
}

float intersection(const float* a, const float* b) {
    if (a[0] > b[2] || a[2] < b[0] || a[1] > b[3] || a[3] < b[1]) return 0.0f;
    return (std::fmin(a[2], b[2]) - std::fmax(a[0], b[0])) * (std::fmin(a[3], b[3]) - std::fmax(a[1], b[1]));
}

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<DetectionOutputAttrs>();
    const Sizes s = sizes(a.node);
    const float* loc = static_cast<const float*>(a.inputs[0]);
    const float* conf = static_cast<const float*>(a.inputs[1]);
    const float* prior = static_cast<const float*>(a.inputs[2]);
    const float* var = prior + 4 * s.priors;

    float* boxes = static_cast<float*>(a.scratch);
    float* area = boxes + 4 * s.priors;
    float* cand_score = area + s.priors;
    float* kept_score = cand_score + s.priors;
    uint32_t* cand = reinterpret_cast<uint32_t*>(kept_score + s.total);
    uint32_t* order = cand + s.priors;
    uint32_t* picked = order + s.priors;
    uint32_t* kept_prior = picked + s.per_class;
    uint32_t* kept_class = kept_prior + s.total;
    uint32_t* final_order = kept_class + s.total;

    for (size_t i = 0; i < s.priors; ++i) {
        const float* p = prior + 4 * i;
        const float* v = var + 4 * i;
        const float* l = loc + 4 * i;
        const float pw = p[2] - p[0], ph = p[3] - p[1];
        const float pcx = (p[0] + p[2]) * 0.5f, pcy = (p[1] + p[3]) * 0.5f;
        const float cx = v[0] * l[0] * pw + pcx, cy = v[1] * l[1] * ph + pcy;
        const float w = std::exp(v[2] * l[2]) * pw, h = std::exp(v[3] * l[3]) * ph;
        float* b = boxes + 4 * i;
        b[0] = cx - w * 0.5f;
        b[1] = cy - h * 0.5f;
        b[2] = cx + w * 0.5f;
        b[3] = cy + h * 0.5f;
    }

    size_t n_kept = 0;
    for (size_t c = 1; c < s.classes; ++c) {
        size_t n = 0;
        for (size_t i = 0; i < s.priors; ++i) {
            const float score = conf[i * s.classes + c];
            if (score > at.confidence_threshold) {
                cand[n] = static_cast<uint32_t>(i);
                cand_score[n] = score;
                order[n] = static_cast<uint32_t>(n);
                ++n;
            }
        }
        // Candidates were collected in prior order, so position breaks ties by prior index.
        std::sort(order, order + n, [&](uint32_t x, uint32_t y) {
            return cand_score[x] != cand_score[y] ? cand_score[x] > cand_score[y] : x < y;
        });
        for (size_t k = 0; k < n; ++k) {
            const float* b = boxes + 4 * cand[order[k]];
            area[k] = (b[2] - b[0]) * (b[3] - b[1]);
        }
        size_t n_picked = 0;
        for (size_t k = 0; k < n && n_picked < s.per_class; ++k) {
            const float* b = boxes + 4 * cand[order[k]];
            bool keep = true;
            for (size_t q = 0; q < n_picked && keep; ++q) {
                const float inter = intersection(b, boxes + 4 * cand[order[picked[q]]]);
                keep = !(inter / (area[k] + area[picked[q]] - inter) > at.nms_threshold);
            }
            if (keep) picked[n_picked++] = static_cast<uint32_t>(k);
        }
        for (size_t q = 0; q < n_picked; ++q) {
            kept_prior[n_kept] = cand[order[picked[q]]];
            kept_score[n_kept] = cand_score[order[picked[q]]];
            kept_class[n_kept] = static_cast<uint32_t>(c);
            final_order[n_kept] = static_cast<uint32_t>(n_kept);
            ++n_kept;
        }
    }
    const size_t rows = std::min(n_kept, s.keep);
    // Entries were appended class by class, so position breaks ties by class (then score order).
    std::partial_sort(final_order, final_order + rows, final_order + n_kept, [&](uint32_t x, uint32_t y) {
        return kept_score[x] != kept_score[y] ? kept_score[x] > kept_score[y] : x < y;
    });
    float* out = static_cast<float*>(a.outputs[0]);
    for (size_t r = 0; r < s.keep; ++r) {
        float* row = out + 6 * r;
        if (r < rows) {
            const uint32_t e = final_order[r];
            const float* b = boxes + 4 * kept_prior[e];
            row[0] = static_cast<float>(kept_class[e]);
            row[1] = kept_score[e];
            for (int k = 0; k < 4; ++k) row[2 + k] = b[k];
        } else {
            row[0] = -1.0f;
            for (int k = 1; k < 6; ++k) row[k] = 0.0f;
        }
    }
}

}  // namespace

const Kernel kDetectionOutput = {check_any, scratch_bytes, run};

}  // namespace npurun::kernels::ref

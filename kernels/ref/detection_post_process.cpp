// DetectionPostProcess (CpuRef's DetectionPostProcess.cpp, reference/armnn-format.md §2).
//   Decoding, anchors (yc, xc, h, w), encodings (ty, tx, th, tw):
//     yc = ty / scaleY * ha + ya; xc = tx / scaleX * wa + xa; h/2 = 0.5 * exp(th / scaleH) * ha; likewise w;
//     boxes are written as [ymin, xmin, ymax, xmax].
//   NMS: candidates with score >= nmsScoreThreshold, sorted by score; a candidate is kept unless an already
//     KEPT box overlaps it with IoU > nmsIouThreshold. This is the FIXED upstream behaviour (Arm NN 20.11,
//     GitHub#465): in 20.08 a box that had itself been suppressed still suppressed later boxes.
//   Regular NMS: NMS per class (limit detectionsPerClass), then the best maxDetections across classes.
//   Fast NMS: per box the top min(maxClassesPerDetection, numClasses) classes are candidates (each with its
//     own box; decision: CpuRef indexes boxes by candidate number there, which is only right for one class
//     per box), then one NMS over all candidates with limit maxDetections.
//   Ties (decision, for determinism): CpuRef's std::partial_sort is not stable; npurun orders equal scores
//     by candidate order (box index, then class), which is what a stable sort gives.
//   Outputs: rows beyond the detections are zero; classes are 0-based without the background;
//   num_detections is the number of rows filled.
// All working lists live in the scratch area sized by scratch_bytes (no allocation on the run path).
#include <algorithm>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

struct Layout {
    uint32_t boxes = 0, classes = 0, per_box = 0;
    size_t cap = 0;  // the longest candidate list
};

Layout layout(const KernelNode& node) {
    const auto& at = node.attr<DetectionPostProcessAttrs>();
    Layout l;
    l.boxes = node.in(0).shape[1];
    l.classes = at.num_classes;
    l.per_box = std::min(at.max_classes_per_detection, at.num_classes);
    const size_t fast = size_t(l.boxes) * l.per_box;
    const size_t regular = std::max<size_t>(l.boxes, size_t(l.classes) * at.detections_per_class);
    l.cap = std::max(fast, regular);
    return l;
}

// corners: 4 * boxes floats; then 9 lists of `cap` 4-byte entries; then `classes` entries for the top-k.
size_t scratch_bytes(const KernelNode& node) {
    const Layout l = layout(node);
    return (4 * size_t(l.boxes) + 9 * l.cap + l.classes) * 4;
}

float iou(const float* a, const float* b) {
    const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
    const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
    const float ymin = std::max(a[0], b[0]), xmin = std::max(a[1], b[1]);
    const float ymax = std::min(a[2], b[2]), xmax = std::min(a[3], b[3]);
    const float inter = std::max(ymax - ymin, 0.0f) * std::max(xmax - xmin, 0.0f);
    return inter / (area_a + area_b - inter);
}

struct Lists {
    float* corners;
    float* cand_score;
    uint32_t *cand_box, *cand_class;
    float* nms_score;
    uint32_t *nms_index, *order, *visited, *kept, *final_order, *class_order;
};

// NMS over candidates [0, n): writes the kept candidate numbers (in score order) to l.kept, returns the count.
uint32_t nms(const Lists& l, uint32_t n, float score_threshold, float iou_threshold, uint32_t limit) {
    uint32_t above = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (l.cand_score[i] >= score_threshold) {
            l.nms_score[above] = l.cand_score[i];
            l.nms_index[above++] = i;
        }
    for (uint32_t i = 0; i < above; ++i) {
        l.order[i] = i;
        l.visited[i] = 0;
    }
    std::sort(l.order, l.order + above, [&](uint32_t a, uint32_t b) {
        return l.nms_score[a] != l.nms_score[b] ? l.nms_score[a] > l.nms_score[b] : a < b;
    });
    const uint32_t max_out = std::min(limit, above);
    uint32_t count = 0;
    for (uint32_t i = 0; i < above && count < max_out; ++i) {
        if (l.visited[l.order[i]]) continue;
        const uint32_t ci = l.nms_index[l.order[i]];
        l.kept[count++] = ci;
        for (uint32_t j = i + 1; j < above; ++j) {
            const uint32_t cj = l.nms_index[l.order[j]];
            if (iou(&l.corners[4 * l.cand_box[ci]], &l.corners[4 * l.cand_box[cj]]) > iou_threshold)
                l.visited[l.order[j]] = 1;
        }
    }
    return count;
}

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<DetectionPostProcessAttrs>();
    const Layout lay = layout(a.node);
    const Reader enc(in_info(a, 0), a.inputs[0]), scores(in_info(a, 1), a.inputs[1]), anchors(in_info(a, 2), a.inputs[2]);
    Lists l;
    float* f = static_cast<float*>(a.scratch);
    l.corners = f;
    uint32_t* u = reinterpret_cast<uint32_t*>(f + 4 * size_t(lay.boxes));
    l.cand_score = reinterpret_cast<float*>(u);
    l.cand_box = u + lay.cap;
    l.cand_class = u + 2 * lay.cap;
    l.nms_score = reinterpret_cast<float*>(u + 3 * lay.cap);
    l.nms_index = u + 4 * lay.cap;
    l.order = u + 5 * lay.cap;
    l.visited = u + 6 * lay.cap;
    l.kept = u + 7 * lay.cap;
    l.final_order = u + 8 * lay.cap;
    l.class_order = u + 9 * lay.cap;

    for (uint32_t b = 0; b < lay.boxes; ++b) {
        const float ya = anchors[4 * b], xa = anchors[4 * b + 1], ha = anchors[4 * b + 2], wa = anchors[4 * b + 3];
        const float yc = enc[4 * b] / at.scale_y * ha + ya;
        const float xc = enc[4 * b + 1] / at.scale_x * wa + xa;
        const float hh = 0.5f * std::exp(enc[4 * b + 2] / at.scale_h) * ha;
        const float hw = 0.5f * std::exp(enc[4 * b + 3] / at.scale_w) * wa;
        l.corners[4 * b] = yc - hh;
        l.corners[4 * b + 1] = xc - hw;
        l.corners[4 * b + 2] = yc + hh;
        l.corners[4 * b + 3] = xc + hw;
    }
    const uint32_t cols = lay.classes + 1;
    uint32_t selected = 0;  // entries of the final list: box, class, score in cand_* at final_order
    if (at.use_regular_nms) {
        // Per class, the candidates are the boxes. The kept (box, class) pairs are collected in cand_class
        // (as box * classes + class; unused by nms()) with their scores in final_order (as floats).
        uint32_t total = 0;
        float* res_score = reinterpret_cast<float*>(l.final_order);
        for (uint32_t c = 0; c < lay.classes; ++c) {
            for (uint32_t b = 0; b < lay.boxes; ++b) {
                l.cand_score[b] = scores[size_t(b) * cols + c + 1];
                l.cand_box[b] = b;
            }
            const uint32_t kept = nms(l, lay.boxes, at.nms_score_threshold, at.nms_iou_threshold, at.detections_per_class);
            for (uint32_t k = 0; k < kept; ++k) {
                const uint32_t b = l.kept[k];
                l.cand_class[total] = b * lay.classes + c;
                res_score[total] = scores[size_t(b) * cols + c + 1];
                ++total;
            }
        }
        selected = std::min(at.max_detections, total);
        for (uint32_t r = 0; r < total; ++r) l.order[r] = r;
        std::partial_sort(l.order, l.order + selected, l.order + total, [&](uint32_t x, uint32_t y) {
            return res_score[x] != res_score[y] ? res_score[x] > res_score[y] : x < y;
        });
        for (uint32_t r = 0; r < selected; ++r) {
            const uint32_t e = l.order[r];
            l.cand_box[r] = l.cand_class[e] / lay.classes;
            l.nms_index[r] = l.cand_class[e] % lay.classes;
            l.nms_score[r] = res_score[e];
        }
    } else {
        uint32_t n = 0;
        for (uint32_t b = 0; b < lay.boxes; ++b) {
            for (uint32_t c = 0; c < lay.classes; ++c) l.class_order[c] = c;
            const size_t row = size_t(b) * cols + 1;
            std::partial_sort(l.class_order, l.class_order + lay.per_box, l.class_order + lay.classes,
                              [&](uint32_t x, uint32_t y) {
                                  const float sx = scores[row + x], sy = scores[row + y];
                                  return sx != sy ? sx > sy : x < y;
                              });
            for (uint32_t k = 0; k < lay.per_box; ++k) {
                l.cand_score[n] = scores[row + l.class_order[k]];
                l.cand_box[n] = b;
                l.cand_class[n] = l.class_order[k];
                ++n;
            }
        }
        const uint32_t kept = nms(l, n, at.nms_score_threshold, at.nms_iou_threshold, at.max_detections);
        selected = std::min(at.max_detections, kept);
        // Move the kept candidates to the front, in score order (kept[] is already sorted).
        for (uint32_t r = 0; r < selected; ++r) l.final_order[r] = l.kept[r];
        for (uint32_t r = 0; r < selected; ++r) {
            const uint32_t e = l.final_order[r];
            l.order[r] = l.cand_box[e];
            l.visited[r] = l.cand_class[e];
            l.nms_score[r] = l.cand_score[e];
        }
        for (uint32_t r = 0; r < selected; ++r) {
            l.cand_box[r] = l.order[r];
            l.nms_index[r] = l.visited[r];
        }
    }
    float* out_boxes = static_cast<float*>(a.outputs[0]);
    float* out_classes = static_cast<float*>(a.outputs[1]);
    float* out_scores = static_cast<float*>(a.outputs[2]);
    const uint32_t rows = out_info(a, 1).shape[1];
    for (uint32_t r = 0; r < rows; ++r) {
        if (r < selected) {
            for (int k = 0; k < 4; ++k) out_boxes[4 * r + k] = l.corners[4 * l.cand_box[r] + k];
            out_classes[r] = float(l.nms_index[r]);
            out_scores[r] = l.nms_score[r];
        } else {
            for (int k = 0; k < 4; ++k) out_boxes[4 * r + k] = 0.0f;
            out_classes[r] = 0.0f;
            out_scores[r] = 0.0f;
        }
    }
    *static_cast<float*>(a.outputs[3]) = float(selected);
}

}  // namespace

const Kernel kDetectionPostProcess = {check_any, scratch_bytes, run};

}  // namespace npurun::kernels::ref

// Face boxes from an SSD-style face detector's raw outputs (Ultra-Light-Fast-Generic-Face-Detector-1MB:
// scores [1,N,2] after softmax, column 1 = face; boxes [1,N,4] as offsets from N priors). The rules are those
// of ../shared/models/mnn/README.md: priors on strides 8/16/32/64 with min sizes {10,16,24}, {32,48},
// {64,96}, {128,192,256}; centre variance 0.1, size variance 0.2; score threshold; blending or hard NMS.
// Independent of how the outputs were obtained (a model run, or files of a reference runtime).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npurun::face {

struct Prior {
    float cx, cy, w, h;  // fractions of the network input, clipped to [0, 1]
};

// Priors for a W x H network input, in the detector's output order (level, row, column, size).
std::vector<Prior> make_priors(uint32_t input_width, uint32_t input_height);

enum class Nms { Blending, Hard };

struct DecodeOptions {
    float score_threshold = 0.7f;
    float iou_threshold = 0.3f;
    Nms nms = Nms::Blending;
};

struct Face {
    double x1, y1, x2, y2;  // pixels of the original image
    double score;
    uint32_t anchor;   // prior of the highest-scoring box of the group
    uint32_t merged;   // boxes of the group (overlapping the kept one above the IoU threshold, itself included)
};

// scores: N*2 floats, boxes: N*4 floats, priors.size() == N; image_width/height scale the fractions to pixels.
// Faces in the order NMS keeps them (descending score of their best box). Throws std::invalid_argument on
// size mismatch.
std::vector<Face> decode_faces(const float* scores, const float* boxes, const std::vector<Prior>& priors,
                               uint32_t image_width, uint32_t image_height, const DecodeOptions& o);

// Boxes above the threshold before NMS (the reference JSON's num_candidates).
size_t count_candidates(const float* scores, size_t n, float threshold);

}  // namespace npurun::face

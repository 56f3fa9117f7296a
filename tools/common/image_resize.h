// Bilinear resizing of decoded images to a model's input size.
#pragma once

#include <cstdint>
#include <vector>

#include "tools/common/image.h"

namespace npurun::image {

enum class ResizeMode {
    Stretch,  // the whole image to W x H (the aspect ratio may change)
    Crop,     // the largest centred region with the W:H aspect ratio, then to W x H (nothing is distorted)
};

// Bilinear with pixel centres at +0.5 (the convention of OpenCV's INTER_LINEAR and of TensorFlow's
// half_pixel_centers): output pixel x samples the source at x0 + (x + 0.5) * scale - 0.5, clamped to the
// image. No antialiasing when shrinking, like those. Returns float samples, interleaved as the input,
// unrounded (the caller rounds once, after normalization).
std::vector<float> resize_bilinear(const Image& src, uint32_t width, uint32_t height, ResizeMode mode);

}  // namespace npurun::image

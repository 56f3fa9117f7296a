// Drawing on decoded images (face-detect's boxes).
#pragma once

#include <array>
#include <cstdint>

#include "tools/common/image.h"

namespace npurun::image {

// A gray image as RGB (each sample three times); an RGB image unchanged.
Image to_rgb(const Image& img);

// The outline of the rectangle with corners (x1, y1) and (x2, y2) inclusive, `thickness` pixels inward,
// clipped to the image. RGB images only.
void draw_rectangle(Image& img, int x1, int y1, int x2, int y2, int thickness, std::array<uint8_t, 3> rgb);

}  // namespace npurun::image

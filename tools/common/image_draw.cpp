#include "tools/common/image_draw.h"

#include <algorithm>

namespace npurun::image {

Image to_rgb(const Image& img) {
    if (img.channels == 3) return img;
    Image out;
    out.width = img.width;
    out.height = img.height;
    out.channels = 3;
    out.pixels.resize(img.pixels.size() * 3);
    for (size_t i = 0; i < img.pixels.size(); ++i) out.pixels[3 * i] = out.pixels[3 * i + 1] = out.pixels[3 * i + 2] = img.pixels[i];
    return out;
}

void draw_rectangle(Image& img, int x1, int y1, int x2, int y2, int thickness, std::array<uint8_t, 3> rgb) {
    if (img.channels != 3 || img.width == 0 || img.height == 0) return;
    if (x1 > x2) std::swap(x1, x2);
    if (y1 > y2) std::swap(y1, y2);
    const int w = int(img.width), h = int(img.height);
    auto fill = [&](int ax, int ay, int bx, int by) {  // inclusive, clipped
        ax = std::max(ax, 0), ay = std::max(ay, 0), bx = std::min(bx, w - 1), by = std::min(by, h - 1);
        for (int y = ay; y <= by; ++y)
            for (int x = ax; x <= bx; ++x) {
                uint8_t* p = &img.pixels[(size_t(y) * img.width + size_t(x)) * 3];
                p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2];
            }
    };
    const int t = std::max(thickness, 1) - 1;
    fill(x1, y1, x2, y1 + t);
    fill(x1, y2 - t, x2, y2);
    fill(x1, y1, x1 + t, y2);
    fill(x2 - t, y1, x2, y2);
}

}  // namespace npurun::image

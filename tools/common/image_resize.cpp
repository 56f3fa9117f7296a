#include "tools/common/image_resize.h"

#include <algorithm>
#include <cmath>

namespace npurun::image {
namespace {

// For each output coordinate: the two source indices and the weight of the second.
struct Tap {
    uint32_t i0, i1;
    float w1;
};

std::vector<Tap> taps(uint32_t out, uint32_t in, double origin, double scale) {
    std::vector<Tap> t(out);
    for (uint32_t o = 0; o < out; ++o) {
        double s = origin + (o + 0.5) * scale - 0.5;
        s = std::clamp(s, 0.0, double(in - 1));
        const uint32_t i0 = std::min(uint32_t(s), in - 1);
        const uint32_t i1 = std::min(i0 + 1, in - 1);
        t[o] = {i0, i1, float(s - i0)};
    }
    return t;
}

}  // namespace

std::vector<float> resize_bilinear(const Image& src, uint32_t width, uint32_t height, ResizeMode mode) {
    double sx = double(src.width) / width, sy = double(src.height) / height;
    double ox = 0, oy = 0;
    if (mode == ResizeMode::Crop) {
        const double s = std::min(sx, sy);  // source pixels per output pixel, so the region fits
        ox = (src.width - s * width) / 2;
        oy = (src.height - s * height) / 2;
        sx = sy = s;
    }
    const std::vector<Tap> tx = taps(width, src.width, ox, sx), ty = taps(height, src.height, oy, sy);
    const uint32_t c = src.channels;
    std::vector<float> out(size_t(width) * height * c);
    for (uint32_t y = 0; y < height; ++y) {
        const Tap& a = ty[y];
        for (uint32_t x = 0; x < width; ++x) {
            const Tap& b = tx[x];
            for (uint32_t k = 0; k < c; ++k) {
                const float top = src.at(b.i0, a.i0, k) * (1 - b.w1) + src.at(b.i1, a.i0, k) * b.w1;
                const float bottom = src.at(b.i0, a.i1, k) * (1 - b.w1) + src.at(b.i1, a.i1, k) * b.w1;
                out[(size_t(y) * width + x) * c + k] = top * (1 - a.w1) + bottom * a.w1;
            }
        }
    }
    return out;
}

}  // namespace npurun::image

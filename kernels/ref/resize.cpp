// Resize (NearestNeighbor, Bilinear), exactly CpuRef's Resize.cpp (reference/armnn-format.md §2):
//   scale = (in-1)/(out-1) with alignCorners and out > 1, else in/out;
//   source = (o+0.5)*scale - 0.5 (halfPixelCenters, Bilinear), (o+0.5)*scale (halfPixelCenters, Nearest),
//            o*scale otherwise;
//   base   = round-half-away(source) for Nearest with alignCorners, floor(source) otherwise, clamped at 0;
//   Bilinear: next texel min(ceil(source), in-1) with halfPixelCenters else min(base+1, in-1), weight
//   source - base, interpolated along x, then y. Nearest takes the base texel.
#include <algorithm>
#include <cmath>

#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

float resize_scale(uint32_t in, uint32_t out, bool align_corners) {
    return (align_corners && out > 1) ? float(in - 1) / float(out - 1) : float(in) / float(out);
}

struct Texel {
    uint32_t lo, hi;  // the two texels to interpolate between (Nearest uses lo)
    float weight;     // of hi
};

Texel source_texel(uint32_t o, float scale, uint32_t in, const ResizeAttrs& at) {
    const bool bilinear = at.method == ResizeMethod::Bilinear;
    float src = float(o) * scale;
    if (at.half_pixel_centers) src = bilinear ? (float(o) + 0.5f) * scale - 0.5f : (float(o) + 0.5f) * scale;
    const float base = (!bilinear && at.align_corners) ? std::round(src) : std::floor(src);
    Texel t;
    // Clamping to in-1 never changes a valid CpuRef result; it only guards float rounding at the edge.
    t.lo = std::min(uint32_t(std::max(base, 0.0f)), in - 1);
    t.weight = src - base;
    if (at.half_pixel_centers)
        t.hi = std::min(uint32_t(std::max(std::ceil(src), 0.0f)), in - 1);
    else
        t.hi = std::min(t.lo + 1, in - 1);
    return t;
}

float lerp(float a, float b, float w) { return w * (b - a) + a; }

void run(const KernelArgs& a) {
    const auto& at = a.node.attr<ResizeAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& yi = out_info(a, 0);
    const ImageIndexer in(xi.shape, at.layout), out(yi.shape, at.layout);
    const float sy = resize_scale(in.h, out.h, at.align_corners);
    const float sx = resize_scale(in.w, out.w, at.align_corners);
    const Reader x(xi, a.inputs[0]);
    const Writer y(yi, a.outputs[0]);
    for (uint32_t n = 0; n < out.n; ++n)
        for (uint32_t c = 0; c < out.c; ++c)
            for (uint32_t oy = 0; oy < out.h; ++oy) {
                const Texel ty = source_texel(oy, sy, in.h, at);
                for (uint32_t ox = 0; ox < out.w; ++ox) {
                    const Texel tx = source_texel(ox, sx, in.w, at);
                    float v;
                    if (at.method == ResizeMethod::Bilinear) {
                        const float top = lerp(x[in(n, c, ty.lo, tx.lo)], x[in(n, c, ty.lo, tx.hi)], tx.weight);
                        const float bottom = lerp(x[in(n, c, ty.hi, tx.lo)], x[in(n, c, ty.hi, tx.hi)], tx.weight);
                        v = lerp(top, bottom, ty.weight);
                    } else {
                        v = x[in(n, c, ty.lo, tx.lo)];
                    }
                    y.set(out(n, c, oy, ox), v);
                }
            }
}

}  // namespace

const Kernel kResize = {check_numeric_io, nullptr, run};

}  // namespace npurun::kernels::ref

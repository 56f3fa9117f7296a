// Geometry of a 2-D (depthwise) convolution over NHWC data, computed from the node once, by the kernel's prepare.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/types.h"

namespace npurun::kernels::neon {

struct ConvGeometry {
    ptrdiff_t n, ih, iw, ic;   // input  [n, ih, iw, ic]
    ptrdiff_t oh, ow, oc;      // output [n, oh, ow, oc]
    ptrdiff_t kh, kw;
    ptrdiff_t sy, sx, dy, dx, pt, pl;

    // Input pixel row/column of output (oy, ox) at tap (ky, kx); may be outside the input (padding).
    ptrdiff_t in_y(ptrdiff_t oy, ptrdiff_t ky) const { return oy * sy - pt + ky * dy; }
    ptrdiff_t in_x(ptrdiff_t ox, ptrdiff_t kx) const { return ox * sx - pl + kx * dx; }
    bool inside(ptrdiff_t y, ptrdiff_t x) const { return y >= 0 && y < ih && x >= 0 && x < iw; }
};

// Input [N,H,W,C], weights [O,KH,KW,I] (conv) or [1,KH,KW,C*M] (depthwise), output [N,OH,OW,O]; all NHWC.
template <class Attrs>
ConvGeometry conv_geometry(const Attrs& a, const Shape& x, const Shape& w, const Shape& y) {
    ConvGeometry g{};
    g.n = x[0]; g.ih = x[1]; g.iw = x[2]; g.ic = x[3];
    g.oh = y[1]; g.ow = y[2]; g.oc = y[3];
    g.kh = w[1]; g.kw = w[2];
    g.sy = a.stride_y; g.sx = a.stride_x; g.dy = a.dilation_y; g.dx = a.dilation_x;
    g.pt = a.pad_top; g.pl = a.pad_left;
    return g;
}

}  // namespace npurun::kernels::neon

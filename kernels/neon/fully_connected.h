// NEON FullyConnected entry points.
#pragma once

#include <cstddef>

#include "kernels/kernel.h"
#include "kernels/neon/conv_geometry.h"

namespace npurun::kernels::neon {

// A FullyConnected node's sizes: the input flattened to [batch, in] as Arm NN does, weights [out, in]
// (transpose_weights) or [in, out]. batch is 0 when in is 0 (check refuses that).
struct FcDims {
    size_t batch, in, out;
};
inline FcDims fc_dims(const KernelNode& n) {
    const auto& a = n.attr<FullyConnectedAttrs>();
    const Shape& w = n.in(1).shape;
    const size_t in = a.transpose_weights ? w[1] : w[0], out = a.transpose_weights ? w[0] : w[1];
    return {in ? n.in(0).shape.num_elements() / in : 0, in, out};
}

// The layer as the 1x1 convolution of a [batch, 1, 1, in] image the convolution engines run it as.
inline ConvGeometry fc_geometry(const FcDims& d) {
    ConvGeometry g{};
    g.n = ptrdiff_t(d.batch);
    g.ih = g.iw = g.oh = g.ow = 1;
    g.ic = ptrdiff_t(d.in);
    g.oc = ptrdiff_t(d.out);
    g.kh = g.kw = g.sy = g.sx = g.dy = g.dx = 1;
    return g;
}

// x [batch, in], weights [out, in] (weights_oi) or [in, out], bias [out] or nullptr, y [batch, out].
void fully_connected_f32(const float* x, const float* w, const float* bias, float* y, size_t batch, size_t in,
                         size_t out, bool weights_oi);

}  // namespace npurun::kernels::neon

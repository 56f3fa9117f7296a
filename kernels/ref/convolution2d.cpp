// Convolution2d and DepthwiseConvolution2d (one file: they share the window walk).
//
// Float types: as CpuRef's ConvImpl, sum in float over (input channel, kernel row, kernel column) in that
// order, add the bias, round once on store. Quantized types: npurun's integer pipeline
// (core/quantization.h): exact integer accumulation of (qx - zx) * (qw - zw), bias in accumulator
// units, one requantize per output. Padding contributes nothing (real 0, i.e. the zero point).
#include "kernels/ref/element_access.h"
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

struct ConvGeometry {
    ImageIndexer in, out;
    uint32_t kh = 0, kw = 0;
    uint32_t pad_top = 0, pad_left = 0, stride_y = 1, stride_x = 1, dil_y = 1, dil_x = 1;
    uint32_t depth_multiplier = 0;  // 0: regular convolution; otherwise depthwise with this multiplier
    bool weights_nchw = false;      // regular convolution: [O,I,H,W] instead of [O,H,W,I]
    bool bias = false;

    // Input channels that feed output channel oc: [first, first + count).
    uint32_t first_in_channel(uint32_t oc) const { return depth_multiplier ? oc / depth_multiplier : 0; }
    uint32_t in_channel_count() const { return depth_multiplier ? 1 : in.c; }

    size_t weight_index(uint32_t oc, uint32_t ic, uint32_t ky, uint32_t kx) const {
        if (depth_multiplier) return (size_t(ky) * kw + kx) * out.c + oc;  // [1, H, W, I*M]
        if (weights_nchw) return ((size_t(oc) * in.c + ic) * kh + ky) * kw + kx;
        return ((size_t(oc) * kh + ky) * kw + kx) * in.c + ic;
    }

    // Calls f(input_index, weight_index) for every tap of output (n, oc, oy, ox) that reads a real input
    // element, in CpuRef's order: input channel, kernel row, kernel column.
    template <class F> void for_each_tap(uint32_t n, uint32_t oc, uint32_t oy, uint32_t ox, F&& f) const {
        const uint32_t ic0 = first_in_channel(oc), icn = in_channel_count();
        for (uint32_t ic = ic0; ic < ic0 + icn; ++ic) {
            for (uint32_t ky = 0; ky < kh; ++ky) {
                const int64_t iy = int64_t(oy) * stride_y + int64_t(ky) * dil_y - pad_top;
                if (iy < 0 || iy >= int64_t(in.h)) continue;
                for (uint32_t kx = 0; kx < kw; ++kx) {
                    const int64_t ix = int64_t(ox) * stride_x + int64_t(kx) * dil_x - pad_left;
                    if (ix < 0 || ix >= int64_t(in.w)) continue;
                    f(in(n, ic, uint32_t(iy), uint32_t(ix)), weight_index(oc, ic, ky, kx));
                }
            }
        }
    }
};

void run_conv(const KernelArgs& a, const ConvGeometry& g) {
    const TensorInfo& xi = in_info(a, 0);
    const TensorInfo& wi = in_info(a, 1);
    const TensorInfo& yi = out_info(a, 0);
    const void* x = a.inputs[0];
    const void* w = a.inputs[1];
    const void* b = g.bias ? a.inputs[2] : nullptr;

    if (is_float(xi.dtype)) {
        const Reader xr(xi, x), wr(wi, w);
        const Writer yw(yi, a.outputs[0]);
        for (uint32_t n = 0; n < g.out.n; ++n)
            for (uint32_t oc = 0; oc < g.out.c; ++oc) {
                const float bias = b ? Reader(in_info(a, 2), b)[oc] : 0.0f;
                for (uint32_t oy = 0; oy < g.out.h; ++oy)
                    for (uint32_t ox = 0; ox < g.out.w; ++ox) {
                        float sum = 0.0f;
                        g.for_each_tap(n, oc, oy, ox, [&](size_t xi_, size_t wi_) { sum += xr[xi_] * wr[wi_]; });
                        if (b) sum += bias;
                        yw.set(g.out(n, oc, oy, ox), sum);
                    }
            }
        return;
    }

    // Quantized: integer accumulation, one rescale per output element.
    const int32_t zx = xi.quant.offset;
    const int32_t zw = wi.quant.per_axis() ? 0 : wi.quant.offset;
    for (uint32_t n = 0; n < g.out.n; ++n)
        for (uint32_t oc = 0; oc < g.out.c; ++oc) {
            const float sw = wi.quant.scale(oc);
            const double m = quant::multiplier(xi.quant.scale(), sw, yi.quant.scale());
            int32_t bias = 0;
            if (b) {
                const TensorInfo& bi = in_info(a, 2);
                bias = quant::accumulator_bias(load_int(b, DataType::Signed32, oc), bi.quant.scale(oc),
                                               xi.quant.scale(), sw);
            }
            for (uint32_t oy = 0; oy < g.out.h; ++oy)
                for (uint32_t ox = 0; ox < g.out.w; ++ox) {
                    int64_t acc = 0;
                    g.for_each_tap(n, oc, oy, ox, [&](size_t xi_, size_t wi_) {
                        acc += int64_t(load_int(x, xi.dtype, xi_) - zx) * (load_int(w, wi.dtype, wi_) - zw);
                    });
                    acc += bias;
                    const int32_t q = quant::requantize(acc, m, yi.quant.offset, yi.dtype);
                    store_quantized(a.outputs[0], yi.dtype, g.out(n, oc, oy, ox), q);
                }
        }
}

// The geometry both layers share: tensors, padding, stride, dilation and bias from their attributes
// (Convolution2dAttrs and DepthwiseConvolution2dAttrs name these fields alike); kernel size and weight
// layout are set by the caller.
template <class Attrs> ConvGeometry window_geometry(const KernelArgs& a, const Attrs& at) {
    ConvGeometry g{ImageIndexer(in_info(a, 0).shape, at.layout), ImageIndexer(out_info(a, 0).shape, at.layout)};
    g.pad_top = at.pad_top;
    g.pad_left = at.pad_left;
    g.stride_y = at.stride_y;
    g.stride_x = at.stride_x;
    g.dil_y = at.dilation_y;
    g.dil_x = at.dilation_x;
    g.bias = at.bias_enabled && a.node.num_inputs() > 2 && a.inputs[2] != nullptr;
    return g;
}

void run_convolution2d(const KernelArgs& a) {
    const auto& at = a.node.attr<Convolution2dAttrs>();
    ConvGeometry g = window_geometry(a, at);
    const Shape& ws = in_info(a, 1).shape;
    g.weights_nchw = at.layout == DataLayout::NCHW;
    g.kh = g.weights_nchw ? ws[2] : ws[1];
    g.kw = g.weights_nchw ? ws[3] : ws[2];
    run_conv(a, g);
}

void run_depthwise(const KernelArgs& a) {
    const auto& at = a.node.attr<DepthwiseConvolution2dAttrs>();
    ConvGeometry g = window_geometry(a, at);
    const Shape& ws = in_info(a, 1).shape;  // [1, H, W, I*M]
    g.kh = ws[1];
    g.kw = ws[2];
    g.depth_multiplier = ws[3] / g.in.c;
    run_conv(a, g);
}

}  // namespace

const Kernel kConvolution2d = {check_weighted_operands, nullptr, run_convolution2d};
const Kernel kDepthwiseConvolution2d = {check_weighted_operands, nullptr, run_depthwise};

}  // namespace npurun::kernels::ref

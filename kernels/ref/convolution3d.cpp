// Convolution3d and TransposeConvolution2d, computed in float on dequantized values and rounded once on
// store (CpuRef's Conv3dImpl / TransposeConvolution2d.cpp); padding contributes real 0.
//   Convolution3d: weights [D,H,W,I,O]; sum over (kd, kh, kw, ic) in that order, then the bias.
//   TransposeConvolution2d: scatter-accumulate; input (y, x) adds into outputs starting at
//   (y*strideY - padTop, x*strideX - padLeft); the bias is added at the end. Weights [O,H,W,I] (NHWC) or
//   [O,I,H,W] (NCHW).
#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

struct Dims5 {
    uint32_t n, c, d, h, w;
    bool ndhwc;
    Dims5(const Shape& s, DataLayout l) : ndhwc(l == DataLayout::NDHWC) {
        n = s[0];
        if (ndhwc) { d = s[1]; h = s[2]; w = s[3]; c = s[4]; }
        else { c = s[1]; d = s[2]; h = s[3]; w = s[4]; }
    }
    size_t operator()(uint32_t bn, uint32_t ch, uint32_t z, uint32_t y, uint32_t x) const {
        if (ndhwc) return (((size_t(bn) * d + z) * h + y) * w + x) * c + ch;
        return (((size_t(bn) * c + ch) * d + z) * h + y) * w + x;
    }
};

// Input, weights and output of both layers, with the readers of the input and weights (both compute on
// dequantized values).
struct Operands {
    const TensorInfo& xi;
    const TensorInfo& wi;
    const TensorInfo& yi;
    Reader x, w;
    explicit Operands(const KernelArgs& a)
        : xi(in_info(a, 0)), wi(in_info(a, 1)), yi(out_info(a, 0)), x(xi, a.inputs[0]), w(wi, a.inputs[1]) {}
};

void run_conv3d(const KernelArgs& a) {
    const auto& at = a.node.attr<Convolution3dAttrs>();
    const Operands op(a);
    const Dims5 in(op.xi.shape, at.layout), out(op.yi.shape, at.layout);
    const uint32_t kd = op.wi.shape[0], kh = op.wi.shape[1], kw = op.wi.shape[2];
    const Reader& x = op.x;
    const Reader& w = op.w;
    const Writer y(op.yi, a.outputs[0]);
    for (uint32_t n = 0; n < out.n; ++n)
        for (uint32_t oc = 0; oc < out.c; ++oc)
            for (uint32_t oz = 0; oz < out.d; ++oz)
                for (uint32_t oy = 0; oy < out.h; ++oy)
                    for (uint32_t ox = 0; ox < out.w; ++ox) {
                        float acc = 0.0f;
                        for (uint32_t z = 0; z < kd; ++z) {
                            const int64_t iz = int64_t(oz) * at.stride_z + int64_t(z) * at.dilation_z - at.pad_front;
                            if (iz < 0 || iz >= int64_t(in.d)) continue;
                            for (uint32_t ky = 0; ky < kh; ++ky) {
                                const int64_t iy = int64_t(oy) * at.stride_y + int64_t(ky) * at.dilation_y - at.pad_top;
                                if (iy < 0 || iy >= int64_t(in.h)) continue;
                                for (uint32_t kx = 0; kx < kw; ++kx) {
                                    const int64_t ix = int64_t(ox) * at.stride_x + int64_t(kx) * at.dilation_x - at.pad_left;
                                    if (ix < 0 || ix >= int64_t(in.w)) continue;
                                    for (uint32_t ic = 0; ic < in.c; ++ic)
                                        acc += x[in(n, ic, uint32_t(iz), uint32_t(iy), uint32_t(ix))] *
                                               w[(((size_t(z) * kh + ky) * kw + kx) * in.c + ic) * out.c + oc];
                                }
                            }
                        }
                        if (at.bias_enabled) acc += Reader(in_info(a, 2), a.inputs[2])[oc];
                        y.set(out(n, oc, oz, oy, ox), acc);
                    }
}

// Scratch: one float accumulator per output element.
size_t tconv_scratch(const KernelNode& node) {
    return node.out(0).shape.num_elements() * sizeof(float);
}

void run_tconv(const KernelArgs& a) {
    const auto& at = a.node.attr<TransposeConvolution2dAttrs>();
    const Operands op(a);
    const TensorInfo& wi = op.wi;
    const TensorInfo& yi = op.yi;
    const ImageIndexer in(op.xi.shape, at.layout), out(yi.shape, at.layout);
    const bool nhwc = at.layout == DataLayout::NHWC;
    const uint32_t kh = nhwc ? wi.shape[1] : wi.shape[2], kw = nhwc ? wi.shape[2] : wi.shape[3];
    auto widx = [&](uint32_t oc, uint32_t ic, uint32_t ky, uint32_t kx) {
        return nhwc ? ((size_t(oc) * kh + ky) * kw + kx) * in.c + ic : ((size_t(oc) * in.c + ic) * kh + ky) * kw + kx;
    };
    float* acc = static_cast<float*>(a.scratch);
    const size_t total = yi.shape.num_elements();
    for (size_t i = 0; i < total; ++i) acc[i] = 0.0f;
    for (uint32_t n = 0; n < in.n; ++n)
        for (uint32_t iy = 0; iy < in.h; ++iy)
            for (uint32_t ix = 0; ix < in.w; ++ix)
                for (uint32_t ic = 0; ic < in.c; ++ic) {
                    const float v = op.x[in(n, ic, iy, ix)];
                    for (uint32_t ky = 0; ky < kh; ++ky) {
                        const int64_t oy = int64_t(iy) * at.stride_y + ky - at.pad_top;
                        if (oy < 0 || oy >= int64_t(out.h)) continue;
                        for (uint32_t kx = 0; kx < kw; ++kx) {
                            const int64_t ox = int64_t(ix) * at.stride_x + kx - at.pad_left;
                            if (ox < 0 || ox >= int64_t(out.w)) continue;
                            for (uint32_t oc = 0; oc < out.c; ++oc)
                                acc[out(n, oc, uint32_t(oy), uint32_t(ox))] += v * op.w[widx(oc, ic, ky, kx)];
                        }
                    }
                }
    const Writer y(yi, a.outputs[0]);
    for (uint32_t n = 0; n < out.n; ++n)
        for (uint32_t oc = 0; oc < out.c; ++oc) {
            const float b = at.bias_enabled ? Reader(in_info(a, 2), a.inputs[2])[oc] : 0.0f;
            for (uint32_t oy = 0; oy < out.h; ++oy)
                for (uint32_t ox = 0; ox < out.w; ++ox) {
                    const size_t o = out(n, oc, oy, ox);
                    y.set(o, acc[o] + b);
                }
        }
}

std::string check_conv(const KernelNode& node) {
    std::string r = accept_numeric_or(node.in(0).dtype, {}, " input not supported");
    if (r.empty() && node.num_inputs() > 2 && node.has_input(2))
        r = accept_numeric_or(node.in(2).dtype, {DataType::Signed32}, " bias not supported");
    return r;
}

}  // namespace

const Kernel kConvolution3d = {check_conv, nullptr, run_conv3d};
const Kernel kTransposeConvolution2d = {check_conv, tconv_scratch, run_tconv};

}  // namespace npurun::kernels::ref

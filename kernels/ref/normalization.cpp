// Normalization (LRN, LocalBrightness), InstanceNormalization, L2Normalization and BatchNormalization with
// CpuRef's formulas (reference/armnn-format.md §2), computed in float:
//   across channels: out = x * (k + alpha * sum_{c-r..c+r} x^2)^(-beta), r = normSize / 2, alpha NOT / normSize
//   within channel:  out = x / (k + alpha * sum over the (2r+1)^2 window x^2)^beta, window clipped to the image
//     Decision: CpuRef indexes this path as NCHW whatever the layout (a bug); npurun honours the layout, so
//     NCHW results equal CpuRef's and NHWC results are the intended ones.
//   LocalContrast: CpuRef leaves the output unwritten; npurun refuses the node in `check` (Unsupported).
//   instance norm:   per (n, c): out = (x - mean) * gamma / sqrt(var + eps) + beta, biased variance over H*W
//   L2:              per position: out = x / sqrt(max(sum_c x^2, eps)); ranks below 4 are padded to 4-D by
//     the layout as CpuRef does (kept quirk: a 2-D NCHW input normalizes every element by itself).
//   batch norm:      per channel mult = gamma / sqrt(var + eps), add = beta - mult * mean, out = mult * x + add
//     (CpuRef's BatchNormImpl).
#include <algorithm>
#include <cmath>

#include "kernels/ref/ref_common.h"
#include "kernels/ref/ref_kernels.h"

namespace npurun::kernels::ref {
namespace {

void run_lrn(const KernelArgs& a) {
    const auto& at = a.node.attr<NormalizationAttrs>();
    const ImageInOut io(a, at.layout);
    const int64_t r = at.norm_size / 2;
    for (uint32_t n = 0; n < io.ix.n; ++n)
        for (uint32_t c = 0; c < io.ix.c; ++c)
            for (uint32_t h = 0; h < io.ix.h; ++h)
                for (uint32_t w = 0; w < io.ix.w; ++w) {
                    float acc = 0.0f;
                    const size_t o = io.ix(n, c, h, w);
                    if (at.channel == NormChannel::Across) {
                        for (int64_t z = -r; z <= r; ++z) {
                            const int64_t k = int64_t(c) + z;
                            if (k < 0 || k >= int64_t(io.ix.c)) continue;
                            const float v = io.x[io.ix(n, uint32_t(k), h, w)];
                            acc += v * v;
                        }
                        io.y.set(o, std::pow(at.k + acc * at.alpha, -at.beta) * io.x[o]);
                    } else {
                        for (int64_t dy = -r; dy <= r; ++dy)
                            for (int64_t dx = -r; dx <= r; ++dx) {
                                const int64_t yy = int64_t(h) + dy, xx = int64_t(w) + dx;
                                if (yy < 0 || yy >= int64_t(io.ix.h) || xx < 0 || xx >= int64_t(io.ix.w)) continue;
                                const float v = io.x[io.ix(n, c, uint32_t(yy), uint32_t(xx))];
                                acc += v * v;
                            }
                        io.y.set(o, io.x[o] / std::pow(at.k + acc * at.alpha, at.beta));
                    }
                }
}

std::string check_lrn(const KernelNode& node) {
    if (node.attr<NormalizationAttrs>().method == NormMethod::LocalContrast)
        return "LocalContrast normalization has no reference implementation in Arm NN";
    return check_numeric_io(node);
}

void run_instance_norm(const KernelArgs& a) {
    const auto& at = a.node.attr<InstanceNormalizationAttrs>();
    const ImageInOut io(a, at.layout);
    const float count = float(size_t(io.ix.h) * io.ix.w);
    for (uint32_t n = 0; n < io.ix.n; ++n)
        for (uint32_t c = 0; c < io.ix.c; ++c) {
            float mean = 0.0f;
            for (uint32_t h = 0; h < io.ix.h; ++h)
                for (uint32_t w = 0; w < io.ix.w; ++w) mean += io.x[io.ix(n, c, h, w)];
            mean /= count;
            float var = 0.0f;
            for (uint32_t h = 0; h < io.ix.h; ++h)
                for (uint32_t w = 0; w < io.ix.w; ++w) {
                    const float d = io.x[io.ix(n, c, h, w)] - mean;
                    var += d * d;
                }
            var /= count;
            const float scale = at.gamma / std::sqrt(var + at.eps);
            for (uint32_t h = 0; h < io.ix.h; ++h)
                for (uint32_t w = 0; w < io.ix.w; ++w) {
                    const size_t o = io.ix(n, c, h, w);
                    io.y.set(o, (io.x[o] - mean) * scale + at.beta);
                }
        }
}

void run_l2_norm(const KernelArgs& a) {
    const auto& at = a.node.attr<L2NormalizationAttrs>();
    const TensorInfo& xi = in_info(a, 0);
    const Shape& s = xi.shape;
    // CpuRef's padding: dimension i of the 4-D layout is s[i - shift] when that exists, otherwise 1 (and the
    // batch is s[0] only for 4-D inputs).
    const int shift = 4 - int(s.rank);
    auto dim = [&](int i) { return i - shift >= 0 ? s[uint32_t(i - shift)] : 1u; };
    const bool nchw = at.layout == DataLayout::NCHW;
    Shape padded;
    if (nchw) padded = Shape{shift == 0 ? s[0] : 1u, dim(1), dim(2), dim(3)};
    else padded = Shape{shift == 0 ? s[0] : 1u, dim(1), dim(2), dim(3)};
    const ImageIndexer ix(padded, at.layout);
    const Reader x(xi, a.inputs[0]);
    const Writer y(out_info(a, 0), a.outputs[0]);
    for (uint32_t n = 0; n < ix.n; ++n)
        for (uint32_t h = 0; h < ix.h; ++h)
            for (uint32_t w = 0; w < ix.w; ++w) {
                float sum = 0.0f;
                for (uint32_t c = 0; c < ix.c; ++c) {
                    const float v = x[ix(n, c, h, w)];
                    sum += v * v;
                }
                const float inv = 1.0f / std::sqrt(std::max(sum, at.eps));
                for (uint32_t c = 0; c < ix.c; ++c) {
                    const size_t o = ix(n, c, h, w);
                    y.set(o, x[o] * inv);
                }
            }
}

void run_batch_norm(const KernelArgs& a) {
    const auto& at = a.node.attr<BatchNormalizationAttrs>();
    const ImageInOut io(a, at.layout);
    const Reader mean(in_info(a, 1), a.inputs[1]), var(in_info(a, 2), a.inputs[2]);
    const Reader beta(in_info(a, 3), a.inputs[3]), gamma(in_info(a, 4), a.inputs[4]);
    for (uint32_t c = 0; c < io.ix.c; ++c) {
        const float mult = gamma[c] / std::sqrt(var[c] + at.eps);
        const float add = beta[c] - mult * mean[c];
        for (uint32_t n = 0; n < io.ix.n; ++n)
            for (uint32_t h = 0; h < io.ix.h; ++h)
                for (uint32_t w = 0; w < io.ix.w; ++w) {
                    const size_t i = io.ix(n, c, h, w);
                    io.y.set(i, mult * io.x[i] + add);
                }
    }
}

}  // namespace

const Kernel kBatchNormalization = {check_numeric_io, nullptr, run_batch_norm};
const Kernel kNormalization = {check_lrn, nullptr, run_lrn};
const Kernel kInstanceNormalization = {check_numeric_io, nullptr, run_instance_norm};
const Kernel kL2Normalization = {check_numeric_io, nullptr, run_l2_norm};

}  // namespace npurun::kernels::ref

// MNN Deconvolution / DeconvolutionDepthwise -> the IR's TransposeConvolution2d (channels-last, NHWC).
//
// Facts this mapping relies on (MNN sources, looked up for this file; reference/mnn-format-and-rknn-runtime.md
// §1.6 and §1.8 say the same for the weights and SAME padding):
//   * float weights are stored [inputCount][outputCount/group][kernelY][kernelX] (Caffe's deconvolution
//     blob order; CPUDeconvolution's _transformWeight walks them per input channel), so a depthwise
//     deconvolution stores [channels][1][kY][kX];
//   * out = (in - 1) * stride + dilate * (k - 1) + 1 - padBegin - padEnd, with the pads from `pads`
//     ([top, left, bottom, right]) or symmetric padY/padX, plus outPads ([h, w]) at the end
//     (ShapeDeconvolution); SAME gives out = in * stride; hasOutputShape takes out from the last input
//     ([.., h, w, ..] at positions 1 and 2);
//   * the leading pad (ConvolutionCommon::convolutionTransposePad): SAME ((in - 1) * stride + k - out) / 2
//     with the undilated k; otherwise padY/padX, or pads[0]/pads[1]. The trailing pad is whatever makes the
//     output size come out, so outPads and hasOutputShape just shorten it.
// The IR's TransposeConvolution2d has neither groups nor dilation, so the loader writes the dense
// [O, kh', kw', I] kernel it is equivalent to: dilation becomes zero taps, a depthwise deconvolution a
// block-diagonal kernel (channel o reads only input channel o). The extra terms are exact zeros; they
// change nothing for finite inputs, while an Inf/NaN input value spreads to every output channel instead
// of only its own.
#include <cstring>

#include "core/checked_math.h"
#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"

namespace npurun::mnn {

namespace {

// The dense kernel (and a stripped file's zero kernel) is refused above this many floats (256 MiB).
constexpr size_t kMaxDenseWeights = size_t(1) << 26;

uint32_t pad_value(const Builder& b, int32_t v, const char* what) {
    if (v < 0 || v > (1 << 16)) b.bad(std::string(what) + " is " + std::to_string(v) + " (must be 0..65536)");
    return static_cast<uint32_t>(v);
}

struct Extent {
    uint32_t out = 0, begin = 0, end = 0;
};

// One spatial axis: `full` is (in - 1) * stride + dilated kernel, `given` the output size fixed by
// hasOutputShape (0 if none).
Extent axis_extent(const Builder& b, const MNN::Convolution2DCommon* c, bool y_axis, uint32_t in, uint32_t k,
                   uint32_t stride, uint64_t full, uint32_t given) {
    const char* axis = y_axis ? "height" : "width";
    Extent e;
    int64_t out = 0;
    if (c->padMode() == MNN::PadMode::SAME) {
        out = given ? given : int64_t(in) * stride;
        const int64_t needed = (int64_t(in) - 1) * stride + k - out;
        e.begin = needed > 0 ? static_cast<uint32_t>(needed / 2) : 0;
    } else {
        const auto* pads = c->pads();
        if (pads && pads->size() > 0 && pads->size() < 4) b.bad("pads has " + std::to_string(pads->size()) + " values (needs 4)");
        uint32_t end = 0;
        if (pads && pads->size() >= 4) {
            e.begin = pad_value(b, pads->Get(y_axis ? 0 : 1), y_axis ? "pads[0]" : "pads[1]");
            end = pad_value(b, pads->Get(y_axis ? 2 : 3), y_axis ? "pads[2]" : "pads[3]");
        } else {
            e.begin = end = pad_value(b, y_axis ? c->padY() : c->padX(), y_axis ? "padY" : "padX");
        }
        out = int64_t(full) - e.begin - end;
        if (const auto* op = c->outPads(); op && op->size() >= 2) out += pad_value(b, op->Get(y_axis ? 0 : 1), "outPads");
        if (given) out = given;
    }
    if (out < 1 || out > (1 << 24)) b.bad(std::string("output ") + axis + " " + std::to_string(out) + " is invalid");
    const int64_t end = int64_t(full) - e.begin - out;
    if (end < 0)
        b.unsupported(std::string("the output ") + axis + " " + std::to_string(out) +
                      " reaches past the kernel's last tap (bias-only rows are not expressible)");
    e.out = static_cast<uint32_t>(out);
    e.end = static_cast<uint32_t>(end);
    return e;
}

}  // namespace

void map_deconvolution(Builder& b) {
    const auto* conv = b.op->main_as_Convolution2D();
    if (!conv || !conv->common()) b.bad("has no Convolution2D parameters");
    const auto* c = conv->common();
    if (conv->external() && conv->external()->size() > 0)
        b.unsupported("its weights are in an external .weight file (newer MNN converter); npurun reads weights stored in the .mnn");
    if (conv->sparseParameter()) b.unsupported("sparse weights (Convolution2D.sparseParameter) are not supported");
    if (conv->symmetricQuan()) b.unsupported("int8 deconvolution (symmetricQuan) is not supported");
    const size_t extra_inputs = c->hasOutputShape() ? 1 : 0;
    if (b.num_inputs() != 1 + extra_inputs)
        b.unsupported("takes " + std::to_string(b.num_inputs()) + " inputs; npurun reads weights stored in the op" +
                      (extra_inputs ? " (plus the output shape)" : ""));
    uint32_t given_h = 0, given_w = 0;
    if (extra_inputs) {
        const TensorState& s = b.raw(1);
        if (!s.values) b.unsupported("the output shape (input 1) is computed at run time; npurun needs it at load time");
        if (s.values->size() < 3) b.bad("the output shape (input 1) has " + std::to_string(s.values->size()) + " values, needs 3 or more");
        const int32_t h = (*s.values)[1], w = (*s.values)[2];
        if (h > 0 && w > 0) given_h = uint32_t(h), given_w = uint32_t(w);
    }

    const TensorId xid = b.in_channels_last(0);
    const TensorInfo x = b.g.info(xid);
    if (x.dtype != DataType::Float32) b.bad(std::string("input is ") + to_string(x.dtype) + ", expected Float32");
    const uint32_t ic = x.shape[3], in_h = x.shape[1], in_w = x.shape[2];
    const uint32_t oc = positive_size(b, c->outputCount());
    const uint32_t group = positive_size(b, c->group());
    const uint32_t kh = positive_size(b, c->kernelY()), kw = positive_size(b, c->kernelX());
    const uint32_t sy = positive_size(b, c->strideY()), sx = positive_size(b, c->strideX());
    const uint32_t dy = positive_size(b, c->dilateY()), dx = positive_size(b, c->dilateX());
    // DeconvolutionDepthwise is one filter per channel whatever its group field says.
    const bool depthwise = b.op->type() == MNN::OpType::DeconvolutionDepthwise || group > 1;
    if (depthwise && (ic != oc || (group > 1 && group != ic)))
        b.unsupported("grouped deconvolution (group " + std::to_string(group) + ", " + std::to_string(ic) + " -> " +
                      std::to_string(oc) + " channels) is not supported; only group 1 and depthwise (channels in = out = group)");
    const uint32_t per_input = depthwise ? 1 : oc;  // filters each input channel feeds

    size_t n_file = 0;
    if (!checked_mul<size_t>(ic, per_input, &n_file) || !checked_mul<size_t>(n_file, kh, &n_file) ||
        !checked_mul<size_t>(n_file, kw, &n_file) || n_file > kMaxDenseWeights)
        b.bad("weight count " + std::to_string(ic) + "x" + std::to_string(per_input) + "x" + std::to_string(kh) + "x" +
              std::to_string(kw) + " is too large");
    const size_t stored = conv->weight() ? conv->weight()->size() : 0;
    if (stored != n_file && !(stored == 0 && b.weights_stripped && !conv->quanParameter())) {
        if (stored == 0 && conv->quanParameter())
            b.unsupported("weight-only quantized weights (IDSTQuan) are not supported yet");
        b.bad("has " + std::to_string(stored) + " weights, expected " + std::to_string(n_file) + " (" + std::to_string(ic) +
              "x" + std::to_string(per_input) + "x" + std::to_string(kh) + "x" + std::to_string(kw) + ")");
    }
    std::vector<float> bias(oc, 0.0f);
    if (conv->bias() && conv->bias()->size() > 0) {
        if (conv->bias()->size() != oc)
            b.bad("has " + std::to_string(conv->bias()->size()) + " bias values for " + std::to_string(oc) + " output channels");
        bias.assign(conv->bias()->begin(), conv->bias()->end());
    }

    const uint32_t kh_eff = dy * (kh - 1) + 1, kw_eff = dx * (kw - 1) + 1;
    const uint64_t full_h = (uint64_t(in_h) - 1) * sy + kh_eff, full_w = (uint64_t(in_w) - 1) * sx + kw_eff;
    const Extent ey = axis_extent(b, c, true, in_h, kh, sy, full_h, given_h);
    const Extent ex = axis_extent(b, c, false, in_w, kw, sx, full_w, given_w);

    size_t n_dense = 0;
    if (!checked_mul<size_t>(oc, kh_eff, &n_dense) || !checked_mul<size_t>(n_dense, kw_eff, &n_dense) ||
        !checked_mul<size_t>(n_dense, ic, &n_dense) || n_dense > kMaxDenseWeights)
        b.unsupported("the dense kernel " + std::to_string(oc) + "x" + std::to_string(kh_eff) + "x" + std::to_string(kw_eff) +
                      "x" + std::to_string(ic) + " (groups and dilation expanded) exceeds npurun's limit of " +
                      std::to_string(kMaxDenseWeights) + " values");
    std::vector<float> dense(n_dense, 0.0f);
    if (stored > 0) {
        const float* w = conv->weight()->data();
        for (uint32_t i = 0; i < ic; ++i)
            for (uint32_t j = 0; j < per_input; ++j) {
                const uint32_t o = depthwise ? i : j;
                for (uint32_t y = 0; y < kh; ++y)
                    for (uint32_t xx = 0; xx < kw; ++xx)
                        dense[((size_t(o) * kh_eff + size_t(y) * dy) * kw_eff + size_t(xx) * dx) * ic + i] =
                            w[((size_t(i) * per_input + j) * kh + y) * kw + xx];
            }
    }  // else: a graph-only ("benchmark") file: zero weights, as for convolutions (docs/mnn.md)

    const std::string base = b.base_name();
    const TensorId wt = b.new_float_constant(base + ":weights", Shape{oc, kh_eff, kw_eff, ic}, dense);
    const TensorId bt = b.new_float_constant(base + ":bias", Shape{oc}, bias);
    TransposeConvolution2dAttrs a;
    a.pad_top = ey.begin, a.pad_bottom = ey.end, a.pad_left = ex.begin, a.pad_right = ex.end;
    a.stride_y = sy, a.stride_x = sx;
    a.bias_enabled = true;
    a.layout = DataLayout::NHWC;
    const TensorId y = b.new_value(base);
    b.emit(OpKind::TransposeConvolution2d, a, {xid, wt, bt}, {y});
    b.produce(0, fused_activation(b, y, c->relu(), c->relu6(), false), Layout::NCHW, {}, /*channels_last=*/true);
}

}  // namespace npurun::mnn

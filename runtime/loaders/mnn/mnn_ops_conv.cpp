// MNN convolutions (float, depthwise, MNN's own int8 scheme), pooling and InnerProduct -> IR nodes.
//
// MNN's int8 arithmetic (ConvInt8 / DepthwiseConvInt8, 2019 converter): int8 input, symmetric int8 weights,
// int32 bias in accumulator units, one float scale per output channel,
//     q_out = clamp(round_half_away(acc * scale[o]), -127, 127)      ([0, 127] with the fused ReLU)
// MNN stores only the combined scale s_w*s_in/s_out, never the per-tensor activation scales. The IR keeps
// activation scales on tensors and computes the multiplier as s_in * s_w[o] / s_out (in double), so the
// loader picks the activation scales and derives s_w[o] = scale[o] * s_out / s_in:
//   * an int8 tensor keeps its producer's input scale (s_out = s_in), which makes the IR multiplier
//     exactly scale[o] (the double product s_in*s_w is exact, the division returns s_w);
//   * an int8 tensor read by Int8ToFloat takes that op's tensorScale (its real scale); then s_w[o] is
//     rounded to float once and the multiplier differs from MNN's by at most one float ulp (relative
//     6e-8), which can move a rounding only when acc*scale lies that close to a .5 boundary.
// The [-127, 127] clamp is an explicit BoundedReLu after the convolution (the IR's int8 range is
// [-128, 127]); the NPU fuses it into the convolution like any bounded ReLU.
#include <cmath>
#include <cstring>

#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"
#include "core/checked_math.h"

namespace npurun::mnn {

namespace {

// Zero weights stand in for a graph-only file's stripped ones up to this many values (256 MiB of float).
constexpr size_t kMaxZeroWeights = size_t(1) << 26;

struct Pads {
    uint32_t top = 0, left = 0, bottom = 0, right = 0;
};

uint32_t positive(const Builder& b, int32_t v, const char* what, uint32_t max = 1u << 16) {
    if (v < 1 || static_cast<uint32_t>(v) > max)
        b.bad(std::string(what) + " is " + std::to_string(v) + " (must be 1.." + std::to_string(max) + ")");
    return static_cast<uint32_t>(v);
}

uint32_t nonneg(const Builder& b, int32_t v, const char* what) {
    if (v < 0 || v > (1 << 16)) b.bad(std::string(what) + " is " + std::to_string(v) + " (must be 0..65536)");
    return static_cast<uint32_t>(v);
}

// TF SAME: out = ceil(in/stride), the total padding split with the odd one at the end.
void same_pads(uint32_t in, uint32_t stride, uint32_t k_eff, uint32_t* begin, uint32_t* end) {
    const uint64_t out = (uint64_t(in) + stride - 1) / stride;
    const int64_t total = std::max<int64_t>(0, int64_t(out - 1) * stride + k_eff - int64_t(in));
    *begin = static_cast<uint32_t>(total / 2);
    *end = static_cast<uint32_t>(total - total / 2);
}

// MNN's CAFFE padding, read alike from convolution and pooling parameters: pads = [top, left, bottom,
// right] when the list has four entries, otherwise padY / padX on both sides. Returns whether the explicit
// list was used.
template <class Param> bool caffe_pads(const Builder& b, const Param* prm, Pads& p) {
    if (prm->pads() && prm->pads()->size() >= 4) {
        p.top = nonneg(b, prm->pads()->Get(0), "pads[0]");
        p.left = nonneg(b, prm->pads()->Get(1), "pads[1]");
        p.bottom = nonneg(b, prm->pads()->Get(2), "pads[2]");
        p.right = nonneg(b, prm->pads()->Get(3), "pads[3]");
        return true;
    }
    p.top = p.bottom = nonneg(b, prm->padY(), "padY");
    p.left = p.right = nonneg(b, prm->padX(), "padX");
    return false;
}

Pads conv_pads(const Builder& b, const MNN::Convolution2DCommon* c, uint32_t in_h, uint32_t in_w, uint32_t kh_eff,
               uint32_t kw_eff, uint32_t sy, uint32_t sx) {
    Pads p;
    switch (c->padMode()) {
        case MNN::PadMode::SAME:
            same_pads(in_h, sy, kh_eff, &p.top, &p.bottom);
            same_pads(in_w, sx, kw_eff, &p.left, &p.right);
            return p;
        case MNN::PadMode::VALID: return p;
        case MNN::PadMode::CAFFE: break;
        default: b.bad("unknown padMode " + std::to_string(static_cast<int>(c->padMode())));
    }
    caffe_pads(b, c, p);
    return p;
}

// The attributes both convolution kinds are emitted with (the IR names these fields alike): the window,
// a bias (always materialized) and the channels-last layout the converted input has.
template <class Attrs> Attrs window_attrs(const Pads& p, uint32_t sx, uint32_t sy, uint32_t dx, uint32_t dy) {
    Attrs a;
    a.pad_top = p.top, a.pad_left = p.left, a.pad_bottom = p.bottom, a.pad_right = p.right;
    a.stride_x = sx, a.stride_y = sy, a.dilation_x = dx, a.dilation_y = dy;
    a.bias_enabled = true;
    a.layout = DataLayout::NHWC;
    return a;
}
}  // namespace

// Emits the fused activation of a convolution (float: ReLU / ReLU6; int8: also the [-127, 127] clamp).
TensorId fused_activation(Builder& b, TensorId y, bool relu, bool relu6, bool int8) {
    ActivationAttrs a;
    if (int8) {
        const float s = b.g.info(y).quant.scale();
        a.function = ActivationFunction::BoundedReLu;
        a.a = relu6 ? std::min(6.0f, 127.0f * s) : 127.0f * s;
        a.b = (relu || relu6) ? 0.0f : -127.0f * s;
        if (relu && !relu6) a.function = ActivationFunction::ReLu, a.a = 0.0f, a.b = 0.0f;
    } else if (relu6) {
        a.function = ActivationFunction::BoundedReLu;
        a.a = 6.0f;
        a.b = 0.0f;
    } else if (relu) {
        a.function = ActivationFunction::ReLu;
    } else {
        return y;
    }
    const TensorInfo& yi = b.g.info(y);
    const TensorId z = b.new_value(b.g.tensor(y).name + ":act", yi.dtype, yi.quant);
    b.emit(OpKind::Activation, a, {y}, {z}, "/activation");
    return z;
}

void map_convolution(Builder& b, bool int8) {
    const auto* conv = b.op->main_as_Convolution2D();
    if (!conv || !conv->common()) b.bad("has no Convolution2D parameters");
    const auto* c = conv->common();
    if (b.num_inputs() != 1)
        b.unsupported("takes its weights as " + std::to_string(b.num_inputs() - 1) +
                      " extra input tensors; npurun reads weights stored in the op");
    if (conv->external() && conv->external()->size() > 0)
        b.unsupported("its weights are in an external .weight file (newer MNN converter); npurun reads weights stored in the .mnn");
    if (conv->sparseParameter()) b.unsupported("sparse weights (Convolution2D.sparseParameter) are not supported");
    // Convolutions run channels-last (IR NHWC, the layout the NPU lowers); see mnn_builder.h.
    const TensorId xid = b.in_channels_last(0);
    const TensorInfo x = b.g.info(xid);
    const uint32_t ic = x.shape[3], in_h = x.shape[1], in_w = x.shape[2];
    const uint32_t oc = positive(b, c->outputCount(), "outputCount");
    const uint32_t group = positive(b, c->group(), "group");
    const uint32_t kh = positive(b, c->kernelY(), "kernelY", 4096), kw = positive(b, c->kernelX(), "kernelX", 4096);
    const uint32_t sy = positive(b, c->strideY(), "strideY", 4096), sx = positive(b, c->strideX(), "strideX", 4096);
    const uint32_t dy = positive(b, c->dilateY(), "dilateY", 4096), dx = positive(b, c->dilateX(), "dilateX", 4096);
    const uint32_t kh_eff = dy * (kh - 1) + 1, kw_eff = dx * (kw - 1) + 1;
    const Pads p = conv_pads(b, c, in_h, in_w, kh_eff, kw_eff, sy, sx);

    const bool depthwise = group > 1 && group == ic && oc % ic == 0;
    if (group > 1 && !depthwise)
        b.unsupported("grouped convolution (group " + std::to_string(group) + ", " + std::to_string(ic) + " -> " +
                      std::to_string(oc) + " channels) is not supported; only group 1 and depthwise (group = input channels)");
    if (ic % group != 0) b.bad("input channels " + std::to_string(ic) + " are not a multiple of group " + std::to_string(group));
    size_t n_weights = 0;
    if (!checked_mul<size_t>(oc, ic / group, &n_weights) || !checked_mul<size_t>(n_weights, kh, &n_weights) ||
        !checked_mul<size_t>(n_weights, kw, &n_weights) || n_weights > (size_t(1) << 31))
        b.bad("weight count " + std::to_string(oc) + "x" + std::to_string(ic / group) + "x" + std::to_string(kh) + "x" +
              std::to_string(kw) + " is too large");

    // ---- weights into IR order: conv [O, H, W, I] (NHWC), depthwise [1, H, W, O]; the file has [O][I/g][H][W] ----
    const DataType wtype = int8 ? DataType::QSymmS8 : DataType::Float32;
    const size_t esize = element_size(wtype);
    // Check the stored counts before allocating anything sized by the (untrusted) shape fields.
    const size_t stored = int8 ? (conv->symmetricQuan() && conv->symmetricQuan()->weight() ? conv->symmetricQuan()->weight()->size() : 0)
                               : (conv->weight() ? conv->weight()->size() : 0);
    if (stored != n_weights && !(stored == 0 && !int8 && b.weights_stripped && !conv->quanParameter())) {
        if (!int8 && stored == 0 && conv->quanParameter())
            b.unsupported("weight-only quantized weights (IDSTQuan, type " + std::to_string(conv->quanParameter()->type()) +
                          ") are not supported yet");
        b.bad("has " + std::to_string(stored) + " weights, expected " + std::to_string(n_weights) + " (" + std::to_string(oc) +
              "x" + std::to_string(ic / group) + "x" + std::to_string(kh) + "x" + std::to_string(kw) + ")");
    }
    if (stored == 0 && n_weights > kMaxZeroWeights)
        b.unsupported("zero weights for this stripped (graph-only) convolution would take " + std::to_string(n_weights) +
                      " values, above npurun's limit of " + std::to_string(kMaxZeroWeights));
    std::vector<uint8_t> file_w(n_weights * esize, 0);
    std::vector<int32_t> bias_i32;
    std::vector<float> bias_f32;
    Quantization wq, bq, yq;
    DataType ytype = DataType::Float32;
    if (int8) {
        const auto* q = conv->symmetricQuan();
        if (!q) b.bad("an int8 convolution without symmetricQuan parameters");
        if (x.dtype != DataType::QAsymmS8) b.bad(std::string("input is ") + to_string(x.dtype) + ", expected int8 (from FloatToInt8 or an int8 op)");
        std::memcpy(file_w.data(), q->weight()->data(), n_weights);
        if (!q->scale() || q->scale()->size() != oc)
            b.bad("symmetricQuan.scale has " + std::to_string(q->scale() ? q->scale()->size() : 0) + " values for " +
                  std::to_string(oc) + " output channels");
        if (q->bias() && q->bias()->size() != oc)
            b.bad("symmetricQuan.bias has " + std::to_string(q->bias()->size()) + " values for " + std::to_string(oc) + " output channels");
        const float s_in = x.quant.scale();
        const int32_t out_t = b.output_index(0);
        const auto hint = b.dequant_scale.find(out_t);
        const float s_out = hint != b.dequant_scale.end() ? hint->second : s_in;
        if (!(std::isfinite(s_out) && s_out > 0.0f)) b.bad("the Int8ToFloat reading its output has scale " + std::to_string(s_out));
        for (uint32_t o = 0; o < oc; ++o) {
            float m = q->scale()->Get(o);
            if (!(std::isfinite(m) && m >= 0.0f)) b.bad("symmetricQuan.scale[" + std::to_string(o) + "] is " + std::to_string(m));
            // A zero scale (a pruned channel) makes the output 0; the IR needs positive scales, so a
            // multiplier far below any accumulator's reach stands in for it (acc * 1e-30 rounds to 0).
            if (m == 0.0f) m = 1e-30f;
            const float sw = s_out == s_in ? m : static_cast<float>(double(m) * double(s_out) / double(s_in));
            if (!(std::isfinite(sw) && sw > 0.0f)) b.bad("output channel " + std::to_string(o) + " has no representable weight scale");
            wq.scales.push_back(sw);
            bq.scales.push_back(s_in * sw);  // the exact float product the kernels compare against
            bias_i32.push_back(q->bias() ? q->bias()->Get(o) : 0);
        }
        wq.axis = depthwise ? 3 : 0;
        bq.axis = 0;
        ytype = DataType::QAsymmS8;
        yq.scales = {s_out};
    } else {
        if (x.dtype != DataType::Float32) b.bad(std::string("input is ") + to_string(x.dtype) + ", expected Float32");
        if (stored > 0) std::memcpy(file_w.data(), conv->weight()->data(), n_weights * 4);
        // else: a graph-only ("benchmark") file: zero weights, see docs/mnn.md
        if (conv->bias() && conv->bias()->size() > 0) {
            if (conv->bias()->size() != oc)
                b.bad("has " + std::to_string(conv->bias()->size()) + " bias values for " + std::to_string(oc) + " output channels");
            bias_f32.assign(conv->bias()->begin(), conv->bias()->end());
        } else {
            bias_f32.assign(oc, 0.0f);
        }
    }

    TensorInfo wi;
    wi.dtype = wtype;
    wi.quant = wq;
    std::vector<uint8_t> ir_w(file_w.size());
    if (depthwise) {
        wi.shape = Shape{1, kh, kw, oc};
        for (uint32_t o = 0; o < oc; ++o)
            for (uint32_t y = 0; y < kh; ++y)
                for (uint32_t xx = 0; xx < kw; ++xx)
                    std::memcpy(&ir_w[((size_t(y) * kw + xx) * oc + o) * esize], &file_w[((size_t(o) * kh + y) * kw + xx) * esize], esize);
    } else {
        wi.shape = Shape{oc, kh, kw, ic};
        for (uint32_t o = 0; o < oc; ++o)
            for (uint32_t i = 0; i < ic; ++i)
                for (uint32_t y = 0; y < kh; ++y)
                    for (uint32_t xx = 0; xx < kw; ++xx)
                        std::memcpy(&ir_w[(((size_t(o) * kh + y) * kw + xx) * ic + i) * esize],
                                    &file_w[(((size_t(o) * ic + i) * kh + y) * kw + xx) * esize], esize);
    }
    const std::string base = b.base_name();
    const TensorId w = b.new_constant(base + ":weights", wi, ir_w.data());
    TensorInfo bi;
    bi.shape = Shape{oc};
    TensorId bias;
    if (int8) {
        bi.dtype = DataType::Signed32;
        bi.quant = bq;
        bias = b.new_constant(base + ":bias", bi, bias_i32.data());
    } else {
        bi.dtype = DataType::Float32;
        bias = b.new_constant(base + ":bias", bi, bias_f32.data());
    }

    const TensorId y = b.new_value(base, ytype, yq);
    if (depthwise)
        b.emit(OpKind::DepthwiseConvolution2d, window_attrs<DepthwiseConvolution2dAttrs>(p, sx, sy, dx, dy),
               {xid, w, bias}, {y});
    else
        b.emit(OpKind::Convolution2d, window_attrs<Convolution2dAttrs>(p, sx, sy, dx, dy), {xid, w, bias}, {y});
    b.produce(0, fused_activation(b, y, c->relu(), c->relu6(), int8), Layout::NCHW, {}, /*channels_last=*/true);
}

// The tensorScale of a FloatToInt8 / Int8ToFloat op (refused when missing or empty).
const flatbuffers::Vector<float>* tensor_scales(const Builder& b) {
    const auto* q = b.op->main_as_QuantizedFloatParam();
    if (!q || !q->tensorScale() || q->tensorScale()->size() == 0) b.bad("has no tensorScale");
    return q->tensorScale();
}

// The index of the first scale that differs from scale 0, or 0 when all are equal (one per-tensor scale).
uint32_t first_differing(const flatbuffers::Vector<float>* scales) {
    for (uint32_t i = 1; i < scales->size(); ++i)
        if (scales->Get(i) != scales->Get(0)) return i;
    return 0;
}

// FloatToInt8: q = clamp(round(x * tensorScale), -127, 127); tensorScale holds 1/s (one per channel, equal).
// MNN multiplies by the stored 1/s; a Quantize by s would divide, which rounds differently where x/s lands
// on a .5. So the loader multiplies in float (as MNN does) and quantizes with scale 1: the int8 tensor's
// scale is then 1 (activation scales are the loader's choice, see above).
void map_float_to_int8(Builder& b) {
    const auto* scales = tensor_scales(b);
    const float inv = scales->Get(0);
    if (const uint32_t i = first_differing(scales))
        b.unsupported("per-channel FloatToInt8 scales (" + std::to_string(inv) + " vs " + std::to_string(scales->Get(i)) +
                      ") are not supported; the IR quantizes int8 tensors per tensor");
    if (!(std::isfinite(inv) && inv > 0.0f)) b.bad("tensorScale is " + std::to_string(inv));
    const TensorState xs = b.raw(0);
    if (b.g.info(xs.id).dtype != DataType::Float32) b.bad("input is not Float32");
    const std::string base = b.base_name();
    const TensorId scaled = b.new_value(base + ":scaled");
    b.emit(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{BinaryOp::Mul},
           {xs.id, b.new_float_constant(base + ":inverse_scale", Shape{1}, {inv})}, {scaled}, "/scale");
    Quantization yq;
    yq.scales = {1.0f};
    const TensorId y = b.new_value(base + ":q", DataType::QAsymmS8, yq);
    b.emit(OpKind::Quantize, std::monostate{}, {scaled}, {y});
    ActivationAttrs clamp;
    clamp.function = ActivationFunction::BoundedReLu;
    clamp.a = 127.0f;
    clamp.b = -127.0f;
    const TensorId z = b.new_value(base, DataType::QAsymmS8, yq);
    b.emit(OpKind::Activation, clamp, {y}, {z}, "/clamp");
    b.produce(0, z, xs.layout, {}, xs.channels_last);
}

// Int8ToFloat: x * tensorScale. The producer already gave its int8 output this scale (see above).
void map_int8_to_float(Builder& b) {
    const auto* scales = tensor_scales(b);
    const float s = scales->Get(0);
    if (first_differing(scales))
        b.unsupported("per-channel Int8ToFloat scales are not supported; the IR quantizes int8 tensors per tensor");
    const TensorState& xs = b.raw(0);
    const TensorInfo& x = b.g.info(xs.id);
    if (x.dtype != DataType::QAsymmS8) b.bad("input is not int8");
    const float have = x.quant.scale();
    if (std::fabs(have - s) > 1e-6f * s)
        b.unsupported("reads an int8 tensor of scale " + std::to_string(have) + " with scale " + std::to_string(s) +
                      " (the tensor has another Int8ToFloat reader or a producer that fixes its scale)");
    const std::string base = b.base_name();
    const TensorId y = b.new_value(base, DataType::Float32);
    b.emit(OpKind::Dequantize, std::monostate{}, {xs.id}, {y});
    b.produce(0, y, xs.layout, {}, xs.channels_last);
}

void map_pooling(Builder& b) {
    const auto* pl = b.op->main_as_Pool();
    if (!pl) b.bad("has no Pool parameters");
    const TensorId xid = b.in_channels_last(0);
    const TensorInfo& x = b.g.info(xid);
    const uint32_t in_h = x.shape[1], in_w = x.shape[2];
    Pooling2dAttrs a;
    a.layout = DataLayout::NHWC;
    switch (pl->type()) {
        case MNN::PoolType::MAXPOOL: a.algorithm = PoolingAlgorithm::Max; break;
        case MNN::PoolType::AVEPOOL: a.algorithm = PoolingAlgorithm::Average; break;
        default: b.bad("unknown pool type " + std::to_string(static_cast<int>(pl->type())));
    }
    bool explicit_pads = false;
    if (pl->isGlobal()) {
        a.pool_height = in_h, a.pool_width = in_w;
        a.stride_x = a.stride_y = 0;
    } else {
        a.pool_height = positive(b, pl->kernelY(), "kernelY", 65536);
        a.pool_width = positive(b, pl->kernelX(), "kernelX", 65536);
        a.stride_y = positive(b, pl->strideY(), "strideY", 65536);
        a.stride_x = positive(b, pl->strideX(), "strideX", 65536);
        switch (pl->padType()) {
            case MNN::PoolPadType::SAME:
                same_pads(in_h, a.stride_y, a.pool_height, &a.pad_top, &a.pad_bottom);
                same_pads(in_w, a.stride_x, a.pool_width, &a.pad_left, &a.pad_right);
                a.rounding = OutputShapeRounding::Floor;
                break;
            case MNN::PoolPadType::VALID: a.rounding = OutputShapeRounding::Floor; break;  // ceil((in-k+1)/s)
            case MNN::PoolPadType::CAFFE: {
                Pads p;
                explicit_pads = caffe_pads(b, pl, p);
                a.pad_top = p.top, a.pad_left = p.left, a.pad_bottom = p.bottom, a.pad_right = p.right;
                a.rounding = pl->ceilModel() ? OutputShapeRounding::Ceiling : OutputShapeRounding::Floor;
                break;
            }
            default: b.bad("unknown padType " + std::to_string(static_cast<int>(pl->padType())));
        }
        // MNN clamps the kernel to the padded input.
        a.pool_height = std::min<uint32_t>(a.pool_height, in_h + a.pad_top + a.pad_bottom);
        a.pool_width = std::min<uint32_t>(a.pool_width, in_w + a.pad_left + a.pad_right);
    }
    // Average divisor: DEFAULT counts the padding for Caffe pads (not for explicit ONNX pads or TF modes).
    bool include = pl->padType() == MNN::PoolPadType::CAFFE && !explicit_pads;
    if (pl->countType() == MNN::AvgPoolCountType::INCLUDE_PADDING) include = true;
    if (pl->countType() == MNN::AvgPoolCountType::EXCLUDE_PADDING) include = false;
    a.padding_method = include ? PaddingMethod::IgnoreValue : PaddingMethod::Exclude;
    const std::string base = b.base_name();
    const TensorId y = b.new_value(base, x.dtype, x.quant);
    b.emit(OpKind::Pooling2d, a, {xid}, {y});
    b.produce(0, y, Layout::NCHW, {}, /*channels_last=*/true);
}

void map_inner_product(Builder& b) {
    const auto* ip = b.op->main_as_InnerProduct();
    if (!ip) b.bad("has no InnerProduct parameters");
    if (ip->quanParameter()) b.unsupported("weight-only quantized InnerProduct weights (IDSTQuan) are not supported yet");
    const TensorState& xs = b.in(0);
    const TensorInfo& x = b.g.info(xs.id);
    if (x.dtype != DataType::Float32) b.bad("input is not Float32");
    if (x.shape.rank < 2) b.bad("input " + x.shape.str() + " has rank below 2");
    const uint32_t o = positive(b, ip->outputCount(), "outputCount", 1u << 24);
    const uint32_t n = x.shape[0];
    const uint32_t k = static_cast<uint32_t>(x.shape.num_elements() / std::max<uint32_t>(n, 1));
    size_t nw = 0;
    if (!checked_mul<size_t>(o, k, &nw) || nw > (size_t(1) << 31)) b.bad("weight count is too large");
    const size_t stored = ip->weight() ? ip->weight()->size() : 0;
    if (stored != nw && !(stored == 0 && b.weights_stripped))
        b.bad("has " + std::to_string(stored) + " weights, expected " + std::to_string(o) + "x" + std::to_string(k));
    if (stored == 0 && nw > kMaxZeroWeights)
        b.unsupported("zero weights for this stripped InnerProduct would take " + std::to_string(nw) + " values");
    std::vector<float> w(nw, 0.0f);
    if (stored > 0) {
        if (ip->transpose()) {  // stored [inputSize][outputCount]
            for (uint32_t i = 0; i < k; ++i)
                for (uint32_t j = 0; j < o; ++j) w[size_t(j) * k + i] = ip->weight()->Get(i * o + j);
        } else {
            std::memcpy(w.data(), ip->weight()->data(), nw * 4);
        }
    } else if (!b.weights_stripped) {
        b.bad("has no weights");
    }
    std::vector<float> bias(o, 0.0f);
    if (ip->bias() && ip->bias()->size() > 0) {
        if (ip->bias()->size() != o) b.bad("has " + std::to_string(ip->bias()->size()) + " bias values for " + std::to_string(o) + " outputs");
        bias.assign(ip->bias()->begin(), ip->bias()->end());
    }
    const std::string base = b.base_name();
    const TensorId wt = b.new_float_constant(base + ":weights", Shape{o, k}, w);
    const TensorId bt = b.new_float_constant(base + ":bias", Shape{o}, bias);
    FullyConnectedAttrs a;
    a.bias_enabled = true;
    a.transpose_weights = true;
    const TensorId y = b.new_value(base);
    b.emit(OpKind::FullyConnected, a, {xs.id, wt, bt}, {y});
    b.produce(0, y, Layout::NCHW);
}

}  // namespace npurun::mnn

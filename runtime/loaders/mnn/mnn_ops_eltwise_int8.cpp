// MNN EltwiseInt8 -> IR Dequantize / ElementwiseBinary / Cast / Quantize nodes computing MNN's arithmetic.
//
// MNN's CPUEltwiseInt8 (looked up for this file) adds, whatever the `type` field says (its schema default
// is PROD, but the kernel has only the sum), per channel c:
//     v = (float(q0) * s0[c] + float(q1) * s1[c]) * so[c]        (float products and sum, in that order)
//     q = int8(clamp(v, -127, 127))                               (the cast truncates toward zero)
// with s0, s1, so the tensorScale arrays of inputQuan0, inputQuan1 and outputQuan, one value per channel.
// (The arm64 assembly path truncates too but saturates at -128 rather than -127; npurun follows the
// portable C path, which is the one the issue's [-127, 127] rule describes.)
//
// The IR keeps one scale per int8 tensor, chosen by the loader (mnn_ops_conv.cpp): usually 1, or the
// scale of the Int8ToFloat that reads it. So each input is first brought back to its integer value as
// an exact float (Dequantize is exact for scale 1; otherwise dequantize, divide by the scale and round
// with a scale-1 Quantize: |q| <= 128 keeps the error far below 0.5), then the products, the sum, the
// output product and the clamp run as float nodes exactly as MNN orders them, a Cast to Signed32
// truncates, and a Quantize stores the integer under the output tensor's chosen scale t (multiplying by
// t first: round(float(k * t) / t) is k again for |k| <= 127).
#include <cmath>

#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"

namespace npurun::mnn {

namespace {

std::vector<float> channel_scales(const Builder& b, const MNN::QuantizedFloatParam* q, const char* field, uint32_t c) {
    if (!q || !q->tensorScale()) b.bad(std::string("has no ") + field + ".tensorScale");
    const auto* s = q->tensorScale();
    if (s->size() != c)
        b.bad(std::string(field) + ".tensorScale has " + std::to_string(s->size()) + " values for " + std::to_string(c) + " channels");
    std::vector<float> v(s->begin(), s->end());
    for (uint32_t i = 0; i < c; ++i)
        if (!std::isfinite(v[i])) b.bad(std::string(field) + ".tensorScale[" + std::to_string(i) + "] is not finite");
    return v;
}

class EltwiseInt8Nodes {
public:
    EltwiseInt8Nodes(Builder& b, std::string base) : b_(b), base_(std::move(base)) {}

    TensorId binary(BinaryOp op, TensorId x, TensorId y, const std::string& step) {
        const TensorId z = b_.new_value(base_ + ":" + step);
        b_.emit(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{op}, {x, y}, {z}, "/" + step);
        return z;
    }
    TensorId constant(const std::string& step, const std::vector<float>& v) {
        return b_.new_float_constant(base_ + ":" + step, Shape{static_cast<uint32_t>(v.size())}, v);
    }
    TensorId unary(OpKind kind, OpAttrs attrs, TensorId x, const std::string& step, DataType t = DataType::Float32,
                   Quantization q = {}) {
        const TensorId z = b_.new_value(base_ + ":" + step, t, std::move(q));
        b_.emit(kind, std::move(attrs), {x}, {z}, "/" + step);
        return z;
    }
    // The integer values of an int8 tensor as exact floats.
    TensorId integers(TensorId x, const std::string& step) {
        const float s = b_.g.info(x).quant.scale();
        const TensorId f = unary(OpKind::Dequantize, std::monostate{}, x, step);
        if (s == 1.0f) return f;
        const TensorId div = binary(BinaryOp::Div, f, constant(step + "_scale", {s}), step + "_unscaled");
        Quantization one;
        one.scales = {1.0f};
        const TensorId q = unary(OpKind::Quantize, std::monostate{}, div, step + "_int", DataType::QAsymmS8, one);
        return unary(OpKind::Dequantize, std::monostate{}, q, step + "_exact");
    }

private:
    Builder& b_;
    std::string base_;
};

}  // namespace

void map_eltwise_int8(Builder& b) {
    const auto* p = b.op->main_as_EltwiseInt8();
    if (!p) b.bad("has no EltwiseInt8 parameters");
    if (b.num_inputs() != 2) b.bad("has " + std::to_string(b.num_inputs()) + " inputs (MNN adds exactly 2)");
    // Channels-last like the int8 convolutions that produce and read these tensors (mnn_builder.h).
    const TensorId x0 = b.in_channels_last(0), x1 = b.in_channels_last(1);
    const TensorInfo& i0 = b.g.info(x0);
    const TensorInfo& i1 = b.g.info(x1);
    if (i0.dtype != DataType::QAsymmS8 || i1.dtype != DataType::QAsymmS8)
        b.bad(std::string("inputs are ") + to_string(i0.dtype) + " and " + to_string(i1.dtype) + ", expected int8");
    if (i0.shape != i1.shape) b.bad("input shapes " + i0.shape.str() + " and " + i1.shape.str() + " differ (MNN does not broadcast here)");
    const uint32_t c = i0.shape[3];
    const std::vector<float> s0 = channel_scales(b, p->inputQuan0(), "inputQuan0", c);
    const std::vector<float> s1 = channel_scales(b, p->inputQuan1(), "inputQuan1", c);
    const std::vector<float> so = channel_scales(b, p->outputQuan(), "outputQuan", c);

    // The output's IR scale: that of the Int8ToFloat reading it, else 1 (activation scales are the loader's choice).
    const auto hint = b.dequant_scale.find(b.output_index(0));
    const float t = hint != b.dequant_scale.end() ? hint->second : 1.0f;
    if (!(std::isfinite(t) && t > 0.0f)) b.bad("the Int8ToFloat reading its output has scale " + std::to_string(t));

    EltwiseInt8Nodes n(b, b.base_name());
    const TensorId a0 = n.binary(BinaryOp::Mul, n.integers(x0, "q0"), n.constant("s0", s0), "scaled0");
    const TensorId a1 = n.binary(BinaryOp::Mul, n.integers(x1, "q1"), n.constant("s1", s1), "scaled1");
    const TensorId v = n.binary(BinaryOp::Mul, n.binary(BinaryOp::Add, a0, a1, "sum"), n.constant("so", so), "rescaled");
    ActivationAttrs clamp;
    clamp.function = ActivationFunction::BoundedReLu;
    clamp.a = 127.0f;
    clamp.b = -127.0f;
    const TensorId clamped = n.unary(OpKind::Activation, clamp, v, "clamp");
    const TensorId truncated = n.unary(OpKind::Cast, std::monostate{}, clamped, "truncate", DataType::Signed32);
    TensorId k = n.unary(OpKind::Cast, std::monostate{}, truncated, "integer");
    if (t != 1.0f) k = n.binary(BinaryOp::Mul, k, n.constant("output_scale", {t}), "at_output_scale");
    Quantization yq;
    yq.scales = {t};
    const TensorId y = n.unary(OpKind::Quantize, std::monostate{}, k, "q", DataType::QAsymmS8, yq);
    b.produce(0, y, Layout::NCHW, {}, /*channels_last=*/true);
}

}  // namespace npurun::mnn

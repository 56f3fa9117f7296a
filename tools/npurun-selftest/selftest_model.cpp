#include "tools/npurun-selftest/selftest_model.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "tools/modelwriter/model_writer.h"
#include "tools/npurun-selftest/selftest_prng.h"

namespace npurun::selftest {

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

namespace {

// A run-time tensor of the chain: where it comes from and how it is quantized.
struct Value {
    mw::Port port;
    uint32_t h = 1, w = 1, c = 1;
    bool flat = false;
    float scale = 0.0f;
    int32_t zp = 0;
};

struct Builder {
    const Case& c;
    Prng rng;
    mw::ModelWriter w;
    BuiltCase out;
    int32_t next_input = 0;

    bool q() const { return c.precision != Precision::Fp16; }
    fb::DataType act_type() const {
        switch (c.precision) {
            case Precision::U8: return fb::DataType::QAsymmU8;
            case Precision::S8: return fb::DataType::QAsymmS8;
            case Precision::Fp16: return fb::DataType::Float32;
        }
        return fb::DataType::Float32;
    }
    int32_t type_min() const { return c.precision == Precision::U8 ? 0 : -128; }

    std::vector<uint32_t> dims(const Value& v) const {
        return v.flat ? std::vector<uint32_t>{1, v.c} : std::vector<uint32_t>{1, v.h, v.w, v.c};
    }
    mw::TensorDesc desc(const Value& v) const { return mw::tensor(dims(v), act_type(), v.scale, v.zp); }

    [[noreturn]] void bad(size_t layer, const std::string& what) const {
        fail(ErrorKind::Internal, "self-test case '" + c.name + "' layer " + std::to_string(layer) + ": " + what);
    }

    Value model_input(uint32_t h, uint32_t w_, uint32_t ch, bool flat, int which) {
        Value v;
        v.h = h, v.w = w_, v.c = ch, v.flat = flat;
        // Two different quantizations, so that binary ops see operands on different grids.
        if (q()) {
            v.scale = which == 0 ? 0.05f : 0.07f;
            v.zp = c.precision == Precision::U8 ? (which == 0 ? 118 : 100) : (which == 0 ? 4 : -9);
        }
        const int32_t id = next_input++;
        v.port = mw::Port(w.add_input("input" + std::to_string(id), desc(v), id));
        return v;
    }

    // Output quantization of a requantizing layer whose accumulator has `terms` products of inputs at
    // scale sx and weights at scale sw: about 55 codes of standard deviation for uniform codes.
    void conv_output_quant(Value* y, float sx, float sw, uint64_t terms, Act act) const {
        if (!q()) return;
        y->scale = sx * sw * 100.0f * std::sqrt(static_cast<float>(terms));
        y->zp = c.precision == Precision::U8 ? 120 : -5;
        if (act == Act::Relu) y->zp = type_min();
        if (act == Act::Relu6) y->scale = 6.0f / 255.0f, y->zp = type_min();
    }

    // With an activation the layer's own output carries the activation's quantization, as converters write
    // it; the Activation layer then follows (the NPU fuses it).
    Value add_activation(const Value& y, Act act, const std::string& name) {
        if (act == Act::None) return y;
        Value z = y;
        const fb::ActivationFunction f = act == Act::Relu        ? fb::ActivationFunction::ReLu
                                         : act == Act::LeakyRelu ? fb::ActivationFunction::LeakyReLu
                                         : act == Act::Square    ? fb::ActivationFunction::Square
                                         : act == Act::Sigmoid   ? fb::ActivationFunction::Sigmoid
                                         : act == Act::Tanh      ? fb::ActivationFunction::TanH
                                         : act == Act::Elu       ? fb::ActivationFunction::Elu
                                         : act == Act::SoftRelu  ? fb::ActivationFunction::SoftReLu
                                         : act == Act::Gelu      ? fb::ActivationFunction::Gelu
                                         : act == Act::Abs       ? fb::ActivationFunction::Abs
                                         : act == Act::Linear    ? fb::ActivationFunction::Linear
                                                                 : fb::ActivationFunction::BoundedReLu;
        const float a = act == Act::Relu6                     ? 6.0f
                        : act == Act::LeakyRelu               ? 0.1f
                        : act == Act::Tanh || act == Act::Elu ? 1.0f
                        : act == Act::Linear                  ? 0.75f
                                                              : 0.0f;
        const float b = act == Act::Tanh ? 1.0f : act == Act::Linear ? -0.5f : 0.0f;
        z.port = mw::Port(w.add_activation(name + "_act", y.port, desc(z), f, a, b));
        return z;
    }

    Value conv_like(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        const bool depthwise = L.kind == LayerKind::Depthwise, fully = L.kind == LayerKind::FullyConnected;
        Value y;
        uint32_t taps = 1, in_c = x.c, out_c = L.out_c;
        if (fully) {
            if (x.h != 1 || x.w != 1) bad(i, "fully connected input is not one pixel");
            y.flat = true, y.c = out_c;
        } else {
            if (x.flat) bad(i, "a convolution needs a [1,H,W,C] input");
            if (depthwise) out_c = x.c;
            const uint64_t ph = uint64_t{x.h} + L.pad_top + L.pad_bottom, pw = uint64_t{x.w} + L.pad_left + L.pad_right;
            const uint32_t ekh = (L.kh - 1) * L.dil + 1, ekw = (L.kw - 1) * L.dil + 1;  // dilated extent
            if (ph < ekh || pw < ekw || L.sy == 0 || L.sx == 0) bad(i, "kernel larger than the padded input");
            y.h = static_cast<uint32_t>((ph - ekh) / L.sy + 1), y.w = static_cast<uint32_t>((pw - ekw) / L.sx + 1);
            y.c = out_c;
            taps = L.kh * L.kw;
        }
        if (out_c == 0) bad(i, "no output channels");
        const uint64_t terms = uint64_t{taps} * (depthwise ? 1 : in_c);
        out.macs += terms * out_c * y.h * y.w;

        std::vector<uint32_t> wdims;
        if (fully) wdims = {out_c, in_c};  // transposed: [out, in]
        else if (depthwise) wdims = {1, L.kh, L.kw, in_c};
        else wdims = {out_c, L.kh, L.kw, in_c};
        size_t nw = 1;
        for (uint32_t d : wdims) nw *= d;
        const uint32_t axis = depthwise ? 3 : 0;  // the output-channel axis of the weights

        mw::ConstDesc weights;
        std::vector<float> sw(out_c, 0.02f);
        float sw_ref = 0.02f;
        if (!q()) {
            const float a = std::sqrt(3.0f / static_cast<float>(terms));  // unit gain: values stay O(1) in chains
            std::vector<float> v(nw);
            for (float& f : v) f = rng.uniform(-a, a);
            weights = mw::const_f32(wdims, v);
        } else if (L.per_channel) {
            std::vector<int8_t> v(nw);
            for (auto& b : v) b = static_cast<int8_t>(rng.range(-127, 127));
            for (uint32_t o = 0; o < out_c; ++o) sw[o] = 0.005f + 0.001f * static_cast<float>(o % 13);
            sw_ref = 0.011f;
            weights = mw::const_i8(wdims, v, 0.0f, 0, fb::DataType::QSymmS8);
            weights.info.scales = sw;
            weights.info.axis = axis;
        } else if (c.precision == Precision::U8) {
            std::vector<uint8_t> v(nw);
            for (auto& b : v) b = static_cast<uint8_t>(rng.range(0, 255));
            weights = mw::const_u8(wdims, v, 0.02f, 131);
        } else {
            std::vector<int8_t> v(nw);
            for (auto& b : v) b = static_cast<int8_t>(rng.range(-128, 127));
            weights = mw::const_i8(wdims, v, 0.02f, -7);
        }
        std::optional<mw::ConstDesc> bias;
        if (L.bias) {
            if (!q()) {
                std::vector<float> v(out_c);
                for (float& f : v) f = rng.uniform(-0.5f, 0.5f);
                bias = mw::const_f32({out_c}, v);
            } else {
                std::vector<int32_t> v(out_c);
                std::vector<float> bs(out_c);
                for (uint32_t o = 0; o < out_c; ++o) v[o] = rng.range(-3000, 3000), bs[o] = x.scale * sw[o];
                bias = mw::const_i32({out_c}, v, bs[0]);
                if (L.per_channel) bias->info.scales = bs, bias->info.axis = 0;
            }
        }
        conv_output_quant(&y, x.scale, sw_ref, terms, L.act);
        const mw::TensorDesc yd = desc(y);
        if (fully) {
            y.port = mw::Port(w.add_fully_connected(name, x.port, yd, weights, bias, /*transpose_weights=*/true,
                                                    mw::WeightsPlacement::ConstantLayers));
        } else {
            mw::Conv2dParams p;
            p.pad_left = L.pad_left, p.pad_right = L.pad_right, p.pad_top = L.pad_top, p.pad_bottom = L.pad_bottom;
            p.stride_x = L.sx, p.stride_y = L.sy;
            p.dilation_x = p.dilation_y = L.dil;
            const uint32_t id = depthwise ? w.add_depthwise_convolution2d(name, x.port, yd, p, weights, bias, mw::WeightsPlacement::ConstantLayers)
                                          : w.add_convolution2d(name, x.port, yd, p, weights, bias, mw::WeightsPlacement::ConstantLayers);
            y.port = mw::Port(id);
        }
        return add_activation(y, L.act, name);
    }

    Value pool(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        if (x.flat) bad(i, "pooling needs a [1,H,W,C] input");
        const bool global = L.kind == LayerKind::GlobalAvgPool;
        const uint32_t kh = global ? x.h : L.kh, kw = global ? x.w : L.kw;
        const uint32_t sy = global ? 0 : L.sy, sx = global ? 0 : L.sx;
        Value y = x;  // the PPU does not requantize: same quantization
        if (global) {
            y.h = y.w = 1;
        } else {
            const uint64_t ph = uint64_t{x.h} + L.pad_top + L.pad_bottom, pw = uint64_t{x.w} + L.pad_left + L.pad_right;
            if (ph < kh || pw < kw || sy == 0 || sx == 0) bad(i, "pooling window larger than the padded input");
            y.h = static_cast<uint32_t>((ph - kh) / sy + 1), y.w = static_cast<uint32_t>((pw - kw) / sx + 1);
        }
        const fb::PoolingAlgorithm alg = L.kind == LayerKind::MaxPool ? fb::PoolingAlgorithm::Max : fb::PoolingAlgorithm::Average;
        const uint32_t pl = L.pad_left, pr = L.pad_right, pt = L.pad_top, pb = L.pad_bottom;
        y.port = mw::Port(w.add_layer(fb::Layer::Pooling2dLayer, fb::LayerType::Pooling2d, name, {x.port}, {desc(y)},
                                      [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          // Padding counted in the average's divisor (what the PPU does).
                                          auto d = fb::CreatePooling2dDescriptor(b, alg, pl, pr, pt, pb, kw, kh, sx, sy,
                                                                                 fb::OutputShapeRounding::Floor,
                                                                                 fb::PaddingMethod::IgnoreValue,
                                                                                 fb::DataLayout::NHWC);
                                          return fb::CreatePooling2dLayer(b, base, d).Union();
                                      }));
        if (L.kind != LayerKind::MaxPool) ++out.rounding_steps;
        return y;
    }

    // The second operand of a binary op: its shape follows the case's broadcast pattern.
    Value operand(size_t i, const LayerSpec& L, const Value& a, const std::vector<Value>& earlier, const std::string& name) {
        uint32_t h = a.h, w_ = a.w;
        if (L.broadcast != Broadcast::None && a.flat) bad(i, "a broadcast operand needs a [1,H,W,C] input");
        if (L.broadcast == Broadcast::C || L.broadcast == Broadcast::WC || L.broadcast == Broadcast::W1) h = 1;
        if (L.broadcast == Broadcast::C || L.broadcast == Broadcast::HC || L.broadcast == Broadcast::H1) w_ = 1;
        const uint32_t ch = L.broadcast == Broadcast::W1 || L.broadcast == Broadcast::H1 ? 1 : a.c;
        if (L.const_operand) {
            Value b;
            b.h = h, b.w = w_, b.c = ch, b.flat = a.flat;
            const size_t n = size_t{h} * w_ * ch;
            mw::ConstDesc k;
            if (!q()) {
                std::vector<float> v(n);
                for (float& f : v) f = L.kind == LayerKind::Div ? rng.uniform(0.5f, 1.5f) : rng.uniform(-1.0f, 1.0f);
                k = mw::const_f32(dims(b), v);
            } else if (c.precision == Precision::U8) {
                b.scale = 0.06f, b.zp = 110;
                std::vector<uint8_t> v(n);
                for (auto& x : v) x = static_cast<uint8_t>(rng.range(0, 255));
                k = mw::const_u8(dims(b), v, b.scale, b.zp);
            } else {
                b.scale = 0.06f, b.zp = -6;
                std::vector<int8_t> v(n);
                for (auto& x : v) x = static_cast<int8_t>(rng.range(-128, 127));
                k = mw::const_i8(dims(b), v, b.scale, b.zp);
            }
            b.port = mw::Port(w.add_constant(name + "_const", k));
            return b;
        }
        if (L.operand < 0) {
            if (L.kind == LayerKind::Div) divisor_inputs.push_back(next_input);
            return model_input(h, w_, ch, a.flat, 1);
        }
        if (static_cast<size_t>(L.operand) >= earlier.size()) bad(i, "operand names a later layer");
        if (L.kind == LayerKind::Div) bad(i, "a divisor must be a model input or a constant (kept away from 0)");
        if (L.broadcast != Broadcast::None) bad(i, "a broadcast operand must be a model input or a constant");
        return earlier[static_cast<size_t>(L.operand)];
    }

    Value binary(size_t i, const LayerSpec& L, const Value& a, const std::vector<Value>& earlier, const std::string& name) {
        const Value b = operand(i, L, a, earlier, name);
        const Broadcast bc = L.broadcast;
        const uint32_t bh = bc == Broadcast::C || bc == Broadcast::WC || bc == Broadcast::W1 ? 1 : a.h;
        const uint32_t bw = bc == Broadcast::C || bc == Broadcast::HC || bc == Broadcast::H1 ? 1 : a.w;
        const uint32_t bch = bc == Broadcast::W1 || bc == Broadcast::H1 ? 1 : a.c;
        if (b.h != bh || b.w != bw || b.c != bch || b.flat != a.flat) bad(i, "operands of different shapes");
        if (q() && L.kind == LayerKind::Div) bad(i, "int8 Div is not lowered");
        Value y = a;
        if (q()) {
            const float smax = std::max(a.scale, b.scale);
            // Mul: (a-za)(b-zb) of uniform codes has a standard deviation of ~5500 products of sa*sb.
            y.scale = L.kind == LayerKind::Mul ? a.scale * b.scale * 96.0f
                      : (L.kind == LayerKind::Add || L.kind == LayerKind::Sub) ? 2.0f * smax : smax;
            y.zp = c.precision == Precision::U8 ? 128 : 3;
            if (L.act != Act::None) y.zp = type_min();
            if (L.act == Act::Relu6) y.scale = 6.0f / 255.0f;
        }
        fb::Layer u;
        fb::LayerType t;
        switch (L.kind) {
            case LayerKind::Add: u = fb::Layer::AdditionLayer, t = fb::LayerType::Addition; break;
            case LayerKind::Sub: u = fb::Layer::SubtractionLayer, t = fb::LayerType::Subtraction; break;
            case LayerKind::Mul: u = fb::Layer::MultiplicationLayer, t = fb::LayerType::Multiplication; break;
            case LayerKind::Div: u = fb::Layer::DivisionLayer, t = fb::LayerType::Division; break;
            case LayerKind::Max: u = fb::Layer::MaximumLayer, t = fb::LayerType::Maximum; break;
            case LayerKind::Min: u = fb::Layer::MinimumLayer, t = fb::LayerType::Minimum; break;
            default: bad(i, "not a binary op");
        }
        y.port = mw::Port(w.add_plain(u, t, name, {a.port, b.port}, {desc(y)}));
        ++out.rounding_steps;
        return add_activation(y, L.act, name);
    }

    // Pad along H and W (a raw copy: same quantization). The constant is stored as Arm NN stores it: the
    // raw quantized value for quantized types.
    Value pad(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        if (x.flat) bad(i, "Pad needs a [1,H,W,C] input");
        Value y = x;
        y.h = x.h + L.pad_top + L.pad_bottom, y.w = x.w + L.pad_left + L.pad_right;
        const float value = L.pad_zero_point ? (q() ? static_cast<float>(x.zp) : 0.0f) : (q() ? 37.0f : 0.25f);
        const fb::PaddingMode mode = L.pad_mode == PadMode::Reflect ? fb::PaddingMode::Reflect : fb::PaddingMode::Constant;
        const std::vector<uint32_t> list{0, 0, L.pad_top, L.pad_bottom, L.pad_left, L.pad_right, 0, 0};
        y.port = mw::Port(w.add_layer(fb::Layer::PadLayer, fb::LayerType::Pad, name, {x.port}, {desc(y)},
                                      [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto d = fb::CreatePadDescriptor(b, b.CreateVector(list), value, mode);
                                          return fb::CreatePadLayer(b, base, d).Union();
                                      }));
        return y;
    }

    // Pow by a constant exponent of shape [1], as a converter writes it: an ElementwiseBinary Power whose second
    // input is a Constant layer (float; 8-bit models: the model's 8-bit type with scale 0.5, so that 0.5 and -0.5 are codes).
    // The 8-bit output grid holds x^e over the input's range.
    Value power(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        if (x.flat) bad(i, "Pow needs a [1,H,W,C] input");
        Value e;
        e.flat = true, e.c = 1;
        const long code = std::lround(L.exponent * 2.0f) + 10;
        mw::ConstDesc k = !q() ? mw::const_f32({1}, {L.exponent})
                          : c.precision == Precision::U8 ? mw::const_u8({1}, {static_cast<uint8_t>(code)}, 0.5f, 10)
                                                         : mw::const_i8({1}, {static_cast<int8_t>(code)}, 0.5f, 10);
        e.port = mw::Port(w.add_constant(name + "_exponent", k));
        Value y = x;
        if (q()) {
            const float lo = (static_cast<float>(type_min()) - static_cast<float>(x.zp)) * x.scale;
            const float hi = (static_cast<float>(type_min() + 255) - static_cast<float>(x.zp)) * x.scale;
            const float m = std::max(std::fabs(lo), std::fabs(hi));
            const bool signed_result = L.exponent == 1.0f || L.exponent == 3.0f;
            y.scale = std::pow(std::max(m, 1e-3f), std::max(L.exponent, 0.5f)) / (signed_result ? 127.0f : 255.0f);
            y.zp = signed_result ? type_min() + 128 : type_min();
        }
        y.port = mw::Port(w.add_elementwise_binary(name, x.port, e.port, desc(y), fb::BinaryOperation::Power));
        ++out.rounding_steps;
        return add_activation(y, L.act, name);
    }

    // Gather by a constant Signed32 index list along H (axis 1) or W (axis 2): a raw copy, same quantization.
    Value gather(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        if (x.flat || L.indices.empty() || (L.axis != 1 && L.axis != 2)) bad(i, "Gather needs a [1,H,W,C] input, indices, axis 1 or 2");
        Value y = x;
        const auto n = static_cast<uint32_t>(L.indices.size());
        (L.axis == 1 ? y.h : y.w) = n;
        const uint32_t k = w.add_constant(name + "_indices", mw::const_i32({n}, L.indices));
        const int32_t axis = L.axis;
        y.port = mw::Port(w.add_layer(fb::Layer::GatherLayer, fb::LayerType::Gather, name, {x.port, mw::Port(k)}, {desc(y)},
                                      [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto d = fb::CreateGatherDescriptor(b, axis);
                                          return fb::CreateGatherLayer(b, base, d).Union();
                                      }));
        return y;
    }

    // Expand to to_h x to_w as Arm NN holds it: a Tile whose repeated axes have size 1 (a raw copy).
    Value expand(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        if (x.flat || L.to_h == 0 || L.to_w == 0 || (x.h != 1 && x.h != L.to_h) || (x.w != 1 && x.w != L.to_w) ||
            (L.to_c != 0 && x.c != 1))
            bad(i, "Expand needs a [1,H,W,C] input whose H, W and C are 1 or the target's");
        Value y = x;
        y.h = L.to_h, y.w = L.to_w;
        if (L.to_c != 0) y.c = L.to_c;
        const std::vector<uint32_t> multiples = {1, L.to_h / x.h, L.to_w / x.w, y.c / x.c};
        y.port = mw::Port(w.add_layer(fb::Layer::TileLayer, fb::LayerType::Tile, name, {x.port}, {desc(y)},
                                      [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto d = fb::CreateTileDescriptor(b, b.CreateVector(multiples));
                                          return fb::CreateTileLayer(b, base, d).Union();
                                      }));
        return y;
    }

    Value reshape(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        if (x.flat || uint64_t{L.to_h} * L.to_w != uint64_t{x.h} * x.w || L.to_h == 0)
            bad(i, "Reshape must keep C and H*W of a [1,H,W,C] input");
        Value y = x;
        y.h = L.to_h, y.w = L.to_w;
        const std::vector<uint32_t> shape = dims(y);
        y.port = mw::Port(w.add_layer(fb::Layer::ReshapeLayer, fb::LayerType::Reshape, name, {x.port}, {desc(y)},
                                      [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto d = fb::CreateReshapeDescriptor(b, b.CreateVector(shape));
                                          return fb::CreateReshapeLayer(b, base, d).Union();
                                      }));
        return y;
    }

    // Channels [begin_c, begin_c + to_c), rows [begin_h, begin_h + to_h), columns [begin_w, begin_w + to_w) of x
    // (0 counts: the whole axis), its quantization kept.
    Value slice(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        Value y = x;
        y.c = L.to_c ? L.to_c : x.c, y.h = L.to_h ? L.to_h : x.h, y.w = L.to_w ? L.to_w : x.w;
        if (x.flat || uint64_t{L.begin_c} + y.c > x.c || uint64_t{L.begin_h} + y.h > x.h ||
            uint64_t{L.begin_w} + y.w > x.w)
            bad(i, "Slice must take part of a [1,H,W,C] input");
        const std::vector<uint32_t> begin = {0, L.begin_h, L.begin_w, L.begin_c}, size = dims(y);
        y.port = mw::Port(w.add_layer(fb::Layer::SliceLayer, fb::LayerType::Slice, name, {x.port}, {desc(y)},
                                      [=](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto d =
                                              fb::CreateSliceDescriptor(b, b.CreateVector(begin), b.CreateVector(size));
                                          return fb::CreateSliceLayer(b, base, d).Union();
                                      }));
        return y;
    }

    // Concat along channels of [x, earlier[operand]]: same H, W and quantization (a view needs no requantization).
    Value concat(size_t i, const LayerSpec& L, const Value& x, const std::vector<Value>& earlier, const std::string& name) {
        if (L.operand < 0 || static_cast<size_t>(L.operand) >= earlier.size()) bad(i, "Concat needs an earlier layer");
        const Value& b = earlier[static_cast<size_t>(L.operand)];
        if (x.flat || b.flat || x.h != b.h || x.w != b.w || x.scale != b.scale || x.zp != b.zp)
            bad(i, "Concat inputs differ in H, W or quantization");
        Value y = x;
        y.c = x.c + b.c;
        const uint32_t off = x.c;
        y.port = mw::Port(w.add_layer(fb::Layer::ConcatLayer, fb::LayerType::Concat, name, {x.port, b.port}, {desc(y)},
                                      [=](flatbuffers::FlatBufferBuilder& fbb, flatbuffers::Offset<fb::LayerBase> base) {
                                          std::vector<flatbuffers::Offset<fb::UintVector>> views{
                                              fb::CreateUintVector(fbb, fbb.CreateVector(std::vector<uint32_t>{0, 0, 0, 0})),
                                              fb::CreateUintVector(fbb, fbb.CreateVector(std::vector<uint32_t>{0, 0, 0, off}))};
                                          auto d = fb::CreateOriginsDescriptor(fbb, 3, 2, 4, fbb.CreateVector(views));
                                          return fb::CreateConcatLayer(fbb, base, d).Union();
                                      }));
        return y;
    }

    // An Lstm step: the gate products as 1x1 convolutions on the NPU, the rest element-wise and lookup tables
    // (runtime/passes/lstm_lowering.h). The states are model inputs (a constant state is not lowered).
    Value lstm(size_t i, const LayerSpec& L, const Value& x, const std::string& name) {
        if (q()) bad(i, "an Lstm case runs in fp16");
        if (!x.flat || L.out_c == 0) bad(i, "an Lstm reads a [1, I] input and has cells");
        const uint32_t in = x.c, cells = L.out_c, units = L.proj_out ? L.proj_out : cells;
        Value h, c;
        h.flat = c.flat = true;
        h.c = units, c.c = cells;
        const int32_t hid = next_input++, cid = next_input++;
        h.port = mw::Port(w.add_input("input" + std::to_string(hid) + "_state_h", desc(h), hid));
        c.port = mw::Port(w.add_input("input" + std::to_string(cid) + "_state_c", desc(c), cid));
        // Weights about 1/sqrt(fan-in), so the gates stay in the activations' working range.
        auto random = [&](std::vector<uint32_t> dims, float bound) {
            size_t n = 1;
            for (uint32_t d : dims) n *= d;
            std::vector<float> v(n);
            for (float& e : v) e = rng.uniform(-bound, bound);
            return mw::const_f32(std::move(dims), v);
        };
        const float wb = 1.0f / std::sqrt(static_cast<float>(in + units));
        mw::LstmParams p;
        p.activation = 4;
        p.cifg = L.cifg, p.peephole = L.peephole, p.projection = L.proj_out != 0;
        if (!L.cifg) {
            p.input_to_input = random({cells, in}, wb);
            p.recurrent_to_input = random({cells, units}, wb);
            p.input_gate_bias = random({cells}, 0.5f);
            if (L.peephole) p.cell_to_input = random({cells}, 0.5f);
        }
        p.input_to_forget = random({cells, in}, wb), p.recurrent_to_forget = random({cells, units}, wb);
        p.input_to_cell = random({cells, in}, wb), p.recurrent_to_cell = random({cells, units}, wb);
        p.input_to_output = random({cells, in}, wb), p.recurrent_to_output = random({cells, units}, wb);
        p.forget_gate_bias = random({cells}, 0.5f), p.cell_bias = random({cells}, 0.5f);
        p.output_gate_bias = random({cells}, 0.5f);
        if (L.peephole) p.cell_to_forget = random({cells}, 0.5f), p.cell_to_output = random({cells}, 0.5f);
        if (L.proj_out) {
            p.projection_weights = random({units, cells}, 1.0f / std::sqrt(static_cast<float>(cells)));
            p.projection_bias = random({units}, 0.2f);
        }
        Value y = h;  // [1, units]
        const uint32_t gates = L.cifg ? 3 : 4;
        const mw::TensorDesc f = mw::tensor({1, cells}, fb::DataType::Float32);
        const uint32_t id =
            w.add_lstm(name, x.port, h.port, c.port,
                       {mw::tensor({1, cells * gates}), mw::tensor({1, units}), f, mw::tensor({1, units})}, p);
        y.port = mw::Port(id, 3);
        out.macs += uint64_t{gates} * cells * (in + units) + (L.proj_out ? uint64_t{units} * cells : 0);
        return y;
    }

    std::vector<int32_t> divisor_inputs;
};

std::string shape_text(const Value& v) {
    return v.flat ? "1x" + std::to_string(v.c)
                  : "1x" + std::to_string(v.h) + "x" + std::to_string(v.w) + "x" + std::to_string(v.c);
}

const char* act_suffix(Act a) {
    return a == Act::Relu        ? "+ReLu"
           : a == Act::Relu6     ? "+ReLu6"
           : a == Act::LeakyRelu ? "+LeakyReLu"
           : a == Act::Square    ? "+Square"
           : a == Act::Sigmoid   ? "+Sigmoid"
           : a == Act::Tanh      ? "+TanH"
           : a == Act::Elu       ? "+Elu"
           : a == Act::SoftRelu  ? "+SoftReLu"
           : a == Act::Gelu      ? "+Gelu"
           : a == Act::Abs       ? "+Abs"
           : a == Act::Linear    ? "+Linear"
                                 : "";
}

}  // namespace

uint32_t case_seed(const std::string& name) {
    uint32_t h = 2166136261u;  // FNV-1a
    for (unsigned char ch : name) h = (h ^ ch) * 16777619u;
    return h;
}

BuiltCase build_case(const Case& c) {
    Builder B{c, Prng(case_seed(c.name)), {}, {}, 0, {}};
    if (c.layers.empty()) fail(ErrorKind::Internal, "self-test case '" + c.name + "' has no layer");
    Value x = B.model_input(c.input.h, c.input.w, c.input.c, c.input.flat, 0);
    const Value input0 = x;
    B.out.input_shape = shape_text(x);
    B.out.rounding_steps = 0;
    std::vector<Value> outputs;
    for (size_t i = 0; i < c.layers.size(); ++i) {
        const LayerSpec& L = c.layers[i];
        const std::string name = "l" + std::to_string(i);
        if (L.source == kModelInput) x = input0;
        else if (L.source >= 0 && static_cast<size_t>(L.source) < outputs.size()) x = outputs[static_cast<size_t>(L.source)];
        else if (L.source != kPrevious) B.bad(i, "source names a later layer");
        switch (L.kind) {
            case LayerKind::Conv:
            case LayerKind::Depthwise:
            case LayerKind::FullyConnected:
                x = B.conv_like(i, L, x, name);
                ++B.out.rounding_steps;
                break;
            case LayerKind::MaxPool:
            case LayerKind::AvgPool:
            case LayerKind::GlobalAvgPool:
                x = B.pool(i, L, x, name);
                break;
            case LayerKind::Pad: x = B.pad(i, L, x, name); break;
            case LayerKind::Reshape: x = B.reshape(i, L, x, name); break;
            case LayerKind::Concat: x = B.concat(i, L, x, outputs, name); break;
            case LayerKind::Slice: x = B.slice(i, L, x, name); break;
            case LayerKind::Gather: x = B.gather(i, L, x, name); break;
            case LayerKind::Expand: x = B.expand(i, L, x, name); break;
            case LayerKind::Pow: x = B.power(i, L, x, name); break;
            case LayerKind::Lstm:
                x = B.lstm(i, L, x, name);
                B.out.rounding_steps += 4;  // two products, the gate activations and the cell update, per step
                break;
            default:
                x = B.binary(i, L, x, outputs, name);
                break;
        }
        outputs.push_back(x);
        B.out.layer_names.push_back(name);
        B.out.must_tile.push_back(L.tiled);
        std::string op = layer_name(L.kind);
        if (L.kind == LayerKind::Pad) op += L.pad_mode == PadMode::Reflect ? "(reflect)" : "(constant)";
        if (L.broadcast != Broadcast::None) op += std::string("(") + to_string(L.broadcast) + ")";
        if (L.const_operand) op += "(constant)";
        if (L.kind == LayerKind::Pow) {
            char e[16];
            std::snprintf(e, sizeof e, "(%g)", static_cast<double>(L.exponent));
            op += e;
        }
        B.out.ops += (i ? " > " : "") + op + act_suffix(L.act);
    }
    B.w.add_output("output", x.port, 0);
    B.out.output_shape = shape_text(x);
    B.out.divisor_inputs = B.divisor_inputs;
    if (B.out.rounding_steps == 0) B.out.rounding_steps = 1;
    mw::WriteOptions o;
    o.features = mw::Features::Current;
    B.out.armnn = B.w.finish(o);
    return std::move(B.out);
}

}  // namespace npurun::selftest

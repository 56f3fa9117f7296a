#include "tools/common/image_tensor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <variant>

#include "core/error.h"

namespace npurun::image {
namespace {

// Attribute structs that have a `DataLayout layout` member.
template <class T, class = void> struct HasLayout : std::false_type {};
template <class T>
struct HasLayout<T, std::void_t<decltype(std::declval<T>().layout)>>
    : std::is_same<std::decay_t<decltype(std::declval<T>().layout)>, DataLayout> {};

bool node_layout(const Node& n, DataLayout* out) {
    return std::visit(
        [out](const auto& a) {
            using A = std::decay_t<decltype(a)>;
            if constexpr (HasLayout<A>::value) {
                *out = a.layout;
                return true;
            } else {
                return false;
            }
        },
        n.attrs);
}

uint16_t float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = int32_t((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) return uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31) return uint16_t(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10) return uint16_t(sign);
        mant |= 0x800000u;
        const uint32_t shift = uint32_t(14 - exp);
        uint32_t h = mant >> shift;
        const uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) ++h;
        return uint16_t(sign | h);
    }
    uint32_t h = (uint32_t(exp) << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;  // round to nearest even (may carry into exp)
    return uint16_t(sign | h);
}

void per_channel(const std::vector<float>& given, float fallback, uint32_t channels, const char* flag, float* out) {
    if (given.empty()) {
        for (uint32_t c = 0; c < 3; ++c) out[c] = fallback;
        return;
    }
    if (given.size() != 1 && given.size() != channels)
        fail(ErrorKind::BadInput, std::string(flag) + " has " + std::to_string(given.size()) +
                                      " values; the model input has " + std::to_string(channels) +
                                      " channel" + (channels == 1 ? "" : "s") + " (give 1 or " + std::to_string(channels) + ")");
    for (uint32_t c = 0; c < 3; ++c) out[c] = given[given.size() == 1 ? 0 : std::min<size_t>(c, given.size() - 1)];
}

int32_t qmin_of(DataType t) { return t == DataType::QAsymmU8 ? 0 : -128; }
int32_t qmax_of(DataType t) { return t == DataType::QAsymmU8 ? 255 : 127; }

std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

}  // namespace

const char* to_string(ChannelOrder o) { return o == ChannelOrder::Rgb ? "RGB" : "BGR"; }
const char* to_string(ResizeMode m) { return m == ResizeMode::Stretch ? "stretch" : "crop"; }

DataLayout input_layout(const Graph& g, TensorId input, std::string* source) {
    for (const Node& n : g.nodes) {
        bool reads = false;
        for (TensorId t : n.inputs) reads = reads || t == input;
        DataLayout l;
        if (reads && node_layout(n, &l) && (l == DataLayout::NHWC || l == DataLayout::NCHW)) {
            *source = std::string("from ") + to_string(n.op) + (n.name.empty() ? "" : " '" + n.name + "'");
            return l;
        }
    }
    const Shape& s = g.info(input).shape;
    *source = "guessed from the shape";
    const auto is_channels = [](uint32_t d) { return d == 1 || d == 3; };
    if (s.rank == 4 && !is_channels(s[3]) && is_channels(s[1])) return DataLayout::NCHW;
    if (s.rank == 3 && !is_channels(s[2]) && is_channels(s[0])) return DataLayout::NCHW;
    return DataLayout::NHWC;
}

InputPlan plan_image_input(const TensorInfo& info, DataLayout layout, const std::string& layout_source,
                           const Preprocess& p) {
    InputPlan plan;
    plan.info = info;
    plan.layout = layout;
    plan.layout_source = layout_source;
    plan.order = p.order;
    plan.resize = p.resize;
    const Shape& s = info.shape;
    if (s.rank != 4 && s.rank != 3) {
        plan.refusal = "an image needs a [1,H,W,C] or [1,C,H,W] input, this one is " + s.str();
        return plan;
    }
    const uint32_t o = s.rank == 4 ? 1 : 0;
    if (s.rank == 4 && s[0] != 1) {
        plan.refusal = "an image fills a batch of 1, this input has batch " + std::to_string(s[0]);
        return plan;
    }
    if (layout == DataLayout::NHWC) {
        plan.height = s[o], plan.width = s[o + 1], plan.channels = s[o + 2];
    } else {
        plan.channels = s[o], plan.height = s[o + 1], plan.width = s[o + 2];
    }
    if (plan.channels != 1 && plan.channels != 3) {
        plan.refusal = "an image has 1 or 3 channels, this input has " + std::to_string(plan.channels) + " (" +
                       to_string(layout) + " " + s.str() + ")";
        return plan;
    }
    if (plan.height == 0 || plan.width == 0) {
        plan.refusal = "the input has no pixels (" + s.str() + ")";
        return plan;
    }
    const DataType t = info.dtype;
    const bool quantized = t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::QSymmS8;
    if (!is_float(t) && !quantized) {
        plan.refusal = std::string("images feed Float32, Float16 and 8-bit quantized inputs, this one is ") + to_string(t);
        return plan;
    }
    if (quantized && info.quant.per_axis()) {
        plan.refusal = "the input is quantized per channel; images need one scale and zero point";
        return plan;
    }
    if (quantized && !(info.quant.scale() > 0.0f)) {
        plan.refusal = "the input's quantization scale is " + fmt(info.quant.scale());
        return plan;
    }
    plan.quant_levels = quantized && p.mean.empty() && p.stddev.empty();
    per_channel(p.mean, kDefaultMean, plan.channels, "--mean", plan.mean);
    per_channel(p.stddev, kDefaultStd, plan.channels, "--std", plan.stddev);
    for (uint32_t c = 0; c < plan.channels; ++c)
        if (!(plan.stddev[c] != 0.0f) || !std::isfinite(plan.stddev[c]) || !std::isfinite(plan.mean[c]))
            fail(ErrorKind::BadInput, "--std must be finite and non-zero and --mean finite");
    return plan;
}

InputPlan plan_image_input(const Graph& g, const Binding& input, const Preprocess& p) {
    std::string source;
    DataLayout layout = input_layout(g, input.tensor, &source);
    if (p.layout != LayoutChoice::Auto) {
        layout = p.layout == LayoutChoice::Nhwc ? DataLayout::NHWC : DataLayout::NCHW;
        source = "--layout";
    }
    return plan_image_input(g.info(input.tensor), layout, source, p);
}

std::string InputPlan::describe() const {
    if (!refusal.empty()) return "not from an image: " + refusal;
    std::string s = "an image is resized to " + std::to_string(width) + "x" + std::to_string(height) + " (bilinear, " +
                    to_string(resize) + "), " + (channels == 1 ? std::string("gray") : to_string(order)) + ", " +
                    to_string(layout) + " (" + layout_source + "), ";
    const std::string ch = channels == 1 ? "" : "[c]";
    auto list = [&](const float* v) {
        std::string r = fmt(v[0]);
        if (channels == 3 && (v[1] != v[0] || v[2] != v[0])) r = fmt(v[0]) + "," + fmt(v[1]) + "," + fmt(v[2]);
        return r;
    };
    if (is_float(info.dtype)) return s + to_string(info.dtype) + " (p - " + list(mean) + ") / " + list(stddev);
    const double sc = info.quant.scale();
    const int32_t zp = info.quant.offset;
    if (quant_levels) {
        const int32_t qmin = qmin_of(info.dtype);
        return s + to_string(info.dtype) + " q = p" + (qmin ? " - 128" : "") + " (scale " + fmt(sc) + ", zero point " +
               std::to_string(zp) + ": pixels 0..255 are the real values " + fmt((qmin - zp) * sc) + ".." +
               fmt((qmin + 255 - zp) * sc) + ")";
    }
    return s + to_string(info.dtype) + " q = round((p - " + list(mean) + ") / " + list(stddev) + " / " + fmt(sc) +
           ") + " + std::to_string(zp) + ", saturated";
}

std::vector<uint8_t> image_to_tensor(const Image& src_in, const InputPlan& plan, const std::string& name) {
    if (!plan.refusal.empty()) fail(ErrorKind::BadInput, "image '" + name + "' cannot feed this input: " + plan.refusal);
    // Channel count first (on the small side is cheaper, but the source is what we have): gray <-> RGB.
    Image converted;
    const Image* src = &src_in;
    if (src_in.channels != plan.channels) {
        converted.width = src_in.width;
        converted.height = src_in.height;
        converted.channels = plan.channels;
        const size_t n = size_t(src_in.width) * src_in.height;
        converted.pixels.resize(n * plan.channels);
        for (size_t i = 0; i < n; ++i) {
            if (plan.channels == 3) {
                for (int k = 0; k < 3; ++k) converted.pixels[3 * i + k] = src_in.pixels[i];
            } else {
                // ITU-R BT.601 luma, as libjpeg and OpenCV use for RGB -> gray.
                const uint8_t* p = &src_in.pixels[3 * i];
                converted.pixels[i] = uint8_t(std::lround(0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]));
            }
        }
        src = &converted;
    }
    const std::vector<float> px = resize_bilinear(*src, plan.width, plan.height, plan.resize);
    const uint32_t C = plan.channels, H = plan.height, W = plan.width;
    const size_t count = size_t(C) * H * W;
    std::vector<uint8_t> out(plan.info.num_bytes());
    const DataType t = plan.info.dtype;
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x)
            for (uint32_t c = 0; c < C; ++c) {
                // Model channel c comes from image channel c (RGB) or 2 - c (BGR).
                const uint32_t from = (C == 3 && plan.order == ChannelOrder::Bgr) ? 2 - c : c;
                const float p = px[(size_t(y) * W + x) * C + from];
                const size_t i = plan.layout == DataLayout::NHWC ? (size_t(y) * W + x) * C + c : (size_t(c) * H + y) * W + x;
                if (i >= count) fail(ErrorKind::Internal, "image index out of range");
                if (is_float(t)) {
                    const float v = (p - plan.mean[c]) / plan.stddev[c];
                    if (t == DataType::Float32) {
                        std::memcpy(out.data() + 4 * i, &v, 4);
                    } else {
                        const uint16_t h = float_to_half(v);
                        std::memcpy(out.data() + 2 * i, &h, 2);
                    }
                    continue;
                }
                long q;
                if (plan.quant_levels) {
                    q = std::lround(p) + qmin_of(t);
                } else {
                    const double real = (double(p) - plan.mean[c]) / plan.stddev[c];
                    q = std::lround(real / plan.info.quant.scale()) + plan.info.quant.offset;
                }
                q = std::clamp<long>(q, qmin_of(t), qmax_of(t));
                out[i] = t == DataType::QAsymmU8 ? uint8_t(q) : uint8_t(int8_t(q));
            }
    return out;
}

}  // namespace npurun::image

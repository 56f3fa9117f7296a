// The fp16-arithmetic reference kernels (semantics in fp16_arithmetic.h).
#include "kernels/ref/fp16_arithmetic.h"

#include <cmath>
#include <cstring>

#include "core/fp16.h"
#include "kernels/ref/ref_common.h"

namespace npurun::kernels {
namespace ref {
namespace {

// Rounds a double to the nearest fp16 value (ties to even), directly: going through float first would round
// twice. Half values are k * 2^(e-10) for the binade [2^e, 2^(e+1)), e >= -14 (below that the subnormals
// share the unit 2^-24); |v| >= 65520 rounds to infinity.
uint16_t round_to_fp16(double v) {
    if (std::isnan(v)) return 0x7e00;
    const bool neg = std::signbit(v);
    const double a = std::fabs(v);
    uint16_t bits;
    if (a >= 65520.0) {
        bits = 0x7c00;
    } else if (a == 0.0) {
        bits = 0;
    } else {
        int e = std::ilogb(a);
        if (e < -14) e = -14;
        const double k = std::nearbyint(std::ldexp(a, 10 - e));  // exact scaling; the default mode is ties-to-even
        bits = fp32_to_fp16(float(std::ldexp(k, e - 10)));       // a half value now: converts exactly
    }
    return uint16_t(bits | (neg ? 0x8000 : 0));
}

}  // namespace

uint16_t fp16_fma(uint16_t a, uint16_t b, uint16_t c) {
    const double x = fp16_to_fp32(a), y = fp16_to_fp32(b), z = fp16_to_fp32(c);
    if (std::isnan(x) || std::isnan(y) || std::isnan(z)) return 0x7e00;
    // x * y is exact in double (11 + 11 significant bits), so s = RN_double(x*y + z) is the only extra rounding.
    // It can change the fp16 result only if it lands exactly on a point m halfway between two halves while the
    // exact sum is not m, which needs the exact sum to span more than 53 bits. Its bits are all >= 2^-48 (a
    // product's least bit), so its top bit would be >= 2^5, and the bits below 2^-38 would have to come from a
    // product smaller than 2^-16; z is then within 2^-16 of the sum, in the same binade 2^E, so z is a multiple
    // of 2^(E-10) while m is an odd multiple of 2^(E-11): |sum - m| >= 2^(E-11) - 2^-16, far more than half a
    // double ulp of the sum. tests/neon/fp16_arithmetic_test.cpp also compares this with FMLA on aarch64.
    const double s = x * y + z;
    if (s == 0.0) {
        // Exact zero: IEEE gives -0 only when both x*y and z are -0 (round to nearest).
        const bool neg = std::signbit(x * y) && std::signbit(z);
        return neg ? 0x8000 : 0;
    }
    return round_to_fp16(s);
}

namespace {

std::string check_float_weighted(const KernelNode& n, size_t bias_index, bool bias_enabled) {
    for (size_t i = 0; i < 2; ++i)
        if (n.in(i).dtype != DataType::Float32) return "fp16 arithmetic covers Float32 layers only";
    if (n.out().dtype != DataType::Float32) return "fp16 arithmetic covers Float32 layers only";
    if (bias_enabled && n.has_input(bias_index) && n.in(bias_index).dtype != DataType::Float32)
        return "non-Float32 bias";
    return {};
}

std::string check_conv(const KernelNode& n) {
    const auto& a = n.attr<Convolution2dAttrs>();
    if (a.layout != DataLayout::NHWC) return "fp16 arithmetic covers NHWC convolutions only";
    return check_float_weighted(n, 2, a.bias_enabled);
}

// Reads the Float32 element at `i` of an operand, rounded to fp16.
inline uint16_t half_at(const void* p, size_t i) {
    float f;
    std::memcpy(&f, static_cast<const uint8_t*>(p) + i * sizeof(float), sizeof f);
    return fp32_to_fp16(f);
}

inline float bias_at(const void* p, size_t i) {
    float f = 0.0f;
    if (p != nullptr) std::memcpy(&f, static_cast<const uint8_t*>(p) + i * sizeof(float), sizeof f);
    return f;
}

inline void store(void* p, size_t i, uint16_t acc, const void* bias, size_t o) {
    float v = fp16_to_fp32(acc);
    if (bias != nullptr) v += bias_at(bias, o);
    std::memcpy(static_cast<uint8_t*>(p) + i * sizeof(float), &v, sizeof v);
}

// The window walk both convolutions share (NHWC): for every output element (b, oy, ox, o) the accumulator starts
// at +0, takes acc = tap(acc, xi, o, ky, kx) for each tap inside the input in (ky, kx) order (xi: the flat index of
// that input pixel's first channel), and is stored with the bias of o. Padding taps add nothing.
template <class Attrs, class Tap> void run_window(const KernelArgs& args, const Attrs& a, Tap&& tap) {
    const KernelNode& n = args.node;
    const Shape &x = n.in(0).shape, &w = n.in(1).shape, &y = n.out().shape;
    const void* bias = a.bias_enabled && n.has_input(2) ? args.inputs[2] : nullptr;
    const size_t ih = x[1], iw = x[2], ic = x[3], oh = y[1], ow = y[2], oc = y[3], kh = w[1], kw = w[2];
    for (size_t b = 0; b < y[0]; ++b)
        for (size_t oy = 0; oy < oh; ++oy)
            for (size_t ox = 0; ox < ow; ++ox)
                for (size_t o = 0; o < oc; ++o) {
                    uint16_t acc = 0;
                    for (size_t ky = 0; ky < kh; ++ky) {
                        const int64_t iy = int64_t(oy * a.stride_y + ky * a.dilation_y) - a.pad_top;
                        if (iy < 0 || iy >= int64_t(ih)) continue;
                        for (size_t kx = 0; kx < kw; ++kx) {
                            const int64_t ix = int64_t(ox * a.stride_x + kx * a.dilation_x) - a.pad_left;
                            if (ix < 0 || ix >= int64_t(iw)) continue;
                            acc = tap(acc, ((b * ih + size_t(iy)) * iw + size_t(ix)) * ic, o, ky, kx);
                        }
                    }
                    store(args.outputs[0], ((b * oh + oy) * ow + ox) * oc + o, acc, bias, o);
                }
}

// Convolution (weights [O,KH,KW,I]): a tap sums its input channels in order.
void run_conv(const KernelArgs& args) {
    const Shape& w = args.node.in(1).shape;
    const size_t kh = w[1], kw = w[2], ic = w[3];
    run_window(args, args.node.attr<Convolution2dAttrs>(),
               [&](uint16_t acc, size_t xi, size_t o, size_t ky, size_t kx) {
                   const size_t wi = ((o * kh + ky) * kw + kx) * ic;
                   for (size_t c = 0; c < ic; ++c)
                       acc = fp16_fma(half_at(args.inputs[0], xi + c), half_at(args.inputs[1], wi + c), acc);
                   return acc;
               });
}

std::string check_depthwise(const KernelNode& n) {
    const auto& a = n.attr<DepthwiseConvolution2dAttrs>();
    if (a.layout != DataLayout::NHWC) return "fp16 arithmetic covers NHWC depthwise convolutions only";
    if (n.in(0).shape[3] != n.out().shape[3]) return "fp16 arithmetic covers depth multiplier 1 only";
    return check_float_weighted(n, 2, a.bias_enabled);
}

// Depthwise, multiplier 1 (weights [1,KH,KW,C]): output channel o takes input channel o of each tap.
void run_depthwise(const KernelArgs& args) {
    const Shape& w = args.node.in(1).shape;
    const size_t kw = w[2], c = w[3];
    run_window(args, args.node.attr<DepthwiseConvolution2dAttrs>(),
               [&](uint16_t acc, size_t xi, size_t o, size_t ky, size_t kx) {
                   return fp16_fma(half_at(args.inputs[0], xi + o), half_at(args.inputs[1], (ky * kw + kx) * c + o),
                                   acc);
               });
}

std::string check_fc(const KernelNode& n) {
    const auto& a = n.attr<FullyConnectedAttrs>();
    if (n.in(1).shape.rank != 2) return "weights not 2-D";
    return check_float_weighted(n, 2, a.bias_enabled);
}

void run_fc(const KernelArgs& args) {
    const KernelNode& n = args.node;
    const auto& a = n.attr<FullyConnectedAttrs>();
    const Shape& w = n.in(1).shape;
    const size_t in = a.transpose_weights ? w[1] : w[0], out = a.transpose_weights ? w[0] : w[1];
    const size_t batch = n.in(0).shape.num_elements() / in;
    const void* bias = a.bias_enabled && n.has_input(2) ? args.inputs[2] : nullptr;
    for (size_t b = 0; b < batch; ++b)
        for (size_t o = 0; o < out; ++o) {
            uint16_t acc = 0;
            for (size_t k = 0; k < in; ++k) {
                const size_t wi = a.transpose_weights ? o * in + k : k * out + o;
                acc = fp16_fma(half_at(args.inputs[0], b * in + k), half_at(args.inputs[1], wi), acc);
            }
            store(args.outputs[0], b * out + o, acc, bias, o);
        }
}

const Kernel kConvolution2dFp16{check_conv, nullptr, run_conv};
const Kernel kFullyConnectedFp16{check_fc, nullptr, run_fc};
const Kernel kDepthwiseFp16{check_depthwise, nullptr, run_depthwise};

}  // namespace
}  // namespace ref

const Kernel* ref_fp16_arithmetic_kernel(OpKind op) {
    switch (op) {
        case OpKind::Convolution2d: return &ref::kConvolution2dFp16;
        case OpKind::FullyConnected: return &ref::kFullyConnectedFp16;
        case OpKind::DepthwiseConvolution2d: return &ref::kDepthwiseFp16;
        default: return nullptr;
    }
}

}  // namespace npurun::kernels

// Activation, float32: ReLu, BoundedReLu, LeakyReLu, Linear, Abs, Square, Sqrt, HardSwish (each the
// reference's formula with the same IEEE operations in the same order, and std::max/std::min's
// selection rules: 0 ulp against kernels/ref), Sigmoid 1/(1+exp(-x)) and TanH a*tanh(b*x) with the
// vector exp/tanh of vector_math.h (bounds stated and tested in tests/neon: sigmoid <= 4 ulp,
// tanh <= 6 ulp of the reference, or 2^-24 absolute near 0). SoftReLu, Elu, Gelu (float): ref.
//
// 8-bit quantized (QAsymmU8/QAsymmS8/QSymmS8, per-tensor, any function): a 256-entry table built once by prepare
// from every possible input code with the reference's own per-element computation, quant::quantize(
// f(quant::dequantize(q))) with the reference's own f (kernels/ref/activation_function.h), then
// one table lookup per element: bit-exact with kernels/ref for all 256 codes.
#include <algorithm>
#include <cmath>

#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"
#include "kernels/neon/vector_math.h"
#include "core/quantization.h"
#include "kernels/ref/activation_function.h"

namespace npurun::kernels::neon {
namespace {

std::string check(const KernelNode& n) {
    if (n.num_inputs() != 1 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, 0), &y = out_info(n);
    if (x.shape.num_elements() != y.shape.num_elements()) return refuse("input and output sizes differ");
    if (eight_bit(x.dtype) && eight_bit(y.dtype)) {
        if (x.quant.scales.size() != 1 || y.quant.scales.size() != 1) return refuse("per-axis quantization");
        return {};
    }
    if (x.dtype != DataType::Float32 || y.dtype != DataType::Float32) return refuse("only float32 or 8-bit");
    switch (n.attr<ActivationAttrs>().function) {
        case ActivationFunction::SoftReLu:
        case ActivationFunction::Elu:
        case ActivationFunction::Gelu: return refuse("float SoftReLu/Elu/Gelu");
        default: return {};
    }
}

// max(lo, x) and min(hi, x) as std::max(lo, x) = (lo < x ? x : lo), std::min(hi, x) = (x < hi ? x : hi).
inline float32x4_t std_max(float32x4_t a, float32x4_t b) { return vbslq_f32(vcltq_f32(a, b), b, a); }
inline float32x4_t std_min(float32x4_t a, float32x4_t b) { return vbslq_f32(vcltq_f32(b, a), b, a); }

template <ActivationFunction F> inline float32x4_t act(float32x4_t x, float32x4_t a, float32x4_t b) {
    const float32x4_t zero = vdupq_n_f32(0.0f);
    switch (F) {
        case ActivationFunction::ReLu: return std_max(zero, x);
        case ActivationFunction::BoundedReLu: return std_min(a, std_max(b, x));
        case ActivationFunction::LeakyReLu: return vbslq_f32(vcgtq_f32(x, zero), x, vmulq_f32(a, x));
        case ActivationFunction::Linear: return vaddq_f32(vmulq_f32(a, x), b);
        case ActivationFunction::Abs: return vabsq_f32(x);
        case ActivationFunction::Square: return vmulq_f32(x, x);
        case ActivationFunction::Sqrt: return sqrt_f32x4(x);
        case ActivationFunction::HardSwish: {
            const float32x4_t t = std_min(std_max(vaddq_f32(x, vdupq_n_f32(3.0f)), zero), vdupq_n_f32(6.0f));
            return div_f32x4(vmulq_f32(x, t), vdupq_n_f32(6.0f));
        }
        case ActivationFunction::Sigmoid:
            return div_f32x4(vdupq_n_f32(1.0f), vaddq_f32(vdupq_n_f32(1.0f), exp_f32(vnegq_f32(x))));
        case ActivationFunction::TanH: return vmulq_f32(a, tanh_f32(vmulq_f32(b, x)));
        default: return x;
    }
}

template <ActivationFunction F> void run_fn(const float* x, float* y, size_t count, float a, float b) {
    const float32x4_t av = vdupq_n_f32(a), bv = vdupq_n_f32(b);
    // Blocks of 1024 elements: each block one thread; tails padded through a small buffer.
    const size_t blocks = (count + 1023) / 1024;
    parallel_for(blocks, work_grain(1024 * 8), [&](size_t begin, size_t end) {
        for (size_t blk = begin; blk < end; ++blk) {
            const size_t lo = blk * 1024, hi = lo + 1024 < count ? lo + 1024 : count;
            size_t i = lo;
            for (; i + 4 <= hi; i += 4) vst1q_f32(y + i, act<F>(vld1q_f32(x + i), av, bv));
            if (i < hi) {
                float tmp[4] = {0, 0, 0, 0};
                for (size_t j = i; j < hi; ++j) tmp[j - i] = x[j];
                vst1q_f32(tmp, act<F>(vld1q_f32(tmp), av, bv));
                for (size_t j = i; j < hi; ++j) y[j] = tmp[j - i];
            }
        }
    });
}


// Prepared state, 8-bit only: the 256-entry table, output code of every input code.
size_t state_bytes(const KernelNode& n) { return in_info(n, 0).dtype == DataType::Float32 ? 0 : 256; }

void prepare(const PrepareArgs& args) {
    const auto& at = args.node.attr<ActivationAttrs>();
    const TensorInfo &xi = in_info(args.node, 0), &yi = out_info(args.node);
    uint8_t* table = static_cast<uint8_t*>(args.state);
    const bool x_signed = xi.dtype != DataType::QAsymmU8;
    for (int code = 0; code < 256; ++code) {
        const int32_t q = x_signed ? int32_t(int8_t(uint8_t(code))) : code;
        const float v = ref::activation_value(at.function, quant::dequantize(q, xi.quant.scale(), xi.quant.offset), at.a, at.b);
        table[code] = uint8_t(quant::quantize(v, yi.quant.scale(), yi.quant.offset, yi.dtype));
    }
}

// y[i] = table[x[i]], 16 bytes per step: TBL on the table's first 64-byte quarter (indices >= 64 give 0), then
// TBX on each further quarter with the index lowered by 64 each time (indices out of 0..63 leave the byte as it
// is). Every byte is thus written by exactly the quarter its index falls in: the same bytes as the scalar loop.
void lookup_bytes(const uint8_t* table, const uint8_t* x, uint8_t* y, size_t b, size_t e) {
    uint8x16x4_t t[4];
    for (int q = 0; q < 4; ++q)
        for (int r = 0; r < 4; ++r) t[q].val[r] = vld1q_u8(table + 64 * q + 16 * r);
    const uint8x16_t k64 = vdupq_n_u8(64);
    size_t i = b;
    for (; i + 16 <= e; i += 16) {
        uint8x16_t idx = vld1q_u8(x + i);
        uint8x16_t v = vqtbl4q_u8(t[0], idx);
        idx = vsubq_u8(idx, k64);
        v = vqtbx4q_u8(v, t[1], idx);
        idx = vsubq_u8(idx, k64);
        v = vqtbx4q_u8(v, t[2], idx);
        idx = vsubq_u8(idx, k64);
        v = vqtbx4q_u8(v, t[3], idx);
        vst1q_u8(y + i, v);
    }
    for (; i < e; ++i) y[i] = table[x[i]];
}

void run_lut(const KernelArgs& args) {
    const TensorInfo& xi = in_info(args.node, 0);
    const uint8_t* table = static_cast<const uint8_t*>(args.state);
    const uint8_t* x = in_ptr<uint8_t>(args, 0);
    uint8_t* y = out_ptr<uint8_t>(args);
    const size_t count = xi.shape.num_elements();
    parallel_for((count + 4095) / 4096, work_grain(4096), [&](size_t begin, size_t end) {
        const size_t b = begin * 4096, e = std::min(count, end * 4096);
        lookup_bytes(table, x, y, b, e);
    });
}

void run(const KernelArgs& args) {
    if (in_info(args.node, 0).dtype != DataType::Float32) return run_lut(args);
    const auto& at = args.node.attr<ActivationAttrs>();
    const float* x = in_ptr<float>(args, 0);
    float* y = out_ptr<float>(args);
    const size_t n = in_info(args.node, 0).shape.num_elements();
    switch (at.function) {
        case ActivationFunction::ReLu: run_fn<ActivationFunction::ReLu>(x, y, n, at.a, at.b); break;
        case ActivationFunction::BoundedReLu: run_fn<ActivationFunction::BoundedReLu>(x, y, n, at.a, at.b); break;
        case ActivationFunction::LeakyReLu: run_fn<ActivationFunction::LeakyReLu>(x, y, n, at.a, at.b); break;
        case ActivationFunction::Linear: run_fn<ActivationFunction::Linear>(x, y, n, at.a, at.b); break;
        case ActivationFunction::Abs: run_fn<ActivationFunction::Abs>(x, y, n, at.a, at.b); break;
        case ActivationFunction::Square: run_fn<ActivationFunction::Square>(x, y, n, at.a, at.b); break;
        case ActivationFunction::Sqrt: run_fn<ActivationFunction::Sqrt>(x, y, n, at.a, at.b); break;
        case ActivationFunction::HardSwish: run_fn<ActivationFunction::HardSwish>(x, y, n, at.a, at.b); break;
        case ActivationFunction::Sigmoid: run_fn<ActivationFunction::Sigmoid>(x, y, n, at.a, at.b); break;
        case ActivationFunction::TanH: run_fn<ActivationFunction::TanH>(x, y, n, at.a, at.b); break;
        default: break;  // refused by check
    }
}

}  // namespace

const Kernel kActivation{check, nullptr, run, state_bytes, prepare};

}  // namespace npurun::kernels::neon

// Quantize (float32 -> QAsymmU8/QAsymmS8/QSymmS8, per-tensor) and Dequantize (those -> float32).
//
// Quantize is core/quantization.h's quant::quantize exactly: v = x / scale (an IEEE division, not
// a reciprocal multiply), rounded half away from zero (truncate, then step away from zero when the
// exact remainder |v - trunc(v)| >= 0.5), offset added, clamped to the type; NaN gives the offset.
// Dequantize is (float(q) - float(offset)) * scale. Both bit-exact with kernels/ref.
#include "kernels/neon/kernel_list.h"
#include "kernels/neon/kernel_util.h"
#include "kernels/neon/neon.h"
#include "kernels/neon/thread_pool.h"
#include "core/quantization.h"

namespace npurun::kernels::neon {
namespace {

std::string check_quantize(const KernelNode& n) {
    if (n.num_inputs() != 1 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, 0), &y = out_info(n);
    if (x.dtype != DataType::Float32 || !eight_bit(y.dtype)) return refuse("only float32 to 8-bit");
    if (y.quant.per_axis() || y.quant.scales.empty()) return refuse("per-axis or missing output scale");
    if (x.shape.num_elements() != y.shape.num_elements()) return refuse("sizes differ");
    return {};
}

std::string check_dequantize(const KernelNode& n) {
    if (n.num_inputs() != 1 || n.num_outputs() != 1) return refuse("unexpected operand count");
    const TensorInfo &x = in_info(n, 0), &y = out_info(n);
    if (!eight_bit(x.dtype) || y.dtype != DataType::Float32) return refuse("only 8-bit to float32");
    if (x.quant.per_axis() || x.quant.scales.empty()) return refuse("per-axis or missing input scale");
    if (x.shape.num_elements() != y.shape.num_elements()) return refuse("sizes differ");
    return {};
}

// 4 floats -> 4 int32 quantized codes, clamped to [lo, hi].
inline int32x4_t quantize4(float32x4_t x, float32x4_t scale, float32x4_t off_lo, float32x4_t off_hi, int32x4_t offset,
                           int32x4_t lo, int32x4_t hi) {
    const float32x4_t v = div_f32x4(x, scale);
    const float32x4_t t = vrndq_f32(v);  // toward zero
    const uint32x4_t away = vcgeq_f32(vabsq_f32(vsubq_f32(v, t)), vdupq_n_f32(0.5f));
    // +-1 with the sign of v (v - t has v's sign when non-zero).
    const float32x4_t one = vreinterpretq_f32_u32(
        vorrq_u32(vandq_u32(vreinterpretq_u32_f32(v), vdupq_n_u32(0x80000000u)), vreinterpretq_u32_f32(vdupq_n_f32(1.0f))));
    float32x4_t r = vbslq_f32(away, vaddq_f32(t, one), t);
    // Clamp in float to [lo - offset, hi - offset] (exact small integers), so the int conversion is exact.
    r = vminq_f32(vmaxq_f32(r, off_lo), off_hi);
    const uint32x4_t is_num = vceqq_f32(x, x);
    const int32x4_t q = vaddq_s32(vcvtq_s32_f32(vbslq_f32(vandq_u32(is_num, vceqq_f32(v, v)), r, vdupq_n_f32(0.0f))), offset);
    return vminq_s32(vmaxq_s32(q, lo), hi);  // only matters for NaN with an out-of-range offset
}

void run_quantize(const KernelArgs& args) {
    const TensorInfo& yi = out_info(args.node);
    const float* x = in_ptr<float>(args, 0);
    const size_t count = yi.shape.num_elements();
    const int32_t off = yi.quant.offset, lo = quant::type_min(yi.dtype), hi = quant::type_max(yi.dtype);
    const float32x4_t scale = vdupq_n_f32(yi.quant.scale());
    const float32x4_t off_lo = vdupq_n_f32(float(int64_t(lo) - off)), off_hi = vdupq_n_f32(float(int64_t(hi) - off));
    const int32x4_t offset = vdupq_n_s32(off), lo_v = vdupq_n_s32(lo), hi_v = vdupq_n_s32(hi);
    const bool is_unsigned = yi.dtype == DataType::QAsymmU8;
    uint8_t* y = out_ptr<uint8_t>(args);
    parallel_for((count + 1023) / 1024, work_grain(1024 * 4), [&](size_t begin, size_t end) {
        for (size_t blk = begin; blk < end; ++blk) {
            const size_t b = blk * 1024, e = b + 1024 < count ? b + 1024 : count;
            size_t i = b;
            for (; i < e; i += 4) {
                float tmp[4] = {0, 0, 0, 0};
                const size_t len = e - i < 4 ? e - i : 4;
                for (size_t j = 0; j < len; ++j) tmp[j] = x[i + j];
                int32_t q[4];
                vst1q_s32(q, quantize4(len == 4 ? vld1q_f32(x + i) : vld1q_f32(tmp), scale, off_lo, off_hi, offset, lo_v, hi_v));
                for (size_t j = 0; j < len; ++j) y[i + j] = is_unsigned ? uint8_t(q[j]) : uint8_t(int8_t(q[j]));
            }
        }
    });
}

void run_dequantize(const KernelArgs& args) {
    const TensorInfo& xi = in_info(args.node, 0);
    const size_t count = xi.shape.num_elements();
    const float32x4_t scale = vdupq_n_f32(xi.quant.scale());
    const float32x4_t offset = vdupq_n_f32(float(xi.quant.offset));
    const bool is_unsigned = xi.dtype == DataType::QAsymmU8;
    const uint8_t* x = in_ptr<uint8_t>(args, 0);
    float* y = out_ptr<float>(args);
    parallel_for((count + 1023) / 1024, work_grain(1024 * 4), [&](size_t begin, size_t end) {
        for (size_t blk = begin; blk < end; ++blk) {
            const size_t b = blk * 1024, e = b + 1024 < count ? b + 1024 : count;
            size_t i = b;
            for (; i + 8 <= e; i += 8) {
                const uint8x8_t raw = vld1_u8(x + i);
                const int16x8_t w = is_unsigned ? vreinterpretq_s16_u16(vmovl_u8(raw)) : vmovl_s8(vreinterpret_s8_u8(raw));
                const float32x4_t lo = vcvtq_f32_s32(vmovl_s16(vget_low_s16(w)));
                const float32x4_t hi = vcvtq_f32_s32(vmovl_s16(vget_high_s16(w)));
                vst1q_f32(y + i, vmulq_f32(vsubq_f32(lo, offset), scale));
                vst1q_f32(y + i + 4, vmulq_f32(vsubq_f32(hi, offset), scale));
            }
            for (; i < e; ++i) {
                const int32_t q = is_unsigned ? int32_t(x[i]) : int32_t(int8_t(x[i]));
                y[i] = quant::dequantize(q, xi.quant.scale(), xi.quant.offset);
            }
        }
    });
}

}  // namespace

const Kernel kQuantize{check_quantize, nullptr, run_quantize};
const Kernel kDequantize{check_dequantize, nullptr, run_dequantize};

}  // namespace npurun::kernels::neon

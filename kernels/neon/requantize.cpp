// Out-of-line parts of the vectorised requantization epilogue (see requantize.h for the exactness argument).
#include "kernels/neon/requantize.h"

#include "core/quantization.h"

namespace npurun::kernels::neon {

RequantConsts requant_consts(int32_t output_offset, DataType output_type) {
    return {vdupq_n_f64(static_cast<double>(output_offset)), vdupq_n_s32(quant::type_min(output_type)),
            vdupq_n_s32(quant::type_max(output_type))};
}

void requantize_block(const int32_t* acc, const int64_t* bias, const double* m, size_t n, int32_t output_offset,
                      DataType output_type, int32_t* out) {
    const RequantConsts k = requant_consts(output_offset, output_type);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) vst1q_s32(out + i, requantize_x4(vld1q_s32(acc + i), bias + i, m + i, k));
    for (; i < n; ++i) out[i] = quant::requantize(int64_t(acc[i]) + bias[i], m[i], output_offset, output_type);
}

void requantize_block_bytes(const int32_t* acc, const int64_t* bias, const double* m, size_t n, int32_t output_offset,
                            DataType output_type, uint8_t* out) {
    const RequantConsts k = requant_consts(output_offset, output_type);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const int32x4_t a = requantize_x4(vld1q_s32(acc + i), bias + i, m + i, k);
        const int32x4_t b = requantize_x4(vld1q_s32(acc + i + 4), bias + i + 4, m + i + 4, k);
        vst1_u8(out + i, narrow_to_bytes(a, b));
    }
    for (; i + 4 <= n; i += 4) store_4_bytes(out + i, requantize_x4(vld1q_s32(acc + i), bias + i, m + i, k));
    for (; i < n; ++i) out[i] = uint8_t(quant::requantize(int64_t(acc[i]) + bias[i], m[i], output_offset, output_type));
}

}  // namespace npurun::kernels::neon

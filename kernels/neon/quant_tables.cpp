#include "kernels/neon/quant_tables.h"

#include <cstring>

#include "kernels/neon/neon.h"
#include "core/quantization.h"

namespace npurun::kernels::neon {
namespace {

constexpr size_t align64(size_t v) { return (v + 63) & ~size_t(63); }

inline int32_t code(const uint8_t* p, bool is_signed) { return is_signed ? int32_t(int8_t(*p)) : int32_t(*p); }

// Sum of k raw codes modulo 2^32, 16 per step: pairwise widening adds into 16-bit lanes (at most 2*255),
// accumulated into 32-bit lanes (the modulo-2^32 lane sum equals the scalar modulo-2^32 sum in any case).
uint32_t sum_codes(const uint8_t* p, size_t k, bool is_signed) {
    const size_t k16 = k & ~size_t(15);
    uint32x4_t acc = vdupq_n_u32(0);
    for (size_t i = 0; i < k16; i += 16) {
        const uint8x16_t v = vld1q_u8(p + i);
        acc = is_signed ? vreinterpretq_u32_s32(vpadalq_s16(vreinterpretq_s32_u32(acc), vpaddlq_s8(vreinterpretq_s8_u8(v))))
                        : vpadalq_u16(acc, vpaddlq_u8(v));
    }
    uint32_t sum = vaddvq_u32(acc);
    for (size_t i = k16; i < k; ++i) sum += uint32_t(code(p + i, is_signed));
    return sum;
}

}  // namespace

size_t quant_tables_bytes(size_t oc, size_t ic, bool with_conv_rows) {
    size_t bytes = align64(oc * sizeof(double)) + align64(oc * sizeof(int64_t));
    if (with_conv_rows) bytes += align64(oc * sizeof(int32_t)) + align64(ic);
    return bytes;
}

QuantTables carve_quant_tables(void* memory, size_t oc, size_t ic, bool with_conv_rows) {
    (void)ic;  // the zero row is last: its size only matters to quant_tables_bytes
    uint8_t* b = static_cast<uint8_t*>(memory);
    QuantTables t;
    t.multiplier = reinterpret_cast<double*>(b);
    b += align64(oc * sizeof(double));
    t.bias = reinterpret_cast<int64_t*>(b);
    b += align64(oc * sizeof(int64_t));
    if (with_conv_rows) {
        t.sum_w = reinterpret_cast<int32_t*>(b);
        b += align64(oc * sizeof(int32_t));
        t.zero_row = b;
    }
    return t;
}

void fill_multipliers(const QuantConvParams& q, size_t oc, double* multiplier) {
    for (size_t o = 0; o < oc; ++o)
        multiplier[o] = quant::multiplier(q.input_scale, q.weight_scales[q.per_axis ? o : 0], q.output_scale);
}

void fill_bias(const QuantConvParams& q, const int32_t* bias_codes, size_t oc, int64_t* bias) {
    for (size_t o = 0; o < oc; ++o) {
        const float sw = q.weight_scales[q.per_axis ? o : 0];
        const float sb = q.bias_scales ? q.bias_scales[q.bias_per_axis ? o : 0] : 0.0f;
        bias[o] = bias_codes ? quant::accumulator_bias(bias_codes[o], sb, q.input_scale, sw) : 0;
    }
}

void fill_sum_w(const QuantConvParams& q, const uint8_t* w, size_t oc, size_t k, int32_t* sum_w) {
    const bool is_signed = q.weight_type != DataType::QAsymmU8;
    for (size_t o = 0; o < oc; ++o) sum_w[o] = int32_t(sum_codes(w + o * k, k, is_signed));
}

void fill_zero_row(const QuantConvParams& q, size_t ic, uint8_t* zero_row) {
    std::memset(zero_row, int(uint8_t(q.input_offset)), ic);
}

}  // namespace npurun::kernels::neon

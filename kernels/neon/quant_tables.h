// The quantization of a conv-like operation (Convolution2d, DepthwiseConvolution2d, FullyConnected) and its
// per-output-channel tables: what a kernel's prepare computes once so that the run only accumulates and
// requantizes.
//
// Every entry is computed with core/quantization.h's functions, exactly as kernels/ref computes it
// per element, so precomputing changes no result.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/types.h"

namespace npurun::kernels::neon {

struct QuantConvParams {
    DataType input_type;        // QAsymmU8 or QAsymmS8; the output has the same type
    DataType weight_type;       // QAsymmU8, QAsymmS8 or QSymmS8
    DataType output_type;
    float input_scale, output_scale;
    int32_t input_offset, weight_offset, output_offset;  // weight_offset is 0 for per-axis weights
    const float* weight_scales;  // [oc] when per_axis, else [1]
    bool per_axis;
    const float* bias_scales;    // bias tensor scales ([oc] when bias_per_axis), nullptr: none
    bool bias_per_axis;
};

// Views into one block of memory (the kernel's prepared state), each array 64-byte aligned.
struct QuantTables {
    double* multiplier = nullptr;  // [oc] input_scale * weight_scale / output_scale
    int64_t* bias = nullptr;       // [oc] the bias in accumulator units (0 without bias); int64 as requantize_x4 adds it
    int32_t* sum_w = nullptr;      // [oc] sum of the raw weight codes of each channel (conv dot-product path)
    uint8_t* zero_row = nullptr;   // [ic] bytes equal to the input zero point: the padding taps' input (conv)
};

// Bytes of the tables for `oc` output channels; with_conv_rows adds sum_w and the zero row of `ic` bytes.
size_t quant_tables_bytes(size_t oc, size_t ic, bool with_conv_rows);
QuantTables carve_quant_tables(void* memory, size_t oc, size_t ic, bool with_conv_rows);

// multiplier[o] for every output channel.
void fill_multipliers(const QuantConvParams& q, size_t oc, double* multiplier);
// bias[o] from the Signed32 bias codes (nullptr: no bias, all 0).
void fill_bias(const QuantConvParams& q, const int32_t* bias_codes, size_t oc, int64_t* bias);
// sum_w[o] over the k weight codes of row o of w [oc, k] (modulo 2^32, as the dot-product path needs).
void fill_sum_w(const QuantConvParams& q, const uint8_t* w, size_t oc, size_t k, int32_t* sum_w);
void fill_zero_row(const QuantConvParams& q, size_t ic, uint8_t* zero_row);

}  // namespace npurun::kernels::neon

// Quantized NHWC convolution entry points (see conv2d_quant.cpp for the arithmetic contract).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/neon/conv_geometry.h"
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

// x [n,ih,iw,ic], w [oc,kh,kw,ic], bias [oc] (Signed32) or nullptr, y [n,oh,ow,oc].
void conv2d_quant(const ConvGeometry& g, const QuantConvParams& q, const uint8_t* x, const uint8_t* w, const int32_t* bias,
                  uint8_t* y, void* scratch);
size_t conv2d_quant_scratch(const ConvGeometry& g);
// Whether conv2d_quant takes the ARMv8.2 dot-product path for these types on this CPU right now.
bool conv2d_quant_uses_dotprod(const QuantConvParams& q);

}  // namespace npurun::kernels::neon

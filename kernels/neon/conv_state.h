// The prepared state of a conv-like NEON kernel (Convolution2d, DepthwiseConvolution2d, FullyConnected), laid
// out in the state memory the executor gives the node:
//
//   [ConvState][quantization tables (quant_tables.h) or the float zero row][packed constant weights]
//
// each part 64-byte aligned. The header records what prepare could finish: tables that depend on an operand
// which is a run-time tensor (bias, or the weights' sum_w) are refreshed by run from that operand, into the
// same memory, before the parallel part starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "kernels/neon/conv1x1_quant.h"
#include "kernels/neon/conv_geometry.h"
#include "kernels/neon/quant_tables.h"

namespace npurun::kernels::neon {

struct ConvState {
    ConvGeometry g;
    QuantConvParams q;        // quantized kernels only; scale pointers refer to the model's tensor descriptors
    bool quantized;
    bool bias_ready;          // tables.bias final (constant or absent bias)
    bool weights_ready;       // packed weights and sum_w final (constant weights)
    size_t tables_offset;     // from the start of the state
    size_t weights_offset;    // 0: the weights operand is used as given (or packed per run into scratch)
    size_t oc, ic;            // table sizes
    size_t gemm_offset;       // 0: none; else the 1x1 GEMM kernel's packed weights (conv1x1_quant.h)
    GemmKernel gemm_kernel;   // the micro-kernel those weights are packed for

    QuantTables tables() { return carve_quant_tables(at(tables_offset), oc, ic, with_conv_rows); }
    const float* zero_row_f32() { return static_cast<const float*>(at(tables_offset)); }
    uint8_t* packed_weights() { return weights_offset ? static_cast<uint8_t*>(at(weights_offset)) : nullptr; }
    uint8_t* gemm_weights() { return gemm_offset ? static_cast<uint8_t*>(at(gemm_offset)) : nullptr; }
    bool with_conv_rows;

private:
    void* at(size_t off) { return reinterpret_cast<uint8_t*>(this) + off; }
};
static_assert(std::is_trivially_copyable_v<ConvState>, "lives in raw state memory");

constexpr size_t conv_state_header_bytes() { return (sizeof(ConvState) + 63) & ~size_t(63); }

// The header of a prepared state (state memory is 64-byte aligned and was zeroed).
inline ConvState* conv_state(void* state) { return std::launder(static_cast<ConvState*>(state)); }
inline ConvState* new_conv_state(void* state) { return new (state) ConvState{}; }

}  // namespace npurun::kernels::neon

// A convolution-like layer (Convolution2d, DepthwiseConvolution2d, FullyConnected as a 1x1 convolution)
// for the NPU: geometry, the requantization constants and the fused activation (check_conv_layer), and its
// constants: weights packed to the NPU's group layout and the BS operand stream (bias, and per-channel
// multipliers), written once at load (write_conv_weights / write_conv_bs_stream).
//
// Integer arithmetic (reference §4.5, runtime/util/quantization.h): the NPU computes on signed int8.
// uint8 tensors are shifted by -128 at the segment edge; weights are stored as w - 128 (uint8) or w (int8).
// With x the signed input (padding = the signed input zero point zx) and wz the stored weight zero point,
//   CORE + CPEND:  A = sum((ws) * x) + OW_OP * sum(x),  OW_OP = -wz   =>  A = sum((w - wz) * x)
//   BS ALU:        A + bias',  bias' = bias_acc - zx * sum over taps and real channels of (w - wz)
//                  = sum((w - wz) * (x - zx)) + bias_acc, exactly the CPU kernel's accumulator;
//   BS MUL (per-channel weights only): round((acc) * m_c / 2^14), m_c = 2^14 * M_c / max(M)
//   OUT_CVT:       round(v * S / 2^shift) + zo, S / 2^shift = M (per-tensor) or max(M) (per-channel),
// where M = multiplier(sx, sw, so) is the same multiplier the CPU requantize() uses. Padding input
// channels carry the stored weight value wz, so their effective weight ws + OW_OP is 0 whatever the
// (unspecified) contents of those channels are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/align.h"
#include "core/refusal.h"
#include "ir/graph.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

struct ConvLayer {
    NpuDomain domain = NpuDomain::Int8;
    bool depthwise = false;
    uint32_t c = 0, h = 0, w = 0;     // input (real channels)
    uint32_t k = 0, ho = 0, wo = 0;   // output (real channels)
    // kh x kw is the model's kernel, the taps the CNA runs (WEIGHT_SIZE2). A dilated kernel runs with the
    // CONV_CON3 atrous fields (dil - 1), so it issues only its real taps; its window covers span_h() x span_w()
    // input pixels, which is what padding, row tiles and FEATURE_GRAINS count.
    uint32_t kh = 1, kw = 1, sx = 1, sy = 1, pad_left = 0, pad_top = 0;
    uint32_t dil_x = 1, dil_y = 1;
    uint32_t span_h() const { return (kh - 1) * dil_y + 1; }
    uint32_t span_w() const { return (kw - 1) * dil_x + 1; }
    uint32_t ca = 0;                  // input channels as the CNA reads them (atom aligned)
    uint32_t coa = 0;                 // output channels the CORE/DPU produce (multiple of 16)

    // int8 pipeline
    uint32_t pad_value = 0;           // CNA_PAD_CON1: signed input zero point (two's complement)
    int32_t ow_op = 0;                // DPU_BS_OW_OP; 0 = CPEND bypassed
    bool per_channel = false;         // BS MUL from the stream
    // Per-channel multipliers as two factors (requant_per_channel.h): BS MUL = a_c with bs_mul_shift (0), BN
    // MUL from the NRDMA stream (after the BS stream) = b_c with bn_mul_shift, ReLU / ReLU-X in BN. Else BS
    // MUL is relative to the layer's largest multiplier with shift 14.
    bool bn_factor = false;
    uint32_t bs_mul_shift = 14;
    uint32_t bn_mul_shift = 0;
    uint32_t out_scale = 1, out_shift = 0;
    int32_t out_offset = 0;

    // BS stage (both domains)
    bool use_bs = false;              // bias stream present (int8: always)
    uint32_t bs_data_use = 0;         // BRDMA_DATA_USE: 1 = ALU, 5 = ALU + MUL
    bool relu = false, relux = false;
    uint32_t relux_bits = 0;          // RELUX_CMP: int32 in BS (BN with bn_factor) units, or fp32 bits

    uint32_t elem_bytes() const { return domain == NpuDomain::Int8 ? 1 : 2; }
    // Useful MACs: the model's taps and real channels.
    uint64_t macs() const { return uint64_t{ho} * wo * k * kh * kw * (depthwise ? 1 : c); }
    // Packed weights (WEIGHT_SIZE0): kernels x taps x aligned channels (one kernel of all channels for
    // depthwise), in the group layout of conv_layer.cpp.
    uint64_t weight_bytes() const { return uint64_t(depthwise ? 1 : k) * kh * kw * ca * elem_bytes(); }
    // BS operand stream: per aligned output channel [i32/f32 ALU][i16 MUL if per_channel]; 0 when unused.
    uint64_t bs_stream_bytes() const {
        if (!use_bs) return 0;
        return uint64_t(coa) * (domain == NpuDomain::Int8 && per_channel ? 6 : 4) + bn_stream_bytes();
    }
    // BN operand stream (bn_factor): per aligned output channel [i16 MUL], right after the BS stream.
    uint64_t bn_stream_bytes() const { return bn_factor ? uint64_t(coa) * 2 : 0; }
};

// Checks that `node` (with an optional fused activation node `act`, whose output becomes the layer's output)
// can be lowered and computes everything but its constants: geometry, zero points, requantization,
// activation. Cheap: no weight is packed (the bias correction is bounded, and summed exactly only when the
// bound does not fit int32).
Refusal check_conv_layer(const Graph& g, const Node& node, const Node* act, NpuDomain d, ConvLayer* out);

// The layer's constants, packed once per compile straight into the constants buffer: the weights
// (L.weight_bytes()) and the BS stream (L.bs_stream_bytes()). `L` is what check_conv_layer made for
// the same node and activation.
void write_conv_weights(const Graph& g, const Node& node, const ConvLayer& L, uint8_t* dst);
void write_conv_bs_stream(const Graph& g, const Node& node, const Node* act, const ConvLayer& L, uint8_t* dst);

// A convolution's block in the constants buffer: the packed weights, then the BS stream on its own 64-byte line
// (the segment aligns blocks to 64 bytes too). Written by write_conv_constants; addressed by conv_addresses
// (conv_regcmd.h).
constexpr uint64_t kConvBsStreamAlign = 64;
inline uint64_t conv_bs_stream_offset(const ConvLayer& L) { return align_up(L.weight_bytes(), kConvBsStreamAlign); }
inline uint64_t conv_constant_bytes(const ConvLayer& L) { return conv_bs_stream_offset(L) + L.bs_stream_bytes(); }
void write_conv_constants(const Graph& g, const Node& node, const Node* act, const ConvLayer& L, uint8_t* block);

// How many times write_conv_weights ran in this process (tests: weights are packed once per compile).
uint64_t conv_weight_packs();

}  // namespace npurun::npu

// Element-wise binary ops on the DPU in flying mode (DPU_RDMA reads both operands from memory, op_en 0x18;
// reference §5, built by dpu_flying.h). The full-size operand is the main input (MRDMA), the other one the EW
// operand (ERDMA); for Sub with the operands swapped the main input is negated in the BS stage.
//  fp16: Add, Sub, Mul, Div, Maximum, Minimum.
//  int8 Add, Sub, Maximum, Minimum: both operands are brought to one integer scale, u = real / (smax / 2^14):
//        main input  through BS:  (a - za) * MA          (ALU add -za, MUL MA, registers)
//        operand     through the EW converter: (b - zb) * MB   (add first: CVT_TYPE 1)
//        then the EW ALU, then OUT_CVT u * S / 2^shift + zo with S / 2^shift ~ (smax / 2^14) / so.
//  int8 Mul: (a - za) through BS, (b - zb) through the EW converter, the EW multiplier gives the exact product
//        in units of sa*sb, OUT_CVT S / 2^shift ~ sa*sb / so (the CPU's one rounding of that product).
//  A fused ReLU / ReLU-X (MulRelu, AddRelu) uses the EW stage's ReLU and clamp.
//
// Broadcasting (NHWC operand -> [1,H,W,C] output; seed 003 "as Expand", which lists [b,c,1,1], [b,c,1,w],
// [b,c,h,1], [b,1,1,w], [b,1,h,1] in NCHW):
//  [1,1,1,C]  per channel: one task, ERDMA per-channel mode (ERDMA_DATA_MODE 0);
//  [1,1,W,C]  the same row for every output row: one task per output row, per-pixel operand;
//  [1,H,1,C]  one pixel per output row: one task per (row, 16-byte channel group), per-channel operand.
// The channel-broadcasting patterns ([1,1,W,1], [1,H,1,1]) have no DPU_RDMA mode (an operand is read per pixel
// or per channel, never one value for all channels): a run-time operand of that shape is first repeated across
// the C channels by a 1x1 convolution with weights 1 (channel_expansion.h, exact) into a region of the op's own,
// and that [1,1,W,C] / [1,H,1,C] map is broadcast as above. Both operands broadcast stay on the CPU.
// A constant operand (seed 003: "B a const tensor") is packed once at load into the constants buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/refusal.h"
#include "drv/regcmd/regcmd_writer.h"
#include "ir/graph.h"
#include "runtime/npu/channel_expansion.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

struct EltwiseLayer {
    enum class Broadcast { None, PerChannel, Rows, Columns };

    NpuDomain domain = NpuDomain::Int8;
    BinaryOp op = BinaryOp::Add;
    uint32_t c = 0, h = 0, w = 0;  // output
    Broadcast broadcast = Broadcast::None;
    uint32_t main_input = 0;       // node input read by MRDMA; the other one is the EW operand
    bool negate_main = false;      // Sub with swapped operands: out = operand - main
    // int8
    int32_t zm = 0, ze = 0;        // signed-domain zero points of the main input and of the operand
    uint32_t mm = 0, me = 0;       // their multipliers (<= 2^14; Mul: 1)
    uint32_t out_scale = 1, out_shift = 0;
    int32_t out_offset = 0;
    // fused activation
    bool relu = false, relux = false;
    uint32_t relux_bits = 0;
    // A constant EW operand in the NPU layout and domain (empty: the operand is a run-time tensor).
    std::vector<uint8_t> operand_constant;
    // A run-time one-channel operand repeated across the output's channels before the EW task reads it.
    std::optional<ChannelExpansion> expand_operand;

    uint32_t operand_input() const { return 1 - main_input; }
};

// Whether prepare_eltwise_layer packs a constant operand into EltwiseLayer::operand_constant (lowering), or
// only checks it (placement's check: the same refusals, no element copied).
enum class EltwiseConstants { CheckOnly, Pack };

// act: an activation fused into the op (nullptr if none).
Refusal prepare_eltwise_layer(const Graph& g, const Node& node, const Node* act, NpuDomain d, EltwiseConstants constants,
                              EltwiseLayer* out);

// Emits the layer's tasks; main / operand / out are NPU addresses of NC1HWC2 maps with plane pitch H*W*16
// of their own shapes. Returns the number of tasks.
uint32_t emit_eltwise_tasks(npudrv::regcmd::RegcmdWriter& w, const EltwiseLayer& L, uint32_t main, uint32_t operand,
                            uint32_t out);

}  // namespace npurun::npu

// Element-wise binary ops on the DPU in flying mode (DPU_RDMA reads both operands from memory, op_en 0x18;
// reference §5): inputs of the same shape only (no broadcasting yet).
//  fp16: Add, Sub, Mul, Div, Maximum, Minimum.
//  int8: Add, Sub, Maximum, Minimum. Both operands are brought to one integer scale, u = real / (smax / 2^14):
//        main input  through BS:  (a - za) * MA          (ALU add -za, MUL MA, registers)
//        operand     through the EW converter: (b - zb) * MB   (add first: CVT_TYPE 1)
//        then the EW ALU, then OUT_CVT u * S / 2^shift + zo with S / 2^shift ~ (smax / 2^14) / so.
//  A fused ReLU / ReLU-X (MulRelu, AddRelu) uses the EW stage's ReLU and clamp.
#pragma once

#include <cstdint>
#include <string>

#include "drv/regcmd/regcmd_writer.h"
#include "runtime/graph/graph.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

struct EltwiseLayer {
    NpuDomain domain = NpuDomain::Int8;
    BinaryOp op = BinaryOp::Add;
    uint32_t c = 0, h = 0, w = 0;
    // int8
    int32_t za = 0, zb = 0;          // signed-domain zero points of the operands
    uint32_t ma = 0, mb = 0;         // operand multipliers (<= 2^14)
    uint32_t out_scale = 1, out_shift = 0;
    int32_t out_offset = 0;
    // fused activation
    bool relu = false, relux = false;
    uint32_t relux_bits = 0;
};

// act: an activation fused into the op (nullptr if none).
bool prepare_eltwise_layer(const Graph& g, const Node& node, const Node* act, NpuDomain d, EltwiseLayer* out,
                           std::string* why);

void emit_eltwise_task(npudrv::regcmd::RegcmdWriter& w, const EltwiseLayer& L, uint32_t a, uint32_t b, uint32_t out);

}  // namespace npurun::npu

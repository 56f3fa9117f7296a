// Pooling2d on the PPU, fed from memory by PPU_RDMA (flying mode, op_en 0x60; reference §8): max and
// average (padding counted in the divisor, Arm NN IgnoreValue), global pooling as a whole-plane kernel.
// int8 runs in the signed domain with the input's quantization on the output (required equal, so the
// PPU needs no requantization); padding reads the real-zero code (average) or the minimum (max).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/refusal.h"
#include "drv/regcmd/regcmd_writer.h"
#include "ir/graph.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

struct PoolLayer {
    NpuDomain domain = NpuDomain::Int8;
    bool max = true;
    uint32_t c = 0, h = 0, w = 0, ho = 0, wo = 0;
    uint32_t kh = 1, kw = 1, sx = 1, sy = 1;
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
    uint64_t pad_value = 0;  // 35-bit two's complement (int8) or fp16 bits
};

Refusal prepare_pool_layer(const Graph& g, const Node& node, NpuDomain d, PoolLayer* out);

// The PPU passes of `L`: itself, or for a global pool over a plane above kGlobalPoolMaxPlane (npu_limits.h
// global_pool_passes) k-windows of stride k, each into an intermediate map, then the global pool of the last
// one. Average: the mean of equal-sized window means is the plane's mean (one more rounding per pass); max is
// exact.
std::vector<PoolLayer> global_pool_passes(const PoolLayer& L);

// One PPU task: input and output NC1HWC2 (plane pitch H*W*16) at the given NPU addresses.
void emit_pool_task(npudrv::regcmd::RegcmdWriter& w, const PoolLayer& L, uint32_t input, uint32_t output);

}  // namespace npurun::npu

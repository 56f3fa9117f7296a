// Register lists for one prepared and tiled convolution layer (conv_layer.h, conv_tiling.h): CNA -> CORE ->
// DPU (+ DPU_RDMA) tasks in the vendor/Mesa register order (reference §4.1), one per tile. All tasks go into
// the caller's RegcmdWriter (one chain per segment or lane).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "drv/regcmd/regcmd_writer.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_tiling.h"

namespace npurun::npu {

// NPU (DMA) addresses of the layer's operands; feature maps are NC1HWC2 with plane pitch H*W*16.
struct ConvAddresses {
    uint32_t input = 0, output = 0, weights = 0, bs_stream = 0;
};
// The addresses of a layer whose constants block (conv_layer.h conv_constant_bytes) is at `constants`.
inline ConvAddresses conv_addresses(const ConvLayer& L, uint32_t input, uint32_t output, uint32_t constants) {
    return {input, output, constants, constants + static_cast<uint32_t>(conv_bs_stream_offset(L))};
}
// Appends the layer's tasks to `w` (all lanes in order, or only lane `lane` when >= 0); returns how many.
uint32_t emit_conv_tasks(npudrv::regcmd::RegcmdWriter& w, const ConvLayer& L, const ConvTiling& t, const ConvAddresses& a,
                         int lane = -1);

}  // namespace npurun::npu

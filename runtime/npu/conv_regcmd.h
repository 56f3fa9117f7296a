// Register lists for one prepared convolution layer (conv_layer.h): CNA -> CORE -> DPU tasks in the
// vendor/Mesa register order (reference §4.1), split by output rows when the task's input does not fit
// the CBUF data banks (reference §9.2). All tasks go into the caller's RegcmdWriter (one chain per segment).
#pragma once

#include <cstdint>
#include <string>

#include "drv/regcmd/regcmd_writer.h"
#include "runtime/npu/conv_layer.h"

namespace npurun::npu {

// NPU (DMA) addresses of the layer's operands; feature maps are NC1HWC2 with plane pitch H*W*16.
struct ConvAddresses {
    uint32_t input = 0, output = 0, weights = 0, bs_stream = 0;
};

struct ConvTiling {
    uint32_t data_banks = 0, weight_banks = 0;
    uint32_t rows_per_task = 0;  // output rows per task (the last task may have fewer)
    uint32_t tasks = 0;
    // Depthwise only: input channels per task (0 = all). A depthwise layer whose input does not fit is
    // first split into channel groups (as the vendor does: 32 fp16 channels; 64 int8 channels, one
    // weight group), then by rows.
    uint32_t channels_per_task = 0;
    // Row tiles after the first of a channel slice find the slice's weights resident in the CBUF
    // (CBUF_CON0.WEIGHT_REUSE, as the vendor's later row tiles do) and do not fetch them again.
    bool weight_reuse = false;
};

// The CBUF split and the row tiling; false (with a reason) when no tiling fits (a kernel too large for
// 11 weight banks, or one output row's input rows too large for the data banks left).
bool plan_conv_tiling(const ConvLayer& L, ConvTiling* out, std::string* why);

// Appends the layer's tasks to `w`; returns how many.
uint32_t emit_conv_tasks(npudrv::regcmd::RegcmdWriter& w, const ConvLayer& L, const ConvTiling& t, const ConvAddresses& a);

}  // namespace npurun::npu

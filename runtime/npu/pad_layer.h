// Pad on the NPU as DPU flying copy tasks (identity BS/EW/output converter, reference §5; no requantization,
// as the CPU kernel copies raw elements), padding along H and W:
//  constant: the border is constant, so it is written once at load into the output's region of the segment
//            buffer (the pad value as the CPU kernel stores it: Arm NN's raw value for quantized types); each
//            inference copies the input into the interior: one task when only rows are added (the interior is
//            then contiguous per plane), else one task per input row (the write DMA has no documented line
//            stride).
//  reflect:  the interior as above, then each mirrored column pixel of each row (one 1x1 task, all channel
//            planes), then each mirrored row copied whole from the finished output row it mirrors.
// Refused: symmetric mode, padding along the batch or channel axes, reflect pads >= the dimension, more than
// kMaxFlyingTasksPerLayer tasks.
#pragma once

#include <cstdint>
#include <string>

#include "core/refusal.h"
#include "drv/regcmd/regcmd_writer.h"
#include "ir/graph.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

struct PadLayer {
    NpuDomain domain = NpuDomain::Int8;
    uint32_t c = 0, h = 0, w = 0;  // input
    uint32_t ho = 0, wo = 0;       // output
    bool reflect = false;          // else constant
    uint32_t top = 0, left = 0, bottom = 0, right = 0;
    uint16_t fill = 0;             // the pad value as one NPU-domain element (int8 byte or fp16 bits)
};

Refusal prepare_pad_layer(const Graph& g, const Node& node, NpuDomain d, PadLayer* out);

// Writes the pad value into every real channel of every pixel of the output's region (NC1HWC2, plane pitch
// ho*wo*16); the tasks then overwrite the interior. Called once at load.
void write_pad_border(const PadLayer& L, uint8_t* region);

// The number of tasks emit_pad_tasks emits.
uint64_t pad_task_count(const PadLayer& L);

// The copy tasks. Returns the number of tasks.
uint32_t emit_pad_tasks(npudrv::regcmd::RegcmdWriter& w, const PadLayer& L, uint32_t input, uint32_t output);

}  // namespace npurun::npu

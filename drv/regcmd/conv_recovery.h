// Recovers the convolution a set of conv tasks computes together (row tiles, kernel tiles, depthwise
// channel tiles, and the alternative per-core task sets the vendor runtime stores side by side all
// write into the same output tensor), from the registers alone.
#pragma once

#include "drv/regcmd/regcmd_decoder.h"

#include <string>
#include <vector>

namespace npudrv::regcmd {

struct RecoveredConv {
    bool valid = false;
    uint32_t in_channels = 0, in_height = 0, in_width = 0;
    uint32_t out_channels = 0, out_height = 0, out_width = 0;
    uint32_t kernel_w = 0, kernel_h = 0;
    uint32_t stride_x = 0, stride_y = 0;
    int pad_left = 0, pad_top = 0, pad_right = 0, pad_bottom = 0;
    bool depthwise = false;
    uint32_t precision = 0;  // CNA precision code (2 = fp16)
    size_t conv_tasks = 0;
    std::vector<std::string> inferred;  // quantities not read from a register but derived (and how)
    std::string summary() const;
};

// Uses every task whose op_en (or descriptor enable mask) starts the CNA.
RecoveredConv recover_conv(const std::vector<DecodedTask>& tasks);

}  // namespace npudrv::regcmd

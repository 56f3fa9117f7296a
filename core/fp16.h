// IEEE 754 binary16 <-> binary32 conversion, the one definition for every layer (the NPU lowering, the
// CPU kernels through core/quantization.h, the simulator). fp32 -> fp16 rounds to nearest, ties to even;
// overflow gives infinity; NaN stays NaN (quiet, payload kept in the top mantissa bits). fp16 -> fp32 is exact.
#pragma once

#include <cstdint>

namespace npurun {

float fp16_to_fp32(uint16_t h);
uint16_t fp32_to_fp16(float f);

}  // namespace npurun

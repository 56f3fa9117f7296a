// IEEE 754 binary16 <-> binary32 conversion for drv/ (the driver and simulator must not depend on
// runtime/). fp32 -> fp16 rounds to nearest, ties to even; overflow gives infinity; NaN stays NaN.
#pragma once

#include <cstdint>

namespace npudrv {

float fp16_to_fp32(uint16_t h);
uint16_t fp32_to_fp16(float f);

}  // namespace npudrv

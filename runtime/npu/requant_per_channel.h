// Per-channel int8 requantization on the DPU with each channel's own exponent (issue 20).
//
// A layer with per-channel weight scales has one multiplier m_c per output channel. With one OUT_CVT per
// task, the BS multiplier alone can only carry m_c relative to the layer's largest (a 16-bit operand),
// which leaves a channel 500x below the largest a 5-bit multiplier. Here each channel's multiplier is
// split as m_c = (a_c / 2^bs_shift) * 2^-d_c * (2^14 / 2^out_shift):
//   BS  MUL from the stream: a_c, the channel's mantissa in [2^14, 2^15) (16-bit operand), shift bs_shift;
//   BN  MUL from the NRDMA stream: 2^(14 - d_c) with shift 14, i.e. a rounding right shift by d_c
//       (d_c = the channel's exponent below the largest, 0..14);
//   OUT_CVT: scale 2^14, shift out_shift, the layer-wide power of two.
// The BN output carries `frac_bits` bits below the output LSB, so the only roundings that can differ from
// one exact multiply are far below it. Register facts: DPU_BS_MUL_CFG / DPU_BN_MUL_CFG / DPU_RDMA_NRDMA_CFG
// in drv/regcmd/register_table.def (reference §4.5; the vendor also runs the conv's ReLU in BN).
#pragma once

#include <cstdint>
#include <vector>

namespace npurun::npu {

struct PerChannelRequant {
    std::vector<int16_t> bs_mul;  // a_c
    std::vector<int16_t> bn_mul;  // 2^(14 - d_c)
    uint32_t bs_shift = 0;        // BS_MUL_SHIFT_VALUE
    uint32_t out_scale = 1 << 14, out_shift = 0;
    uint32_t frac_bits = 0;       // BN output units per output LSB = 2^frac_bits
};

// The split of `m` (every m_c > 0 and finite), or false when the channels span more than 2^14 (then the
// caller keeps the relative-multiplier encoding) or a field would not hold its value.
bool per_channel_requant(const std::vector<double>& m, PerChannelRequant* out);

inline constexpr uint32_t kBnMulShift = 14;
inline constexpr uint32_t kNrdmaMulOnly = 4;  // NRDMA_DATA_USE: the MUL operand only (bit order ALU, CPEND, MUL)

}  // namespace npurun::npu

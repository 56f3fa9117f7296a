// Per-channel int8 requantization on the DPU as the product of two per-channel 16-bit factors (issue 20).
//
// A layer with per-channel weight scales has one multiplier m_c per output channel, which the CPU (and
// MNN, whose scales are float32: 24 significant bits) applies exactly. One 16-bit multiplier keeps 15
// significant bits, and models like slim-320-quant drift by whole LSBs through 40 layers from that alone
// (measured: rounding MNN's scales to 15 bits on the CPU costs 0.029 / 0.35, to 22 bits 0.075 in boxes).
// The DPU has two per-channel multipliers in a row, BS MUL (BRDMA stream) and BN MUL (NRDMA stream), so
//     m_c ~= a_c * b_c * S / 2^(bs_shift + bn_shift + 14 + frac_bits)
//   BS  MUL a_c (16-bit operand), shift bs_shift: x1 = round(acc * a_c / 2^bs_shift);
//   BN  MUL b_c (16-bit operand), shift bn_shift: x2 = round(x1 * b_c / 2^bn_shift) carries about
//       frac_bits bits below the output LSB;
//   OUT_CVT: scale S in (2^14, 2^15], shift 14 + frac_bits, the one rounding to the output LSB.
// The layer's shifts and S put the largest channel's target product at 32767^2 / 2; the pair
// (a_c, b_c) is then searched for the product nearest each channel's target: the many factorizations of a
// 30-bit target come far closer than one 15-bit mantissa (gaps of a few units, ~2^-26 relative).
// Widths: x1 and x2 stay inside int32 (the DPU's data path, NVDLA-style) for every accumulator the
// channel can produce whose output is below 2^9 in magnitude; beyond that the int8 output saturates
// either way. The x2 rounding is at most 2^-21 of an output LSB; the x1 rounding (half an x1 unit, i.e.
// b_c * 2^(bs_shift-1) product units) is weighed against the product's error in the search, which
// favours large a_c.
// Register facts: DPU_BS_MUL_CFG / DPU_BN_MUL_CFG / DPU_RDMA_NRDMA_CFG in drv/regcmd/register_table.def
// (reference §4.5, §6.3; the vendor also runs the conv's ReLU in BN).
#pragma once

#include <cstdint>
#include <vector>

namespace npurun::npu {

struct PerChannelRequant {
    std::vector<int16_t> bs_mul;  // a_c
    std::vector<int16_t> bn_mul;  // b_c
    uint32_t bs_shift = 0;        // BS_MUL_SHIFT_VALUE
    uint32_t bn_shift = 0;        // BN_MUL_SHIFT_VALUE
    uint32_t out_scale = 1 << 14, out_shift = 0;
    uint32_t frac_bits = 0;       // BN output units per output LSB = 2^frac_bits
};

// The factors for multipliers `m` (every m_c > 0 and finite) given acc_bound[c], the largest magnitude the
// channel's accumulator (bias included) can take; false when a multiplier is not positive and finite.
bool per_channel_requant(const std::vector<double>& m, const std::vector<double>& acc_bound, PerChannelRequant* out);
// The layer-wide part only (shifts, OUT_CVT scale and shift; bs_mul / bn_mul left empty), with the same
// answer: what a cheap check needs. The per-channel factor search runs once, when the constants are written.
bool per_channel_requant_layer(const std::vector<double>& m, const std::vector<double>& acc_bound, PerChannelRequant* out);

inline constexpr uint32_t kNrdmaMulOnly = 4;  // NRDMA_DATA_USE: the MUL operand only (bit order ALU, CPEND, MUL)

}  // namespace npurun::npu

// The numeric limits the NPU support checker enforces, each with where it comes from.
//
// Two sources, and the stricter wins:
//  - seed 003 (RKNN2 V2.5.0 operator constraints for the RK3588, reference/rknn2-constraints.md): what the
//    vendor guarantees per operator;
//  - the register field widths and buffer sizes (reference/rk3588-npu-registers.md §8.3, §9.1, §9.2): what
//    the command stream can express at all.
#pragma once

#include <cstdint>

#include "drv/regcmd/register_table.h"

namespace npurun::npu_limits {

// --- register field widths (rk3588-npu-registers.md §9.1), read from the register table ---
namespace detail {
namespace R = npudrv::regcmd::regs;
}  // namespace detail
constexpr uint32_t kConvMaxInputWidth = detail::R::CNA_DATA_SIZE0::DATAIN_WIDTH.max_value();    // 11 bits: 2047
constexpr uint32_t kConvMaxInputHeight = detail::R::CNA_DATA_SIZE0::DATAIN_HEIGHT.max_value();  // 11 bits: 2047
constexpr uint32_t kConvMaxOutputWidth = detail::R::CNA_DATA_SIZE2::DATAOUT_WIDTH.max_value();  // 11 bits: 2047
// DATAIN_CHANNEL is 16 bits, but DATAIN_CHANNEL_REAL (channels - 1) holds 14: 16384 channels.
constexpr uint32_t kConvMaxChannels = detail::R::CNA_DATA_SIZE1::DATAIN_CHANNEL_REAL.max_value() + 1;
constexpr uint32_t kConvMaxKernel = detail::R::CNA_WEIGHT_SIZE2::WEIGHT_WIDTH.max_value();      // 5 bits: 31
static_assert(kConvMaxKernel == detail::R::CNA_WEIGHT_SIZE2::WEIGHT_HEIGHT.max_value());
constexpr uint32_t kConvMaxKernelsPerTask = detail::R::CNA_WEIGHT_SIZE2::WEIGHT_KERNELS.max_value();  // 14 bits
constexpr uint32_t kConvMaxStride = detail::R::CNA_CONV_CON3::CONV_X_STRIDE.max_value();        // 3 bits: 7
static_assert(kConvMaxStride == detail::R::CNA_CONV_CON3::CONV_Y_STRIDE.max_value());
// PAD_CON0 holds left/top (4 bits: 15); right/bottom are implicit.
constexpr uint32_t kConvMaxPadLeftTop = detail::R::CNA_PAD_CON0::PAD_LEFT.max_value();
static_assert(kConvMaxPadLeftTop == detail::R::CNA_PAD_CON0::PAD_TOP.max_value());
// DPU/WDMA/PPU/RDMA cube fields hold value - 1 in 13 bits: 8192.
constexpr uint32_t kCubeMaxDim = detail::R::DPU_DATA_CUBE_CHANNEL::CHANNEL.max_value() + 1;
static_assert(kCubeMaxDim == detail::R::DPU_DATA_CUBE_HEIGHT::HEIGHT.max_value() + 1 &&
              kCubeMaxDim == detail::R::DPU_DATA_CUBE_WIDTH::WIDTH.max_value() + 1 &&
              kCubeMaxDim == detail::R::DPU_WDMA_SIZE_0::CHANNEL_WDMA.max_value() + 1);
constexpr uint64_t kMaxBytesPerKernel = detail::R::CNA_WEIGHT_SIZE1::WEIGHT_BYTES_PER_KERNEL.max_value();  // 19 bits
// CBUF_CON1.DATA_ENTRIES: 64-byte CBUF entries one input row takes (14 bits).
constexpr uint32_t kMaxRowEntries = detail::R::CNA_CBUF_CON1::DATA_ENTRIES.max_value();
// CONV_CON2.FEATURE_GRAINS: input rows buffered before a convolution starts (10 bits).
constexpr uint32_t kMaxFeatureGrains = detail::R::CNA_CONV_CON2::FEATURE_GRAINS.max_value();

// --- CBUF (rk3588-npu-registers.md §1, §9.2; the register table) ---
constexpr uint32_t kCbufBanks = npudrv::regcmd::kCbufBanks;
constexpr uint32_t kCbufBankBytes = npudrv::regcmd::kCbufBankBytes;

// --- pooling: seed 003 MaxPool/AveragePool, stricter than the PPU fields (§8.3: kernel/stride <= 16, pad <= 7) ---
constexpr uint32_t kPoolMaxKernel = 7;
constexpr uint32_t kPoolMaxStride = 8;
constexpr uint32_t kPoolMaxPad = 7;
static_assert(kPoolMaxKernel <= detail::R::PPU_POOLING_KERNEL_CFG::KERNEL_WIDTH.max_value() + 1 &&
              kPoolMaxStride <= detail::R::PPU_POOLING_KERNEL_CFG::KERNEL_STRIDE_WIDTH.max_value() + 1 &&
              kPoolMaxPad <= detail::R::PPU_POOLING_PADDING_CFG::PAD_LEFT.max_value(),
              "seed 003's pooling limits fit the PPU fields");
constexpr uint32_t kPoolMaxDim = 8192;           // channel/height/width in (0, 8192]
constexpr uint32_t kGlobalPoolMaxPlane = 7;      // GlobalMax/AveragePool: height and width in [1, 7]
// A global pool over n > kGlobalPoolMaxPlane rows (or columns) runs as two passes: a k-window of stride k
// (k <= kPoolMaxKernel) down to n / k <= kGlobalPoolMaxPlane, then the global pool over those. The largest
// such k dividing n, or 0 when none (n prime above 7, or above 49); n within the limit needs no split (1).
constexpr uint32_t global_pool_split(uint32_t n) {
    if (n <= kGlobalPoolMaxPlane) return 1;
    for (uint32_t k = kPoolMaxKernel; k >= 2; --k)
        if (n % k == 0 && n / k <= kGlobalPoolMaxPlane) return k;
    return 0;
}

// --- element-wise broadcasting: seed 003 Expand patterns ---
constexpr uint32_t kExpandMaxDim = 8192;

// --- Pad: seed 003 ---
constexpr uint32_t kPadReflectMaxChannelHeight = 8192;
constexpr uint32_t kPadReflectMaxWidth = 8176;

// --- Pow: seed 003 (exponent Y of shape [1]) ---
constexpr float kPowExponents[] = {0.0f, 1.0f, 2.0f, 3.0f, 0.5f, -0.5f};
constexpr const char* kPowExponentsText = "0, 1, 2, 3, 0.5, -0.5";

}  // namespace npurun::npu_limits

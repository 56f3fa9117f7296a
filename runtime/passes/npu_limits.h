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
// CONV_CON3 ATROUS_*_DILATION hold dilation - 1 (5 bits: dilation up to 32; drv/sim/sim_conv.cpp). Seed 003
// allows Conv dilation 1..31 and depthwise 1..32 (reference/mnn-format-and-rknn-runtime.md, operator table).
constexpr uint32_t kConvMaxDilation = detail::R::CNA_CONV_CON3::ATROUS_X_DILATION.max_value() + 1;
static_assert(kConvMaxDilation == detail::R::CNA_CONV_CON3::ATROUS_Y_DILATION.max_value() + 1);
constexpr uint32_t kSeedConvMaxDilation = 31;
constexpr uint32_t kSeedDepthwiseMaxDilation = 32;
static_assert(kSeedConvMaxDilation <= kConvMaxDilation && kSeedDepthwiseMaxDilation <= kConvMaxDilation);
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
// A global pool over n > kGlobalPoolMaxPlane rows (or columns) runs as passes: k-windows of stride k
// (2 <= k <= kPoolMaxKernel, each dividing what is left, the largest first) until at most kGlobalPoolMaxPlane
// remain, then the global pool over those. Possible when n has no prime factor above 7 (7-smooth).
constexpr uint32_t kMaxGlobalPoolPrePasses = 13;  // 8192 = 2^13 needs 6 windows of 4 and a global 2: 13 bounds any n
struct GlobalPoolPasses {
    uint32_t count = 0;  // windowed passes before the global one (0: n fits one pass)
    uint32_t window[kMaxGlobalPoolPrePasses] = {};
    bool possible = true;
    uint32_t last = 0;  // what the global pass covers (<= kGlobalPoolMaxPlane)
};
constexpr GlobalPoolPasses global_pool_passes(uint32_t n) {
    GlobalPoolPasses p;
    while (n > kGlobalPoolMaxPlane) {
        uint32_t k = kPoolMaxKernel;
        while (k >= 2 && n % k != 0) --k;
        if (k < 2 || p.count == kMaxGlobalPoolPrePasses) {
            p.possible = false;
            return p;
        }
        p.window[p.count++] = k;
        n /= k;
    }
    p.last = n;
    return p;
}
// An int8 average rounds once per pass where the CPU rounds once: at most this many windowed passes keep the
// NPU within one code of the CPU (each rounding is at most half a code); fp16 and max pooling take any number.
constexpr uint32_t kMaxInt8AveragePrePasses = 1;

// --- element-wise broadcasting: seed 003 Expand patterns ---
constexpr uint32_t kExpandMaxDim = 8192;

// --- Pad: seed 003 ---
constexpr uint32_t kPadReflectMaxChannelHeight = 8192;
constexpr uint32_t kPadReflectMaxWidth = 8176;

// --- Pow: seed 003 (exponent Y of shape [1]) ---
constexpr float kPowExponents[] = {0.0f, 1.0f, 2.0f, 3.0f, 0.5f, -0.5f};
constexpr const char* kPowExponentsText = "0, 1, 2, 3, 0.5, -0.5";

}  // namespace npurun::npu_limits

// The numeric limits the NPU support checker enforces, each with where it comes from.
//
// Two sources, and the stricter wins:
//  - seed 003 (RKNN2 V2.5.0 operator constraints for the RK3588, reference/rknn2-constraints.md): what the
//    vendor guarantees per operator;
//  - the register field widths and buffer sizes (reference/rk3588-npu-registers.md §8.3, §9.1, §9.2): what
//    the command stream can express at all.
#pragma once

#include <cstdint>

namespace npurun::npu_limits {

// --- register field widths (rk3588-npu-registers.md §9.1) ---
constexpr uint32_t kConvMaxInputWidth = 2047;    // CNA DATA_SIZE0, 11 bits per dimension
constexpr uint32_t kConvMaxInputHeight = 2047;
constexpr uint32_t kConvMaxOutputWidth = 2047;   // DATA_SIZE2, 11 bits
constexpr uint32_t kConvMaxChannels = 16384;     // DATA_SIZE1: 16-bit field, 14 bits implemented
constexpr uint32_t kConvMaxKernel = 31;          // WEIGHT_SIZE2, 5 bits
constexpr uint32_t kConvMaxKernelsPerTask = 16383;  // WEIGHT_SIZE2, 14 bits
constexpr uint32_t kConvMaxStride = 7;           // CONV_CON3, 3 bits
constexpr uint32_t kConvMaxPadLeftTop = 15;      // PAD_CON0, 4 bits (right/bottom implicit)
constexpr uint32_t kCubeMaxDim = 8192;           // DPU/PPU/RDMA cube fields, 13 bits (value-1)
constexpr uint64_t kMaxBytesPerKernel = 512u * 1024u;  // WEIGHT_SIZE1, 19 bits

// --- CBUF (rk3588-npu-registers.md §1, §9.2) ---
constexpr uint32_t kCbufBanks = 12;
constexpr uint32_t kCbufBankBytes = 32 * 1024;

// --- pooling: seed 003 MaxPool/AveragePool, stricter than the PPU fields (§8.3: kernel/stride <= 16, pad <= 7) ---
constexpr uint32_t kPoolMaxKernel = 7;
constexpr uint32_t kPoolMaxStride = 8;
constexpr uint32_t kPoolMaxPad = 7;
constexpr uint32_t kPoolMaxDim = 8192;           // channel/height/width in (0, 8192]
constexpr uint32_t kGlobalPoolMaxPlane = 7;      // GlobalMax/AveragePool: height and width in [1, 7]

// --- element-wise broadcasting: seed 003 Expand patterns ---
constexpr uint32_t kExpandMaxDim = 8192;

// --- Pad: seed 003 ---
constexpr uint32_t kPadReflectMaxChannelHeight = 8192;
constexpr uint32_t kPadReflectMaxWidth = 8176;

}  // namespace npurun::npu_limits

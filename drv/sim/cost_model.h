// Cost model of the RK3588 NPU (issue 15): how long the register streams the driver submits would take on
// one core, computed from each task's decoded registers (the simulator calls it after every task it ran).
// Every constant below names its source; the ones no public document gives are marked ASSUMPTION and are
// the same for every model (never tuned per model). docs/cost-model.md explains the model and its limits.
#pragma once

#include "drv/regcmd/register_state.h"

#include <cstdint>

namespace npudrv::sim {

struct TaskCounters;

namespace cost {

// TRM §36.1 (reference/rk3588-npu-registers.md §1 "MAC throughput per core"): 1024 int8, 512 fp16 MACs
// per cycle per core; issue 15 / TRM: up to 1 GHz.
inline constexpr uint64_t kInt8MacsPerCycle = 1024;
inline constexpr uint64_t kFp16MacsPerCycle = 512;
inline constexpr double kClockHz = 1e9;
// CNA atomic granularity (reference §1 "Atomic sizes", §6.2 weight layout [k/KG][c/32][ky][kx][k%KG][c%32]):
// a MAC step consumes 32 input channels against KG kernels, KG = 32 int8 / 16 fp16 (32 x 32 = 1024,
// 32 x 16 = 512: the array's throughput). Channels and kernels are issued in whole atomic groups.
inline constexpr uint32_t kAtomicChannels = 32;
inline constexpr uint32_t kAtomicKernelsInt8 = 32;
inline constexpr uint32_t kAtomicKernelsFp16 = 16;
// Depthwise (reference §6.2: weights [c/G][ky][kx][c%G], G = 64 bytes of channels; CORE DATAOUT_CHANNEL
// aligned to 64): channels are issued in groups of 64 bytes. ASSUMPTION (no public rate): one such group per
// kernel tap per cycle, i.e. 64 int8 / 32 fp16 MACs per cycle; the kernel dimension of the array idles.
inline constexpr uint32_t kDepthwiseGroupBytes = 64;
// ASSUMPTION: the NPU's DMA moves 16 bytes per cycle (one 128-bit AXI beat at 1 GHz = 16 GB/s), about half
// the 34 GB/s peak of the RK3588's 64-bit LPDDR4x-4266 that the NPU shares with the CPUs.
inline constexpr uint64_t kDmaBytesPerCycle = 16;
// ASSUMPTION: fixed cost of a task besides its regcmd fetch (PC start, CNA/CORE/DPU pipeline fill and drain,
// the completion): 500 cycles. The regcmd fetch itself is charged at kDmaBytesPerCycle.
inline constexpr uint64_t kTaskFixedCycles = 500;

struct TaskCost {
    uint64_t useful_macs = 0;   // real kernels x real channels (the simulator's count)
    uint64_t issued_macs = 0;   // MAC slots the CORE issues at atomic granularity (padding channels included)
    uint64_t feature_bytes = 0; // DMA per port: feature data read (CNA, DPU_RDMA main input, PPU_RDMA)
    uint64_t weight_bytes = 0;  // CNA weights
    uint64_t operand_bytes = 0; // DPU operand streams (BS/BN/EW)
    uint64_t output_bytes = 0;  // DPU / PPU write DMA
    uint64_t cbuf_reused_bytes = 0;  // feature data / weights not fetched because DATA_REUSE / WEIGHT_REUSE
    uint64_t compute_cycles = 0, memory_cycles = 0, overhead_cycles = 0;
    uint64_t cycles() const { return (compute_cycles > memory_cycles ? compute_cycles : memory_cycles) + overhead_cycles; }
    uint64_t dma_bytes() const { return feature_bytes + weight_bytes + operand_bytes + output_bytes; }
    TaskCost& operator+=(const TaskCost& o);
};

// Issued MAC slots of one convolution task (`pixels` output pixels, `taps` kernel taps, `channels` input
// channels as the CNA reads them, `kernels` output kernels; depthwise: kernels unused) at the atomic
// granularity above, and the cycles the MAC array needs for them. estimate_task() and the lowering's
// choices (runtime/npu/window_packing.h) both count this way.
struct ConvIssue {
    uint64_t issued_macs = 0, compute_cycles = 0;
};
ConvIssue conv_issue(uint64_t pixels, uint64_t taps, uint64_t channels, uint64_t kernels, bool fp16, bool depthwise);
// A task's fixed overhead: kTaskFixedCycles and its regcmd fetch.
uint64_t task_overhead_cycles(uint64_t regcmd_bytes);

// The cost of one task that ran with registers `regs` and operation enable `op_en`, whose DMA the simulator
// counted in `c`.
TaskCost estimate_task(const regcmd::RegisterState& regs, uint32_t op_en, const TaskCounters& c);

inline double microseconds(uint64_t cycles) { return double(cycles) / kClockHz * 1e6; }

}  // namespace cost
}  // namespace npudrv::sim

// Functional model of the RK3588 NPU (3 cores) executing regcmd lists on job memory (DmaSpace).
//
// Written from ../shared/reference/rk3588-npu-registers.md, not from any generator: the simulator
// decodes register fields into operations and executes them. It refuses, with a named error, every
// configuration it does not model, every combination the documentation marks invalid, every DMA outside
// the job's buffers and every use of CBUF contents that were never loaded. Error names (prefix of
// HwResult.error): regcmd-format, unmodelled-register, unmodelled-config, invalid-combination,
// dma-out-of-bounds, cbuf-uninitialised, cbuf-overflow, interrupt-mismatch.
#pragma once

#include "drv/regcmd/register_state.h"
#include "drv/sim/cost_model.h"
#include "drv/sim/dpu_lut.h"
#include "drv/sim/hardware.h"
#include "drv/sim/weight_memo.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npudrv::sim {

struct TaskCounters {
    uint64_t macs = 0;             // multiply-accumulates of the CORE (real kernels x real channels)
    uint64_t dma_read_bytes = 0;   // bytes fetched from job memory (regcmd list excluded)
    uint64_t dma_write_bytes = 0;  // bytes written to job memory
    uint64_t dma_feature_bytes = 0;  // of dma_read_bytes: feature data (CNA feature, DPU_RDMA main, PPU_RDMA)
    uint64_t dma_weight_bytes = 0;   // of dma_read_bytes: CNA weights (the rest: DPU operand streams)
    uint32_t cbuf_data_banks = 0;  // CBUF banks the task assigns to feature data / weights
    uint32_t cbuf_weight_banks = 0;
    uint64_t regcmd_bytes = 0;     // bytes of regcmd the PC fetched
};

struct TaskRecord {
    uint32_t core = 0;
    uint64_t regcmd_addr = 0;
    uint32_t op_en = 0;
    std::string description;  // decoder one-liner of the operation
    TaskCounters counters;
    cost::TaskCost cost;  // cost_model.h, for completed tasks
    HwResult result;
};

// What DATA_REUSE must find loaded: feature data from this address, of this shape and precision.
struct CbufFeatureKey {
    uint32_t addr = 0, c = 0, h = 0, w = 0, precision = 0;
    bool operator==(const CbufFeatureKey& o) const {
        return addr == o.addr && c == o.c && h == o.h && w == o.w && precision == o.precision;
    }
    bool operator!=(const CbufFeatureKey& o) const { return !(*this == o); }
};

// CBUF contents that a later task may reuse (CBUF_CON0.DATA_REUSE / WEIGHT_REUSE).
struct CbufContents {
    bool data_valid = false;
    CbufFeatureKey data_key;
    uint64_t data_bytes = 0;
    std::vector<float> data;  // dense [C][H][W] of the loaded feature data
    bool weights_valid = false;
    uint32_t weight_addr = 0;
    uint64_t weight_bytes = 0;
    std::vector<uint8_t> weights;  // raw bytes as fetched
};

class NpuSimulator : public Hardware {
public:
    static constexpr uint32_t kCores = 3;
    static constexpr uint32_t kCbufBanks = regcmd::kCbufBanks;  // register_table.h (reference §1)
    static constexpr uint32_t kCbufBankBytes = regcmd::kCbufBankBytes;

    // Executes the one regcmd list of `task` on its core (the kernel starts the PC per task). The list's
    // tail is validated (next list address inside the job) but not followed: the kernel hands the next
    // task. Register state and CBUF contents persist per core across calls, as on the hardware.
    HwResult run(const HwTask& task, DmaSpace& memory) override;

    // `regcfg_amount` (here and in HwTask) counts the entries the PC fetches INCLUDING the 4-entry tail.
    // PC mode as the vendor kernel programs it (TASK_NUMBER > 1): runs the list at `regcmd_addr`, then
    // follows each tail (PC_BASE_ADDRESS / PC_REGISTER_AMOUNTS) for up to `task_number` lists in total.
    std::vector<HwResult> run_chain(uint32_t core, uint64_t regcmd_addr, uint32_t regcfg_amount,
                                    uint32_t task_number, uint32_t int_mask, DmaSpace& memory);

    const std::vector<TaskRecord>& records() const { return records_; }
    // Forgets the records (not the register files or CBUF): a long-running user reads them per job.
    void clear_records() { records_.clear(); }
    const TaskCounters& last_counters() const { return last_; }
    TaskCounters total_counters() const;
    const regcmd::RegisterState& core_registers(uint32_t core) const { return cores_.at(core).regs; }
    void reset();

private:
    struct Core {
        regcmd::RegisterState regs;
        CbufContents cbuf;
        WeightMemo weight_memo;  // not hardware state: decoded weights for the simulator's speed
        DpuLutMemory lut;        // the DPU lookup table's two tables and access port (dpu_lut.h)
        uint32_t dpu_group = 0;  // ping-pong group the next DPU / PPU completion reports
        uint32_t ppu_group = 0;
    };
    HwResult run_list(uint32_t core, uint64_t addr, uint32_t fetch_qwords, uint32_t int_mask, DmaSpace& memory,
                      uint64_t* next_addr, uint32_t* next_amount);
    std::array<Core, kCores> cores_;
    std::vector<TaskRecord> records_;
    TaskCounters last_;
};

}  // namespace npudrv::sim

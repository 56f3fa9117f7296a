// The NPU a session runs on: the driver Device (a board, or the fake kernel with the functional simulator
// for `--device sim`), and the simulator itself when there is one (its counters feed --profile).
#pragma once

#include <memory>

#include "drv/device.h"
#include "runtime/plan/memory_budget.h"

namespace npudrv::sim {
class NpuSimulator;
class FakeKernel;
}

namespace npurun::npu {

struct NpuContext {
    npudrv::Device device;
    npudrv::sim::NpuSimulator* simulator = nullptr;  // owned by the fake kernel behind `device`
    // The session's memory budget (runtime/plan/memory_budget.h): segments reserve their DMA buffers in it
    // before creating them. nullptr: unchecked (tests building segments directly).
    plan::MemoryBudget* budget = nullptr;
};

// --device npu: the board's NPU (Error(Device) when none is found).
std::unique_ptr<NpuContext> open_npu_context();
// --device sim: the fake rknpu kernel with the functional simulator (Error(Device) when npurun was
// built without the simulator).
std::unique_ptr<NpuContext> open_sim_context();

}  // namespace npurun::npu

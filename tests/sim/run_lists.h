// Runs laid-out regcmd lists on a simulator as the kernel would: the buffer placed in the test memory, one
// HwTask per list with its descriptor's amount, enable and interrupt masks.
#pragma once

#include "drv/regcmd/regcmd_writer.h"
#include "drv/sim/npu_simulator.h"
#include "tests/sim/test_memory.h"

#include <vector>

namespace npudrv::sim::test {

inline std::vector<HwResult> run_all(NpuSimulator& sim, TestMemory& mem, const regcmd::RegcmdBuffer& b) {
    mem.add(b.base_addr, b.size_bytes());
    mem.put_qwords(b.base_addr, b.qwords);
    std::vector<HwResult> out;
    for (const auto& t : b.tasks) {
        HwTask h;
        h.regcmd_addr = t.regcmd_addr;
        h.regcfg_amount = t.total_qwords;
        h.enable_mask = t.enable_mask;
        h.int_mask = t.int_mask;
        out.push_back(sim.run(h, mem));
    }
    return out;
}

}  // namespace npudrv::sim::test

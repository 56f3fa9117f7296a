#include "runtime/npu/simulator_factory.h"

#include "drv/sim/npu_simulator.h"

namespace npurun::npu {

std::unique_ptr<npudrv::sim::Hardware> make_simulator(npudrv::sim::NpuSimulator** simulator) {
    auto sim = std::make_unique<npudrv::sim::NpuSimulator>();
    *simulator = sim.get();
    return sim;
}

}  // namespace npurun::npu

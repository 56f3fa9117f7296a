// The functional simulator as the Hardware behind the fake kernel, or nullptr in a build without it
// (simulator_factory.cpp / no_simulator_factory.cpp, chosen by -Dsimulator).
#pragma once

#include <memory>

#include "drv/sim/hardware.h"

namespace npudrv::sim {
class NpuSimulator;
}

namespace npurun::npu {

std::unique_ptr<npudrv::sim::Hardware> make_simulator(npudrv::sim::NpuSimulator** simulator);

}  // namespace npurun::npu

// npu-bench's `sim/cpu time` line: the functional simulator's inference time over the CPU path's for the
// same model and input, measured in one process, alternating the two sessions, median of N runs each.
#pragma once

#include "include/npurun/npurun.hpp"

#include <memory>

namespace npubench {

struct SimCpuTimes {
    double sim_ms = 0, cpu_ms = 0;  // medians per inference
    double ratio() const { return cpu_ms > 0 ? sim_ms / cpu_ms : 0; }
};

// `sim` is a DeviceKind::Sim session whose inputs are filled; a CPU session (one thread, the default) of
// `model` gets the same input bytes. Both are warmed up once before timing.
SimCpuTimes measure_sim_cpu(const std::shared_ptr<const npurun::Model>& model, npurun::Session& sim, unsigned iterations);

}  // namespace npubench

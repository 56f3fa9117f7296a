#include "tools/npu-bench/sim_cpu_ratio.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

namespace npubench {

namespace {

using Clock = std::chrono::steady_clock;

double timed_run_ms(npurun::Session& s) {
    const auto t0 = Clock::now();
    s.run();
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

}  // namespace

SimCpuTimes measure_sim_cpu(const std::shared_ptr<const npurun::Model>& model, npurun::Session& sim, unsigned iterations) {
    npurun::SessionOptions so;
    so.device = npurun::DeviceKind::Cpu;
    npurun::Session cpu(model, so);
    for (size_t i = 0; i < sim.num_inputs(); ++i) {
        const npurun::TensorBinding& from = sim.input(i);
        const npurun::TensorBinding& to = cpu.input(i);
        std::memcpy(to.data, from.data, std::min(from.info.num_bytes(), to.info.num_bytes()));
    }
    sim.run();
    cpu.run();
    std::vector<double> s, c;
    for (unsigned i = 0; i < iterations; ++i) {
        s.push_back(timed_run_ms(sim));
        c.push_back(timed_run_ms(cpu));
    }
    return SimCpuTimes{median(s), median(c)};
}

}  // namespace npubench

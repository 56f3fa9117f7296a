// Which CPUs are the "big" ones, from Linux sysfs, for the default thread count.
//
// On big.LITTLE SoCs (RK3588: 4x Cortex-A76 + 4x Cortex-A55) the CPU kernels should run on the big cores
// only: splitting work evenly across fast and slow cores makes every parallel_for wait for the slow ones.
// The kernel describes the cores in /sys/devices/system/cpu: `cpuN/cpu_capacity` (the scheduler's relative
// performance, 1024 for the fastest; present on arm64 with a capacity-dmips-mhz device tree) or, failing
// that, `cpuN/cpufreq/cpuinfo_max_freq`. The sysfs directory is a parameter so tests can use a fake tree.
#pragma once

#include <string>
#include <vector>

namespace npurun::kernels::neon {

// Parses a sysfs CPU list ("0-3,6,8-9"); returns the CPU numbers in order, or an empty vector when the
// text is not a valid list (never throws: sysfs content is not trusted).
std::vector<unsigned> parse_cpu_list(const std::string& text);

// Number of online CPUs with the highest capacity (cpu_capacity, else cpuinfo_max_freq) under
// `cpu_dir` (normally /sys/devices/system/cpu). When the online list is unreadable returns `fallback`;
// when some online CPU lacks both values, returns the online count (all cores treated alike).
unsigned count_big_cores(const std::string& cpu_dir, unsigned fallback);

}  // namespace npurun::kernels::neon

// A small fixed thread pool for the CPU kernels.
//
// Determinism rule: work is split into independent items (output rows, output channels, blocks of
// elements) and every item is computed entirely by one thread in the same order whatever the thread
// count. No reduction is ever split across threads, so outputs are bit-identical for 1..N threads.
//
// The pool is process-wide because the kernel contract (kernels/kernel.h) has no thread parameter:
// `set_num_threads` is called once by the CLI/session (`--threads N`) before running. parallel_for
// allocates nothing, so it may be used on Session::run's no-allocation path. Calls from several threads
// at once are safe (they take turns on the pool); fn must not itself call parallel_for.
#pragma once

#include <cstddef>

namespace npurun::kernels::neon {

// Number of threads kernels use (>= 1). Default: default_num_threads().
unsigned num_threads();
// Sets the thread count (1 = run on the calling thread only). Not to be called while a kernel runs.
void set_num_threads(unsigned n);
// The default: the number of "big" cores (highest cpu_capacity, else highest cpufreq maximum, among online
// CPUs: the four Cortex-A76 of an RK3588; see cpu_topology.h), or the online CPU count when unknown.
unsigned default_num_threads();

using RangeFn = void (*)(void* ctx, size_t begin, size_t end);

// Calls fn(ctx, begin, end) over disjoint sub-ranges covering [0, count), on up to num_threads()
// threads (the calling thread takes part). Ranges are contiguous and never smaller than `grain`
// items, so tiny kernels are not spread across threads.
void parallel_for_raw(size_t count, size_t grain, RangeFn fn, void* ctx);

// Splitting by work size: a thread's share must hold at least kMinWorkPerThread units of work (multiply-adds or
// element operations), or waking it costs more than it saves. work_grain(w) is the grain for items of w units.
constexpr size_t kMinWorkPerThread = size_t(1) << 17;
constexpr size_t work_grain(size_t work_per_item) {
    return work_per_item >= kMinWorkPerThread ? 1 : kMinWorkPerThread / (work_per_item ? work_per_item : 1);
}

template <class F> void parallel_for(size_t count, size_t grain, F&& f) {
    parallel_for_raw(count, grain,
                     [](void* ctx, size_t b, size_t e) { (*static_cast<F*>(ctx))(b, e); },
                     const_cast<void*>(static_cast<const void*>(&f)));
}

}  // namespace npurun::kernels::neon

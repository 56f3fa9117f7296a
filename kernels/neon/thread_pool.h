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
#include <cstdint>

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

// Splitting by work size: a thread's share must hold at least min_work_per_thread() units of work (multiply-adds
// or element operations), or waking it costs more than it saves. work_grain(w) is the grain for items of w units.
// The default, 2^18 units, is 256K multiply-adds: on a Cortex-A76 about 5-10 us of int8 dot-product work and
// 15-30 us of fp32 FMA work per thread, against about 1 us to hand work to a spinning worker and tens of
// microseconds to wake a sleeping one (futex). Layers below it (most activations, small convolutions, a tiny
// fully connected model) run on the calling thread alone.
constexpr size_t kDefaultMinWorkPerThread = size_t(1) << 18;
size_t min_work_per_thread();
// Tests only: 1 makes every loop split as finely as the thread count allows (to check chunk boundaries
// bit-exactly on small shapes); 0 restores the default. Not to be called while a kernel runs.
void set_min_work_per_thread(size_t units);
inline size_t work_grain(size_t work_per_item) {
    const size_t min_work = min_work_per_thread();
    return work_per_item >= min_work ? 1 : min_work / (work_per_item ? work_per_item : 1);
}

// The split decision itself, a pure function (tests check it without timing anything): the number of
// contiguous chunks parallel_for_raw(count, grain, ...) runs on a pool of `threads` threads. 1 means the
// calling thread runs everything and no worker is woken.
size_t parallel_chunks(size_t count, size_t grain, unsigned threads);

// What parallel_for did on the calling thread since the last reset (per calling thread: sessions run from
// different threads keep separate counts). The executor reads it around each layer for --profile.
struct ParallelStats {
    uint32_t calls = 0;        // parallel_for calls with count > 0
    uint32_t split_calls = 0;  // of those, calls that ran on more than one thread
    uint32_t max_threads = 0;  // most threads one call ran on (0: no call)
};
void reset_parallel_stats();
ParallelStats parallel_stats();

template <class F> void parallel_for(size_t count, size_t grain, F&& f) {
    parallel_for_raw(count, grain,
                     [](void* ctx, size_t b, size_t e) { (*static_cast<F*>(ctx))(b, e); },
                     const_cast<void*>(static_cast<const void*>(&f)));
}

}  // namespace npurun::kernels::neon

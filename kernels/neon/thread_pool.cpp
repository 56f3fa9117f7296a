#include "kernels/neon/thread_pool.h"

#include "kernels/neon/cpu_topology.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace npurun::kernels::neon {
namespace {

// About 50 microseconds of polling on a Cortex-A76 (YIELD is a hint, not a wait; one poll is a few cycles):
// long enough that a worker finishing one layer is still awake when the next split layer comes (the layers
// in between, too small to split, take a few to tens of microseconds), short enough not to hold a core for
// long after the network ends. (pthreadpool, XNNPACK's pool, polls up to a million times.) On x86 builds
// (NEON through SIMDe, not the target) PAUSE takes ~100 cycles and CI machines are oversubscribed: no spinning.
#if defined(__aarch64__)
constexpr int kSpinIterations = 100000;
#else
constexpr int kSpinIterations = 0;
#endif

inline void cpu_pause() {
#if defined(__aarch64__)
    __asm__ __volatile__("yield");
#elif defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

// Polls `done` up to `iterations` times; true as soon as it holds.
template <class F> bool spin_until(int iterations, F&& done) {
    for (int i = 0; i < iterations; ++i) {
        if (done()) return true;
        cpu_pause();
    }
    return false;
}

thread_local ParallelStats tl_stats;

void note_call(size_t chunks) {
    ++tl_stats.calls;
    if (chunks > 1) ++tl_stats.split_calls;
    tl_stats.max_threads = std::max(tl_stats.max_threads, uint32_t(chunks));
}

// Workers wait for a new "generation" of work; each generation is one parallel_for call. Worker i runs
// chunk i+1 (the caller runs chunk 0) and the caller waits until all workers have reported back.
// Both waits first spin for a short while (kSpinIterations polls of an atomic, with the CPU's pause hint; only
// while the pool has no more threads than the machine has CPUs)
// before sleeping on the condition variable: consecutive layers of a network follow each other within
// microseconds, and a sleeping thread costs a futex wake-up (tens of microseconds on a busy board) per layer.
// The generation and the pending count are still only changed under the mutex, so the predicate waits
// cannot miss an update.
class Pool {
public:
    ~Pool() { resize(1); }

    unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

    void resize(unsigned n) {
        n = std::max(1u, n);
        if (n == size()) return;
        {
            std::lock_guard<std::mutex> lock(mu_);
            stop_ = true;
            ++generation_;
        }
        wake_.notify_all();
        for (auto& t : workers_) t.join();
        workers_.clear();
        stop_ = false;
        // Workers start from the current generation: work published after this point is never missed.
        const unsigned long gen = generation_;
        // Spinning only pays while every pool thread can own a CPU; oversubscribed, it takes time from the others.
        spin_ = n <= std::max(1u, std::thread::hardware_concurrency()) ? kSpinIterations : 0;
        for (unsigned i = 1; i < n; ++i) workers_.emplace_back([this, i, gen] { loop(i, gen); });
    }

    void run(size_t count, size_t grain, RangeFn fn, void* ctx) {
        if (count == 0) return;
        const size_t chunks = parallel_chunks(count, grain, size());
        note_call(chunks);
        if (chunks <= 1) {
            fn(ctx, 0, count);
            return;
        }
        // One parallel_for at a time on the pool: sessions run from different threads share it.
        std::lock_guard<std::mutex> serial(run_mu_);
        {
            std::lock_guard<std::mutex> lock(mu_);
            fn_ = fn;
            ctx_ = ctx;
            count_ = count;
            chunks_ = chunks;
            pending_ = chunks - 1;
            ++generation_;
        }
        wake_.notify_all();
        run_chunk(0);
        if (spin_until(spin_, [this] { return pending_.load(std::memory_order_acquire) == 0; })) return;
        std::unique_lock<std::mutex> lock(mu_);
        done_.wait(lock, [this] { return pending_ == 0; });
    }

private:
    void run_chunk(size_t i) {
        const size_t b = count_ * i / chunks_, e = count_ * (i + 1) / chunks_;
        if (b < e) fn_(ctx_, b, e);
    }

    void loop(unsigned index, unsigned long seen) {
        for (;;) {
            size_t chunks;
            spin_until(spin_, [&] { return generation_.load(std::memory_order_acquire) != seen; });
            {
                std::unique_lock<std::mutex> lock(mu_);
                wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
                if (stop_) return;
                seen = generation_;
                chunks = chunks_;
            }
            if (index < chunks) {
                run_chunk(index);
                std::lock_guard<std::mutex> lock(mu_);
                if (--pending_ == 0) done_.notify_one();
            }
        }
    }

    std::mutex mu_;
    std::mutex run_mu_;  // serialises concurrent callers of run()
    std::condition_variable wake_, done_;
    std::vector<std::thread> workers_;
    std::atomic<unsigned long> generation_{0};  // written under mu_; polled without it while spinning
    bool stop_ = false;
    int spin_ = 0;  // polls before sleeping (set by resize while no worker runs)
    RangeFn fn_ = nullptr;
    void* ctx_ = nullptr;
    size_t count_ = 0, chunks_ = 0;
    std::atomic<size_t> pending_{0};             // written under mu_; polled without it while spinning
};

Pool& pool() {
    static Pool p;
    return p;
}

bool& initialized() {
    static bool init = false;
    return init;
}

}  // namespace

size_t parallel_chunks(size_t count, size_t grain, unsigned threads) {
    if (count == 0) return 0;
    grain = std::max<size_t>(grain, 1);
    // floor: every chunk keeps at least `grain` items (a remainder is spread, never a chunk of its own)
    return std::max<size_t>(1, std::min<size_t>(std::max(1u, threads), count / grain));
}

namespace {
std::atomic<size_t> g_min_work{kDefaultMinWorkPerThread};
}  // namespace

size_t min_work_per_thread() { return g_min_work.load(std::memory_order_relaxed); }
void set_min_work_per_thread(size_t units) {
    g_min_work.store(units ? units : kDefaultMinWorkPerThread, std::memory_order_relaxed);
}

void reset_parallel_stats() { tl_stats = ParallelStats{}; }
ParallelStats parallel_stats() { return tl_stats; }

unsigned default_num_threads() {
    const unsigned online = std::max(1u, std::thread::hardware_concurrency());
    return std::max(1u, count_big_cores("/sys/devices/system/cpu", online));
}

unsigned num_threads() {
    if (!initialized()) set_num_threads(default_num_threads());
    return pool().size();
}

void set_num_threads(unsigned n) {
    initialized() = true;
    pool().resize(n);
}

void parallel_for_raw(size_t count, size_t grain, RangeFn fn, void* ctx) {
    if (!initialized()) set_num_threads(default_num_threads());
    pool().run(count, grain, fn, ctx);
}

}  // namespace npurun::kernels::neon

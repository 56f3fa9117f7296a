// Storage the simulator's per-task working buffers reuse across tasks. A task of a 320x240 detector holds
// megabytes of int64 feature and accumulator cubes; glibc serves blocks that large with fresh mappings (or trims
// them off the heap top) and returns them to the kernel when they are freed, so every task paid the page faults
// of zeroing new pages again: on slim-320-quant-ADMM-50 about 60% of the simulated inference (95 ms against 39 ms
// with glibc told to keep its memory, MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_). A PooledVector is a
// std::vector whose storage, when it is destroyed, goes back to a small per-thread pool, and which takes storage
// from that pool when it needs to grow. Values are never carried over: the caller assigns or resizes as before,
// so results are the same bits.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace npudrv::sim::detail {

template <class T> class BufferPool {
public:
    // A vector (size 0) whose capacity is at least n: the smallest such spare, or a new one.
    static std::vector<T> take(size_t n) {
        auto& p = spares();
        auto best = p.end();
        for (auto it = p.begin(); it != p.end(); ++it)
            if (it->capacity() >= n && (best == p.end() || it->capacity() < best->capacity())) best = it;
        std::vector<T> v;
        if (best != p.end()) {
            v = std::move(*best);
            p.erase(best);
        }
        v.clear();
        v.reserve(n);
        return v;
    }
    // Keeps v's storage for a later take(); small buffers are not worth keeping, and the pool keeps at most
    // kMaxSpares (dropping the smallest), so it holds a few of the largest recent buffers and no more.
    static void give_back(std::vector<T>&& v) {
        if (v.capacity() * sizeof(T) < kMinBytes) return;
        auto& p = spares();
        p.push_back(std::move(v));
        if (p.size() > kMaxSpares) {
            auto smallest = std::min_element(p.begin(), p.end(), [](const std::vector<T>& a, const std::vector<T>& b) {
                return a.capacity() < b.capacity();
            });
            p.erase(smallest);
        }
    }

private:
    static constexpr size_t kMinBytes = 64 * 1024;  // below glibc's default mmap threshold: the heap serves it
    static constexpr size_t kMaxSpares = 8;         // a task holds at most a handful of large buffers at once
    static std::vector<std::vector<T>>& spares() {
        thread_local std::vector<std::vector<T>> p;
        return p;
    }
};

template <class T> class PooledVector : public std::vector<T> {
public:
    PooledVector() = default;
    PooledVector(const PooledVector&) = default;
    PooledVector(PooledVector&&) noexcept = default;
    PooledVector& operator=(const PooledVector&) = default;
    PooledVector& operator=(PooledVector&&) noexcept = default;
    ~PooledVector() { BufferPool<T>::give_back(std::move(static_cast<std::vector<T>&>(*this))); }

    // Capacity for n elements, from the pool when the vector has less (its contents are dropped then).
    void ensure_capacity(size_t n) {
        if (this->capacity() >= n) return;
        std::vector<T>& self = *this;
        BufferPool<T>::give_back(std::move(self));
        self = BufferPool<T>::take(n);
    }
    // assign(n, value) / resize(n) with pooled storage.
    void pooled_assign(size_t n, const T& value) {
        ensure_capacity(n);
        this->assign(n, value);
    }
    void pooled_resize(size_t n) {
        ensure_capacity(n);
        this->resize(n);
    }
};

}  // namespace npudrv::sim::detail

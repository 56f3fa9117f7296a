// Replaces every form of the global operator new/delete (plain, array, nothrow, aligned), so all
// allocations are counted and every pointer is freed by the allocator that made it. Its own
// translation unit so the compiler cannot pair the malloc/free inside with callers' new/delete.
#include "tests/unit/allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

static std::atomic<size_t> g_allocations{0};

size_t allocation_count() { return g_allocations.load(); }

static void* counted_malloc(size_t n) noexcept {
    ++g_allocations;
    return std::malloc(n ? n : 1);
}

static void* counted_aligned(size_t n, std::align_val_t al) noexcept {
    ++g_allocations;
    const size_t a = static_cast<size_t>(al);
    const size_t rounded = ((n ? n : 1) + a - 1) / a * a;  // aligned_alloc wants a multiple of the alignment
    return std::aligned_alloc(a, rounded);
}

void* operator new(size_t n) {
    if (void* p = counted_malloc(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return counted_malloc(n); }
void* operator new(size_t n, std::align_val_t al) {
    if (void* p = counted_aligned(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new[](size_t n, std::align_val_t al) { return operator new(n, al); }

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }

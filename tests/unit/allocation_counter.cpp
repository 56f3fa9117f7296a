// Replaces the global operator new/delete. Its own translation unit so the compiler cannot pair the
// malloc/free inside with the callers' new/delete expressions.
#include "tests/unit/allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

static std::atomic<size_t> g_allocations{0};

size_t allocation_count() { return g_allocations.load(); }

void* operator new(size_t n) {
    ++g_allocations;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

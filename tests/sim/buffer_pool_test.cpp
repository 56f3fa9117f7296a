// The simulator's buffer pool (drv/sim/buffer_pool.h): a large buffer freed by one task is the storage of the
// next task's buffer of that size (no fresh pages), the pool keeps only its largest spares, and no value survives
// into the next user (callers assign or resize, as std::vector's do).
#include <gtest/gtest.h>

#include <cstdint>

#include "drv/sim/buffer_pool.h"

using npudrv::sim::detail::BufferPool;
using npudrv::sim::detail::PooledVector;

namespace {

constexpr size_t kLarge = 1 << 20;  // 8 MiB of int64: what one task's cube of a 320x240 detector holds

}  // namespace

TEST(SimBufferPool, AFreedLargeBufferIsTheNextOnesStorage) {
    const int64_t* first = nullptr;
    {
        PooledVector<int64_t> a;
        a.pooled_assign(kLarge, 7);
        first = a.data();
    }
    PooledVector<int64_t> b;
    b.pooled_assign(kLarge / 2, 0);  // fits the spare
    EXPECT_EQ(b.data(), first);
    EXPECT_EQ(b.size(), kLarge / 2);
    for (size_t i = 0; i < b.size(); i += 4099) ASSERT_EQ(b[i], 0) << i;  // assign, not the old 7s
}

TEST(SimBufferPool, ResizeValueInitialisesWhatItAdds) {
    {
        PooledVector<float> a;
        a.pooled_assign(kLarge, 3.5f);
    }
    PooledVector<float> b;
    b.pooled_resize(kLarge);
    for (size_t i = 0; i < b.size(); i += 4099) ASSERT_EQ(b[i], 0.0f) << i;
}

TEST(SimBufferPool, ThePoolKeepsOnlyItsLargestSpares) {
    // Ten large spares of growing size: only the 8 largest stay; a take of the largest finds it.
    for (size_t k = 1; k <= 10; ++k) BufferPool<int32_t>::give_back(std::vector<int32_t>(kLarge * k));
    std::vector<int32_t> big = BufferPool<int32_t>::take(kLarge * 10);
    EXPECT_GE(big.capacity(), kLarge * 10);
    EXPECT_EQ(big.size(), 0u);
    std::vector<int32_t> smallest_kept = BufferPool<int32_t>::take(kLarge * 3);
    EXPECT_GE(smallest_kept.capacity(), kLarge * 3);
    EXPECT_LT(smallest_kept.capacity(), kLarge * 4);  // the 1x and 2x spares were dropped
}

TEST(SimBufferPool, MovesKeepTheStorage) {
    PooledVector<int64_t> a;
    a.pooled_assign(kLarge, 5);
    const int64_t* p = a.data();
    PooledVector<int64_t> b = std::move(a);
    EXPECT_EQ(b.data(), p);
    EXPECT_EQ(b[kLarge - 1], 5);
}

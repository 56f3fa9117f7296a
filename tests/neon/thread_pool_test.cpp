// The NEON kernels' thread pool: every index covered exactly once, contiguous chunks, any thread count,
// concurrent callers.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "kernels/neon/thread_pool.h"

namespace nn = npurun::kernels::neon;

TEST(NeonThreadPool, CoversEveryIndexOnce) {
    for (unsigned t : {1u, 2u, 3u, 4u, 7u}) {
        nn::set_num_threads(t);
        EXPECT_EQ(nn::num_threads(), t);
        for (size_t count : {size_t(0), size_t(1), size_t(5), size_t(64), size_t(1001)}) {
            for (size_t grain : {size_t(1), size_t(16), size_t(5000)}) {
                std::vector<std::atomic<int>> hits(count);
                nn::parallel_for(count, grain, [&](size_t b, size_t e) {
                    EXPECT_LE(b, e);
                    EXPECT_GE(e - b, std::min(grain, count)) << b << ".." << e;
                    for (size_t i = b; i < e; ++i) hits[i]++;
                });
                for (size_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << "t=" << t << " count=" << count << " i=" << i;
            }
        }
    }
    nn::set_num_threads(1);
}

TEST(NeonThreadPool, ConcurrentCallersTakeTurns) {
    nn::set_num_threads(3);
    std::atomic<long> sum{0};
    std::vector<std::thread> callers;
    for (int c = 0; c < 4; ++c)
        callers.emplace_back([&] {
            for (int rep = 0; rep < 50; ++rep)
                nn::parallel_for(100, 1, [&](size_t b, size_t e) { sum += long(e - b); });
        });
    for (auto& t : callers) t.join();
    EXPECT_EQ(sum.load(), 4L * 50 * 100);
    nn::set_num_threads(1);
}

// Linked into the NEON bit-exactness test programs: every parallel loop splits as finely as the thread count
// allows (min_work_per_thread 1), so the tests' small shapes still run 2..4 threads over chunk boundaries when
// they compare against kernels/ref. Without it, the work-size policy (thread_pool.h) would keep almost every
// test shape on one thread and "bit-identical for 1..4 threads" would check nothing.
// tests/neon/thread_policy_test.cpp (a separate program) checks the default policy itself.
#include <gtest/gtest.h>

#include "kernels/neon/thread_pool.h"

namespace {

class SplitEverything : public ::testing::Environment {
public:
    void SetUp() override { npurun::kernels::neon::set_min_work_per_thread(1); }
    void TearDown() override { npurun::kernels::neon::set_min_work_per_thread(0); }
};

[[maybe_unused]] ::testing::Environment* const kSplitEverything = ::testing::AddGlobalTestEnvironment(new SplitEverything);

}  // namespace

// What several NEON tests run every case through: all thread counts (results must not depend on them) and,
// for the 8-bit kernels, both integer paths (with and without the dot-product instructions).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"
#include "tests/neon/harness.h"

namespace npurun::neontest {

// Runs `node` through NEON with 1..4 threads: every result must be bitwise the same; returns it.
inline std::vector<uint8_t> neon_all_threads(const OneNode& node) {
    std::vector<uint8_t> first;
    for (unsigned t = 1; t <= 4; ++t) {
        kernels::neon::set_num_threads(t);
        auto out = node.run_neon().at(0);
        if (t == 1) first = out;
        else EXPECT_EQ(out, first) << "threads " << t;
    }
    kernels::neon::set_num_threads(1);
    return first;
}

// A test parameterised on the integer path: true = the dot-product kernels (skipped on a CPU without
// them), false = the plain NEON ones. Restores the path and the thread count afterwards.
class DotprodPaths : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        saved_ = kernels::neon::use_dotprod();
        if (GetParam() && !kernels::neon::dotprod_available()) GTEST_SKIP() << "this CPU has no dot-product instructions";
        ASSERT_EQ(kernels::neon::set_dotprod(GetParam()), GetParam());
    }
    void TearDown() override {
        kernels::neon::set_dotprod(saved_);
        kernels::neon::set_num_threads(1);
    }
    bool saved_ = false;
};

}  // namespace npurun::neontest

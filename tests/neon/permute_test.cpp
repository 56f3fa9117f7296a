// Permute / Transpose (kernels/neon/permute_kernel.cpp) against kernels/ref: byte-identical for every
// permutation of ranks 1-4, some of rank 5-6, element sizes 1, 2, 4 and 8, size-1 dimensions that the kernel
// drops and neighbours it merges, and 1-4 threads with the smallest split grain.
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

#include <algorithm>
#include <numeric>

#include "kernels/neon/thread_pool.h"

namespace npurun::neontest::permute {
namespace {

Shape permuted(const Shape& in, const std::vector<uint32_t>& m, OpKind op) {
    Shape out = in;
    for (uint32_t i = 0; i < in.rank; ++i) {
        if (op == OpKind::Transpose)
            out[i] = in[m[i]];
        else
            out[m[i]] = in[i];
    }
    return out;
}

void expect_same_as_ref(OpKind op, DataType t, const Shape& in, const std::vector<uint32_t>& m, std::mt19937& rng) {
    PermuteAttrs a;
    a.mapping = m;
    std::vector<uint8_t> x(in.num_elements() * element_size(t));
    for (uint8_t& b : x) b = uint8_t(rng());
    OneNode node(op, a, {{tinfo(t, in), x}}, {tinfo(t, permuted(in, m, op))});
    ASSERT_EQ(node.neon_check(), "");
    std::string perm;
    for (uint32_t v : m) perm += std::to_string(v);
    EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0))
        << to_string(op) << " " << to_string(t) << " " << in.str() << " " << perm;
}

TEST(NeonPermute, EveryPermutationMatchesTheReference) {
    kernels::neon::set_min_work_per_thread(1);  // split every call as finely as the threads allow
    std::mt19937 rng(1200);
    const Shape shapes[] = {{7}, {5, 3}, {1, 6}, {2, 3, 4}, {4, 1, 5}, {1, 3, 8, 10}, {2, 5, 1, 3}, {1, 16, 9, 1}};
    for (const Shape& s : shapes) {
        std::vector<uint32_t> m(s.rank);
        std::iota(m.begin(), m.end(), 0u);
        do {
            for (OpKind op : {OpKind::Transpose, OpKind::Permute})
                for (DataType t : {DataType::QAsymmU8, DataType::Float16, DataType::Float32, DataType::Signed64})
                    expect_same_as_ref(op, t, s, m, rng);
        } while (std::next_permutation(m.begin(), m.end()));
    }
    // Ranks 5 and 6: a few mappings.
    expect_same_as_ref(OpKind::Transpose, DataType::Float32, {2, 3, 1, 4, 5}, {4, 0, 3, 2, 1}, rng);
    expect_same_as_ref(OpKind::Permute, DataType::QAsymmS8, {2, 1, 3, 2, 2, 3}, {5, 1, 0, 3, 4, 2}, rng);
    // The MNN loader's NCHW -> NHWC input move, and back.
    expect_same_as_ref(OpKind::Transpose, DataType::Float32, {1, 3, 240, 320}, {0, 2, 3, 1}, rng);
    expect_same_as_ref(OpKind::Transpose, DataType::Float32, {1, 30, 40, 12}, {0, 3, 1, 2}, rng);
    kernels::neon::set_min_work_per_thread(0);
}

TEST(NeonPermute, RefusesWhatItCannotMove) {
    PermuteAttrs a;
    a.mapping = {0, 1};  // rank 3 tensor: mapping too short
    OneNode bad(OpKind::Transpose, a, {{tinfo(DataType::Float32, {2, 3, 4}), std::vector<uint8_t>(96)}},
                {tinfo(DataType::Float32, {2, 3, 4})});
    EXPECT_NE(bad.neon_check(), "");
    a.mapping = {0, 3, 1};  // out of range
    OneNode range(OpKind::Transpose, a, {{tinfo(DataType::Float32, {2, 3, 4}), std::vector<uint8_t>(96)}},
                  {tinfo(DataType::Float32, {2, 3, 4})});
    EXPECT_NE(range.neon_check(), "");
}

}  // namespace
}  // namespace npurun::neontest::permute

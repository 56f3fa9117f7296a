// Bit-exactness against kernels/ref, for 1..4 threads, of the quantized paths added for speed: the 16-byte table
// lookup of 8-bit activations (lengths with tails, large enough to be split across threads) and the 8-bit
// Softmax (per-code terms for long rows, the reference's expression for short ones).
#include "tests/neon/harness.h"
#include "tests/neon/kernel_paths.h"

namespace npurun::neontest::fast_paths {
namespace {

TEST(NeonFastPaths, QuantizedActivationLookupAnyLength) {
    std::mt19937 rng(1600);
    for (size_t n : {size_t(1), size_t(15), size_t(17), size_t(4099), size_t(70001)}) {
        for (DataType t : {DataType::QAsymmU8, DataType::QAsymmS8}) {
            ActivationAttrs a;
            a.function = ActivationFunction::Sigmoid;
            const int32_t zx = t == DataType::QAsymmU8 ? 120 : -3;
            OneNode node(OpKind::Activation, a, {{tinfo(t, {uint32_t(n)}, {0.05f}, zx), random_ints<uint8_t>(rng, n, 0, 255)}},
                         {tinfo(t, {uint32_t(n)}, {1.0f / 256}, t == DataType::QAsymmU8 ? 0 : -128)});
            EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << n << " " << to_string(t);
        }
    }
}

TEST(NeonFastPaths, QuantizedSoftmaxBitExact) {
    std::mt19937 rng(1601);
    const Shape shapes[] = {{1, 1001}, {3, 300}, {5, 10}, {2, 3, 7}, {1, 1}, {64, 256}};
    for (const auto& s : shapes) {
        for (DataType t : {DataType::QAsymmU8, DataType::QAsymmS8}) {
            for (float beta : {1.0f, 0.7f}) {
                SoftmaxAttrs a;
                a.beta = beta;
                const int32_t zx = t == DataType::QAsymmU8 ? 90 : 5;
                OneNode node(OpKind::Softmax, a,
                             {{tinfo(t, s, {0.11f}, zx), random_ints<uint8_t>(rng, s.num_elements(), 0, 255)}},
                             {tinfo(t, s, {1.0f / 256}, t == DataType::QAsymmU8 ? 0 : -128)});
                ASSERT_EQ(node.neon_check(), "");
                EXPECT_EQ(neon_all_threads(node), node.run_ref().at(0)) << s.str() << " " << to_string(t) << " beta " << beta;
            }
        }
    }
}

}  // namespace
}  // namespace npurun::neontest::fast_paths

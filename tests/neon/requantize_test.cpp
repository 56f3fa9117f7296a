// The vectorised requantization epilogue (kernels/neon/requantize.h) against the scalar definition
// quant::requantize, element for element and bit for bit: random accumulators and multipliers, the int32
// extremes, exact .5 ties, negative values, per-channel and per-tensor multipliers, non-finite
// multipliers, every integer output type, int32 and byte outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/neon/requantize.h"
#include "core/quantization.h"

namespace npurun::neontest::requantize {
namespace {

namespace nn = kernels::neon;

const DataType kTypes[] = {DataType::QAsymmU8, DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16, DataType::Signed32};
constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min(), kI32Max = std::numeric_limits<int32_t>::max();

struct Batch {
    std::vector<int32_t> acc;
    std::vector<int64_t> bias;
    std::vector<double> m;
    void add(int32_t a, int64_t b, double mult) {
        acc.push_back(a);
        bias.push_back(b);
        m.push_back(mult);
    }
};

// Compares both entry points with the scalar definition for every element; returns the failures.
int compare(const Batch& b, int32_t zo, DataType t) {
    const size_t n = b.acc.size();
    std::vector<int32_t> out(n, 0x5a5a5a5a);
    std::vector<uint8_t> bytes(n, 0x5a);
    nn::requantize_block(b.acc.data(), b.bias.data(), b.m.data(), n, zo, t, out.data());
    nn::requantize_block_bytes(b.acc.data(), b.bias.data(), b.m.data(), n, zo, t, bytes.data());
    int failures = 0;
    for (size_t i = 0; i < n; ++i) {
        const int32_t want = quant::requantize(int64_t(b.acc[i]) + b.bias[i], b.m[i], zo, t);
        if (out[i] != want || bytes[i] != uint8_t(want)) {
            if (++failures <= 5)
                ADD_FAILURE() << to_string(t) << " i=" << i << " acc=" << b.acc[i] << " bias=" << b.bias[i] << " m=" << b.m[i]
                              << " zo=" << zo << ": want " << want << ", got " << out[i] << " / byte " << int(bytes[i]);
        }
    }
    return failures;
}

int32_t zero_point(DataType t, std::mt19937& rng) {
    switch (t) {
        case DataType::QAsymmU8: return std::uniform_int_distribution<int32_t>(0, 255)(rng);
        case DataType::QAsymmS8: return std::uniform_int_distribution<int32_t>(-128, 127)(rng);
        case DataType::QSymmS16: return std::uniform_int_distribution<int32_t>(-300, 300)(rng);
        default: return std::uniform_int_distribution<int32_t>(-5, 5)(rng);
    }
}

TEST(NeonRequantize, RandomAccumulatorsPerChannelMultipliers) {
    std::mt19937 rng(7);
    for (DataType t : kTypes)
        for (int round = 0; round < 20; ++round) {
            Batch b;
            const bool small = round % 2 == 0;  // small accumulators land inside 8-bit ranges, large ones saturate
            std::uniform_int_distribution<int32_t> acc_d(small ? -20000 : kI32Min, small ? 20000 : kI32Max);
            std::uniform_int_distribution<int32_t> bias_d(small ? -5000 : kI32Min, small ? 5000 : kI32Max);
            std::uniform_real_distribution<double> log_m(-14.0, 1.0);
            for (int i = 0; i < 203; ++i)  // 203: exercises the 8-, 4- and 1-element steps
                b.add(acc_d(rng), bias_d(rng), std::pow(10.0, log_m(rng)) * (small ? 0.01 : 1.0));
            EXPECT_EQ(compare(b, zero_point(t, rng), t), 0);
        }
}

TEST(NeonRequantize, PerTensorMultiplier) {
    std::mt19937 rng(11);
    for (DataType t : kTypes) {
        Batch b;
        std::uniform_int_distribution<int32_t> acc_d(-100000, 100000);
        const double m = 0.00123456789;  // one value for every channel, as a per-tensor weight scale gives
        for (int i = 0; i < 64; ++i) b.add(acc_d(rng), 1234, m);
        EXPECT_EQ(compare(b, zero_point(t, rng), t), 0);
    }
}

TEST(NeonRequantize, Int32Extremes) {
    const int32_t accs[] = {kI32Min, kI32Min + 1, -1, 0, 1, kI32Max - 1, kI32Max};
    const int64_t biases[] = {kI32Min, -1, 0, 1, kI32Max};
    const double ms[] = {1.0, 0.5, 1e-9, 3.0e-5, 1e10, 1e300};
    for (DataType t : kTypes) {
        Batch b;
        for (int32_t a : accs)
            for (int64_t bi : biases)
                for (double m : ms) {
                    b.add(a, bi, m);
                    b.add(a, bi, -m);  // negative multipliers: defined by the same formula
                }
        EXPECT_EQ(compare(b, 0, t), 0);
        EXPECT_EQ(compare(b, t == DataType::QAsymmU8 ? 255 : 127, t), 0);
        EXPECT_EQ(compare(b, t == DataType::QAsymmU8 ? 0 : -128, t), 0);
    }
}

TEST(NeonRequantize, ExactHalfTiesRoundAwayFromZero) {
    // acc * m is exactly k + 0.5: m a power of two (or 1.5) times an odd accumulator.
    Batch b;
    for (int32_t k = -40; k <= 40; ++k) {
        b.add(2 * k + 1, 0, 0.5);                        // (2k+1)/2
        b.add(8 * k + 4, 0, 0.125);                      // (8k+4)/8
        b.add(2 * k + 1, 0, 1.5);                        // 3(2k+1)/2
        b.add(0, 2 * k + 1, 0.5);                        // the tie coming from the bias
        b.add(1 << 20, int64_t(1 << 21) * k + 1, 0.5);   // large operands, still an exact tie
    }
    for (DataType t : kTypes)
        for (int32_t zo : {0, 3, -3}) {
            if (quant::type_min(t) <= zo) {
                EXPECT_EQ(compare(b, zo, t), 0);
            }
        }
    // And the scalar definition itself rounds ties away from zero, so the comparison is meaningful.
    EXPECT_EQ(quant::requantize(1, 0.5, 0, DataType::QSymmS16), 1);
    EXPECT_EQ(quant::requantize(-1, 0.5, 0, DataType::QSymmS16), -1);
    EXPECT_EQ(quant::requantize(5, 0.5, 0, DataType::QSymmS16), 3);
    EXPECT_EQ(quant::requantize(-5, 0.5, 0, DataType::QSymmS16), -3);
    const int32_t acc[4] = {1, -1, 5, -5};
    const int64_t bias[4] = {0, 0, 0, 0};
    const double m[4] = {0.5, 0.5, 0.5, 0.5};
    int32_t out[4];
    nn::requantize_block(acc, bias, m, 4, 0, DataType::QSymmS16, out);
    EXPECT_EQ(out[0], 1);
    EXPECT_EQ(out[1], -1);
    EXPECT_EQ(out[2], 3);
    EXPECT_EQ(out[3], -3);
}

TEST(NeonRequantize, NonFiniteMultipliers) {
    // An output scale of 0 or a NaN scale in an untrusted model gives inf / NaN multipliers: the vector
    // path must still agree (NaN -> 0, inf -> the type's bound).
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    Batch b;
    for (double m : {inf, -inf, nan})
        for (int32_t a : {kI32Min, -7, 0, 7, kI32Max}) b.add(a, 0, m);
    for (DataType t : kTypes) EXPECT_EQ(compare(b, t == DataType::QAsymmU8 ? 128 : 1, t), 0);
}

}  // namespace
}  // namespace npurun::neontest::requantize

// What several NEON tests run every case through: all thread counts (results must not depend on them) and,
// for the 8-bit kernels, both integer paths (with and without the dot-product instructions).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/thread_pool.h"
#include "tests/neon/harness.h"

namespace npurun::neontest {

// Float convolutions with |x|, |w|, |b| <= 1 and K products per output: NEON (all thread counts) within
// 2*(K+1)*2^-24*(sum|x*w|+|b|) <= 2*(K+1)^2*2^-24 of kernels/ref (any summation order).
::testing::AssertionResult neon_within_sum_bound(const OneNode& node, double k);

// The zero points and scales the 8-bit convolution tests draw (in this order, from `rng`): input, weights
// and output types, zero points, input / output scales and `channels` weight scales (int8: per channel).
struct QuantDraw {
    DataType x, w;
    int32_t zx, zw, zy;
    float sx, sy;
    std::vector<float> ws;
};
inline QuantDraw draw_quant(std::mt19937& rng, bool s8, uint32_t channels) {
    QuantDraw q;
    q.x = s8 ? DataType::QAsymmS8 : DataType::QAsymmU8;
    q.w = s8 ? DataType::QSymmS8 : DataType::QAsymmU8;
    q.zx = s8 ? int32_t(rng() % 40) - 20 : 128 - int32_t(rng() % 40);
    q.zw = s8 ? 0 : 120 + int32_t(rng() % 16);
    q.zy = s8 ? int32_t(rng() % 256) - 128 : int32_t(rng() % 256);
    q.sx = 0.02f;
    q.sy = 0.05f + 0.1f * float(rng() % 10);
    q.ws.resize(s8 ? channels : 1);
    for (auto& v : q.ws) v = 0.001f + 0.01f * float(rng() % 100) / 100.0f;
    return q;
}

// The operands of an 8-bit convolution test drawn from `rng` (in this order): input codes, weight codes (scales
// q.ws on `w_axis`, the output channels) and, with `bias`, Signed32 biases of scale sx * sw.
std::vector<Operand> quant_conv_operands(std::mt19937& rng, const QuantDraw& q, const Shape& x, const Shape& w,
                                         uint32_t w_axis, bool bias);
// The same for float32: input, weights and bias in [-1, 1).
std::vector<Operand> float_conv_operands(std::mt19937& rng, const Shape& x, const Shape& w, uint32_t w_axis, bool bias);

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
// them), false = the plain NEON ones. The i8mm GEMM micro-kernel is switched off, so that on a CPU with it the
// dot-product one is still what runs (tests/neon/i8mm_test.cpp covers i8mm). Restores the paths and the
// thread count afterwards.
class DotprodPaths : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        saved_ = kernels::neon::use_dotprod();
        saved_i8mm_ = kernels::neon::use_i8mm();
        kernels::neon::set_i8mm(false);
        if (GetParam() && !kernels::neon::dotprod_available()) GTEST_SKIP() << "this CPU has no dot-product instructions";
        ASSERT_EQ(kernels::neon::set_dotprod(GetParam()), GetParam());
    }
    void TearDown() override {
        kernels::neon::set_dotprod(saved_);
        kernels::neon::set_i8mm(saved_i8mm_);
        kernels::neon::set_num_threads(1);
    }
    bool saved_ = false, saved_i8mm_ = false;
};

inline std::vector<Operand> quant_conv_operands(std::mt19937& rng, const QuantDraw& q, const Shape& x, const Shape& w,
                                                uint32_t w_axis, bool bias) {
    std::vector<Operand> ins{
        {tinfo(q.x, x, {q.sx}, q.zx), to_bytes(random_ints<uint8_t>(rng, x.num_elements(), 0, 255))},
        {tinfo(q.w, w, q.ws, q.zw, w_axis), to_bytes(random_ints<uint8_t>(rng, w.num_elements(), 0, 255)), true}};
    if (bias) {
        const uint32_t oc = w[w_axis];
        std::vector<float> bs(q.ws.size());
        for (size_t i = 0; i < bs.size(); ++i) bs[i] = q.sx * q.ws[i];
        ins.push_back({tinfo(DataType::Signed32, {oc}, bs), to_bytes(random_ints<int32_t>(rng, oc, -20000, 20000)), true});
    }
    return ins;
}

inline std::vector<Operand> float_conv_operands(std::mt19937& rng, const Shape& x, const Shape& w, uint32_t w_axis, bool bias) {
    std::vector<Operand> ins{{tinfo(DataType::Float32, x), to_bytes(random_floats(rng, x.num_elements()))},
                             {tinfo(DataType::Float32, w), to_bytes(random_floats(rng, w.num_elements())), true}};
    if (bias) ins.push_back({tinfo(DataType::Float32, {w[w_axis]}), to_bytes(random_floats(rng, w[w_axis])), true});
    return ins;
}

inline ::testing::AssertionResult neon_within_sum_bound(const OneNode& node, double k) {
    const auto ref = from_bytes<float>(node.run_ref().at(0));
    const auto got = from_bytes<float>(neon_all_threads(node));
    return floats_near(got, ref, std::vector<double>(ref.size(), 2 * (k + 1) * (k + 1) * std::ldexp(1.0, -24)));
}

}  // namespace npurun::neontest

// The simulator's inner float loops (drv/sim/sim_vector.h): both implementations, portable and AVX2/F16C,
// against a plain definition written here, bit for bit. The conversions cover every half and a sweep of
// all floats (NaN, infinity, subnormals included); the MAC loops take values of every magnitude, signed
// zeros (0 + -0 = +0 is part of the definition) and every block/tail shape of the vector code.
#include "drv/sim/sim_vector.h"

#include "core/fp16.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

namespace vec = npudrv::sim::detail::vec;

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

std::vector<std::pair<std::string, const vec::Kernels*>> implementations() {
    std::vector<std::pair<std::string, const vec::Kernels*>> v{{"portable", &vec::portable_kernels()}};
    if (vec::avx2_kernels() != nullptr) v.emplace_back("avx2", vec::avx2_kernels());
    return v;
}

// Values a feature map or a weight can hold after fp16 rounding, and then some: zeros of both signs,
// subnormal, small, ordinary and large magnitudes.
float random_value(std::mt19937& rng) {
    std::uniform_int_distribution<int> kind(0, 9);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    switch (kind(rng)) {
        case 0: return 0.0f;
        case 1: return -0.0f;
        case 2: return u(rng) * 1e-6f;  // fp16 subnormal range
        case 3: return u(rng) * 6e4f;
        default: return npurun::fp16_to_fp32(npurun::fp32_to_fp16(u(rng) * 4.0f));
    }
}

TEST(SimVector, TheAvx2KernelsAreUsedWhereTheCpuHasThem) {
    if (vec::avx2_kernels() == nullptr) GTEST_SKIP() << "no AVX2/F16C on this CPU or target: the portable loops run";
    const char* env = std::getenv("NPURUN_SIM_PORTABLE");
    EXPECT_EQ(vec::vector_kernels_active(), !(env != nullptr && std::string(env) == "1"));
}

TEST(SimVector, WideningEveryHalfInEveryAtomPositionIsExact) {
    // 65536 halves as 8192 atoms: a plane of H=7 rows, W=1171 atoms (not a multiple of 8: a tail in each
    // row), 16 bytes of row padding; halves beyond the last fill the rest with 0x7C01 (a signalling NaN).
    const uint32_t H = 7, W = 1171;
    const uint64_t pitch = uint64_t{W} * 16 + 16;
    std::vector<uint8_t> mem(pitch * H, 0);
    std::vector<uint16_t> expect_half(size_t{H} * W * 8, 0x7C01);
    uint32_t h = 0;
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x)
            for (uint32_t e = 0; e < 8; ++e) {
                const uint16_t v = h < 65536 ? static_cast<uint16_t>(h++) : uint16_t{0x7C01};
                std::memcpy(&mem[y * pitch + x * 16 + e * 2], &v, 2);
                expect_half[e * (size_t{H} * W) + size_t{y} * W + x] = v;
            }
    ASSERT_EQ(h, 65536u);
    for (const auto& [name, k] : implementations()) {
        std::vector<float> out(size_t{H} * W * 8, 1.0f);
        k->widen_fp16_plane(mem.data(), pitch, H, W, out.data(), size_t{H} * W);
        size_t bad = 0;
        for (size_t i = 0; i < out.size(); ++i) bad += bits(out[i]) != bits(npurun::fp16_to_fp32(expect_half[i]));
        EXPECT_EQ(bad, 0u) << name;
    }
}

TEST(SimVector, NarrowingASweepOfAllFloatsRoundsLikeTheDefinition) {
    // Every 251st bit pattern (all exponents, both signs, NaN payloads), plus the rounding boundaries of
    // the half range, as planes of 8 channels over n = 1003 atoms (a tail after the last group of 8).
    std::vector<float> values;
    for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 251) {
        float f;
        const auto b = static_cast<uint32_t>(u);
        std::memcpy(&f, &b, 4);
        values.push_back(f);
    }
    for (float f : {65504.0f, 65519.99f, 65520.0f, 65536.0f, 6.1035156e-05f, 5.9604645e-08f, 2.9802322e-08f, 2.9802326e-08f})
        for (float s : {1.0f, -1.0f}) values.push_back(f * s);
    const size_t n = 1003, per = n * 8;
    for (const auto& [name, k] : implementations()) {
        size_t bad = 0;
        for (size_t start = 0; start < values.size(); start += per) {
            std::vector<float> src(per, 0.5f);
            for (size_t i = 0; i < per && start + i < values.size(); ++i) src[i] = values[start + i];
            std::vector<uint8_t> dst(n * 16, 0xAA);
            k->narrow_fp16_atoms(src.data(), n, n, dst.data());
            for (size_t i = 0; i < n; ++i)
                for (size_t e = 0; e < 8; ++e) {
                    uint16_t got;
                    std::memcpy(&got, &dst[i * 16 + e * 2], 2);
                    bad += got != npurun::fp32_to_fp16(src[e * n + i]);
                }
        }
        EXPECT_EQ(bad, 0u) << name;
    }
}

// The definition: taps strictly in order, from +0, each product and sum rounded to float.
float dot_in_order(const float* v, size_t n, const float* w, size_t stride) {
    float a = 0.0f;
    for (size_t t = 0; t < n; ++t) {
        const float p = v[t] * w[t * stride];
        a = a + p;
    }
    return a;
}

TEST(SimVector, DirectPixelSumsTheTapsInOrder) {
    std::mt19937 rng(7);
    for (size_t n : {1, 2, 7, 8, 9, 27, 64, 75})
        for (size_t ks : {1, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 64, 70}) {
            std::vector<float> v(n), w(n * ks);
            for (float& x : v) x = random_value(rng);
            for (float& x : w) x = random_value(rng);
            for (const auto& [name, k] : implementations()) {
                std::vector<float> acc(ks, 7.0f);
                k->direct_pixel(v.data(), n, w.data(), ks, acc.data());
                for (size_t j = 0; j < ks; ++j)
                    ASSERT_EQ(bits(acc[j]), bits(dot_in_order(v.data(), n, w.data() + j, ks))) << name << " n=" << n << " ks=" << ks << " k=" << j;
            }
        }
}

TEST(SimVector, DirectRowGivesEachPixelTheDirectPixelSum) {
    std::mt19937 rng(11);
    for (size_t nt : {1, 3, 9, 16, 27})
        for (size_t ks : {1, 3, 4, 5, 8, 13, 16})
            for (size_t n : {1, 5, 8, 10, 15, 16, 17, 20, 24, 31, 33, 40}) {
                // Each tap reads a row of its own, with a few values of slack after n.
                std::vector<std::vector<float>> rows(nt, std::vector<float>(n + 3));
                for (auto& r : rows)
                    for (float& x : r) x = random_value(rng);
                std::vector<const float*> taps;
                for (const auto& r : rows) taps.push_back(r.data());
                std::vector<float> w(nt * ks);
                for (float& x : w) x = random_value(rng);
                const size_t plane = n + 5;
                for (const auto& [name, k] : implementations()) {
                    std::vector<float> out(ks * plane, 9.0f);
                    k->direct_row(taps.data(), nt, w.data(), ks, n, out.data(), plane);
                    for (size_t j = 0; j < ks; ++j) {
                        for (size_t x = 0; x < n; ++x) {
                            std::vector<float> v(nt);
                            for (size_t t = 0; t < nt; ++t) v[t] = rows[t][x];
                            ASSERT_EQ(bits(out[j * plane + x]), bits(dot_in_order(v.data(), nt, w.data() + j, ks)))
                                << name << " nt=" << nt << " ks=" << ks << " n=" << n << " k=" << j << " x=" << x;
                        }
                        for (size_t x = n; x < plane; ++x) ASSERT_EQ(out[j * plane + x], 9.0f) << name << ": wrote past the row";
                    }
                }
            }
}

TEST(SimVector, DepthwiseRowSumsTheTapsRowByRow) {
    std::mt19937 rng(13);
    for (uint32_t kh : {1u, 3u, 5u})
        for (uint32_t kw : {1u, 2u, 3u, 5u})
            for (size_t n : {1, 3, 8, 9, 16, 31, 32, 33, 40, 79}) {
                const size_t stride = n + kw + 2;
                std::vector<float> in(stride * kh), wt(size_t{kh} * kw);
                for (float& x : in) x = random_value(rng);
                for (float& x : wt) x = random_value(rng);
                for (const auto& [name, k] : implementations()) {
                    std::vector<float> acc(n + 4, 3.0f);
                    k->depthwise_row(in.data(), stride, wt.data(), kh, kw, n, acc.data());
                    for (size_t i = 0; i < n; ++i) {
                        float a = 0.0f;
                        for (uint32_t ky = 0; ky < kh; ++ky)
                            for (uint32_t kx = 0; kx < kw; ++kx) a = a + in[ky * stride + kx + i] * wt[ky * kw + kx];
                        ASSERT_EQ(bits(acc[i]), bits(a)) << name << " kh=" << kh << " kw=" << kw << " n=" << n << " i=" << i;
                    }
                    for (size_t i = n; i < n + 4; ++i) ASSERT_EQ(acc[i], 3.0f) << name << ": wrote past the row";
                }
            }
}

}  // namespace

// The self-test's random numbers: SplitMix64 with explicit mappings to ranges, so that every case's
// constants and inputs are the same bytes on every machine, compiler and standard library (the
// std:: distributions are implementation-defined and may differ between libstdc++ and libc++).
#pragma once

#include <cstdint>

namespace npurun::selftest {

class Prng {
public:
    explicit Prng(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Integer in [lo, hi] (the modulo bias is irrelevant for test data).
    int32_t range(int32_t lo, int32_t hi) {
        const uint64_t span = static_cast<uint64_t>(int64_t{hi} - lo + 1);
        return static_cast<int32_t>(int64_t{lo} + static_cast<int64_t>(next() % span));
    }
    // Float in [lo, hi): 24 random bits, exact in float.
    float uniform(float lo, float hi) {
        const float u = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
        return lo + (hi - lo) * u;
    }

private:
    uint64_t state_;
};

}  // namespace npurun::selftest

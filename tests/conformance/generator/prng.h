// Deterministic pseudo-random numbers for conformance inputs and weights.
//
// Our own generator (SplitMix64) rather than <random> distributions: the standard leaves the
// distribution algorithms to the implementation, so the same seed could give different cases with
// another libstdc++. Every case seeds from a hash of its name, so a case's data does not depend on
// which other cases exist or in which order they are built.
#pragma once

#include <cstdint>
#include <string>

namespace conformance {

class Prng {
public:
    explicit Prng(uint64_t seed) : state_(seed) {}

    static Prng for_case(const std::string& name) {
        uint64_t h = 1469598103934665603ull;  // FNV-1a
        for (unsigned char c : name) {
            h ^= c;
            h *= 1099511628211ull;
        }
        return Prng(h);
    }

    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // Uniform in [lo, hi) with 24 bits of resolution (exact in float).
    float uniform(float lo, float hi) {
        const float unit = static_cast<float>(next() >> 40) / 16777216.0f;
        return lo + (hi - lo) * unit;
    }

    // Uniform integer in [lo, hi] (inclusive); the tiny modulo bias is irrelevant for test data.
    int64_t integer(int64_t lo, int64_t hi) {
        const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
        return lo + static_cast<int64_t>(next() % span);
    }

private:
    uint64_t state_;
};

}  // namespace conformance

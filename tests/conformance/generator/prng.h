// Deterministic pseudo-random numbers for conformance inputs and weights.
//
// The self-test's SplitMix64 (tools/npurun-selftest/selftest_prng.h) rather than <random> distributions: the
// standard leaves the distribution algorithms to the implementation, so the same seed could give different
// cases with another libstdc++. Every case seeds from a hash of its name, so a case's data does not depend on
// which other cases exist or in which order they are built.
#pragma once

#include <cstdint>
#include <string>

#include "tools/npurun-selftest/selftest_prng.h"

namespace conformance {

class Prng : public npurun::selftest::Prng {
public:
    using npurun::selftest::Prng::Prng;

    static Prng for_case(const std::string& name) {
        uint64_t h = 1469598103934665603ull;  // FNV-1a
        for (unsigned char c : name) {
            h ^= c;
            h *= 1099511628211ull;
        }
        return Prng(h);
    }

    // Uniform integer in [lo, hi] (inclusive) over the whole int64 range; the tiny modulo bias is irrelevant
    // for test data.
    int64_t integer(int64_t lo, int64_t hi) {
        const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
        return lo + static_cast<int64_t>(next() % span);
    }
};

}  // namespace conformance

// Judging npurun's output against Arm NN CpuRef's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/conformance/harness/manifest.h"

namespace conformance {

// Element values of raw little-endian bytes in `dtype` (npurun spelling), as doubles: floats as
// such, integer types as their integer value. Throws std::runtime_error for an unknown dtype or a
// byte count that is not a whole number of elements.
std::vector<double> decode_values(const std::string& dtype, const std::vector<uint8_t>& bytes);

// Empty when `got` matches `want` under the rule, otherwise a one-paragraph description (count of
// mismatches, the largest difference and the first few positions).
//   Float:     |got - want| <= tol * max(1, |want|)
//   Quantized: |got - want| <= tol (integer values)
//   Top1:      got's top-1 index is one of want's top-1 indices (ties) and max |got - want| <= tol
std::string compare_values(CompareMode mode, float tol, const std::vector<double>& got, const std::vector<double>& want);

}  // namespace conformance

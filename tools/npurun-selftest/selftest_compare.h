// How the self-test judges a device's output: against the CPU reference within a tolerance (int8: in
// integer codes; fp16: an absolute bound that scales with the output's magnitude), and NPU against the
// simulator byte for byte (both run the same regcmd; any difference is a hardware, kernel or simulator bug).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/types.h"

namespace npurun::selftest {

struct Comparison {
    bool within = true;      // every element within the tolerance (false also on NaN, size or type mismatch)
    double max_diff = 0.0;   // max |got - ref|: integer codes for quantized types, the value for floats
    double max_ref = 0.0;    // max |ref| (floats), for the fp16 tolerance
    size_t worst = 0;        // element index of max_diff
    size_t elements = 0;
    std::string error;       // non-empty: the comparison could not be made (names why)
};

// Element-wise |got - ref| over a tensor of `info` (QAsymmU8, QAsymmS8, Float32 or Float16), both buffers
// holding info.num_bytes() bytes. `tolerance` is the largest allowed difference.
Comparison compare_to_reference(const TensorInfo& info, const void* ref, const void* got, double tolerance);

// The fp16 tolerance for an output whose largest reference magnitude is `max_ref`, after `rounding_steps`
// layers that each round to fp16: 2^-8 relative to max(1, max_ref) per step, i.e. 8 units of the fp16
// rounding error (2^-11) at the output's scale, covering the input, weight and output roundings of a
// layer and the accumulation order.
double fp16_tolerance(double max_ref, uint32_t rounding_steps);

// One output element where two results disagree, for the reports ("output 0 element 17: expected 12, got
// 76"): quantized types in integer codes, floats as values.
struct ElementDiff {
    bool found = false;
    size_t output = 0;       // output binding index (set by the caller)
    size_t index = 0;        // element index in that output
    double expected = 0.0;   // the reference's (or the simulator's) value
    double got = 0.0;
};

// The first element (lowest index) whose |got - ref| exceeds `tolerance` (NaN and unmatched infinities
// count as beyond any tolerance). Not found when every element is within it or the type cannot be compared.
ElementDiff first_element_beyond(const TensorInfo& info, const void* ref, const void* got, double tolerance);

// The first element whose bytes differ between `a` and `b` (NPU against simulator: no tolerance).
ElementDiff first_differing_element(const TensorInfo& info, const void* a, const void* b);

struct ByteComparison {
    bool identical = true;
    size_t differing = 0;  // number of differing bytes
    size_t first = 0;      // offset of the first difference
};
ByteComparison compare_bytes(const void* a, const void* b, size_t n);

}  // namespace npurun::selftest

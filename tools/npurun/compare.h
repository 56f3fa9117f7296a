// --compare cpu: the same inputs on the chosen device and on the CPU reference, output by output.
#pragma once

#include <cstdio>

#include "include/npurun/npurun.hpp"

namespace npurun::cli {

struct OutputDifference {
    double max_abs = 0;       // largest |device - cpu| over the elements, dequantized
    size_t at = 0;            // where (first index with that difference)
    double device_value = 0, cpu_value = 0;
    size_t differing = 0;     // elements whose stored bytes differ
    size_t nan_mismatch = 0;  // elements NaN on one side only
};

OutputDifference difference(const TensorBinding& device, const TensorBinding& cpu);

// One line per output: "compare sim vs cpu: output 0 'prob': max |diff| 0.0039 at 17 (...), 3 of 1001 differ".
void print_comparison(std::FILE* out, const Session& device, const Session& cpu);

}  // namespace npurun::cli

// Turns a self-test case into a serialized Arm NN graph (.armnn bytes, current format: featureVersions
// {1,1,1}, weights in Constant layers, as Arm NN 22.08 and later write them) with deterministic constants
// and quantization chosen so that values spread over the whole int8 range, plus what the runner needs to
// judge the result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/npurun-selftest/selftest_case.h"

namespace npurun::selftest {

struct BuiltCase {
    std::vector<uint8_t> armnn;         // the model file
    std::string ops;                    // "Convolution2d+ReLu6", "Convolution2d > Pooling2d > ...", ...
    std::string input_shape, output_shape;  // "1x16x16x8"
    // Layer names (l0, l1, ...) as the model names them, and which must be split into several tasks.
    std::vector<std::string> layer_names;
    std::vector<bool> must_tile;
    // Steps that round the result (every layer but max pooling): the int8 tolerance in codes, and the
    // number of fp16 roundings in the fp16 tolerance.
    uint32_t rounding_steps = 1;
    uint64_t macs = 0;                  // multiply-accumulates of the convolution-like layers
    std::vector<int32_t> divisor_inputs;  // fp16 inputs that are Div divisors: filled from [0.5, 1.5)
};

// Throws npurun::Error(Internal) for a case whose geometry is impossible (kernel larger than the padded
// input, a binary operand of another shape, ...).
BuiltCase build_case(const Case& c);

// Seed of the case's constants and inputs: a hash of its name, so that a case's data does not depend on
// its position in the table or on which other cases run.
uint32_t case_seed(const std::string& name);

}  // namespace npurun::selftest

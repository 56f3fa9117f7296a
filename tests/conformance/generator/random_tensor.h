// Deterministic random tensor contents in any data type the cases use.
#pragma once

#include <armnn/Tensor.hpp>

#include "tests/conformance/generator/armnn_runner.h"
#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/prng.h"

namespace conformance {

// Values drawn uniformly from `range` (see ValueRange), encoded as `info` says: floats directly,
// quantized types as round(v/scale)+offset clamped to the type, Signed32 (biases) as round(v/scale)
// (or [-1000, 1000] when the range is unset).
Bytes random_tensor(const armnn::TensorInfo& info, ValueRange range, Prng& prng);

// `values` encoded as `info` says (same encoding as above), for hand-chosen constants.
Bytes encode_tensor(const armnn::TensorInfo& info, const std::vector<float>& values);

}  // namespace conformance

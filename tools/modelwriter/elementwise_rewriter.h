// Converts a file's Addition / Subtraction / Multiplication / Division / Maximum / Minimum layers into the
// ElementwiseBinary layer (type 69) Arm NN 23.05 and later write instead, leaving every other byte of the
// graph as it was: the 23.05+ twin of a 20.08 file, for tests (Debian ships only Arm NN 20.08).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npurun::modelwriter {

struct RewriteResult {
    std::vector<uint8_t> bytes;
    unsigned rewritten = 0;  // binary layers turned into ElementwiseBinary
};

// `data` must be a valid Arm NN SerializedGraph (verified here; std::runtime_error otherwise). Layers keep
// their index, name, slots and position in the layers vector.
RewriteResult rewrite_binary_layers_as_elementwise(const uint8_t* data, size_t size);

}  // namespace npurun::modelwriter

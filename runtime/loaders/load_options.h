// Options a caller may pass to a model loader.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npurun {

struct LoadOptions {
    // Shapes for model inputs, by input name (`--input-shape NAME=1x3x224x224`). Needed where the file
    // leaves a dimension open (MNN stores -1 or 0); an open batch dimension alone resolves to 1.
    std::vector<std::pair<std::string, std::vector<uint32_t>>> input_shapes;
};

}  // namespace npurun

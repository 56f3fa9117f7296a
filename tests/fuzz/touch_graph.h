// What the loader fuzz targets do with a graph that loaded: touch every tensor a later stage would, so that
// an id out of range or a size that cannot be computed is found here rather than downstream.
#pragma once

#include "ir/graph.h"

namespace npurun::fuzz {

inline void touch_every_tensor(const Graph& g) {
    for (const Node& n : g.nodes) {
        for (TensorId t : n.inputs)
            if (t != kNoTensor) (void)g.info(t).num_bytes();
        for (TensorId t : n.outputs) (void)g.info(t).num_bytes();
    }
}

}  // namespace npurun::fuzz

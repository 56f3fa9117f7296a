// MACs per layer, for `npurun --explain`'s "NPU share of MACs" line.
//
// Definition: a layer's MACs are the multiply-accumulates of its arithmetic core, counted from the graph's
// shapes (no padding or tiling overhead):
//   Convolution2d          output elements x (weight elements / output channels)   = N*OH*OW*O * KH*KW*I
//   DepthwiseConvolution2d output elements x (weight elements / output channels)   = N*OH*OW*C * KH*KW
//   FullyConnected         output elements x (weight elements / output features)   = N*O * K
//   BatchMatMul            output elements x the contracted length of its first input
//   Lstm (one step)        B x (gates x C x (I + O) + projection O x C), gates 3 with CIFG, else 4
// Every other layer (element-wise, pooling, activations, layout moves...) counts 0: their work is a few
// operations per element, not multiply-accumulates. The NPU share is the MACs of layers placed on the NPU
// (Npu or Fused) over the MACs of all layers; a model with no MACs reports
// "0.0% (the model has no MAC layers)".
#pragma once

#include <cstdint>

#include "ir/graph.h"

namespace npurun {

// The layer's MACs as defined above; saturates at UINT64_MAX instead of overflowing.
uint64_t layer_macs(const Graph& g, const Node& n);

}  // namespace npurun

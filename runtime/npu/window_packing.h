// The first convolution's input windows packed on the host (issue 15, "the first layer's small channel
// count"). A 3-channel image fills 3 of the 16 bytes of each NC1HWC2 atom, and the CNA issues its
// channels as a whole 32-channel group per kernel tap: a 3x3 layer issues 9 x 32 channel slots for 27
// useful ones. The CNA's own 1..4-channel image mode (CONV_CON1.ARGB_IN) is not documented well enough to
// simulate (docs/cost-model.md), so the CPU, which converts the segment's input at its edge anyway, writes
// instead the im2col form: for each output pixel the kh*kw*C input values of its window (the padding
// value where the window leaves the image) as one channel vector, and the NPU runs a 1x1 stride-1
// convolution over that tensor. The weights need no re-packing: a Convolution2d's [O][kh][kw][C]
// constant read as [O][kh*kw*C] is the same order. The sums of products are the same, so int8 results are
// the same integers; fp16 sums may round in another order.
//
// Only a layer whose input comes from the host can do this (the CPU writes the packed tensor), and only
// when the cost model (drv/sim/cost_model.h) says the packed layer is cheaper.
#pragma once

#include <cstdint>
#include <string>

#include "core/refusal.h"
#include "core/types.h"
#include "ir/graph.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_tiling.h"
#include "runtime/npu/feature_layout.h"

namespace npurun::npu {

// How a host tensor [1,H,W,C] becomes the packed tensor [1,Ho,Wo,kh*kw*C] (channel order ky, kx, c).
struct WindowPacking {
    uint32_t c = 0, h = 0, w = 0;  // the host tensor
    uint32_t kh = 1, kw = 1, sx = 1, sy = 1, pad_left = 0, pad_top = 0;
    uint32_t dx = 1, dy = 1;  // dilation: tap (ky, kx) reads input pixel (ky * dy, kx * dx) of the window
    uint32_t ho = 0, wo = 0;
    uint32_t elem_bytes = 1;
    uint8_t pad_byte = 0;  // int8: the signed input zero point (what the conv's padding means); fp16: 0.0
    // The packed tensor as the NPU stores it.
    FeatureGeometry packed() const;
};

// Most packed channels: eight of the CNA's 32-channel groups, room for a 7x7 RGB stem (147). Past that
// the layer no longer has a small channel count, and the host's copy grows with kh*kw for little gain.
constexpr uint32_t kMaxPackedChannels = 256;

// Whether the shape of `L` admits packing at all, or why not (depthwise, already 1x1 stride 1, channels
// that fill the feature atom, too many packed channels, a packed layer that does not tile). When it admits
// it and `packed_tiling` is given, that is the tiling planned for the packed layer.
Refusal window_packing_refusal(const ConvLayer& L, ConvTiling* packed_tiling = nullptr);
// The packing of `L`'s input and the 1x1 stride-1 layer over the packed tensor (same constants).
WindowPacking window_packing(const ConvLayer& L);
ConvLayer packed_conv_layer(const ConvLayer& L);

// The choice: packing when the shape admits it and the packed layer's estimated cycles are fewer than
// those of `L` tiled as `t`; then *packed / *packed_tiling are the layer to lower. Else why not.
Refusal choose_window_packing(const ConvLayer& L, const ConvTiling& t, ConvLayer* packed, ConvTiling* packed_tiling);

// What `npurun --explain` says of a Convolution2d whose input comes from the host: packed, or why not
// (placement's lowering_note; "" for other nodes).
std::string window_packing_note(const Graph& g, const Node& node, NpuDomain d);

// Cycles the cost model would give the layer's tasks on one core: per tile, issued MAC slots
// (cost::conv_issue) against the DMA it moves (input rows unless resident, weights unless resident, the
// BS stream, the output), plus the fixed task overhead. Used to choose, never reported.
uint64_t estimated_conv_cycles(const ConvLayer& L, const ConvTiling& t);
// The same for the slowest lane of the plan: how long the layer keeps a job of its lanes busy.
uint64_t estimated_slowest_lane_cycles(const ConvLayer& L, const ConvTiling& t);

// Model tensor (NHWC, model dtype) -> the packed tensor in the NPU layout: uint8 moves into the signed
// domain, float32 rounds to float16 (as pack_feature). Padding channels of the last atom are written 0
// (the weights there are the zero-effect value, conv_layer.h).
void pack_windows(const TensorInfo& t, const void* src, const WindowPacking& p, uint8_t* dst);

}  // namespace npurun::npu

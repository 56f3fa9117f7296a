// Layers that move no data on the NPU: they become views of other tensors' NC1HWC2 buffers and get no
// task (no DMA copy either).
//
//  Reshape: NC1HWC2 stores element (c, pixel p) at (c / C2) * H*W*16 + p * 16 + (c % C2) * bytes, where p
//    is the NHWC pixel index. A reshape between [1,H,W,C] / [1,C] shapes with the same C and the same
//    H*W keeps every (c, p), so the output IS the input buffer.
//  Concat along channels: input j at channel offset o_j lives in the output buffer at plane o_j / C2 with
//    the same plane pitch (equal H and W), so when every o_j is a multiple of C2 (16 int8, 8 fp16 channels)
//    each producer writes its output straight into the concat buffer. Producers write whole planes (an
//    fp16 convolution even 16-channel groups), so an input that is not the last must end on that boundary.
//  Slice / Splitter along channels: the inverse of the Concat view. Output j, channels [b_j, b_j + s_j) of
//    the input, is the input's buffer from plane b_j / C2 on, with the same plane pitch, when b_j is a multiple
//    of C2. Its consumers read whole atoms (ceil(s_j / C2) planes), so s_j must be a multiple of C2 too, or
//    the view must end at the input's last channel: then the atom's tail is the input's own padding, what a
//    consumer of the input itself would read. Nothing writes a slice view (only its input's producer writes
//    the buffer), so views of one input may overlap. A sliced tensor cannot also be a Concat input (it would
//    live in two places).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ir/graph.h"
#include "core/refusal.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

// Reshape, Concat, Slice and Splitter.
bool is_buffer_alias(OpKind op);

// Whether `n` (a Reshape, Concat, Slice or Splitter the checker accepted) can be a view in the NPU layout, or why not.
Refusal buffer_alias_refusal(const Graph& g, const Node& n, NpuDomain d);

// Child tensor -> (tensor whose buffer holds it, channel offset in that tensor).
using AliasMap = std::map<TensorId, std::pair<TensorId, uint32_t>>;

// Records the views `n` creates (n must have passed buffer_alias_refusal). Throws Error(Internal) if a
// tensor would live in two places.
void add_buffer_alias(const Graph& g, const Node& n, AliasMap* map);

// The tensor that owns t's storage and t's channel offset in it (t itself and 0 when t is no view).
TensorId alias_root(const AliasMap& map, TensorId t, uint32_t* channel_offset);

}  // namespace npurun::npu

// Lstm on the NPU, as seed 003 describes RKNN2's LSTM: matrix products, element-wise operations and lookup-table
// activations. An Arm NN Lstm layer (one time step, float) is replaced by the layers it is made of, each one an
// operation the NPU backend already lowers, so that the support checker, the placement and every operation unit
// see ordinary layers:
//
//   x, h, c [B, n]  ->  Reshape to [1, 1, B, n]  (the batch as pixels, so a gate product is a 1x1 convolution
//                                                 over B pixels and not a FullyConnected over one)
//   per gate G:  s_G = Conv1x1(x; W_xG, b_G) + Conv1x1(h; W_hG)           (+ c * peephole_G, as a Mul and an Add)
//   i = sigmoid(s_i)   (CIFG: i = 1 - f, a Sub from a constant of ones)
//   f = sigmoid(s_f)   g = act(s_g)
//   c' = f * c + i * g                                                    (clipped by Maximum / Minimum)
//   o = sigmoid(s_o + c' * peephole_o)   h' = o * act(c')                 (activation 0: o * s_g, CpuRef's quirk)
//   out = projection ? Conv1x1(h'; W_p, b_p) (clipped) : h'
//   outputs  ->  Reshape back to [B, n]; the scratch output, when read, a Concat of [i | act(c') | f | h'].
//
// A UnidirectionalSequenceLstm is unrolled: its input's T time slices (Slice + Reshape, CPU work at the segment's
// edge, ahead of the first step), then T such steps, each one's output the next one's h, and the outputs a Concat
// of the steps' along the channels (batch-major [B, T, O]; views on the NPU when O fills whole channel groups) or
// the pixels (time-major [T, B, O], B > 1). At most 128 steps are unrolled.
//
// The values are kernels/ref/lstm.cpp's step, summed in another order (the convolution's), so on the NPU they
// differ from the CPU path by fp16 rounding only. Not lowered, each with its reason: layer normalization (a mean
// and deviation over the cell units: no NPU operation), quantized LSTMs (QLstm, QuantizedLstm, QSymmS16 Lstm:
// their int16 cell state has no int8 form), and any Lstm one of whose parts the NPU refuses (the reason names the
// part).
//
// The rewrite produces a new graph (ir/graph.h: a loaded graph is never edited); tensors keep their ids, so
// bindings and the Lstm's outputs are the same tensors, and the new graph's constants view the original's.
#pragma once

#include <memory>

#include "core/refusal.h"
#include "ir/graph.h"
#include "runtime/passes/placement.h"

namespace npurun {

// The op kinds the rewrite takes apart: Lstm (one step) and UnidirectionalSequenceLstm (unrolled). The quantized
// LSTMs (QLstm, QuantizedLstm) are other kinds and stay whole.
bool is_lowerable_lstm(OpKind op);

// Why `lstm` (an Lstm or UnidirectionalSequenceLstm node) cannot run on the NPU under `o`, or an acceptance: it is then lowered by
// lower_lstm_layers.
Refusal lstm_lowering_refusal(const Graph& g, const Node& lstm, const PlacementOptions& o);

// `g` with every Lstm (and sequence) that lstm_lowering_refusal accepts replaced by its parts; nullptr when there is none (or
// when `o` does not use the NPU). The result's constants point into `g`'s storage: `g` must outlive it.
std::unique_ptr<Graph> lower_lstm_layers(const Graph& g, const PlacementOptions& o);

}  // namespace npurun

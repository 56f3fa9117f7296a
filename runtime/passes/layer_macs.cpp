#include "runtime/passes/layer_macs.h"

#include <limits>

namespace npurun {

namespace {

uint64_t saturating_mul(uint64_t a, uint64_t b) {
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) return std::numeric_limits<uint64_t>::max();
    return a * b;
}

// Output elements x (weight elements / output channels); 0 when a shape does not fit the pattern.
uint64_t per_output_terms(const Graph& g, const Node& n, uint32_t channels_axis_of_weights, bool channels_from_output) {
    if (n.inputs.size() < 2 || n.outputs.empty() || n.inputs[1] == kNoTensor) return 0;
    const Shape& w = g.info(n.inputs[1]).shape;
    const Shape& y = g.info(n.outputs[0]).shape;
    if (w.rank == 0 || y.rank == 0) return 0;
    const uint64_t channels = channels_from_output ? y[y.rank - 1] : (channels_axis_of_weights < w.rank ? w[channels_axis_of_weights] : 0);
    if (channels == 0) return 0;
    const uint64_t weights = w.num_elements();
    return saturating_mul(y.num_elements(), weights / channels);
}

}  // namespace

uint64_t layer_macs(const Graph& g, const Node& n) {
    switch (n.op) {
        case OpKind::Convolution2d: return per_output_terms(g, n, 0, false);
        case OpKind::DepthwiseConvolution2d: return per_output_terms(g, n, 3, false);
        case OpKind::FullyConnected: return per_output_terms(g, n, 0, true);
        case OpKind::BatchMatMul: {
            if (n.inputs.empty() || n.outputs.empty() || n.inputs[0] == kNoTensor) return 0;
            const Shape& a = g.info(n.inputs[0]).shape;
            if (a.rank < 2) return 0;
            const auto& at = n.attr<BatchMatMulAttrs>();
            const uint32_t k = (at.transpose_x || at.adjoint_x) ? a[a.rank - 2] : a[a.rank - 1];
            return saturating_mul(g.info(n.outputs[0]).shape.num_elements(), k);
        }
        case OpKind::Lstm:
        case OpKind::UnidirectionalSequenceLstm: {
            // The gate products (input and recurrent weights, 3 gates with CIFG, else 4) and the projection, per
            // batch row and time step: what lstm_lowering.h runs as 1x1 convolutions, so the share is the same
            // before and after it.
            if (n.inputs.size() <= kProjectionWeights || n.inputs[kLstmInput] == kNoTensor ||
                n.inputs[kLstmOutputStateIn] == kNoTensor || n.inputs[kLstmCellStateIn] == kNoTensor)
                return 0;
            const Shape& x = g.info(n.inputs[kLstmInput]).shape;
            const Shape& h = g.info(n.inputs[kLstmOutputStateIn]).shape;
            const Shape& c = g.info(n.inputs[kLstmCellStateIn]).shape;
            const bool sequence = n.op == OpKind::UnidirectionalSequenceLstm;
            if (x.rank != (sequence ? 3 : 2) || h.rank != 2 || c.rank != 2) return 0;
            const uint64_t gates = n.attr<LstmAttrs>().cifg ? 3 : 4;
            uint64_t per_row = saturating_mul(gates * c[1], uint64_t(x[x.rank - 1]) + h[1]);
            if (n.inputs[kProjectionWeights] != kNoTensor) per_row += uint64_t(h[1]) * c[1];
            const uint64_t rows = sequence ? uint64_t(x[0]) * x[1] : x[0];  // batch x steps
            return saturating_mul(rows, per_row);
        }
        default: return 0;
    }
}

}  // namespace npurun

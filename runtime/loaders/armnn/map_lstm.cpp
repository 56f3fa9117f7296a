// Layer mapping, Lstm, UnidirectionalSequenceLstm, QLstm, QuantizedLstm.
#include "runtime/loaders/armnn/mapping_common.h"

#include <type_traits>

namespace npurun::armnn::mapping {
namespace {

// Lstm and UnidirectionalSequenceLstm: one descriptor shape; the sequence form adds timeMajor and, from
// 22.05 on, two more outputs.
template <OpKind Op, class LayerT> void lstm(LayerContext& c, const LayerT* l) {
    constexpr bool sequence = std::is_same_v<LayerT, fb::UnidirectionalSequenceLstmLayer>;
    const auto* d = descriptor_of(l);
    if constexpr (sequence) {
        // 21.08-22.02 files have only `output`; 22.05+ also outputStateOut and cellStateOut (first).
        if (c.n.outputs.size() != 1 && c.n.outputs.size() != 3)
            bad("has " + std::to_string(c.n.outputs.size()) + " output slots, expected 1 or 3");
    } else {
        expect_outputs(c.n, 4);
    }
    LstmAttrs a = lstm_attrs(d->activationFunc(), d->clippingThresCell(), d->clippingThresProj(), d->cifgEnabled(),
                             d->peepholeEnabled(), d->projectionEnabled(), d->layerNormEnabled());
    if constexpr (sequence) a.time_major = d->timeMajor();
    assemble_lstm(c.g, c.n, lstm_params(l->inputParams(), a.cifg, a.peephole, a.projection, a.layer_norm));
    set_op(c.n, Op, a);
}

void qlstm(LayerContext& c, const fb::QLstmLayer* l) {
    const auto* d = descriptor_of(l);
    expect_outputs(c.n, 3);
    const QLstmAttrs a{d->cifgEnabled(),
                       d->peepholeEnabled(),
                       d->projectionEnabled(),
                       d->layerNormEnabled(),
                       d->cellClip(),
                       d->projectionClip(),
                       d->inputIntermediateScale(),
                       d->forgetIntermediateScale(),
                       d->cellIntermediateScale(),
                       d->outputIntermediateScale(),
                       d->hiddenStateZeroPoint(),
                       d->hiddenStateScale()};
    assemble_lstm(c.g, c.n, lstm_params(l->inputParams(), a.cifg, a.peephole, a.projection, a.layer_norm));
    set_op(c.n, OpKind::QLstm, a);
}

// QuantizedLstm has no descriptor and no optional parameters: all twelve are required.
void quantized_lstm(LayerContext& c, const fb::QuantizedLstmLayer* l) {
    const auto* p = l->inputParams();
    expect_outputs(c.n, 2);
    if (!p) bad("QuantizedLstm parameters (inputParams) are missing");
    assemble_lstm(c.g, c.n,
                  {
                      {kInputToInputWeights, p->inputToInputWeights(), "inputToInputWeights", true},
                      {kInputToForgetWeights, p->inputToForgetWeights(), "inputToForgetWeights", true},
                      {kInputToCellWeights, p->inputToCellWeights(), "inputToCellWeights", true},
                      {kInputToOutputWeights, p->inputToOutputWeights(), "inputToOutputWeights", true},
                      {kRecurrentToInputWeights, p->recurrentToInputWeights(), "recurrentToInputWeights", true},
                      {kRecurrentToForgetWeights, p->recurrentToForgetWeights(), "recurrentToForgetWeights", true},
                      {kRecurrentToCellWeights, p->recurrentToCellWeights(), "recurrentToCellWeights", true},
                      {kRecurrentToOutputWeights, p->recurrentToOutputWeights(), "recurrentToOutputWeights", true},
                      {kInputGateBias, p->inputGateBias(), "inputGateBias", true},
                      {kForgetGateBias, p->forgetGateBias(), "forgetGateBias", true},
                      {kCellBias, p->cellBias(), "cellBias", true},
                      {kOutputGateBias, p->outputGateBias(), "outputGateBias", true},
                  });
    set_op(c.n, OpKind::QuantizedLstm, std::monostate{});
}

}  // namespace

std::vector<LayerMapper> lstm_layers() {
    using Sequence = fb::UnidirectionalSequenceLstmLayer;
    return {layer_row<fb::LstmLayer, lstm<OpKind::Lstm, fb::LstmLayer>>(),
            layer_row<Sequence, lstm<OpKind::UnidirectionalSequenceLstm, Sequence>>(),
            layer_row<fb::QLstmLayer, qlstm>(), layer_row<fb::QuantizedLstmLayer, quantized_lstm>()};
}

}  // namespace npurun::armnn::mapping

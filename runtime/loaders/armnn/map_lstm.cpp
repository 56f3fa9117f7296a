// Layer mapping, Lstm, UnidirectionalSequenceLstm, QLstm, QuantizedLstm.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_lstm_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::LstmLayer: {
            const auto* l = static_cast<const fb::LstmLayer*>(t);
            const auto* d = NPURUN_DESC(LstmDescriptor, l->descriptor());
            expect_outputs(n, 4);
            LstmAttrs a = lstm_attrs(d->activationFunc(), d->clippingThresCell(), d->clippingThresProj(),
                                     d->cifgEnabled(), d->peepholeEnabled(), d->projectionEnabled(),
                                     d->layerNormEnabled());
            assemble_lstm(g, n, lstm_params(l->inputParams(), a.cifg, a.peephole, a.projection, a.layer_norm));
            n.op = OpKind::Lstm;
            n.attrs = a;
            return true;
        }
        case L::UnidirectionalSequenceLstmLayer: {
            const auto* l = static_cast<const fb::UnidirectionalSequenceLstmLayer*>(t);
            const auto* d = NPURUN_DESC(UnidirectionalSequenceLstmDescriptor, l->descriptor());
            // 21.08-22.02 files have only `output`; 22.05+ also outputStateOut and cellStateOut (first).
            if (n.outputs.size() != 1 && n.outputs.size() != 3)
                bad("has " + std::to_string(n.outputs.size()) + " output slots, expected 1 or 3");
            LstmAttrs a = lstm_attrs(d->activationFunc(), d->clippingThresCell(), d->clippingThresProj(),
                                     d->cifgEnabled(), d->peepholeEnabled(), d->projectionEnabled(),
                                     d->layerNormEnabled());
            a.time_major = d->timeMajor();
            assemble_lstm(g, n, lstm_params(l->inputParams(), a.cifg, a.peephole, a.projection, a.layer_norm));
            n.op = OpKind::UnidirectionalSequenceLstm;
            n.attrs = a;
            return true;
        }
        case L::QLstmLayer: {
            const auto* l = static_cast<const fb::QLstmLayer*>(t);
            const auto* d = NPURUN_DESC(QLstmDescriptor, l->descriptor());
            expect_outputs(n, 3);
            QLstmAttrs a;
            a.cifg = d->cifgEnabled();
            a.peephole = d->peepholeEnabled();
            a.projection = d->projectionEnabled();
            a.layer_norm = d->layerNormEnabled();
            a.cell_clip = d->cellClip();
            a.projection_clip = d->projectionClip();
            a.input_intermediate_scale = d->inputIntermediateScale();
            a.forget_intermediate_scale = d->forgetIntermediateScale();
            a.cell_intermediate_scale = d->cellIntermediateScale();
            a.output_intermediate_scale = d->outputIntermediateScale();
            a.hidden_state_zero_point = d->hiddenStateZeroPoint();
            a.hidden_state_scale = d->hiddenStateScale();
            assemble_lstm(g, n, lstm_params(l->inputParams(), a.cifg, a.peephole, a.projection, a.layer_norm));
            n.op = OpKind::QLstm;
            n.attrs = a;
            return true;
        }
        case L::QuantizedLstmLayer: {
            const auto* p = static_cast<const fb::QuantizedLstmLayer*>(t)->inputParams();
            expect_outputs(n, 2);
            if (!p) bad("QuantizedLstm parameters (inputParams) are missing");
            assemble_lstm(g, n,
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
            n.op = OpKind::QuantizedLstm;
            n.attrs = std::monostate{};
            return true;
        }
        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

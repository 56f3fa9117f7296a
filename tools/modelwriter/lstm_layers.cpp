// ModelWriter: Lstm (every schema) and UnidirectionalSequenceLstm (Arm NN 21.08+), parameters in LstmInputParams.
#include "tools/modelwriter/model_writer.h"

namespace npurun::modelwriter {
namespace {

using Optional = std::optional<ConstDesc>;

flatbuffers::Offset<fb::ConstTensor> write_optional(flatbuffers::FlatBufferBuilder& b, const Optional& c) {
    return c ? ModelWriter::write_const_tensor(b, *c) : flatbuffers::Offset<fb::ConstTensor>();
}

flatbuffers::Offset<fb::LstmInputParams> write_params(flatbuffers::FlatBufferBuilder& b, const LstmParams& p) {
    // Every tensor is built before the table that refers to it is started.
    const auto i2f = write_optional(b, p.input_to_forget), i2c = write_optional(b, p.input_to_cell),
               i2o = write_optional(b, p.input_to_output), r2f = write_optional(b, p.recurrent_to_forget),
               r2c = write_optional(b, p.recurrent_to_cell), r2o = write_optional(b, p.recurrent_to_output),
               fb_ = write_optional(b, p.forget_gate_bias), cb = write_optional(b, p.cell_bias),
               ob = write_optional(b, p.output_gate_bias), i2i = write_optional(b, p.input_to_input),
               r2i = write_optional(b, p.recurrent_to_input), c2i = write_optional(b, p.cell_to_input),
               ib = write_optional(b, p.input_gate_bias), pw = write_optional(b, p.projection_weights),
               pb = write_optional(b, p.projection_bias), c2f = write_optional(b, p.cell_to_forget),
               c2o = write_optional(b, p.cell_to_output), iln = write_optional(b, p.input_layer_norm),
               fln = write_optional(b, p.forget_layer_norm), cln = write_optional(b, p.cell_layer_norm),
               oln = write_optional(b, p.output_layer_norm);
    return fb::CreateLstmInputParams(b, i2f, i2c, i2o, r2f, r2c, r2o, fb_, cb, ob, i2i, r2i, c2i, ib, pw, pb, c2f, c2o,
                                     iln, fln, cln, oln);
}

}  // namespace

uint32_t ModelWriter::add_lstm(const std::string& name, Port x, Port h, Port c, std::vector<TensorDesc> outputs,
                               const LstmParams& p) {
    return add_layer(fb::Layer::LstmLayer, fb::LayerType::Lstm, name, {x, h, c}, std::move(outputs),
                     [p](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                         const auto params = write_params(b, p);
                         const auto d = fb::CreateLstmDescriptor(b, p.activation, p.clip_cell, p.clip_proj, p.cifg,
                                                                 p.peephole, p.projection, p.layer_norm);
                         return fb::CreateLstmLayer(b, base, d, params).Union();
                     });
}

uint32_t ModelWriter::add_unidirectional_sequence_lstm(const std::string& name, Port x, Port h, Port c,
                                                       std::vector<TensorDesc> outputs, const LstmParams& p) {
    return add_layer(
        fb::Layer::UnidirectionalSequenceLstmLayer, fb::LayerType::UnidirectionalSequenceLstm, name, {x, h, c},
        std::move(outputs), [p](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
            const auto params = write_params(b, p);
            const auto d =
                fb::CreateUnidirectionalSequenceLstmDescriptor(b, p.activation, p.clip_cell, p.clip_proj, p.cifg,
                                                               p.peephole, p.projection, p.layer_norm, p.time_major);
            return fb::CreateUnidirectionalSequenceLstmLayer(b, base, d, params).Union();
        });
}

}  // namespace npurun::modelwriter

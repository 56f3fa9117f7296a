// MNN's Caffe-style LSTM (one output, weights in the op) -> the IR's UnidirectionalSequenceLstm.
//
// Facts from MNN's CPULSTM / ShapeLSTM (looked up for this file):
//   * input [B, T, 1, F] (time steps in dimension 1, features in dimension 3), output [B, T, 1, U] with
//     U = outputCount;
//   * weightI holds [4][U][F], weightH [4][U][U] and bias [4][U], gate blocks in the order I, F, O, G
//     (Caffe's LSTM order); the gates are sigmoid(I), sigmoid(F), sigmoid(O), tanh(G), the cell
//     c = F*c + I*G and the output h = O * tanh(c);
//   * the state starts at zero: at t = 0 the forget gate is 0 and the recurrent term is skipped, which is
//     what a zero initial state gives; clippingThreshold is not read.
// The IR's LSTM takes per-gate weights in the order input, forget, cell (= G), output, so the loader
// slices the blocks and the zero states are constants. Not mapped, each with its reason: a second input
// (Caffe's sequence-continuation indicator), batch above 1 (MNN's kernel shares one cell state across the
// batch and offsets the recurrent weights by the batch size, so its result is not an LSTM per batch),
// the packed single-Blob form (weightI holding everything, ONNX-converted), the 3-output ONNX form, and
// the int8 weightIQ form.
#include <cstring>

#include "core/checked_math.h"
#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"

namespace npurun::mnn {

namespace {

std::vector<float> blob_floats(const Builder& b, const MNN::Blob* blob, const char* field, size_t want) {
    if (!blob) b.bad(std::string("has no ") + field);
    if (blob->external() && blob->external()->size() > 0) b.unsupported(std::string(field) + " is in an external .weight file");
    if (blob->dataType() != MNN::DataType::DT_FLOAT) b.unsupported(std::string(field) + " is not float");
    const size_t have = blob->float32s() ? blob->float32s()->size() : 0;
    if (have != want) b.bad(std::string(field) + " has " + std::to_string(have) + " values, expected " + std::to_string(want));
    return std::vector<float>(blob->float32s()->begin(), blob->float32s()->end());
}

TensorId reshaped(Builder& b, TensorId x, const Shape& s, const std::string& name, const std::string& suffix) {
    const TensorId y = b.new_value(name);
    ReshapeAttrs a;
    a.target = s;
    b.emit(OpKind::Reshape, a, {x}, {y}, suffix);
    return y;
}

}  // namespace

void map_lstm(Builder& b) {
    const auto* p = b.op->main_as_LSTM();
    if (!p) b.bad("has no LSTM parameters");
    if (b.num_outputs() != 1) b.unsupported("the ONNX form (" + std::to_string(b.num_outputs()) + " outputs) is not supported; only the Caffe form with one output");
    if (b.num_inputs() != 1)
        b.unsupported("takes " + std::to_string(b.num_inputs()) + " inputs; the sequence-continuation input (Caffe's cont) is not supported");
    if (p->weightIQ() || p->weightIA()) b.unsupported("int8 LSTM weights (weightIQ/weightIA) are not supported");
    const TensorState xs = b.in(0);
    const TensorInfo x = b.g.info(xs.id);
    if (x.dtype != DataType::Float32) b.bad(std::string("input is ") + to_string(x.dtype) + ", expected Float32");
    if (x.shape.rank != 4 || x.shape[2] != 1) b.bad("input " + x.shape.str() + " is not [batch, time, 1, features]");
    if (x.shape[0] != 1)
        b.unsupported("batch " + std::to_string(x.shape[0]) + ": MNN's kernel shares one cell state across the batch, so only batch 1 is an LSTM");
    const uint32_t steps = x.shape[1], features = x.shape[3];
    const uint32_t units = positive_size(b, p->outputCount());
    if (!p->weightH()) b.unsupported("the packed form (all weights and biases in weightI) is not supported");
    size_t n_in = 0, n_rec = 0;
    if (!checked_mul<size_t>(size_t(4) * units, features, &n_in) || !checked_mul<size_t>(size_t(4) * units, units, &n_rec) ||
        n_in > (size_t(1) << 26) || n_rec > (size_t(1) << 26))
        b.bad("weights of " + std::to_string(units) + " units x " + std::to_string(features) + " features are too large");
    const std::vector<float> wi = blob_floats(b, p->weightI(), "weightI", n_in);
    const std::vector<float> wh = blob_floats(b, p->weightH(), "weightH", n_rec);
    const std::vector<float> bias = blob_floats(b, p->bias(), "bias", size_t(4) * units);

    const std::string base = b.base_name();
    // MNN block g (I, F, O, G) -> IR gate operand.
    static const uint32_t kInputOperand[4] = {kInputToInputWeights, kInputToForgetWeights, kInputToOutputWeights, kInputToCellWeights};
    static const uint32_t kRecOperand[4] = {kRecurrentToInputWeights, kRecurrentToForgetWeights, kRecurrentToOutputWeights,
                                            kRecurrentToCellWeights};
    static const uint32_t kBiasOperand[4] = {kInputGateBias, kForgetGateBias, kOutputGateBias, kCellBias};
    static const char* const kGate[4] = {"input", "forget", "output", "cell"};
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    in[kLstmInput] = reshaped(b, xs.id, Shape{1, steps, features}, base + ":sequence", "/sequence");
    in[kLstmOutputStateIn] = b.new_float_constant(base + ":h0", Shape{1, units}, std::vector<float>(units, 0.0f));
    in[kLstmCellStateIn] = b.new_float_constant(base + ":c0", Shape{1, units}, std::vector<float>(units, 0.0f));
    for (uint32_t g = 0; g < 4; ++g) {
        const std::string gate = kGate[g];
        in[kInputOperand[g]] = b.new_float_constant(base + ":" + gate + "_weights", Shape{units, features},
                                                    std::vector<float>(wi.begin() + g * (n_in / 4), wi.begin() + (g + 1) * (n_in / 4)));
        in[kRecOperand[g]] = b.new_float_constant(base + ":" + gate + "_recurrent", Shape{units, units},
                                                  std::vector<float>(wh.begin() + g * (n_rec / 4), wh.begin() + (g + 1) * (n_rec / 4)));
        in[kBiasOperand[g]] = b.new_float_constant(base + ":" + gate + "_bias", Shape{units},
                                                   std::vector<float>(bias.begin() + g * units, bias.begin() + (g + 1) * units));
    }
    LstmAttrs a;
    a.activation = 4;  // tanh for the cell input and the output
    a.cifg = false;
    a.time_major = false;
    const TensorId seq = b.new_value(base + ":lstm");
    b.emit(OpKind::UnidirectionalSequenceLstm, a, in, {seq});
    b.produce(0, reshaped(b, seq, Shape{1, steps, 1, units}, base, "/output"), Layout::NCHW);
}

}  // namespace npurun::mnn

// The LSTM family: Lstm, UnidirectionalSequenceLstm, QLstm, QuantizedLstm. Operands follow LstmOperand
// (ir/ops.h). Sizes: B batches, I inputs, C cells (numUnits), O outputs (= C without projection).
#include <cmath>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

const std::initializer_list<DataType> kParamTypes = {DataType::Float32,  DataType::Float16, DataType::QAsymmU8,
                                                     DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16,
                                                     DataType::Signed32};

const char* operand_name(uint32_t i) {
    static const char* const names[kLstmOperandCount] = {
        "input", "outputStateIn", "cellStateIn",
        "inputToInputWeights", "inputToForgetWeights", "inputToCellWeights", "inputToOutputWeights",
        "recurrentToInputWeights", "recurrentToForgetWeights", "recurrentToCellWeights", "recurrentToOutputWeights",
        "cellToInputWeights", "cellToForgetWeights", "cellToOutputWeights",
        "inputGateBias", "forgetGateBias", "cellBias", "outputGateBias",
        "projectionWeights", "projectionBias",
        "inputLayerNormWeights", "forgetLayerNormWeights", "cellLayerNormWeights", "outputLayerNormWeights"};
    return i < kLstmOperandCount ? names[i] : "operand";
}

struct LstmSizes {
    uint32_t batch = 0, input = 0, cell = 0, output = 0;
};

void expect_shape(const Node& node, const Graph& g, uint32_t operand, const Shape& want) {
    const TensorInfo& t = input(node, g, operand);
    if (t.shape != want)
        bad(node, std::string(operand_name(operand)) + " has shape " + t.shape.str() + ", expected " + want.str());
    expect_valid_quantization(node, t, operand_name(operand));
}

// Checks every parameter operand the flags require (and ignores the ones they disable).
// The sizes of an LSTM step whose input is batch x input: cell and output sizes from the state inputs,
// which must be 2-D and [batch, output] / [batch, cell].
LstmSizes state_sizes(const Node& node, const Graph& g, uint32_t batch, uint32_t input_size) {
    expect_rank(node, input(node, g, kLstmOutputStateIn), "outputStateIn", 2);
    expect_rank(node, input(node, g, kLstmCellStateIn), "cellStateIn", 2);
    const LstmSizes s{batch, input_size, input(node, g, kLstmCellStateIn).shape[1],
                      input(node, g, kLstmOutputStateIn).shape[1]};
    expect_shape(node, g, kLstmOutputStateIn, Shape{s.batch, s.output});
    expect_shape(node, g, kLstmCellStateIn, Shape{s.batch, s.cell});
    return s;
}

void check_parameters(const Node& node, const Graph& g, const LstmSizes& s, bool cifg, bool peephole,
                      bool projection, bool layer_norm) {
    expect_inputs(node, kLstmOperandCount, kLstmOperandCount);
    const Shape in_w{s.cell, s.input}, rec_w{s.cell, s.output}, vec{s.cell};
    for (uint32_t op : {kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights}) expect_shape(node, g, op, in_w);
    for (uint32_t op : {kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights})
        expect_shape(node, g, op, rec_w);
    for (uint32_t op : {kForgetGateBias, kCellBias, kOutputGateBias}) expect_shape(node, g, op, vec);
    if (!cifg) {
        expect_shape(node, g, kInputToInputWeights, in_w);
        expect_shape(node, g, kRecurrentToInputWeights, rec_w);
        expect_shape(node, g, kInputGateBias, vec);
    }
    if (peephole) {
        if (!cifg) expect_shape(node, g, kCellToInputWeights, vec);
        expect_shape(node, g, kCellToForgetWeights, vec);
        expect_shape(node, g, kCellToOutputWeights, vec);
    }
    if (projection) {
        expect_shape(node, g, kProjectionWeights, Shape{s.output, s.cell});
        if (has_input(node, kProjectionBias)) expect_shape(node, g, kProjectionBias, Shape{s.output});
    } else if (s.output != s.cell) {
        bad(node, "without projection the output size " + std::to_string(s.output) + " must equal the cell count " +
                      std::to_string(s.cell));
    }
    if (layer_norm) {
        if (!cifg) expect_shape(node, g, kInputLayerNormWeights, vec);
        expect_shape(node, g, kForgetLayerNormWeights, vec);
        expect_shape(node, g, kCellLayerNormWeights, vec);
        expect_shape(node, g, kOutputLayerNormWeights, vec);
    }
}

void check_float_lstm(const Node& node, const Graph& g, const LstmAttrs& a, DataType t) {
    if (a.activation != 0 && a.activation != 1 && a.activation != 3 && a.activation != 4 && a.activation != 6)
        bad(node, "unsupported activation function code " + std::to_string(a.activation) +
                      " (0 none, 1 ReLU, 3 ReLU6, 4 tanh, 6 sigmoid)");
    if (!std::isfinite(a.clip_cell) || !std::isfinite(a.clip_proj)) bad(node, "clipping thresholds must be finite");
    for (uint32_t i = 0; i < kLstmOperandCount; ++i) {
        if (!has_input(node, i)) continue;
        const TensorInfo& p = input(node, g, i);
        if (p.dtype != t)
            bad(node, std::string(operand_name(i)) + " is " + to_string(p.dtype) + " but the input is " + to_string(t));
    }
}

}  // namespace

std::vector<TensorInfo> infer_lstm(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<LstmAttrs>(node);
    expect_inputs(node, kLstmOperandCount, kLstmOperandCount);
    expect_outputs(node, 4);
    const TensorInfo& x = input(node, graph, kLstmInput);
    expect_dtype(node, x, "input", {DataType::Float32, DataType::Float16, DataType::QSymmS16});
    expect_rank(node, x, "input", 2);
    const LstmSizes s = state_sizes(node, graph, x.shape[0], x.shape[1]);
    check_parameters(node, graph, s, a.cifg, a.peephole, a.projection, a.layer_norm);
    check_float_lstm(node, graph, a, x.dtype);
    const uint32_t gates = a.cifg ? 3 : 4;
    return {output_like(node, graph, 0, Shape{s.batch, mul_u32(node, s.cell, gates, "scratch size")}, x.dtype),
            output_like(node, graph, 1, Shape{s.batch, s.output}, x.dtype),
            output_like(node, graph, 2, Shape{s.batch, s.cell}, x.dtype),
            output_like(node, graph, 3, Shape{s.batch, s.output}, x.dtype)};
}

// Input [B, T, I] (timeMajor false) or [T, B, I]; one output (21.08-22.02 files) or three
// (outputStateOut, cellStateOut, output; 22.05+).
std::vector<TensorInfo> infer_unidirectional_sequence_lstm(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<LstmAttrs>(node);
    expect_inputs(node, kLstmOperandCount, kLstmOperandCount);
    if (node.outputs.size() != 1 && node.outputs.size() != 3)
        bad(node, "has " + std::to_string(node.outputs.size()) + " outputs, expected 1 or 3");
    const TensorInfo& x = input(node, graph, kLstmInput);
    expect_dtype(node, x, "input", {DataType::Float32, DataType::Float16});
    expect_rank(node, x, "input", 3);
    const uint32_t batch = a.time_major ? x.shape[1] : x.shape[0], steps = a.time_major ? x.shape[0] : x.shape[1];
    const LstmSizes s = state_sizes(node, graph, batch, x.shape[2]);
    check_parameters(node, graph, s, a.cifg, a.peephole, a.projection, a.layer_norm);
    check_float_lstm(node, graph, a, x.dtype);
    const Shape out = a.time_major ? Shape{steps, batch, s.output} : Shape{batch, steps, s.output};
    if (node.outputs.size() == 1) return {output_like(node, graph, 0, out, x.dtype)};
    return {output_like(node, graph, 0, Shape{s.batch, s.output}, x.dtype),
            output_like(node, graph, 1, Shape{s.batch, s.cell}, x.dtype), output_like(node, graph, 2, out, x.dtype)};
}

// QLstm: input and output state QAsymmS8, cell state QSymmS16; outputs outputStateOut (QAsymmS8),
// cellStateOut (QSymmS16), output (QAsymmS8). Parameters may be any numeric type (decoded to float).
std::vector<TensorInfo> infer_qlstm(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<QLstmAttrs>(node);
    expect_inputs(node, kLstmOperandCount, kLstmOperandCount);
    expect_outputs(node, 3);
    const TensorInfo& x = input(node, graph, kLstmInput);
    expect_dtype(node, x, "input", {DataType::QAsymmS8});
    expect_dtype(node, input(node, graph, kLstmOutputStateIn), "outputStateIn", {DataType::QAsymmS8});
    expect_dtype(node, input(node, graph, kLstmCellStateIn), "cellStateIn", {DataType::QSymmS16});
    expect_valid_quantization(node, x, "input");
    expect_rank(node, x, "input", 2);
    const LstmSizes s = state_sizes(node, graph, x.shape[0], x.shape[1]);
    check_parameters(node, graph, s, a.cifg, a.peephole, a.projection, a.layer_norm);
    for (uint32_t i = kInputToInputWeights; i < kLstmOperandCount; ++i)
        if (has_input(node, i)) expect_dtype(node, input(node, graph, i), operand_name(i), kParamTypes);
    auto positive = [&](float v, const char* what) {
        if (!(v > 0.0f) || !std::isfinite(v)) bad(node, std::string(what) + " must be a positive finite scale");
    };
    if (!a.cifg) positive(a.input_intermediate_scale, "inputIntermediateScale");
    positive(a.forget_intermediate_scale, "forgetIntermediateScale");
    positive(a.cell_intermediate_scale, "cellIntermediateScale");
    positive(a.output_intermediate_scale, "outputIntermediateScale");
    positive(a.hidden_state_scale, "hiddenStateScale");
    if (a.hidden_state_zero_point < -128 || a.hidden_state_zero_point > 127)
        bad(node, "hiddenStateZeroPoint is outside int8");
    if (a.layer_norm)  // CpuRef reads the gate biases as Signed32 with scale lnScale / 1024
        for (uint32_t op : {kInputGateBias, kForgetGateBias, kCellBias, kOutputGateBias})
            if (has_input(node, op) && (op != kInputGateBias || !a.cifg))
                expect_dtype(node, input(node, graph, op), operand_name(op), {DataType::Signed32});
    if (a.layer_norm)  // the layer-norm bias scale is derived from the LN weights' scale (CpuRef)
        for (uint32_t op : {kForgetLayerNormWeights, kCellLayerNormWeights, kOutputLayerNormWeights, kInputLayerNormWeights})
            if (has_input(node, op) && (op != kInputLayerNormWeights || !a.cifg) &&
                !(input(node, graph, op).quant.scale() > 0.0f))
                bad(node, std::string(operand_name(op)) + " needs a quantization scale with layer normalization");
    const TensorInfo& y0 = declared_output(node, graph, 0);
    const TensorInfo& y1 = declared_output(node, graph, 1);
    const TensorInfo& y2 = declared_output(node, graph, 2);
    expect_dtype(node, y0, "outputStateOut", {DataType::QAsymmS8});
    expect_dtype(node, y1, "cellStateOut", {DataType::QSymmS16});
    expect_dtype(node, y2, "output", {DataType::QAsymmS8});
    return {output_like(node, graph, 0, Shape{s.batch, s.output}, DataType::QAsymmS8),
            output_like(node, graph, 1, Shape{s.batch, s.cell}, DataType::QSymmS16),
            output_like(node, graph, 2, Shape{s.batch, s.output}, DataType::QAsymmS8)};
}

// QuantizedLstm (Android NN QUANTIZED_16BIT_LSTM): operands in file order, so node input 1 is
// previousCellStateIn (QSymmS16 [B, O]) and input 2 previousOutputIn (QAsymmU8 [B, O]) despite the LstmOperand
// names; all four gates present, no peephole/projection/layer norm. Outputs: cellStateOut, output.
std::vector<TensorInfo> infer_quantized_lstm(const Node& node, const Graph& graph) {
    expect_inputs(node, kLstmOperandCount, kLstmOperandCount);
    expect_outputs(node, 2);
    const TensorInfo& x = input(node, graph, kLstmInput);
    const TensorInfo& cell_in = input(node, graph, 1);
    const TensorInfo& out_in = input(node, graph, 2);
    expect_dtype(node, x, "input", {DataType::QAsymmU8});
    expect_dtype(node, cell_in, "previousCellStateIn", {DataType::QSymmS16});
    expect_dtype(node, out_in, "previousOutputIn", {DataType::QAsymmU8});
    expect_valid_quantization(node, x, "input");
    expect_valid_quantization(node, cell_in, "previousCellStateIn");
    expect_valid_quantization(node, out_in, "previousOutputIn");
    expect_rank(node, x, "input", 2);
    expect_rank(node, out_in, "previousOutputIn", 2);
    const uint32_t b = x.shape[0], o = out_in.shape[1];
    if (cell_in.shape != Shape{b, o} || out_in.shape[0] != b)
        bad(node, "state shapes " + cell_in.shape.str() + " and " + out_in.shape.str() + " do not match [" +
                      std::to_string(b) + ", " + std::to_string(o) + "]");
    LstmSizes s{b, x.shape[1], o, o};
    check_parameters(node, graph, s, false, false, false, false);
    for (uint32_t op : {kCellToInputWeights, kCellToForgetWeights, kCellToOutputWeights, kProjectionWeights,
                        kProjectionBias, kInputLayerNormWeights, kForgetLayerNormWeights, kCellLayerNormWeights,
                        kOutputLayerNormWeights})
        if (has_input(node, op)) bad(node, std::string(operand_name(op)) + " is not an operand of QuantizedLstm");
    for (uint32_t i = kInputToInputWeights; i <= kOutputGateBias; ++i)
        if (has_input(node, i)) expect_dtype(node, input(node, graph, i), operand_name(i), kParamTypes);
    expect_dtype(node, declared_output(node, graph, 0), "cellStateOut", {DataType::QSymmS16});
    expect_dtype(node, declared_output(node, graph, 1), "output", {DataType::QAsymmU8});
    return {output_like(node, graph, 0, Shape{b, o}, DataType::QSymmS16),
            output_like(node, graph, 1, Shape{b, o}, DataType::QAsymmU8)};
}

}  // namespace npurun::ops

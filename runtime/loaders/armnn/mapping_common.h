// Shared pieces of the per-family layer mappers (map_*.cpp): operand checks, descriptor defaults, enum and
// vector decoding, embedded constants. Internal to runtime/loaders/armnn.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "runtime/loaders/armnn/layer_mapping.h"
#include "runtime/loaders/armnn/tensor_decoding.h"

namespace npurun::armnn {

namespace fb = armnnSerializer;

namespace mapping {


[[noreturn]] void bad(const std::string& msg);

// Returns the descriptor, or a default-constructed table when absent. FlatBuffers tables cannot be
// default-constructed, so absent descriptors are handled by building a one-off buffer with no fields.
template <class T, class Build>
const T* descriptor_or_default(const T* d, Build build) {
    if (d) return d;
    // A static per-type buffer holding an empty table: every accessor then returns the schema default.
    static const std::vector<uint8_t> empty = [&] {
        flatbuffers::FlatBufferBuilder b;
        b.Finish(build(b));
        return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    }();
    return flatbuffers::GetRoot<T>(empty.data());
}

#define NPURUN_DESC(Type, expr) \
    descriptor_or_default<fb::Type>((expr), [](flatbuffers::FlatBufferBuilder& b) { return fb::Type##Builder(b).Finish(); })

void expect_inputs(const Node& n, size_t count);
void expect_outputs(const Node& n, size_t count);
void expect_io(const Node& n, size_t in, size_t out);

DataLayout layout_any(fb::DataLayout v);
DataLayout layout_2d(fb::DataLayout v);
DataLayout layout_3d(fb::DataLayout v);

template <class E>
int enum_value(E e) {
    return static_cast<int>(e);
}
template <class E>
void check_enum(E e, int max, const char* what) {
    const int v = enum_value(e);
    if (v < 0 || v > max)
        bad(std::string("unknown ") + what + " " + std::to_string(v) + " (known: 0.." + std::to_string(max) + ")");
}

std::vector<uint32_t> uints(const flatbuffers::Vector<uint32_t>* v);
std::vector<int32_t> ints(const flatbuffers::Vector<int32_t>* v);
std::vector<std::pair<uint32_t, uint32_t>> pairs(const flatbuffers::Vector<uint32_t>* v, const char* what);
std::vector<uint32_t> permutation(const flatbuffers::Vector<uint32_t>* v);

TensorId add_constant(Graph& g, const fb::ConstTensor* c, const Node& n, const char* what);

TensorId add_legacy_depthwise(Graph& g, const ConstView& v, const Node& n);

// Weights/biases of Convolution2d, DepthwiseConvolution2d, FullyConnected, TransposeConvolution2d.
// Decided per layer, not by constantTensorsAsInputs: Arm NN 21.08-22.05 wrote the flag as 1 while still
// embedding Conv2d/DepthwiseConv2d weights with a single input slot.
void attach_weights(Graph& g, const FeatureVersions& fv, Node& n, const fb::ConstTensor* weights,
                    const fb::ConstTensor* biases, bool bias_enabled, bool depthwise);

ConcatAttrs origins(const fb::OriginsDescriptor* d, size_t expected_views, const char* role);

ActivationFunction activation(fb::ActivationFunction f);

// The schema's BinaryOperation (Add 0, Div 1, Maximum 2, Minimum 3, Mul 4, Sub 5) in the IR's order.
BinaryOp elementwise_binary_op(fb::BinaryOperation o);

LstmAttrs lstm_attrs(uint32_t activation_func, float clip_cell, float clip_proj, bool cifg, bool peephole,
                     bool projection, bool layer_norm);

struct LstmParamSlot {
    LstmOperand operand;
    const fb::ConstTensor* tensor;
    const char* name;
    bool required;
};

// Places the runtime inputs (slots 0..2) and the parameter constants at their LstmOperand positions.
void assemble_lstm(Graph& g, Node& n, const std::vector<LstmParamSlot>& params);

template <class Params>
std::vector<LstmParamSlot> lstm_params(const Params* p, bool cifg, bool peephole, bool projection, bool layer_norm) {
    if (!p) bad("LSTM parameters (inputParams) are missing");
    return {
        {kInputToForgetWeights, p->inputToForgetWeights(), "inputToForgetWeights", true},
        {kInputToCellWeights, p->inputToCellWeights(), "inputToCellWeights", true},
        {kInputToOutputWeights, p->inputToOutputWeights(), "inputToOutputWeights", true},
        {kRecurrentToForgetWeights, p->recurrentToForgetWeights(), "recurrentToForgetWeights", true},
        {kRecurrentToCellWeights, p->recurrentToCellWeights(), "recurrentToCellWeights", true},
        {kRecurrentToOutputWeights, p->recurrentToOutputWeights(), "recurrentToOutputWeights", true},
        {kForgetGateBias, p->forgetGateBias(), "forgetGateBias", true},
        {kCellBias, p->cellBias(), "cellBias", true},
        {kOutputGateBias, p->outputGateBias(), "outputGateBias", true},
        {kInputToInputWeights, p->inputToInputWeights(), "inputToInputWeights", !cifg},
        {kRecurrentToInputWeights, p->recurrentToInputWeights(), "recurrentToInputWeights", !cifg},
        {kInputGateBias, p->inputGateBias(), "inputGateBias", !cifg},
        {kCellToInputWeights, p->cellToInputWeights(), "cellToInputWeights", !cifg && peephole},
        {kCellToForgetWeights, p->cellToForgetWeights(), "cellToForgetWeights", peephole},
        {kCellToOutputWeights, p->cellToOutputWeights(), "cellToOutputWeights", peephole},
        {kProjectionWeights, p->projectionWeights(), "projectionWeights", projection},
        {kProjectionBias, p->projectionBias(), "projectionBias", false},
        {kInputLayerNormWeights, p->inputLayerNormWeights(), "inputLayerNormWeights", !cifg && layer_norm},
        {kForgetLayerNormWeights, p->forgetLayerNormWeights(), "forgetLayerNormWeights", layer_norm},
        {kCellLayerNormWeights, p->cellLayerNormWeights(), "cellLayerNormWeights", layer_norm},
        {kOutputLayerNormWeights, p->outputLayerNormWeights(), "outputLayerNormWeights", layer_norm},
    };
}

void binary(Node& n, BinaryOp op);
void comparison(Node& n, ComparisonOp op);
void unary(Node& n, UnaryOp op);
void plain(Node& n, OpKind op, size_t in, size_t out);

template <class Desc>
Convolution2dAttrs conv2d_attrs(const Desc* d) {
    Convolution2dAttrs a;
    a.pad_left = d->padLeft();
    a.pad_right = d->padRight();
    a.pad_top = d->padTop();
    a.pad_bottom = d->padBottom();
    a.stride_x = d->strideX();
    a.stride_y = d->strideY();
    a.dilation_x = d->dilationX();
    a.dilation_y = d->dilationY();
    a.bias_enabled = d->biasEnabled();
    a.layout = layout_2d(d->dataLayout());
    return a;
}

ResizeAttrs resize_attrs(uint32_t h, uint32_t w, ResizeMethod m, fb::DataLayout layout, bool align, bool half);

ReduceAttrs reduce_attrs(ReduceAttrs::Op op, const flatbuffers::Vector<uint32_t>* axes, bool keep);

uint32_t input_rank(const Graph& g, const Node& n, size_t k);

// Axis checks that need only the declared input ranks; everything shape-dependent beyond that is left to
// shape inference, which checks declared against inferred shapes.
void check_axis(int64_t axis, uint32_t rank, const char* what);
void check_axes(const std::vector<uint32_t>& axes, uint32_t rank);
void check_count(size_t count, uint32_t rank, const char* what);

// One mapper per layer family (map_<family>.cpp, mirroring runtime/ops/infer_*.cpp): true when the layer
// belongs to the family and `n` was mapped, false when it is not one of the family's layer types.
bool map_io_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_elementwise_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_reduce_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_conv_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_normalization_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_movement_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_shape_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_control_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_lstm_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);
bool map_pooling_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n);

}  // namespace mapping
}  // namespace npurun::armnn

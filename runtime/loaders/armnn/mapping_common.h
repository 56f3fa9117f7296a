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
template <class T>
const T* descriptor_or_default(const T* d) {
    if (d) return d;
    // A static per-type buffer holding an empty table: every accessor then returns the schema default.
    static const std::vector<uint8_t> empty = [] {
        flatbuffers::FlatBufferBuilder b;
        b.Finish(typename T::Builder(b).Finish());
        return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    }();
    return flatbuffers::GetRoot<T>(empty.data());
}

// The typed descriptor of a layer table (`descriptor_of(pad_layer)` is a PadDescriptor), defaults when absent.
template <class LayerT>
auto descriptor_of(const LayerT* l) {
    return descriptor_or_default(l->descriptor());
}

// What every per-layer mapper works on: the graph (constants, input ranks), the file's feature versions and
// the node being mapped (see map_layer for what it holds on entry).
struct LayerContext {
    Graph& g;
    const FeatureVersions& fv;
    Node& n;
};

// One row of a family's table: a union type and the function that maps a layer of that type. map_layer
// looks the type up in the rows of all families, so a layer type is mapped in exactly one place.
struct LayerMapper {
    fb::Layer type;
    void (*map)(LayerContext& c, const void* table);
};

// The row for LayerT mapped by F(c, layer): the union type comes from the schema's LayerTraits, and the
// untyped table is cast back here, once, instead of in every mapper.
template <class LayerT, auto F>
LayerMapper layer_row() {
    return {fb::LayerTraits<LayerT>::enum_value, [](LayerContext& c, const void* t) { F(c, static_cast<const LayerT*>(t)); }};
}

// The row for a layer whose mapping needs only its descriptor: F(c, descriptor_of(layer)).
template <class LayerT, auto F>
LayerMapper descriptor_row() {
    return {fb::LayerTraits<LayerT>::enum_value,
            [](LayerContext& c, const void* t) { F(c, descriptor_of(static_cast<const LayerT*>(t))); }};
}

// Sets the node's op kind and attributes together, the last step of most mappers.
template <class Attrs>
void set_op(Node& n, OpKind op, Attrs&& attrs) {
    n.op = op;
    n.attrs = std::forward<Attrs>(attrs);
}

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

// The schema's BinaryOperation (Add 0, Div 1, Maximum 2, Minimum 3, Mul 4, Sub 5, SqDiff 6, Power 7) in the
// IR's order.
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

// The padding and stride fields that convolutions and poolings name alike in the schema and the IR; the
// 3D forms add a depth axis (front/back padding, z stride).
template <class Desc, class Attrs>
void copy_pads_strides(const Desc* d, Attrs& a) {
    a.pad_left = d->padLeft();
    a.pad_right = d->padRight();
    a.pad_top = d->padTop();
    a.pad_bottom = d->padBottom();
    a.stride_x = d->strideX();
    a.stride_y = d->strideY();
}
template <class Desc, class Attrs>
void copy_depth_pads_stride(const Desc* d, Attrs& a) {
    a.pad_front = d->padFront();
    a.pad_back = d->padBack();
    a.stride_z = d->strideZ();
}

// Convolution2d and DepthwiseConvolution2d: same descriptor fields, distinct IR attribute types.
template <class Attrs, class Desc>
Attrs conv2d_attrs(const Desc* d) {
    Attrs a;
    copy_pads_strides(d, a);
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

// Rows for a layer whose whole mapping is a fixed op kind (and, for the elementwise forms, a fixed
// operation) with fixed operand counts and no descriptor.
template <fb::Layer T, OpKind Op, size_t In, size_t Out>
LayerMapper plain_row() {
    return {T, [](LayerContext& c, const void*) { plain(c.n, Op, In, Out); }};
}
template <fb::Layer T, BinaryOp Op>
LayerMapper binary_row() {
    return {T, [](LayerContext& c, const void*) { binary(c.n, Op); }};
}
template <fb::Layer T, ComparisonOp Op>
LayerMapper comparison_row() {
    return {T, [](LayerContext& c, const void*) { comparison(c.n, Op); }};
}
template <fb::Layer T, UnaryOp Op>
LayerMapper unary_row() {
    return {T, [](LayerContext& c, const void*) { unary(c.n, Op); }};
}

// One table per layer family (map_<family>.cpp, mirroring runtime/ops/infer_*.cpp); map_layer joins them.
std::vector<LayerMapper> io_layers();
std::vector<LayerMapper> elementwise_layers();
std::vector<LayerMapper> reduce_layers();
std::vector<LayerMapper> conv_layers();
std::vector<LayerMapper> normalization_layers();
std::vector<LayerMapper> movement_layers();
std::vector<LayerMapper> shape_layers();
std::vector<LayerMapper> control_layers();
std::vector<LayerMapper> lstm_layers();
std::vector<LayerMapper> pooling_layers();
std::vector<LayerMapper> indexing_layers();

}  // namespace mapping
}  // namespace npurun::armnn

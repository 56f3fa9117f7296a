// Per-layer translation. Unlike Arm NN's deserializer, which silently falls back for unknown enum values
// (an unknown DataLayout becomes NCHW, an unknown Comparison becomes NotEqual, SoftReLu becomes Sigmoid),
// every enum here is range-checked and an unknown value is an error: a misread model computing the wrong
// thing is worse than a model that refuses to load.
//
// Schema defaults are used exactly as FlatBuffers delivers them when a field is absent (e.g. Softmax beta
// 0, convolution stride 0, dataLayout NCHW where the schema says so, NHWC (0) where it gives no default).
// A missing descriptor table means "all fields at their defaults".
#include "runtime/loaders/armnn/layer_mapping.h"

#include <string>
#include <vector>

#include "runtime/graph/error.h"
#include "runtime/loaders/armnn/tensor_decoding.h"

namespace npurun::armnn {

namespace fb = armnnSerializer;

namespace {

[[noreturn]] void bad(const std::string& msg) { fail(ErrorKind::BadModel, msg); }

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

void expect_inputs(const Node& n, size_t count) {
    if (n.inputs.size() != count)
        bad("has " + std::to_string(n.inputs.size()) + " input slots, expected " + std::to_string(count));
}
void expect_outputs(const Node& n, size_t count) {
    if (n.outputs.size() != count)
        bad("has " + std::to_string(n.outputs.size()) + " output slots, expected " + std::to_string(count));
}
void expect_io(const Node& n, size_t in, size_t out) {
    expect_inputs(n, in);
    expect_outputs(n, out);
}

DataLayout layout_any(fb::DataLayout v) {
    switch (v) {
        case fb::DataLayout::NHWC: return DataLayout::NHWC;
        case fb::DataLayout::NCHW: return DataLayout::NCHW;
        case fb::DataLayout::NDHWC: return DataLayout::NDHWC;
        case fb::DataLayout::NCDHW: return DataLayout::NCDHW;
    }
    bad("unknown data layout " + std::to_string(static_cast<int>(v)) + " (known: 0..3)");
}
DataLayout layout_2d(fb::DataLayout v) {
    const DataLayout l = layout_any(v);
    if (l != DataLayout::NHWC && l != DataLayout::NCHW)
        bad(std::string("data layout ") + to_string(l) + " is not valid here (NHWC or NCHW expected)");
    return l;
}
DataLayout layout_3d(fb::DataLayout v) {
    const DataLayout l = layout_any(v);
    if (l != DataLayout::NDHWC && l != DataLayout::NCDHW)
        bad(std::string("data layout ") + to_string(l) + " is not valid here (NDHWC or NCDHW expected)");
    return l;
}

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

std::vector<uint32_t> uints(const flatbuffers::Vector<uint32_t>* v) {
    return v ? std::vector<uint32_t>(v->begin(), v->end()) : std::vector<uint32_t>{};
}
std::vector<int32_t> ints(const flatbuffers::Vector<int32_t>* v) {
    return v ? std::vector<int32_t>(v->begin(), v->end()) : std::vector<int32_t>{};
}
std::vector<std::pair<uint32_t, uint32_t>> pairs(const flatbuffers::Vector<uint32_t>* v, const char* what) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    if (!v) return out;
    if (v->size() % 2 != 0) bad(std::string(what) + " has an odd number of entries (" + std::to_string(v->size()) + ")");
    for (uint32_t i = 0; i < v->size(); i += 2) out.emplace_back(v->Get(i), v->Get(i + 1));
    return out;
}
std::vector<uint32_t> permutation(const flatbuffers::Vector<uint32_t>* v) {
    std::vector<uint32_t> m = uints(v);
    if (m.empty()) bad("dimension mapping is missing");
    if (m.size() > kMaxRank) bad("dimension mapping has " + std::to_string(m.size()) + " entries");
    std::vector<bool> seen(m.size(), false);
    for (uint32_t x : m) {
        if (x >= m.size() || seen[x]) bad("dimension mapping is not a permutation of 0.." + std::to_string(m.size() - 1));
        seen[x] = true;
    }
    return m;
}

TensorId add_constant(Graph& g, const fb::ConstTensor* c, const Node& n, const char* what) {
    if (!c) bad(std::string(what) + " are missing");
    ConstView v;
    try {
        v = decode_const_tensor(c);
    } catch (const Error& e) {
        bad(std::string(what) + ": " + e.what());
    }
    Tensor t;
    t.name = n.name + ":" + what;
    t.info = v.info;
    t.data = place_constant(g, v);
    return g.add_tensor(std::move(t));
}

TensorId add_legacy_depthwise(Graph& g, const ConstView& v, const Node& n) {
    try {
        return g.add_tensor(convert_legacy_depthwise_weights(g, v, n.name + ":weights"));
    } catch (const Error& e) {
        bad(std::string("weights: ") + e.what());
    }
}

// Weights/biases of Convolution2d, DepthwiseConvolution2d, FullyConnected, TransposeConvolution2d.
// Decided per layer, not by constantTensorsAsInputs: Arm NN 21.08-22.05 wrote the flag as 1 while still
// embedding Conv2d/DepthwiseConv2d weights with a single input slot.
void attach_weights(Graph& g, const FeatureVersions& fv, Node& n, const fb::ConstTensor* weights,
                    const fb::ConstTensor* biases, bool bias_enabled, bool depthwise) {
    const bool legacy_depthwise = depthwise && fv.weights_layout_scheme == 0;
    if (weights && n.inputs.size() == 1) {
        if (legacy_depthwise) {
            ConstView v;
            try {
                v = decode_const_tensor(weights, /*check_quantization=*/false);
            } catch (const Error& e) {
                bad(std::string("weights: ") + e.what());
            }
            n.inputs.push_back(add_legacy_depthwise(g, v, n));
        } else {
            n.inputs.push_back(add_constant(g, weights, n, "weights"));
        }
        if (bias_enabled) n.inputs.push_back(add_constant(g, biases, n, "biases"));
        return;
    }
    if (n.inputs.size() == 1) bad("has no weights (neither embedded nor on input slot 1)");
    const size_t expected = bias_enabled ? 3 : 2;
    if (n.inputs.size() != expected)
        bad("has " + std::to_string(n.inputs.size()) + " input slots, expected " + std::to_string(expected) +
            (bias_enabled ? " (input, weights, bias)" : " (input, weights; bias disabled)"));
    if (legacy_depthwise) {
        const Tensor w = g.tensors.at(n.inputs[1]);
        if (!w.data)
            bad("legacy depthwise weights [M, I, H, W] (weightsLayoutScheme 0) on input slot 1 must come from a "
                "Constant layer");
        ConstView v;
        v.info = w.info;
        v.bytes = static_cast<const uint8_t*>(w.data);
        v.num_bytes = w.info.num_bytes();
        n.inputs[1] = add_legacy_depthwise(g, v, n);
    }
}

ConcatAttrs origins(const fb::OriginsDescriptor* d, size_t expected_views, const char* role) {
    d = NPURUN_DESC(OriginsDescriptor, d);
    ConcatAttrs a;
    a.axis = d->concatAxis();
    const uint32_t views = d->numViews();
    const uint32_t dims = d->numDimensions();
    if (views != expected_views)
        bad("numViews is " + std::to_string(views) + " but the layer has " + std::to_string(expected_views) + " " + role);
    if (dims == 0 || dims > kMaxRank) bad("numDimensions " + std::to_string(dims) + " is out of range (1.." + std::to_string(kMaxRank) + ")");
    const auto* o = d->viewOrigins();
    if (!o || o->size() != views)
        bad("viewOrigins has " + std::to_string(o ? o->size() : 0) + " entries for " + std::to_string(views) + " views");
    for (uint32_t i = 0; i < views; ++i) {
        const auto* v = o->Get(i)->data();
        if (!v || v->size() != dims)
            bad("view " + std::to_string(i) + " origin has " + std::to_string(v ? v->size() : 0) +
                " coordinates, expected " + std::to_string(dims));
        a.view_origins.push_back(uints(v));
    }
    if (a.axis >= dims) bad("concatAxis " + std::to_string(a.axis) + " is out of range for " + std::to_string(dims) + " dimensions");
    return a;
}

ActivationFunction activation(fb::ActivationFunction f) {
    check_enum(f, 12, "activation function");
    // Same numbering as the schema, SoftReLu (5) included: Arm NN's reader turns 5 into Sigmoid by mistake.
    return static_cast<ActivationFunction>(enum_value(f));
}

// The schema's BinaryOperation (Add 0, Div 1, Maximum 2, Minimum 3, Mul 4, Sub 5) in the IR's order.
BinaryOp elementwise_binary_op(fb::BinaryOperation o) {
    switch (o) {
        case fb::BinaryOperation::Add: return BinaryOp::Add;
        case fb::BinaryOperation::Div: return BinaryOp::Div;
        case fb::BinaryOperation::Maximum: return BinaryOp::Maximum;
        case fb::BinaryOperation::Minimum: return BinaryOp::Minimum;
        case fb::BinaryOperation::Mul: return BinaryOp::Mul;
        case fb::BinaryOperation::Sub: return BinaryOp::Sub;
    }
    const int v = static_cast<int>(o);
    if (v == 6 || v == 7)
        bad("binary operation " + std::to_string(v) + " (SqDiff or Power, Arm NN 23.08+) is not supported by this reader");
    bad("unknown binary operation " + std::to_string(v) + " (known: 0..5)");
}

LstmAttrs lstm_attrs(uint32_t activation_func, float clip_cell, float clip_proj, bool cifg, bool peephole,
                     bool projection, bool layer_norm) {
    LstmAttrs a;
    a.activation = activation_func;
    a.clip_cell = clip_cell;
    a.clip_proj = clip_proj;
    a.cifg = cifg;
    a.peephole = peephole;
    a.projection = projection;
    a.layer_norm = layer_norm;
    return a;
}

struct LstmParamSlot {
    LstmOperand operand;
    const fb::ConstTensor* tensor;
    const char* name;
    bool required;
};

// Places the runtime inputs (slots 0..2) and the parameter constants at their LstmOperand positions.
void assemble_lstm(Graph& g, Node& n, const std::vector<LstmParamSlot>& params) {
    expect_inputs(n, 3);
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    in[kLstmInput] = n.inputs[0];
    in[kLstmOutputStateIn] = n.inputs[1];
    in[kLstmCellStateIn] = n.inputs[2];
    for (const auto& p : params) {
        if (!p.tensor) {
            if (p.required) bad(std::string(p.name) + " are missing");
            continue;
        }
        in[p.operand] = add_constant(g, p.tensor, n, p.name);
    }
    n.inputs = std::move(in);
}

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

void binary(Node& n, BinaryOp op) {
    expect_io(n, 2, 1);
    n.op = OpKind::ElementwiseBinary;
    n.attrs = ElementwiseBinaryAttrs{op};
}
void comparison(Node& n, ComparisonOp op) {
    expect_io(n, 2, 1);
    n.op = OpKind::Comparison;
    n.attrs = ComparisonAttrs{op};
}
void unary(Node& n, UnaryOp op) {
    expect_io(n, 1, 1);
    n.op = OpKind::ElementwiseUnary;
    n.attrs = ElementwiseUnaryAttrs{op};
}
void plain(Node& n, OpKind op, size_t in, size_t out) {
    expect_io(n, in, out);
    n.op = op;
    n.attrs = std::monostate{};
}

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

ResizeAttrs resize_attrs(uint32_t h, uint32_t w, ResizeMethod m, fb::DataLayout layout, bool align, bool half) {
    ResizeAttrs a;
    a.target_height = h;
    a.target_width = w;
    a.method = m;
    a.layout = layout_2d(layout);
    a.align_corners = align;
    a.half_pixel_centers = half;
    return a;
}

ReduceAttrs reduce_attrs(ReduceAttrs::Op op, const flatbuffers::Vector<uint32_t>* axes, bool keep) {
    ReduceAttrs a;
    a.op = op;
    a.axes = uints(axes);
    a.keep_dims = keep;
    return a;
}

uint32_t input_rank(const Graph& g, const Node& n, size_t k) { return g.info(n.inputs.at(k)).shape.rank; }

// Axis checks that need only the declared input ranks; everything shape-dependent beyond that is left to
// shape inference, which checks declared against inferred shapes.
void check_axis(int64_t axis, uint32_t rank, const char* what) {
    if (axis < -int64_t(rank) || axis >= int64_t(rank))
        bad(std::string(what) + " " + std::to_string(axis) + " is out of range for a rank-" + std::to_string(rank) + " input");
}
void check_axes(const std::vector<uint32_t>& axes, uint32_t rank) {
    for (uint32_t a : axes)
        if (a >= rank) bad("axis " + std::to_string(a) + " is out of range for a rank-" + std::to_string(rank) + " input");
}
void check_count(size_t count, uint32_t rank, const char* what) {
    if (count != rank)
        bad(std::string(what) + " has " + std::to_string(count) + " entries for a rank-" + std::to_string(rank) + " input");
}

}  // namespace

void map_layer(Graph& g, const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::InputLayer: {
            expect_io(n, 0, 1);
            n.op = OpKind::Input;
            n.attrs = BindingAttrs{static_cast<const fb::InputLayer*>(t)->base()->layerBindingId()};
            return;
        }
        case L::OutputLayer: {
            expect_io(n, 1, 0);
            n.op = OpKind::Output;
            n.attrs = BindingAttrs{static_cast<const fb::OutputLayer*>(t)->base()->layerBindingId()};
            return;
        }
        case L::ConstantLayer:
            // The output tensor already carries the data (attached when the output slots were read).
            plain(n, OpKind::Constant, 0, 1);
            return;

        case L::AdditionLayer: binary(n, BinaryOp::Add); return;
        case L::SubtractionLayer: binary(n, BinaryOp::Sub); return;
        case L::MultiplicationLayer: binary(n, BinaryOp::Mul); return;
        case L::DivisionLayer: binary(n, BinaryOp::Div); return;
        case L::MaximumLayer: binary(n, BinaryOp::Maximum); return;
        case L::MinimumLayer: binary(n, BinaryOp::Minimum); return;
        case L::ElementwiseBinaryLayer: {
            // Arm NN 23.05+ writes every Addition .. Minimum as this layer. It becomes the very node the old
            // layers give (same op kind and attribute), so everything downstream (NEON, NPU placement and
            // lowering, pad folding, fusion) treats both forms alike and outputs match byte for byte.
            const auto* d =
                NPURUN_DESC(ElementwiseBinaryDescriptor, static_cast<const fb::ElementwiseBinaryLayer*>(t)->descriptor());
            binary(n, elementwise_binary_op(d->operation()));
            return;
        }
        case L::EqualLayer: comparison(n, ComparisonOp::Equal); return;
        case L::GreaterLayer: comparison(n, ComparisonOp::Greater); return;
        case L::ComparisonLayer: {
            const auto* d = NPURUN_DESC(ComparisonDescriptor, static_cast<const fb::ComparisonLayer*>(t)->descriptor());
            check_enum(d->operation(), 5, "comparison operation");
            comparison(n, static_cast<ComparisonOp>(enum_value(d->operation())));
            return;
        }
        case L::AbsLayer: unary(n, UnaryOp::Abs); return;
        case L::RsqrtLayer: unary(n, UnaryOp::Rsqrt); return;
        case L::ElementwiseUnaryLayer: {
            const auto* d = NPURUN_DESC(ElementwiseUnaryDescriptor, static_cast<const fb::ElementwiseUnaryLayer*>(t)->descriptor());
            check_enum(d->operation(), 8, "unary operation");
            unary(n, static_cast<UnaryOp>(enum_value(d->operation())));
            return;
        }
        case L::LogicalBinaryLayer: {
            const auto* d = NPURUN_DESC(LogicalBinaryDescriptor, static_cast<const fb::LogicalBinaryLayer*>(t)->descriptor());
            check_enum(d->operation(), 1, "logical binary operation");
            expect_io(n, 2, 1);
            n.op = OpKind::LogicalBinary;
            n.attrs = LogicalBinaryAttrs{static_cast<LogicalBinaryOp>(enum_value(d->operation()))};
            return;
        }

        case L::ActivationLayer: {
            const auto* d = NPURUN_DESC(ActivationDescriptor, static_cast<const fb::ActivationLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Activation;
            n.attrs = ActivationAttrs{activation(d->activationFunction()), d->a(), d->b()};
            return;
        }
        case L::ArgMinMaxLayer: {
            const auto* d = NPURUN_DESC(ArgMinMaxDescriptor, static_cast<const fb::ArgMinMaxLayer*>(t)->descriptor());
            check_enum(d->argMinMaxFunction(), 1, "ArgMinMax function");
            expect_io(n, 1, 1);
            n.op = OpKind::ArgMinMax;
            n.attrs = ArgMinMaxAttrs{d->argMinMaxFunction() == fb::ArgMinMaxFunction::Max, d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return;
        }
        case L::BatchMatMulLayer: {
            const auto* d = NPURUN_DESC(BatchMatMulDescriptor, static_cast<const fb::BatchMatMulLayer*>(t)->descriptor());
            expect_io(n, 2, 1);
            BatchMatMulAttrs a;
            a.transpose_x = d->transposeX();
            a.transpose_y = d->transposeY();
            a.adjoint_x = d->adjointX();
            a.adjoint_y = d->adjointY();
            a.layout_x = layout_any(d->dataLayoutX());
            a.layout_y = layout_any(d->dataLayoutY());
            n.op = OpKind::BatchMatMul;
            n.attrs = a;
            return;
        }
        case L::BatchNormalizationLayer: {
            const auto* l = static_cast<const fb::BatchNormalizationLayer*>(t);
            const auto* d = NPURUN_DESC(BatchNormalizationDescriptor, l->descriptor());
            expect_io(n, 1, 1);
            BatchNormalizationAttrs a;
            a.eps = d->eps();
            a.layout = layout_2d(d->dataLayout());
            n.inputs.push_back(add_constant(g, l->mean(), n, "mean"));
            n.inputs.push_back(add_constant(g, l->variance(), n, "variance"));
            n.inputs.push_back(add_constant(g, l->beta(), n, "beta"));
            n.inputs.push_back(add_constant(g, l->gamma(), n, "gamma"));
            n.op = OpKind::BatchNormalization;
            n.attrs = a;
            return;
        }
        case L::BatchToSpaceNdLayer: {
            const auto* d = NPURUN_DESC(BatchToSpaceNdDescriptor, static_cast<const fb::BatchToSpaceNdLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            BatchToSpaceNdAttrs a;
            a.block_shape = uints(d->blockShape());
            a.crops = pairs(d->crops(), "crops");
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::BatchToSpaceNd;
            n.attrs = a;
            return;
        }
        case L::SpaceToBatchNdLayer: {
            const auto* d = NPURUN_DESC(SpaceToBatchNdDescriptor, static_cast<const fb::SpaceToBatchNdLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            SpaceToBatchNdAttrs a;
            a.block_shape = uints(d->blockShape());
            a.pads = pairs(d->padList(), "padList");
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::SpaceToBatchNd;
            n.attrs = a;
            return;
        }
        case L::CastLayer: plain(n, OpKind::Cast, 1, 1); return;
        case L::ChannelShuffleLayer: {
            const auto* d = NPURUN_DESC(ChannelShuffleDescriptor, static_cast<const fb::ChannelShuffleLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::ChannelShuffle;
            n.attrs = ChannelShuffleAttrs{d->axis(), d->numGroups()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return;
        }
        case L::ConcatLayer:
        case L::MergerLayer: {
            // Merger is Concat's pre-19.08 name; both carry an OriginsDescriptor.
            const fb::OriginsDescriptor* od = layer->layer_type() == L::ConcatLayer
                                                  ? static_cast<const fb::ConcatLayer*>(t)->descriptor()
                                                  : static_cast<const fb::MergerLayer*>(t)->descriptor();
            expect_outputs(n, 1);
            if (n.inputs.empty()) bad("has no inputs");
            n.attrs = origins(od, n.inputs.size(), "inputs");
            for (size_t k = 0; k < n.inputs.size(); ++k)
                check_count(n.attr<ConcatAttrs>().view_origins[k].size(), input_rank(g, n, k), "view origin");
            n.op = OpKind::Concat;
            return;
        }
        case L::Convolution2dLayer: {
            const auto* l = static_cast<const fb::Convolution2dLayer*>(t);
            const auto* d = NPURUN_DESC(Convolution2dDescriptor, l->descriptor());
            expect_outputs(n, 1);
            Convolution2dAttrs a = conv2d_attrs(d);
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, false);
            n.op = OpKind::Convolution2d;
            n.attrs = a;
            return;
        }
        case L::DepthwiseConvolution2dLayer: {
            const auto* l = static_cast<const fb::DepthwiseConvolution2dLayer*>(t);
            const auto* d = NPURUN_DESC(DepthwiseConvolution2dDescriptor, l->descriptor());
            expect_outputs(n, 1);
            const Convolution2dAttrs c = conv2d_attrs(d);
            DepthwiseConvolution2dAttrs a;
            a.pad_left = c.pad_left;
            a.pad_right = c.pad_right;
            a.pad_top = c.pad_top;
            a.pad_bottom = c.pad_bottom;
            a.stride_x = c.stride_x;
            a.stride_y = c.stride_y;
            a.dilation_x = c.dilation_x;
            a.dilation_y = c.dilation_y;
            a.bias_enabled = c.bias_enabled;
            a.layout = c.layout;
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, true);
            n.op = OpKind::DepthwiseConvolution2d;
            n.attrs = a;
            return;
        }
        case L::Convolution3dLayer: {
            const auto* d = NPURUN_DESC(Convolution3dDescriptor, static_cast<const fb::Convolution3dLayer*>(t)->descriptor());
            expect_outputs(n, 1);
            Convolution3dAttrs a;
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.pad_front = d->padFront();
            a.pad_back = d->padBack();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.stride_z = d->strideZ();
            a.dilation_x = d->dilationX();
            a.dilation_y = d->dilationY();
            a.dilation_z = d->dilationZ();
            a.bias_enabled = d->biasEnabled();
            a.layout = layout_3d(d->dataLayout());
            // Convolution3d has always taken its weights and bias on input slots.
            expect_inputs(n, a.bias_enabled ? 3 : 2);
            n.op = OpKind::Convolution3d;
            n.attrs = a;
            return;
        }
        case L::FullyConnectedLayer: {
            const auto* l = static_cast<const fb::FullyConnectedLayer*>(t);
            const auto* d = NPURUN_DESC(FullyConnectedDescriptor, l->descriptor());
            expect_outputs(n, 1);
            FullyConnectedAttrs a;
            a.bias_enabled = d->biasEnabled();
            a.transpose_weights = d->transposeWeightsMatrix();
            a.constant_weights = d->constantWeights();
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, false);
            n.op = OpKind::FullyConnected;
            n.attrs = a;
            return;
        }
        case L::TransposeConvolution2dLayer: {
            const auto* l = static_cast<const fb::TransposeConvolution2dLayer*>(t);
            const auto* d = NPURUN_DESC(TransposeConvolution2dDescriptor, l->descriptor());
            expect_outputs(n, 1);
            TransposeConvolution2dAttrs a;
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.bias_enabled = d->biasEnabled();
            a.layout = layout_2d(d->dataLayout());
            attach_weights(g, fv, n, l->weights(), l->biases(), a.bias_enabled, false);
            n.op = OpKind::TransposeConvolution2d;
            n.attrs = a;
            return;
        }
        case L::DepthToSpaceLayer: {
            const auto* d = NPURUN_DESC(DepthToSpaceDescriptor, static_cast<const fb::DepthToSpaceLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::DepthToSpace;
            n.attrs = DepthToSpaceAttrs{d->blockSize(), layout_2d(d->dataLayout())};
            return;
        }
        case L::SpaceToDepthLayer: {
            const auto* d = NPURUN_DESC(SpaceToDepthDescriptor, static_cast<const fb::SpaceToDepthLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::SpaceToDepth;
            n.attrs = DepthToSpaceAttrs{d->blockSize(), layout_2d(d->dataLayout())};
            return;
        }
        case L::DequantizeLayer: plain(n, OpKind::Dequantize, 1, 1); return;
        case L::QuantizeLayer: plain(n, OpKind::Quantize, 1, 1); return;
        case L::FloorLayer: plain(n, OpKind::Floor, 1, 1); return;
        case L::GatherNdLayer: plain(n, OpKind::GatherNd, 2, 1); return;
        case L::MergeLayer: plain(n, OpKind::Merge, 2, 1); return;
        case L::SwitchLayer: plain(n, OpKind::Switch, 2, 2); return;
        case L::PreluLayer: plain(n, OpKind::Prelu, 2, 1); return;
        case L::RankLayer: plain(n, OpKind::Rank, 1, 1); return;
        case L::ShapeLayer: plain(n, OpKind::Shape, 1, 1); return;
        case L::DetectionPostProcessLayer: {
            const auto* l = static_cast<const fb::DetectionPostProcessLayer*>(t);
            const auto* d = NPURUN_DESC(DetectionPostProcessDescriptor, l->descriptor());
            expect_io(n, 2, 4);
            DetectionPostProcessAttrs a;
            a.max_detections = d->maxDetections();
            a.max_classes_per_detection = d->maxClassesPerDetection();
            a.detections_per_class = d->detectionsPerClass();
            a.nms_score_threshold = d->nmsScoreThreshold();
            a.nms_iou_threshold = d->nmsIouThreshold();
            a.num_classes = d->numClasses();
            a.use_regular_nms = d->useRegularNms();
            a.scale_x = d->scaleX();
            a.scale_y = d->scaleY();
            a.scale_w = d->scaleW();
            a.scale_h = d->scaleH();
            n.inputs.push_back(add_constant(g, l->anchors(), n, "anchors"));
            n.op = OpKind::DetectionPostProcess;
            n.attrs = a;
            return;
        }
        case L::FillLayer: {
            const auto* d = NPURUN_DESC(FillDescriptor, static_cast<const fb::FillLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Fill;
            n.attrs = FillAttrs{d->value()};
            return;
        }
        case L::GatherLayer: {
            // 19.x files have no Gather descriptor: axis 0, the only axis Gather had then.
            const auto* d = NPURUN_DESC(GatherDescriptor, static_cast<const fb::GatherLayer*>(t)->descriptor());
            expect_io(n, 2, 1);
            n.op = OpKind::Gather;
            n.attrs = GatherAttrs{d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return;
        }
        case L::InstanceNormalizationLayer: {
            const auto* d = NPURUN_DESC(InstanceNormalizationDescriptor, static_cast<const fb::InstanceNormalizationLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::InstanceNormalization;
            n.attrs = InstanceNormalizationAttrs{d->gamma(), d->beta(), d->eps(), layout_2d(d->dataLayout())};
            return;
        }
        case L::L2NormalizationLayer: {
            const auto* d = NPURUN_DESC(L2NormalizationDescriptor, static_cast<const fb::L2NormalizationLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::L2Normalization;
            n.attrs = L2NormalizationAttrs{layout_2d(d->dataLayout()), d->eps()};
            return;
        }
        case L::LogSoftmaxLayer: {
            const auto* d = NPURUN_DESC(LogSoftmaxDescriptor, static_cast<const fb::LogSoftmaxLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::LogSoftmax;
            n.attrs = SoftmaxAttrs{d->beta(), d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return;
        }
        case L::SoftmaxLayer: {
            // beta has no default in the schema: an absent beta is 0, exactly as Arm NN reads it.
            const auto* d = NPURUN_DESC(SoftmaxDescriptor, static_cast<const fb::SoftmaxLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Softmax;
            n.attrs = SoftmaxAttrs{d->beta(), d->axis()};
            check_axis(d->axis(), input_rank(g, n, 0), "axis");
            return;
        }
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
            return;
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
            return;
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
            return;
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
            return;
        }
        case L::MeanLayer: {
            const auto* d = NPURUN_DESC(MeanDescriptor, static_cast<const fb::MeanLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Mean;
            n.attrs = reduce_attrs(ReduceAttrs::Op::Mean, d->axis(), d->keepDims());
            check_axes(n.attr<ReduceAttrs>().axes, input_rank(g, n, 0));
            return;
        }
        case L::ReduceLayer: {
            const auto* d = NPURUN_DESC(ReduceDescriptor, static_cast<const fb::ReduceLayer*>(t)->descriptor());
            check_enum(d->reduceOperation(), 4, "reduce operation");
            expect_io(n, 1, 1);
            n.op = OpKind::Reduce;
            n.attrs = reduce_attrs(static_cast<ReduceAttrs::Op>(enum_value(d->reduceOperation())), d->axis(), d->keepDims());
            check_axes(n.attr<ReduceAttrs>().axes, input_rank(g, n, 0));
            return;
        }
        case L::NormalizationLayer: {
            const auto* d = NPURUN_DESC(NormalizationDescriptor, static_cast<const fb::NormalizationLayer*>(t)->descriptor());
            check_enum(d->normChannelType(), 1, "normalization channel type");
            check_enum(d->normMethodType(), 1, "normalization method");
            expect_io(n, 1, 1);
            NormalizationAttrs a;
            a.channel = static_cast<NormChannel>(enum_value(d->normChannelType()));
            a.method = static_cast<NormMethod>(enum_value(d->normMethodType()));
            a.norm_size = d->normSize();
            a.alpha = d->alpha();
            a.beta = d->beta();
            a.k = d->k();
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::Normalization;
            n.attrs = a;
            return;
        }
        case L::PadLayer: {
            const auto* d = NPURUN_DESC(PadDescriptor, static_cast<const fb::PadLayer*>(t)->descriptor());
            check_enum(d->paddingMode(), 2, "padding mode");
            expect_io(n, 1, 1);
            PadAttrs a;
            a.pads = pairs(d->padList(), "padList");
            a.value = d->padValue();
            a.mode = static_cast<PaddingMode>(enum_value(d->paddingMode()));
            check_count(a.pads.size(), input_rank(g, n, 0), "padList");
            n.op = OpKind::Pad;
            n.attrs = a;
            return;
        }
        case L::PermuteLayer: {
            const auto* d = NPURUN_DESC(PermuteDescriptor, static_cast<const fb::PermuteLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Permute;
            n.attrs = PermuteAttrs{permutation(d->dimMappings())};
            check_count(n.attr<PermuteAttrs>().mapping.size(), input_rank(g, n, 0), "dimension mapping");
            return;
        }
        case L::TransposeLayer: {
            const auto* d = NPURUN_DESC(TransposeDescriptor, static_cast<const fb::TransposeLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Transpose;
            n.attrs = PermuteAttrs{permutation(d->dimMappings())};
            check_count(n.attr<PermuteAttrs>().mapping.size(), input_rank(g, n, 0), "dimension mapping");
            return;
        }
        case L::Pooling2dLayer: {
            const auto* d = NPURUN_DESC(Pooling2dDescriptor, static_cast<const fb::Pooling2dLayer*>(t)->descriptor());
            check_enum(d->poolType(), 2, "pooling algorithm");
            check_enum(d->outputShapeRounding(), 1, "output shape rounding");
            check_enum(d->paddingMethod(), 1, "padding method");
            expect_io(n, 1, 1);
            Pooling2dAttrs a;
            a.algorithm = static_cast<PoolingAlgorithm>(enum_value(d->poolType()));
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.pool_width = d->poolWidth();
            a.pool_height = d->poolHeight();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.rounding = static_cast<OutputShapeRounding>(enum_value(d->outputShapeRounding()));
            a.padding_method = static_cast<PaddingMethod>(enum_value(d->paddingMethod()));
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::Pooling2d;
            n.attrs = a;
            return;
        }
        case L::Pooling3dLayer: {
            const auto* d = NPURUN_DESC(Pooling3dDescriptor, static_cast<const fb::Pooling3dLayer*>(t)->descriptor());
            check_enum(d->poolType(), 2, "pooling algorithm");
            check_enum(d->outputShapeRounding(), 1, "output shape rounding");
            check_enum(d->paddingMethod(), 1, "padding method");
            expect_io(n, 1, 1);
            Pooling3dAttrs a;
            a.algorithm = static_cast<PoolingAlgorithm>(enum_value(d->poolType()));
            a.pad_left = d->padLeft();
            a.pad_right = d->padRight();
            a.pad_top = d->padTop();
            a.pad_bottom = d->padBottom();
            a.pad_front = d->padFront();
            a.pad_back = d->padBack();
            a.pool_width = d->poolWidth();
            a.pool_height = d->poolHeight();
            a.pool_depth = d->poolDepth();
            a.stride_x = d->strideX();
            a.stride_y = d->strideY();
            a.stride_z = d->strideZ();
            a.rounding = static_cast<OutputShapeRounding>(enum_value(d->outputShapeRounding()));
            a.padding_method = static_cast<PaddingMethod>(enum_value(d->paddingMethod()));
            // The schema gives Pooling3d's dataLayout no default, so an absent field reads NHWC (0): invalid.
            a.layout = layout_3d(d->dataLayout());
            n.op = OpKind::Pooling3d;
            n.attrs = a;
            return;
        }
        case L::ReshapeLayer: {
            const auto* d = NPURUN_DESC(ReshapeDescriptor, static_cast<const fb::ReshapeLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            const std::vector<uint32_t> target = uints(d->targetShape());
            if (target.size() > kMaxRank)
                bad("target shape rank " + std::to_string(target.size()) + " exceeds the maximum of " + std::to_string(kMaxRank));
            n.op = OpKind::Reshape;
            n.attrs = ReshapeAttrs{Shape::from(target)};
            return;
        }
        case L::ResizeBilinearLayer: {
            const auto* d = NPURUN_DESC(ResizeBilinearDescriptor, static_cast<const fb::ResizeBilinearLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            n.op = OpKind::Resize;
            n.attrs = resize_attrs(d->targetHeight(), d->targetWidth(), ResizeMethod::Bilinear, d->dataLayout(),
                                   d->alignCorners(), d->halfPixelCenters());
            return;
        }
        case L::ResizeLayer: {
            const auto* d = NPURUN_DESC(ResizeDescriptor, static_cast<const fb::ResizeLayer*>(t)->descriptor());
            check_enum(d->method(), 1, "resize method");
            expect_io(n, 1, 1);
            n.op = OpKind::Resize;
            n.attrs = resize_attrs(d->targetHeight(), d->targetWidth(), static_cast<ResizeMethod>(enum_value(d->method())),
                                   d->dataLayout(), d->alignCorners(), d->halfPixelCenters());
            return;
        }
        case L::SliceLayer: {
            const auto* d = NPURUN_DESC(SliceDescriptor, static_cast<const fb::SliceLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            SliceAttrs a{uints(d->begin()), uints(d->size())};
            if (a.begin.size() != a.size.size()) bad("slice begin and size have different lengths");
            check_count(a.begin.size(), input_rank(g, n, 0), "slice begin");
            n.op = OpKind::Slice;
            n.attrs = a;
            return;
        }
        case L::StridedSliceLayer: {
            const auto* d = NPURUN_DESC(StridedSliceDescriptor, static_cast<const fb::StridedSliceLayer*>(t)->descriptor());
            expect_io(n, 1, 1);
            StridedSliceAttrs a;
            a.begin = ints(d->begin());
            a.end = ints(d->end());
            a.stride = ints(d->stride());
            if (a.begin.size() != a.end.size() || a.begin.size() != a.stride.size())
                bad("strided slice begin, end and stride have different lengths");
            a.begin_mask = d->beginMask();
            a.end_mask = d->endMask();
            a.shrink_axis_mask = d->shrinkAxisMask();
            a.ellipsis_mask = d->ellipsisMask();
            a.new_axis_mask = d->newAxisMask();
            a.layout = layout_2d(d->dataLayout());
            n.op = OpKind::StridedSlice;
            n.attrs = a;
            return;
        }
        case L::SplitterLayer: {
            const auto* d = NPURUN_DESC(ViewsDescriptor, static_cast<const fb::SplitterLayer*>(t)->descriptor());
            expect_inputs(n, 1);
            if (n.outputs.empty()) bad("has no outputs");
            const ConcatAttrs o = origins(d->origins(), n.outputs.size(), "outputs");
            check_count(o.view_origins.at(0).size(), input_rank(g, n, 0), "view origin");
            SplitterAttrs a;
            a.view_origins = o.view_origins;
            const auto* sizes = d->viewSizes();
            if (!sizes || sizes->size() != a.view_origins.size())
                bad("viewSizes has " + std::to_string(sizes ? sizes->size() : 0) + " entries for " +
                    std::to_string(a.view_origins.size()) + " views");
            for (uint32_t i = 0; i < sizes->size(); ++i) {
                const auto* v = sizes->Get(i)->data();
                if (!v || v->size() != a.view_origins[i].size())
                    bad("view " + std::to_string(i) + " size has " + std::to_string(v ? v->size() : 0) + " entries, expected " +
                        std::to_string(a.view_origins[i].size()));
                a.view_sizes.push_back(uints(v));
            }
            n.op = OpKind::Splitter;
            n.attrs = a;
            return;
        }
        case L::StackLayer: {
            const auto* d = NPURUN_DESC(StackDescriptor, static_cast<const fb::StackLayer*>(t)->descriptor());
            expect_outputs(n, 1);
            StackAttrs a;
            a.axis = d->axis();
            a.num_inputs = d->numInputs();
            const std::vector<uint32_t> shape = uints(d->inputShape());
            if (shape.size() > kMaxRank) bad("stack input shape rank " + std::to_string(shape.size()) + " is too large");
            a.input_shape = Shape::from(shape);
            if (a.num_inputs == 0 || a.num_inputs != n.inputs.size())
                bad("numInputs is " + std::to_string(a.num_inputs) + " but the layer has " + std::to_string(n.inputs.size()) + " inputs");
            if (a.axis > a.input_shape.rank)
                bad("stack axis " + std::to_string(a.axis) + " is out of range for input rank " + std::to_string(a.input_shape.rank));
            n.op = OpKind::Stack;
            n.attrs = a;
            return;
        }
        case L::StandInLayer: {
            const auto* d = NPURUN_DESC(StandInDescriptor, static_cast<const fb::StandInLayer*>(t)->descriptor());
            expect_io(n, d->numInputs(), d->numOutputs());
            n.op = OpKind::StandIn;
            n.attrs = StandInAttrs{d->numInputs(), d->numOutputs()};
            return;
        }
        default: break;
    }
    bad("unsupported layer type " + std::to_string(static_cast<int>(layer->layer_type())));
}

}  // namespace npurun::armnn

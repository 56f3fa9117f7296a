#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

[[noreturn]] void bad(const std::string& msg) { fail(ErrorKind::BadModel, msg); }

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
    d = descriptor_or_default(d);
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

BinaryOp elementwise_binary_op(fb::BinaryOperation o) {
    switch (o) {
        case fb::BinaryOperation::Add: return BinaryOp::Add;
        case fb::BinaryOperation::Div: return BinaryOp::Div;
        case fb::BinaryOperation::Maximum: return BinaryOp::Maximum;
        case fb::BinaryOperation::Minimum: return BinaryOp::Minimum;
        case fb::BinaryOperation::Mul: return BinaryOp::Mul;
        case fb::BinaryOperation::Sub: return BinaryOp::Sub;
        case fb::BinaryOperation::SqDiff: return BinaryOp::SquaredDifference;
        case fb::BinaryOperation::Power: return BinaryOp::Power;
    }
    bad("unknown binary operation " + std::to_string(static_cast<int>(o)) + " (known: 0..7)");
}

LstmAttrs lstm_attrs(uint32_t activation_func, float clip_cell, float clip_proj, bool cifg, bool peephole,
                     bool projection, bool layer_norm) {
    return LstmAttrs{activation_func, clip_cell, clip_proj, cifg, peephole, projection, layer_norm};
}

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

}  // namespace npurun::armnn::mapping

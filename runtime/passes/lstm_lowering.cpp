#include "runtime/passes/lstm_lowering.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "core/fp16.h"
#include "kernels/ref/element_access.h"

namespace npurun {
namespace {

// The constants the rewrite makes (a peephole vector repeated per batch row, ones, clip bounds) hold B x C
// values; this bounds what a model file can make it allocate before the session's memory budget applies.
constexpr size_t kMaxConstantElements = size_t{1} << 20;
// A sequence is unrolled into one step's parts per time step (about 25 layers each, and as many NPU tasks):
// this bounds the graph a model file can make the rewrite build.
constexpr uint32_t kMaxUnrolledSteps = 128;

bool used(const Graph& g, TensorId t, const std::vector<bool>& read) {
    if (t == kNoTensor) return false;
    if (read[t]) return true;
    for (const Binding& b : g.outputs)
        if (b.tensor == t) return true;
    return false;
}

std::vector<bool> tensors_read(const Graph& g) {
    std::vector<bool> read(g.tensors.size(), false);
    for (const Node& n : g.nodes)
        for (TensorId t : n.inputs)
            if (t != kNoTensor && t < read.size()) read[t] = true;
    return read;
}

bool is_sequence(const Node& n) { return n.op == OpKind::UnidirectionalSequenceLstm; }

// B, I and T of an Lstm ([B, I], one step) or a sequence ([T, B, I] time-major, else [B, T, I]); all 0 for
// another rank.
struct StepSizes {
    uint32_t batch = 0, in = 0, steps = 0;
};
StepSizes step_sizes(const Graph& g, const Node& n) {
    const Shape& x = g.info(n.inputs[kLstmInput]).shape;
    if (!is_sequence(n)) return x.rank == 2 ? StepSizes{x[0], x[1], 1} : StepSizes{};
    if (x.rank != 3) return StepSizes{};
    const bool time_major = n.attr<LstmAttrs>().time_major;
    return StepSizes{time_major ? x[1] : x[0], x[2], time_major ? x[0] : x[1]};
}

// What rules out an Lstm before its parts are built: the parts' own limits are their units' to say.
Refusal structural_refusal(const Graph& g, const Node& n) {
    if (!is_lowerable_lstm(n.op))
        return Refusal::because(std::string(to_string(n.op)) +
                                " is not lowered (only Lstm and UnidirectionalSequenceLstm are)");
    const auto& a = n.attr<LstmAttrs>();
    const bool outputs_ok = is_sequence(n) ? (n.outputs.size() == 1 || n.outputs.size() == 3) : n.outputs.size() == 4;
    if (n.inputs.size() != kLstmOperandCount || !outputs_ok) return Refusal::because("unexpected operand count");
    for (uint32_t op : {kLstmInput, kLstmOutputStateIn, kLstmCellStateIn})
        if (n.inputs[op] == kNoTensor || g.tensor(n.inputs[op]).is_constant())
            return Refusal::because("a state or the input is a constant");
    const DataType t = g.info(n.inputs[kLstmInput]).dtype;
    if (t != DataType::Float32 && t != DataType::Float16)
        return Refusal::because(std::string(to_string(t)) +
                                " LSTM: the quantized cell state (QSymmS16) has no int8 form on the NPU");
    for (TensorId id : n.inputs)
        if (id != kNoTensor && g.info(id).dtype != t) return Refusal::because("operands of mixed types");
    for (TensorId id : n.outputs)
        if (g.info(id).dtype != t) return Refusal::because("outputs of another type than the input");
    if (a.layer_norm)
        return Refusal::because("layer normalization (a mean and deviation over the cell units) has no NPU operation");
    const StepSizes st = step_sizes(g, n);
    const Shape& h = g.info(n.inputs[kLstmOutputStateIn]).shape;
    const Shape& c = g.info(n.inputs[kLstmCellStateIn]).shape;
    if (st.batch == 0 || h.rank != 2 || c.rank != 2 || h[0] != st.batch || c[0] != st.batch)
        return Refusal::because(is_sequence(n) ? "input is not a [steps, batch, n] / [batch, steps, n] sequence with "
                                                 "states [batch, n] of its batch"
                                               : "input and states are not [batch, n] of one batch");
    if (size_t(st.batch) * std::max({st.in, h[1], c[1]}) > kMaxConstantElements)
        return Refusal::because("batch x units above " + std::to_string(kMaxConstantElements));
    if (st.steps == 0 || st.steps > kMaxUnrolledSteps)
        return Refusal::because(std::to_string(st.steps) + " time steps to unroll (1 to " +
                                std::to_string(kMaxUnrolledSteps) + " are)");
    if (a.activation != 0 && a.activation != 1 && a.activation != 3 && a.activation != 4 && a.activation != 6)
        return Refusal::because("activation code " + std::to_string(a.activation));
    if (a.projection == (n.inputs[kProjectionWeights] == kNoTensor))
        return Refusal::because("projection flag and weights disagree");
    // The parts read these as constants of these shapes (the loader checked them for the CPU kernel; the rewrite
    // does not rely on that).
    const uint32_t I = st.in, O = h[1], C = c[1];
    auto operand_ok = [&](uint32_t op, std::initializer_list<uint32_t> dims) {
        const TensorId id = n.inputs[op];
        return id == kNoTensor || (g.tensor(id).is_constant() && g.info(id).shape == Shape(dims));
    };
    for (uint32_t op : {kInputToInputWeights, kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights})
        if (!operand_ok(op, {C, I}))
            return Refusal::because("an input weight matrix is not a constant [cells, inputs]");
    for (uint32_t op :
         {kRecurrentToInputWeights, kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights})
        if (!operand_ok(op, {C, O}))
            return Refusal::because("a recurrent weight matrix is not a constant [cells, outputs]");
    for (uint32_t op : {kCellToInputWeights, kCellToForgetWeights, kCellToOutputWeights, kInputGateBias,
                        kForgetGateBias, kCellBias, kOutputGateBias})
        if (!operand_ok(op, {C})) return Refusal::because("a peephole or bias vector is not a constant [cells]");
    if (!operand_ok(kProjectionWeights, {O, C}) || !operand_ok(kProjectionBias, {O}))
        return Refusal::because("the projection is not a constant [outputs, cells] with a bias [outputs]");
    if (!a.projection && O != C) return Refusal::because("output units differ from cell units without a projection");
    const bool gates_present =
        n.inputs[kInputToForgetWeights] != kNoTensor && n.inputs[kInputToCellWeights] != kNoTensor &&
        n.inputs[kInputToOutputWeights] != kNoTensor && n.inputs[kRecurrentToForgetWeights] != kNoTensor &&
        n.inputs[kRecurrentToCellWeights] != kNoTensor && n.inputs[kRecurrentToOutputWeights] != kNoTensor &&
        (a.cifg || (n.inputs[kInputToInputWeights] != kNoTensor && n.inputs[kRecurrentToInputWeights] != kNoTensor));
    if (!gates_present) return Refusal::because("a gate's weights are missing");
    if (a.peephole && (n.inputs[kCellToForgetWeights] == kNoTensor || n.inputs[kCellToOutputWeights] == kNoTensor ||
                       (!a.cifg && n.inputs[kCellToInputWeights] == kNoTensor)))
        return Refusal::because("a peephole vector is missing");
    return Refusal();
}

// Appends the parts of one Lstm to `out` (nodes) and `g` (their tensors, and the constants it makes).
class Decomposition {
public:
    Decomposition(Graph* g, const Node& lstm, const std::vector<bool>& read, std::vector<Node>* out)
        : g_(*g), lstm_(lstm), a_(lstm.attr<LstmAttrs>()), read_(read), out_(*out) {
        type_ = g_.info(lstm.inputs[kLstmInput]).dtype;
        batch_ = step_sizes(g_, lstm).batch;
        cell_ = g_.info(lstm.inputs[kLstmCellStateIn]).shape[1];
        out_units_ = g_.info(lstm.inputs[kLstmOutputStateIn]).shape[1];
    }

    // Which nodes are the parts whose NPU refusal refuses the whole (the computations, not the edge Reshapes,
    // Slices and Concats, which may run on the CPU at the segment's edge).
    std::vector<size_t> computing;

    // The whole rewrite. A sequence's steps are the same parts on other tensors: `max_steps` 1 builds the first
    // step only, which is all that lstm_lowering_refusal needs to check.
    void build(uint32_t max_steps = kMaxUnrolledSteps) {
        if (is_sequence(lstm_))
            build_sequence(std::min(max_steps, step_sizes(g_, lstm_).steps));
        else
            build_step();
    }

private:
    // One step's results, each [1, 1, B, n].
    struct Step {
        TensorId i, f, h_act, h_new, c_new, out;
    };

    Step step(TensorId x, TensorId h, TensorId c) {
        Step r;
        const bool cifg = a_.cifg;
        const TensorId s_f = gate_sum("forget", x, h, kInputToForgetWeights, kRecurrentToForgetWeights, kForgetGateBias,
                                      a_.peephole ? uint32_t{kCellToForgetWeights} : 0u, c);
        r.f = activation("forget", ActivationFunction::Sigmoid, s_f);
        if (cifg) {
            r.i = binary("input.one_minus_forget", BinaryOp::Sub, filled("ones", 1.0f), r.f);
        } else {
            const TensorId s_i = gate_sum("input", x, h, kInputToInputWeights, kRecurrentToInputWeights, kInputGateBias,
                                          a_.peephole ? uint32_t{kCellToInputWeights} : 0u, c);
            r.i = activation("input", ActivationFunction::Sigmoid, s_i);
        }
        const TensorId s_g = gate_sum("cell", x, h, kInputToCellWeights, kRecurrentToCellWeights, kCellBias, 0, c);
        const TensorId g = a_.activation == 0 ? s_g : cell_activation("cell", s_g);
        r.c_new = binary("cell.update", BinaryOp::Add, binary("cell.forget", BinaryOp::Mul, r.f, c),
                         binary("cell.input", BinaryOp::Mul, r.i, g));
        if (a_.clip_cell > 0.0f) r.c_new = clip("cell.clip", r.c_new, a_.clip_cell, cell_);
        const TensorId s_o = gate_sum("output", x, h, kInputToOutputWeights, kRecurrentToOutputWeights, kOutputGateBias,
                                      a_.peephole ? uint32_t{kCellToOutputWeights} : 0u, r.c_new);
        const TensorId o = activation("output", ActivationFunction::Sigmoid, s_o);
        // CpuRef's activation 0 multiplies by the raw cell candidate, not by the cell state (kernels/ref/lstm.cpp).
        r.h_act = a_.activation == 0 ? s_g : cell_activation("hidden", r.c_new);
        r.h_new = binary("hidden", BinaryOp::Mul, o, r.h_act);
        r.out = r.h_new;
        if (a_.projection) {
            r.out = conv("projection", r.h_new, lstm_.inputs[kProjectionWeights], lstm_.inputs[kProjectionBias],
                         out_units_);
            if (a_.clip_proj > 0.0f) r.out = clip("projection.clip", r.out, a_.clip_proj, out_units_);
        }
        return r;
    }

    void build_step() {
        const TensorId x = to_pixels(lstm_.inputs[kLstmInput], "x");
        const TensorId h = to_pixels(lstm_.inputs[kLstmOutputStateIn], "h");
        const TensorId c = to_pixels(lstm_.inputs[kLstmCellStateIn], "c");
        const Step r = step(x, h, c);
        // Outputs: 0 scratch, 1 outputStateOut, 2 cellStateOut, 3 output (only those something reads).
        if (used(g_, lstm_.outputs[0], read_)) {
            std::vector<TensorId> parts = a_.cifg ? std::vector<TensorId>{r.h_act, r.i, r.h_new}
                                                  : std::vector<TensorId>{r.i, r.h_act, r.f, r.h_new};
            from_pixels(concat("scratch", parts, batch_ == 1 ? 3 : 2), lstm_.outputs[0]);
        }
        if (used(g_, lstm_.outputs[1], read_)) from_pixels(r.out, lstm_.outputs[1]);
        if (used(g_, lstm_.outputs[2], read_)) from_pixels(r.c_new, lstm_.outputs[2]);
        if (used(g_, lstm_.outputs[3], read_)) from_pixels(r.out, lstm_.outputs[3]);
    }

    // The sequence as `steps` steps, each one's output the next one's h (kernels/ref/lstm.cpp run_sequence). The
    // input's time slices come first, so the CPU work at the segment's edge runs before the first step.
    void build_sequence(uint32_t steps) {
        std::vector<TensorId> x(steps);
        for (uint32_t t = 0; t < steps; ++t) {
            prefix_ = "t" + std::to_string(t) + ".";
            x[t] = time_slice(t);
        }
        prefix_.clear();
        TensorId h = to_pixels(lstm_.inputs[kLstmOutputStateIn], "h");
        TensorId c = to_pixels(lstm_.inputs[kLstmCellStateIn], "c");
        std::vector<TensorId> outs;
        for (uint32_t t = 0; t < steps; ++t) {
            prefix_ = "t" + std::to_string(t) + ".";
            const Step r = step(x[t], h, c);
            h = r.out;
            c = r.c_new;
            outs.push_back(r.out);
        }
        prefix_.clear();
        // Outputs: [outputStateOut, cellStateOut,] output. The output [B, T, O] (or [1, T, O]) is the steps' [B, O]
        // concatenated along the channels; time-major [T, B, O] along the pixels (B > 1).
        const bool three = lstm_.outputs.size() == 3;
        const TensorId y = lstm_.outputs[three ? 2 : 0];
        if (used(g_, y, read_) && steps == step_sizes(g_, lstm_).steps)
            from_pixels(concat("output", outs, a_.time_major && batch_ > 1 ? 2 : 3), y);
        if (three && used(g_, lstm_.outputs[0], read_)) from_pixels(h, lstm_.outputs[0]);
        if (three && used(g_, lstm_.outputs[1], read_)) from_pixels(c, lstm_.outputs[1]);
    }

    Graph& g_;
    const Node& lstm_;
    const LstmAttrs& a_;
    const std::vector<bool>& read_;
    std::vector<Node>& out_;
    DataType type_ = DataType::Float32;
    uint32_t batch_ = 1, cell_ = 0, out_units_ = 0;
    std::string prefix_;                         // the time step's, in a sequence ("t3.")
    std::map<std::string, TensorId> constants_;  // made once, shared by every step

    std::string name(const std::string& part) const {
        return (lstm_.name.empty() ? "lstm" : lstm_.name) + "/" + prefix_ + part;
    }

    TensorId value(const std::string& part, uint32_t channels) {
        Tensor t;
        t.name = name(part) + ":0";
        t.info.dtype = type_;
        t.info.shape = Shape{1, 1, batch_, channels};
        return g_.add_tensor(std::move(t));
    }

    TensorId add(OpKind op, const std::string& part, OpAttrs attrs, std::vector<TensorId> inputs, TensorId output,
                 bool computes = true) {
        Node n;
        n.op = op;
        n.name = name(part);
        n.source_index = lstm_.source_index;
        n.inputs = std::move(inputs);
        n.outputs = {output};
        n.attrs = std::move(attrs);
        if (computes) computing.push_back(out_.size());
        out_.push_back(std::move(n));
        return output;
    }

    TensorId to_pixels(TensorId t, const std::string& part) {
        const Shape& shape = g_.info(t).shape;
        const uint32_t n = shape[shape.rank - 1];
        ReshapeAttrs r;
        r.target = Shape{1, 1, batch_, n};
        return add(OpKind::Reshape, part + ".as_pixels", r, {t}, value(part + ".as_pixels", n), false);
    }

    // Time step t of the sequence input as [1, 1, B, I]: a Slice ([1, B, I] or [B, 1, I]) and a Reshape.
    TensorId time_slice(uint32_t t) {
        const TensorId seq = lstm_.inputs[kLstmInput];
        const StepSizes st = step_sizes(g_, lstm_);
        SliceAttrs sl;
        sl.begin = a_.time_major ? std::vector<uint32_t>{t, 0, 0} : std::vector<uint32_t>{0, t, 0};
        sl.size = a_.time_major ? std::vector<uint32_t>{1, st.batch, st.in} : std::vector<uint32_t>{st.batch, 1, st.in};
        Tensor s;
        s.name = name("x.slice") + ":0";
        s.info.dtype = type_;
        s.info.shape = a_.time_major ? Shape{1, st.batch, st.in} : Shape{st.batch, 1, st.in};
        const TensorId sliced = add(OpKind::Slice, "x.slice", sl, {seq}, g_.add_tensor(std::move(s)), false);
        return to_pixels(sliced, "x");
    }

    void from_pixels(TensorId t, TensorId model_tensor) {
        ReshapeAttrs r;
        r.target = g_.info(model_tensor).shape;
        add(OpKind::Reshape, g_.tensor(model_tensor).name + ".from_pixels", r, {t}, model_tensor, false);
    }

    // A constant [1, 1, B, n] of the Lstm's type; values[k % n] at element k. One per part name, for every step.
    TensorId constant(const std::string& part, uint32_t n, const std::vector<float>& values) {
        if (const auto it = constants_.find(part); it != constants_.end()) return it->second;
        const size_t count = size_t(batch_) * n;
        const size_t elem = type_ == DataType::Float16 ? 2 : 4;
        uint8_t* data = g_.allocate_owned(count * elem);
        for (size_t k = 0; k < count; ++k) {
            const float v = values[k % values.size()];
            if (elem == 2) {
                const uint16_t bits = fp32_to_fp16(v);
                std::memcpy(data + k * 2, &bits, 2);
            } else {
                std::memcpy(data + k * 4, &v, 4);
            }
        }
        Tensor t;
        t.name = (lstm_.name.empty() ? "lstm" : lstm_.name) + "/" + part + ":const";
        t.info.dtype = type_;
        t.info.shape = Shape{1, 1, batch_, n};
        t.data = data;
        return constants_[part] = g_.add_tensor(std::move(t));
    }

    TensorId filled(const std::string& part, float v) { return constant(part, cell_, {v}); }

    // A [C] model constant (a peephole vector) repeated for every batch row.
    TensorId per_row(const std::string& part, TensorId vec) {
        const Tensor& t = g_.tensor(vec);
        const kernels::ref::Reader r(t.info, t.data);  // the values the CPU kernel reads
        std::vector<float> v(cell_);
        for (uint32_t k = 0; k < cell_; ++k) v[k] = r[k];
        return constant(part, cell_, v);
    }

    TensorId binary(const std::string& part, BinaryOp op, TensorId a, TensorId b) {
        ElementwiseBinaryAttrs at;
        at.op = op;
        return add(OpKind::ElementwiseBinary, part, at, {a, b}, value(part, g_.info(a).shape[3]));
    }

    TensorId activation(const std::string& part, ActivationFunction f, TensorId x, float a = 0.0f, float b = 0.0f) {
        ActivationAttrs at;
        at.function = f;
        at.a = a;
        at.b = b;
        return add(OpKind::Activation, part + ".act", at, {x}, value(part + ".act", g_.info(x).shape[3]));
    }

    TensorId cell_activation(const std::string& part, TensorId x) {
        switch (a_.activation) {
            // ReLU and ReLU6 as Maximum / Minimum with constants: a standalone ReLu only runs on the NPU fused into
            // the layer before it, and the cell state is read by more than its activation.
            case 1: return binary(part + ".relu", BinaryOp::Maximum, x, filled(part + ".zero", 0.0f));
            case 3:
                return binary(part + ".relu6", BinaryOp::Minimum,
                              binary(part + ".relu", BinaryOp::Maximum, x, filled(part + ".zero", 0.0f)),
                              filled(part + ".six", 6.0f));
            case 4: return activation(part, ActivationFunction::TanH, x, 1.0f, 1.0f);
            default: return activation(part, ActivationFunction::Sigmoid, x);  // 6 (structural_refusal: no other)
        }
    }

    TensorId clip(const std::string& part, TensorId x, float bound, uint32_t n) {
        const TensorId low = binary(part + ".low", BinaryOp::Maximum, x, constant(part + ".low", n, {-bound}));
        return binary(part + ".high", BinaryOp::Minimum, low, constant(part + ".high", n, {bound}));
    }

    // A [K, n] model weight matrix as the 1x1 convolution weights [K, 1, 1, n] (the same bytes).
    TensorId conv(const std::string& part, TensorId x, TensorId weights, TensorId bias, uint32_t kernels) {
        Tensor w = g_.tensor(weights);
        w.info.shape = Shape{w.info.shape[0], 1, 1, w.info.shape[1]};
        w.name = name(part) + ":weights";
        Convolution2dAttrs at;
        at.layout = DataLayout::NHWC;
        at.bias_enabled = bias != kNoTensor;
        std::vector<TensorId> in = {x, g_.add_tensor(std::move(w))};
        if (bias != kNoTensor) in.push_back(bias);
        return add(OpKind::Convolution2d, part, at, std::move(in), value(part, kernels));
    }

    TensorId gate_sum(const std::string& gate, TensorId x, TensorId h, uint32_t wx, uint32_t wh, uint32_t bias,
                      uint32_t peephole, TensorId c) {
        const TensorId from_x = conv(gate + ".x", x, lstm_.inputs[wx], lstm_.inputs[bias], cell_);
        const TensorId from_h = conv(gate + ".h", h, lstm_.inputs[wh], kNoTensor, cell_);
        TensorId s = binary(gate + ".sum", BinaryOp::Add, from_x, from_h);
        if (peephole != 0) {
            const TensorId p =
                binary(gate + ".peephole", BinaryOp::Mul, c, per_row(gate + ".peephole", lstm_.inputs[peephole]));
            s = binary(gate + ".sum_peephole", BinaryOp::Add, s, p);
        }
        return s;
    }

    // [1, 1, B, n] parts concatenated along `axis`: 3, the channels (which the NPU does as views when each part
    // starts on a channel group), or 2, the pixels. The scratch output holds its parts region after region, each
    // [B, C] whole (kernels/ref/lstm.cpp): along W for B > 1, along the channels for one batch row.
    TensorId concat(const std::string& part, const std::vector<TensorId>& parts, uint32_t axis) {
        ConcatAttrs at;
        at.axis = axis;
        uint32_t offset = 0;
        for (TensorId t : parts) {
            std::vector<uint32_t> origin = {0, 0, 0, 0};
            origin[at.axis] = offset;
            at.view_origins.push_back(origin);
            offset += g_.info(t).shape[at.axis];
        }
        Tensor t;
        t.name = name(part) + ":0";
        t.info.dtype = type_;
        t.info.shape = axis == 3 ? Shape{1, 1, batch_, offset} : Shape{1, 1, offset, g_.info(parts[0]).shape[3]};
        return add(OpKind::Concat, part, at, parts, g_.add_tensor(std::move(t)), false);
    }
};

Refusal parts_refusal(const Graph& g, const std::vector<Node>& nodes, const std::vector<size_t>& computing,
                      const PlacementOptions& o) {
    for (size_t k : computing) {
        const Node& n = nodes[k];
        const std::string part = n.name.substr(n.name.rfind('/') + 1);
        NpuVerdict v = check_npu_support(g, n, o.policy);
        if (!v.supported()) return Refusal::because("its part " + part + " (" + to_string(n.op) + "): " + v.reason());
        if (o.lowering_refusal) {
            const Refusal r = o.lowering_refusal(g, n, v.domain);
            if (r.refused()) return Refusal::because("its part " + part + " (" + to_string(n.op) + "): " + r.reason());
        }
    }
    return Refusal();
}

Graph copy_of(const Graph& g) {
    Graph d;
    d.tensors = g.tensors;
    d.inputs = g.inputs;
    d.outputs = g.outputs;
    d.file = g.file;
    return d;
}

}  // namespace

Refusal lstm_lowering_refusal(const Graph& g, const Node& lstm, const PlacementOptions& o) {
    if (!o.use_npu) return Refusal::because("the NPU is not used");
    if (Refusal r = structural_refusal(g, lstm); r.refused()) return r;
    Graph scratch = copy_of(g);
    std::vector<Node> nodes;
    const std::vector<bool> read = tensors_read(g);  // outlives d, which keeps a reference
    Decomposition d(&scratch, lstm, read, &nodes);
    d.build(1);  // every step has the same parts
    return parts_refusal(scratch, nodes, d.computing, o);
}

bool is_lowerable_lstm(OpKind op) { return op == OpKind::Lstm || op == OpKind::UnidirectionalSequenceLstm; }

std::unique_ptr<Graph> lower_lstm_layers(const Graph& g, const PlacementOptions& o) {
    std::vector<bool> lowered(g.nodes.size(), false);
    bool any = false;
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (is_lowerable_lstm(g.nodes[k].op) && lstm_lowering_refusal(g, g.nodes[k], o).accepted())
            lowered[k] = any = true;
    if (!any) return nullptr;
    auto out = std::make_unique<Graph>(copy_of(g));
    const std::vector<bool> read = tensors_read(g);
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        if (!lowered[k]) {
            out->nodes.push_back(g.nodes[k]);
            continue;
        }
        Decomposition d(out.get(), g.nodes[k], read, &out->nodes);
        d.build();
    }
    return out;
}

}  // namespace npurun

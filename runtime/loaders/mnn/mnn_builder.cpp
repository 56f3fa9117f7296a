#include "runtime/loaders/mnn/mnn_builder.h"

#include <cstring>

#include "core/error.h"
#include "ir/ops/op_semantics.h"

namespace npurun::mnn {

Builder::Builder(Graph& graph, const MNN::Net* n, const LoadOptions& opts) : g(graph), net(n), options(opts) {
    tensors.resize(net->tensorName()->size());
    weights_stripped = net->bizCode() && net->bizCode()->str() == "benchmark";
}

std::string op_type_name(int32_t type) {
    const char* n = MNN::EnumNameOpType(static_cast<MNN::OpType>(type));
    if (n && *n) return n;
    return "type " + std::to_string(type);
}

std::string Builder::describe() const {
    std::string s = "op " + std::to_string(op_index);
    if (!op_name.empty()) s += " '" + op_name + "'";
    return s + " (" + op_type_name(static_cast<int32_t>(op->type())) + ")";
}

std::string Builder::base_name() const { return op_name.empty() ? "op" + std::to_string(op_index) : op_name; }

void Builder::bad(const std::string& problem) const { fail(ErrorKind::BadModel, describe() + ": " + problem); }
void Builder::unsupported(const std::string& problem) const {
    fail(ErrorKind::Unsupported, describe() + ": " + problem);
}

size_t Builder::num_inputs() const { return op->inputIndexes() ? op->inputIndexes()->size() : 0; }
size_t Builder::num_outputs() const { return op->outputIndexes()->size(); }

int32_t Builder::input_index(size_t k) const {
    if (k >= num_inputs())
        bad("needs input " + std::to_string(k) + " but has " + std::to_string(num_inputs()) + " inputs");
    return op->inputIndexes()->Get(static_cast<uint32_t>(k));
}

int32_t Builder::output_index(size_t k) const {
    if (k >= num_outputs())
        bad("needs output " + std::to_string(k) + " but has " + std::to_string(num_outputs()) + " outputs");
    return op->outputIndexes()->Get(static_cast<uint32_t>(k));
}

const TensorState& Builder::raw(size_t k) const {
    const TensorState& s = tensors.at(static_cast<size_t>(input_index(k)));
    if (s.id == kNoTensor) fail(ErrorKind::Internal, describe() + ": input " + std::to_string(k) + " not yet mapped");
    return s;
}

TensorId Builder::file_order(int32_t t) {
    TensorState& s = tensors.at(static_cast<size_t>(t));
    if (!s.channels_last) return s.id;
    if (s.file_order == kNoTensor) {
        const TensorInfo& xi = g.info(s.id);
        const TensorId y = new_value(g.tensor(s.id).name + ":nchw", xi.dtype, xi.quant);
        emit(OpKind::Transpose, PermuteAttrs{{0, 3, 1, 2}}, {s.id}, {y}, "/to_file_order");
        s.file_order = y;
    }
    return s.file_order;
}

TensorState Builder::in(size_t k) {
    (void)raw(k);
    TensorState s = tensors[static_cast<size_t>(input_index(k))];
    s.id = file_order(input_index(k));
    s.channels_last = false;
    return s;
}

TensorId Builder::in_channels_last(size_t k) {
    TensorState& s = tensors.at(static_cast<size_t>(input_index(k)));
    (void)raw(k);
    if (s.channels_last) return s.id;
    const TensorInfo& xi = g.info(s.id);
    if (xi.shape.rank != 4 || s.layout != Layout::NCHW)
        bad("needs a 4-D NC4HW4/NCHW input, got " + xi.shape.str() + (s.layout == Layout::NHWC ? " NHWC" : ""));
    if (s.channels_last_id == kNoTensor) {
        const TensorId y = new_value(g.tensor(s.id).name + ":nhwc", xi.dtype, xi.quant);
        emit(OpKind::Transpose, PermuteAttrs{{0, 2, 3, 1}}, {s.id}, {y}, "/to_channels_last");
        s.channels_last_id = y;
    }
    return s.channels_last_id;
}

TensorId Builder::new_value(const std::string& name, DataType dtype, Quantization quant) {
    Tensor t;
    t.name = name;
    t.info.dtype = dtype;
    t.info.quant = std::move(quant);
    return g.add_tensor(std::move(t));
}

TensorId Builder::new_constant(const std::string& name, const TensorInfo& info, const void* bytes) {
    const size_t n = info.num_bytes();
    Tensor t;
    t.name = name;
    t.info = info;
    uint8_t* p = g.allocate_owned(n == 0 ? 1 : n);
    if (n) std::memcpy(p, bytes, n);
    t.data = p;
    return g.add_tensor(std::move(t));
}

TensorId Builder::new_float_constant(const std::string& name, const Shape& shape, const std::vector<float>& v) {
    TensorInfo info;
    info.dtype = DataType::Float32;
    info.shape = shape;
    if (info.shape.num_elements() != v.size())
        fail(ErrorKind::Internal, describe() + ": constant " + name + " size mismatch");
    return new_constant(name, info, v.data());
}

TensorId Builder::new_int32_constant(const std::string& name, const std::vector<int32_t>& v) {
    TensorInfo info;
    info.dtype = DataType::Signed32;
    info.shape = Shape{static_cast<uint32_t>(v.size())};
    return new_constant(name, info, v.data());
}

void Builder::emit(OpKind kind, OpAttrs attrs, std::vector<TensorId> inputs, std::vector<TensorId> outputs,
                   const std::string& suffix) {
    Node n;
    n.op = kind;
    n.name = op_name + suffix;
    n.source_index = op_index;
    n.inputs = std::move(inputs);
    n.outputs = std::move(outputs);
    n.attrs = std::move(attrs);
    const std::vector<TensorInfo> infos = ops::infer_outputs(n, g);
    if (infos.size() != n.outputs.size())
        fail(ErrorKind::Internal, describe() + ": inferred " + std::to_string(infos.size()) + " outputs for " +
                                      std::to_string(n.outputs.size()));
    for (size_t i = 0; i < infos.size(); ++i) g.tensors[n.outputs[i]].info = infos[i];
    g.nodes.push_back(std::move(n));
}

void Builder::produce(size_t k, TensorId id, Layout layout, std::optional<std::vector<int32_t>> values,
                      bool channels_last) {
    TensorState& s = tensors.at(static_cast<size_t>(output_index(k)));
    s = TensorState{};
    s.id = id;
    s.layout = layout;
    s.values = std::move(values);
    s.channels_last = channels_last && g.info(id).shape.rank == 4;
}

}  // namespace npurun::mnn

#include "runtime/loaders/mnn/mnn_builder.h"

#include <cstring>

#include "runtime/graph/error.h"
#include "runtime/ops/op_semantics.h"

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

const TensorState& Builder::in(size_t k) const {
    const TensorState& s = tensors.at(static_cast<size_t>(input_index(k)));
    if (s.id == kNoTensor) fail(ErrorKind::Internal, describe() + ": input " + std::to_string(k) + " not yet mapped");
    return s;
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

void Builder::produce(size_t k, TensorId id, Layout layout, std::optional<std::vector<int32_t>> values) {
    TensorState& s = tensors.at(static_cast<size_t>(output_index(k)));
    s.id = id;
    s.layout = layout;
    s.values = std::move(values);
}

}  // namespace npurun::mnn

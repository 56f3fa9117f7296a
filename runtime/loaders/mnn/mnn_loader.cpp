#include "runtime/loaders/mnn/mnn_loader.h"

#include <cstring>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "MNN_generated.h"
#include "core/error.h"
#include "runtime/loaders/mnn/mnn_builder.h"
#include "runtime/loaders/model_bytes.h"

namespace npurun {

namespace {

[[noreturn]] void bad(const std::string& msg) { fail(ErrorKind::BadModel, msg); }

// The union member order is the wire format: these pin the members npurun reads to MNN's type ids.
struct PinnedMember {
    MNN::OpParameter member;
    int type_id;
};
constexpr PinnedMember kPinnedMembers[] = {
    {MNN::OpParameter::Axis, 4}, {MNN::OpParameter::Blob, 7}, {MNN::OpParameter::Convolution2D, 9},
    {MNN::OpParameter::Input, 21}, {MNN::OpParameter::Pool, 31}, {MNN::OpParameter::RoiParameters, 57},
    {MNN::OpParameter::TensorConvertInfo, 66}, {MNN::OpParameter::QuantizedFloatParam, 74},
    {MNN::OpParameter::EltwiseInt8, 76}, {MNN::OpParameter::ELU, 81}, {MNN::OpParameter::PadParam, 84},
    {MNN::OpParameter::LoopParam, 92}, {MNN::OpParameter::CumSum, 94}
};
constexpr bool members_pinned() {
    for (const PinnedMember& p : kPinnedMembers)
        if (static_cast<int>(p.member) != p.type_id) return false;
    return true;
}
static_assert(members_pinned(), "OpParameter order: the generated header does not match MNN's type ids");

bool verifies(const uint8_t* data, size_t size) {
    if (size < 8 || size >= FLATBUFFERS_MAX_BUFFER_SIZE) return false;
    flatbuffers::Verifier v(data, size, model_verifier_options());
    return v.VerifyBuffer<MNN::Net>(nullptr);
}

bool has_ops_and_tensors(const MNN::Net* net) {
    return net->oplists() && net->oplists()->size() > 0 && net->tensorName() && net->tensorName()->size() > 0;
}

using OpList = flatbuffers::Vector<flatbuffers::Offset<MNN::Op>>;
using NameList = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>;

// Copies the bytes when they are misaligned or not kept alive, verifies them and returns the Net with its
// op and tensor lists checked non-empty; `data` then points at the bytes the graph's constants view.
const MNN::Net* verified_net(Graph& g, const uint8_t*& data, size_t size, std::shared_ptr<ConstantStorage> keepalive) {
    if (!data || size == 0) bad("the model is empty");
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
        bad("the model is " + std::to_string(size) + " bytes, above the FlatBuffers limit of 2 GiB");
    hold_model_bytes(g, data, size, std::move(keepalive));
    {
        flatbuffers::Verifier verifier(data, size, model_verifier_options());
        if (!verifier.VerifyBuffer<MNN::Net>(nullptr))
            bad("not a valid MNN model: the FlatBuffers verifier rejected the file (truncated, corrupt, or not an .mnn file)");
    }
    const MNN::Net* net = flatbuffers::GetRoot<MNN::Net>(data);
    if (!net->oplists() || net->oplists()->size() == 0) bad("the model has no ops (Net.oplists is empty)");
    if (!net->tensorName() || net->tensorName()->size() == 0) bad("the model has no tensors (Net.tensorName is empty)");
    if (net->subgraphs() && net->subgraphs()->size() > 0)
        fail(ErrorKind::Unsupported, "the model has " + std::to_string(net->subgraphs()->size()) +
                                         " subgraphs (control flow from a newer MNN release); npurun reads single-graph models only");
    if (net->usage() == MNN::Usage::TRAIN)
        fail(ErrorKind::Unsupported, "the model is an MNN training graph (Net.usage TRAIN); npurun runs inference graphs");
    return net;
}

// "op 12 'conv1' (Convolution)": how every message names an op.
std::string op_label(const OpList* ops, uint32_t i) {
    const MNN::Op* op = ops->Get(i);
    std::string s = "op " + std::to_string(i);
    if (op->name() && op->name()->size() > 0) s += " '" + op->name()->str() + "'";
    return s + " (" + mnn::op_type_name(static_cast<int32_t>(op->type())) + ")";
}

// Who produces which tensor, and the producer of each op's inputs (with repeats); every index in range.
struct Dataflow {
    std::vector<uint32_t> producer;            // per tensor, UINT32_MAX for none
    std::vector<std::vector<uint32_t>> deps;   // per op, the producer op of each input
};

std::vector<uint32_t> producers_of_tensors(const OpList* ops, const NameList* names) {
    const uint32_t n_tensors = names->size();
    std::vector<uint32_t> producer(n_tensors, UINT32_MAX);
    for (uint32_t i = 0; i < ops->size(); ++i) {
        const auto* outs = ops->Get(i)->outputIndexes();
        if (!outs || outs->size() == 0) bad(op_label(ops, i) + ": has no outputs (outputIndexes is empty)");
        for (uint32_t k = 0; k < outs->size(); ++k) {
            const int32_t t = outs->Get(k);
            if (t < 0 || static_cast<uint32_t>(t) >= n_tensors)
                bad(op_label(ops, i) + ": output " + std::to_string(k) + " is tensor " + std::to_string(t) +
                    ", outside the model's " + std::to_string(n_tensors) + " tensors");
            if (producer[t] != UINT32_MAX)
                bad(op_label(ops, i) + ": tensor " + std::to_string(t) + " '" + names->Get(t)->str() +
                    "' is also produced by " + op_label(ops, producer[t]));
            producer[t] = i;
        }
    }
    return producer;
}

Dataflow index_dataflow(const OpList* ops, const NameList* names, mnn::Builder& b) {
    const uint32_t n_tensors = names->size();
    Dataflow df;
    df.producer = producers_of_tensors(ops, names);
    df.deps.resize(ops->size());
    for (uint32_t i = 0; i < ops->size(); ++i) {
        const MNN::Op* op = ops->Get(i);
        if (const auto* ins = op->inputIndexes()) {
            for (uint32_t k = 0; k < ins->size(); ++k) {
                const int32_t t = ins->Get(k);
                if (t < 0 || static_cast<uint32_t>(t) >= n_tensors)
                    bad(op_label(ops, i) + ": input " + std::to_string(k) + " is tensor " + std::to_string(t) +
                        ", outside the model's " + std::to_string(n_tensors) + " tensors");
                if (df.producer[t] == UINT32_MAX)
                    bad(op_label(ops, i) + ": input " + std::to_string(k) + " is tensor " + std::to_string(t) + " '" +
                        names->Get(t)->str() + "', which no op produces");
                df.deps[i].push_back(df.producer[t]);
            }
        }
        // Int8ToFloat fixes the scale of the int8 tensor it reads (see mnn_ops_int8.cpp).
        if (op->type() == MNN::OpType::Int8ToFloat && op->inputIndexes() && op->inputIndexes()->size() == 1) {
            if (const auto* q = op->main_as_QuantizedFloatParam()) {
                if (q->tensorScale() && q->tensorScale()->size() > 0)
                    b.dequant_scale.emplace(op->inputIndexes()->Get(0), q->tensorScale()->Get(0));
            }
        }
    }
    return df;
}

// Deterministic topological order (Kahn; ready ops leave in file order); a cycle is refused naming one of
// its ops.
std::vector<uint32_t> topological_order(const OpList* ops, const std::vector<std::vector<uint32_t>>& deps) {
    const uint32_t n_ops = ops->size();
    std::vector<uint32_t> pending(n_ops, 0);
    std::vector<std::vector<uint32_t>> consumers(n_ops);
    for (uint32_t i = 0; i < n_ops; ++i)
        for (uint32_t p : deps[i]) {
            consumers[p].push_back(i);
            ++pending[i];
        }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;
    for (uint32_t i = 0; i < n_ops; ++i)
        if (pending[i] == 0) ready.push(i);
    std::vector<uint32_t> order;
    order.reserve(n_ops);
    while (!ready.empty()) {
        const uint32_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (uint32_t c : consumers[i])
            if (--pending[c] == 0) ready.push(c);
    }
    if (order.size() != n_ops) {
        // Walking back through waiting producers n times ends on an op that lies on a cycle.
        uint32_t p = 0;
        while (pending[p] == 0) ++p;
        for (uint32_t step = 0; step < n_ops; ++step)
            for (uint32_t q : deps[p])
                if (pending[q] != 0) {
                    p = q;
                    break;
                }
        bad(op_label(ops, p) + " is part of a cycle (the graph must be acyclic)");
    }
    return order;
}

// Maps every op in `order`, inferring shapes as it goes; returns which tensors some op reads.
std::vector<bool> map_ops(const OpList* ops, uint32_t n_tensors, const std::vector<uint32_t>& order, mnn::Builder& b) {
    std::vector<bool> consumed(n_tensors, false);
    for (uint32_t i : order) {
        const MNN::Op* op = ops->Get(i);
        b.op = op;
        b.op_index = i;
        b.op_name = op->name() ? op->name()->str() : std::string();
        try {
            mnn::map_op(b);
        } catch (const Error& e) {
            const std::string what = e.what();
            const std::string prefix = b.describe();
            if (what.compare(0, prefix.size(), prefix) == 0) throw;
            throw Error(e.kind(), prefix + ": " + what);
        }
        if (const auto* ins = op->inputIndexes())
            for (uint32_t k = 0; k < ins->size(); ++k) consumed[ins->Get(k)] = true;
        for (uint32_t k = 0; k < op->outputIndexes()->size(); ++k) {
            const int32_t t = op->outputIndexes()->Get(k);
            if (b.tensors[t].id == kNoTensor)
                fail(ErrorKind::Internal, b.describe() + ": output " + std::to_string(k) + " was not mapped");
        }
    }
    return consumed;
}

// The model's outputs: Net.outputName, else the tensors no op consumes (in the order they are produced).
std::vector<int32_t> output_tensors(const MNN::Net* net, const std::vector<uint32_t>& order,
                                    const std::vector<bool>& consumed) {
    const OpList* ops = net->oplists();
    const NameList* names = net->tensorName();
    std::vector<int32_t> outs;
    if (net->outputName() && net->outputName()->size() > 0) {
        std::unordered_map<std::string, int32_t> by_name;
        for (uint32_t t = 0; t < names->size(); ++t) by_name.emplace(names->Get(t)->str(), static_cast<int32_t>(t));
        for (uint32_t k = 0; k < net->outputName()->size(); ++k) {
            const std::string name = net->outputName()->Get(k)->str();
            const auto it = by_name.find(name);
            if (it == by_name.end()) bad("output " + std::to_string(k) + " '" + name + "' is not a tensor of the model");
            outs.push_back(it->second);
        }
    } else {
        for (uint32_t i : order) {
            const auto* o = ops->Get(i)->outputIndexes();
            for (uint32_t k = 0; k < o->size(); ++k)
                if (!consumed[o->Get(k)]) outs.push_back(o->Get(k));
        }
    }
    return outs;
}

// One Output node and binding per distinct output tensor that is not a folded constant.
void bind_outputs(Graph& g, const NameList* names, const std::vector<int32_t>& outs,
                  const std::vector<uint32_t>& producer, mnn::Builder& b) {
    std::vector<bool> bound(names->size(), false);
    for (int32_t t : outs) {
        if (bound[t]) continue;
        bound[t] = true;
        b.op_name = names->Get(t)->str();
        const TensorId id = b.file_order(t);  // outputs keep the file's dimension order
        if (g.tensor(id).is_constant()) continue;  // a folded shape computation: nothing to run
        Node n;
        n.op = OpKind::Output;
        n.name = names->Get(t)->str();
        n.source_index = producer[t];
        n.inputs = {id};
        n.attrs = BindingAttrs{static_cast<int32_t>(g.outputs.size())};
        Binding bd;
        bd.name = n.name;
        bd.id = static_cast<int32_t>(g.outputs.size());
        bd.tensor = id;
        g.outputs.push_back(bd);
        g.nodes.push_back(std::move(n));
    }
    if (g.outputs.empty()) bad("the model has no outputs (every tensor is consumed or constant)");
}

void check_input_shape_names(const Graph& g, const LoadOptions& options) {
    for (const auto& [name, shape] : options.input_shapes) {
        bool found = false;
        for (const Binding& in : g.inputs) found = found || in.name == name;
        if (!found) fail(ErrorKind::BadInput, "--input-shape names '" + name + "', which is not an input of the model");
    }
}

}  // namespace

bool looks_like_mnn(const uint8_t* data, size_t size) {
    if (!data || reinterpret_cast<uintptr_t>(data) % 8 != 0) {
        // The verifier checks alignment relative to the buffer start; an unaligned caller buffer is copied.
        std::vector<uint8_t> copy(data, data + size);
        return verifies(copy.data(), copy.size()) && has_ops_and_tensors(flatbuffers::GetRoot<MNN::Net>(copy.data()));
    }
    return verifies(data, size) && has_ops_and_tensors(flatbuffers::GetRoot<MNN::Net>(data));
}

Graph load_mnn(const uint8_t* data, size_t size, std::shared_ptr<ConstantStorage> keepalive,
               const LoadOptions& options) {
    Graph g;
    const MNN::Net* net = verified_net(g, data, size, std::move(keepalive));
    mnn::Builder b(g, net, options);
    const Dataflow df = index_dataflow(net->oplists(), net->tensorName(), b);
    const std::vector<uint32_t> order = topological_order(net->oplists(), df.deps);
    const std::vector<bool> consumed = map_ops(net->oplists(), net->tensorName()->size(), order, b);
    if (g.inputs.empty()) bad("the model has no Input op");
    bind_outputs(g, net->tensorName(), output_tensors(net, order, consumed), df.producer, b);
    check_input_shape_names(g, options);
    return g;
}

}  // namespace npurun

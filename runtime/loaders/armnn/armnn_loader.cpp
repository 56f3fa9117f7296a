#include "runtime/loaders/armnn/armnn_loader.h"

#include <cstring>
#include <map>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "ArmnnSchema_generated.h"
#include "core/error.h"
#include "runtime/loaders/armnn/layer_mapping.h"
#include "runtime/loaders/armnn/layer_union.h"
#include "runtime/loaders/armnn/tensor_decoding.h"
#include "runtime/loaders/model_bytes.h"

namespace npurun {

namespace fb = armnnSerializer;
using armnn::FeatureVersions;

namespace {

[[noreturn]] void bad(const std::string& msg) { fail(ErrorKind::BadModel, msg); }

// What the loader knows about one entry of SerializedGraph.layers.
struct FileLayer {
    uint32_t position = 0;  // in the layers vector
    uint32_t index = 0;     // LayerBase.index: what connections and (scheme 0) bindings refer to
    fb::Layer type = fb::Layer::NONE;
    const fb::AnyLayer* any = nullptr;
    const fb::LayerBase* base = nullptr;
    std::string name;
    std::string description;          // "layer 3 'conv' (Convolution2d)"
    std::vector<TensorId> outputs;    // by output slot index
    std::vector<uint32_t> producers;  // positions of the layers feeding the input slots (with repeats)
};

std::string describe(uint32_t index, const std::string& name, const std::string& type) {
    std::string s = "layer " + std::to_string(index);
    if (!name.empty()) s += " '" + name + "'";
    return s + " (" + type + ")";
}

// Runs f(); an Error(BadModel) thrown inside gets the layer description as prefix.
template <class F>
void in_layer(const FileLayer& l, F f) {
    try {
        f();
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::BadModel) throw;
        bad(l.description + ": " + e.what());
    }
}

FeatureVersions read_feature_versions(const fb::SerializedGraph* sg) {
    FeatureVersions fv;
    if (const auto* v = sg->featureVersions()) {
        fv.binding_ids_scheme = v->bindingIdsScheme();
        fv.weights_layout_scheme = v->weightsLayoutScheme();
        fv.constant_tensors_as_inputs = v->constantTensorsAsInputs();
    }
    // Values above 1 come from a future Arm NN whose meaning this reader cannot know.
    if (fv.binding_ids_scheme > 1) bad("unknown featureVersions.bindingIdsScheme " + std::to_string(fv.binding_ids_scheme));
    if (fv.weights_layout_scheme > 1) bad("unknown featureVersions.weightsLayoutScheme " + std::to_string(fv.weights_layout_scheme));
    if (fv.constant_tensors_as_inputs > 1)
        bad("unknown featureVersions.constantTensorsAsInputs " + std::to_string(fv.constant_tensors_as_inputs));
    return fv;
}

// Returns the slot vector entries ordered by their `index` field (which is what connections and Arm NN's
// reader use), checking that the indices are exactly 0..n-1.
template <class Slot>
std::vector<const Slot*> slots_by_index(const flatbuffers::Vector<flatbuffers::Offset<Slot>>* v, const char* what) {
    std::vector<const Slot*> out(v ? v->size() : 0, nullptr);
    if (!v) return out;
    for (uint32_t i = 0; i < v->size(); ++i) {
        const Slot* s = v->Get(i);
        const uint32_t k = s->index();
        if (k >= out.size())
            bad(std::string(what) + " slot index " + std::to_string(k) + " is out of range (the layer has " +
                std::to_string(out.size()) + ")");
        if (out[k]) bad(std::string("duplicate ") + what + " slot index " + std::to_string(k));
        out[k] = s;
    }
    return out;
}

// A layer whose union type this reader does not know: named by its index and name when its base can be read
// safely, else by its position.
[[noreturn]] void bad_unknown_layer(const uint8_t* data, size_t size, const FileLayer& l) {
    const uint32_t p = l.position;
    // Name the layer by its index when its base can be read safely, else by its position.
    std::string who = "layer at position " + std::to_string(p);
    if (const fb::LayerBase* b = armnn::unknown_layer_base(data, size, l.any)) {
        who = "layer " + std::to_string(b->index());
        if (b->layerName() && b->layerName()->size() > 0) who += " '" + b->layerName()->str() + "'";
        who += " (position " + std::to_string(p) + ")";
    }
    bad(who + ": " +
        (l.type == fb::Layer::NONE ? std::string("layer type is NONE")
                                   : "unknown layer type " + std::to_string(static_cast<int>(l.type))) +
        " (this reader knows types 1.." + std::to_string(armnn::kMaxKnownLayerType) +
        " of the Arm NN schema; the file may come from a newer Arm NN)");
}

// Copies the bytes when they are misaligned or not kept alive, verifies the buffer and returns its root;
// `data` then points at the bytes the graph's constants will view.
const fb::SerializedGraph* verified_root(Graph& g, const uint8_t*& data, size_t size,
                                         std::shared_ptr<ConstantStorage> keepalive) {
    hold_model_bytes(g, data, size, std::move(keepalive));

    // The file is untrusted: verify every offset and vector before touching anything. The identifier is not
    // required because no Arm NN serializer writes it (only flatc-made files carry "ARMN").
    flatbuffers::Verifier verifier(data, size, model_verifier_options());
    if (!verifier.VerifyBuffer<fb::SerializedGraph>(nullptr))
        bad("not a valid Arm NN model: the FlatBuffers verifier rejected the file (truncated, corrupt, or not an .armnn file)");
    return flatbuffers::GetRoot<fb::SerializedGraph>(data);
}

// Moves `nodes` (one per file layer, by position) into `g` in a deterministic topological order, or names a
// layer on a cycle.
void order_nodes(Graph& g, std::vector<Node>& nodes, const std::vector<FileLayer>& fl) {
    const uint32_t n_layers = static_cast<uint32_t>(fl.size());
    // ---- 5. deterministic topological order (Kahn; ready layers leave in file order) ----
    std::vector<uint32_t> pending(n_layers, 0);
    std::vector<std::vector<uint32_t>> consumers(n_layers);
    for (const FileLayer& l : fl) {
        for (uint32_t p : l.producers) {
            consumers[p].push_back(l.position);
            ++pending[l.position];
        }
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;
    for (uint32_t p = 0; p < n_layers; ++p)
        if (pending[p] == 0) ready.push(p);
    g.nodes.reserve(n_layers);
    while (!ready.empty()) {
        const uint32_t p = ready.top();
        ready.pop();
        g.nodes.push_back(std::move(nodes[p]));
        for (uint32_t c : consumers[p])
            if (--pending[c] == 0) ready.push(c);
    }
    if (g.nodes.size() != n_layers) {
        // Some layers wait on each other. Walking backwards through not-yet-emitted producers n times from
        // any of them is guaranteed to end on a layer that lies on a cycle (not merely downstream of one).
        uint32_t p = 0;
        while (pending[p] == 0) ++p;
        for (uint32_t step = 0; step < n_layers; ++step) {
            for (uint32_t q : fl[p].producers) {
                if (pending[q] != 0) {
                    p = q;
                    break;
                }
            }
        }
        bad(fl[p].description + " is part of a cycle (the graph must be acyclic)");
    }
}

}  // namespace

Graph load_armnn(const uint8_t* data, size_t size, std::shared_ptr<ConstantStorage> keepalive) {
    if (!data || size == 0) bad("the model is empty");
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
        bad("the model is " + std::to_string(size) + " bytes, above the FlatBuffers limit of 2 GiB");

    Graph g;
    const fb::SerializedGraph* sg = verified_root(g, data, size, std::move(keepalive));

    const FeatureVersions fv = read_feature_versions(sg);
    const auto* layers = sg->layers();
    if (!layers || layers->size() == 0) bad("the model has no layers");
    const uint32_t n_layers = layers->size();

    // ---- 1. identify every layer ----
    std::vector<FileLayer> fl(n_layers);
    std::unordered_map<uint32_t, uint32_t> position_of_index;
    for (uint32_t p = 0; p < n_layers; ++p) {
        FileLayer& l = fl[p];
        l.position = p;
        l.any = layers->Get(p);
        l.type = l.any->layer_type();
        if (!armnn::is_known_layer_type(l.type)) bad_unknown_layer(data, size, l);
        l.base = armnn::layer_base(l.any);
        const std::string type_name = armnn::layer_type_name(l.type);
        if (!l.base) bad("layer at position " + std::to_string(p) + " (" + type_name + ") has no layer table or no base");
        l.index = l.base->index();
        l.name = l.base->layerName() ? l.base->layerName()->str() : std::string();
        l.description = describe(l.index, l.name, type_name);
        auto [it, inserted] = position_of_index.emplace(l.index, p);
        if (!inserted)
            bad(l.description + ": index " + std::to_string(l.index) + " is also used by the layer at position " +
                std::to_string(it->second));
    }

    // ---- 2. output slots -> tensors (Constant layers attach their data here) ----
    for (FileLayer& l : fl) {
        in_layer(l, [&] {
            const auto slots = slots_by_index(l.base->outputSlots(), "output");
            for (uint32_t k = 0; k < slots.size(); ++k) {
                Tensor t;
                t.name = (l.name.empty() ? "layer" + std::to_string(l.index) : l.name) + ":" + std::to_string(k);
                try {
                    t.info = armnn::decode_tensor_info(slots[k]->tensorInfo());
                } catch (const Error& e) {
                    bad("output slot " + std::to_string(k) + ": " + e.what());
                }
                if (l.type == fb::Layer::ConstantLayer) {
                    armnn::ConstView c;
                    try {
                        c = armnn::decode_const_tensor(l.any->layer_as_ConstantLayer()->input());
                    } catch (const Error& e) {
                        bad(std::string("constant: ") + e.what());
                    }
                    // Arm NN takes the output info from the constant itself; a disagreeing slot is corrupt.
                    if (c.info.shape != t.info.shape || c.info.dtype != t.info.dtype)
                        bad("constant is " + c.info.str() + " but its output slot declares " + t.info.str());
                    t.info = c.info;
                    t.data = armnn::place_constant(g, c);
                }
                l.outputs.push_back(g.add_tensor(std::move(t)));
            }
        });
    }

    // ---- 3. input slots -> connections, then map every layer to a node ----
    std::vector<Node> nodes(n_layers);
    for (FileLayer& l : fl) {
        Node& n = nodes[l.position];
        n.name = l.name;
        n.source_index = l.index;
        n.outputs = l.outputs;
        in_layer(l, [&] {
            const auto slots = slots_by_index(l.base->inputSlots(), "input");
            for (uint32_t k = 0; k < slots.size(); ++k) {
                const fb::Connection* c = slots[k]->connection();
                if (!c) bad("input slot " + std::to_string(k) + " is not connected");
                // Later Arm NN releases may give a slot a TensorInfo of its own; which descriptor the
                // consumer then computes with is not settled here, so such files are refused by name.
                if (slots[k]->isOverridden())
                    bad("input slot " + std::to_string(k) + " overrides the producer's tensor info "
                        "(isOverridden), which this reader does not support");
                const auto src = position_of_index.find(c->sourceLayerIndex());
                if (src == position_of_index.end())
                    bad("input slot " + std::to_string(k) + " refers to layer index " +
                        std::to_string(c->sourceLayerIndex()) + ", which does not exist");
                const FileLayer& producer = fl[src->second];
                if (c->outputSlotIndex() >= producer.outputs.size())
                    bad("input slot " + std::to_string(k) + " refers to output slot " +
                        std::to_string(c->outputSlotIndex()) + " of " + producer.description + ", which has " +
                        std::to_string(producer.outputs.size()) + " output slots");
                n.inputs.push_back(producer.outputs[c->outputSlotIndex()]);
                l.producers.push_back(producer.position);
            }
            armnn::map_layer(g, fv, l.any, n);
        });
    }

    // ---- 4. bindings ----
    // Scheme 0 (files before 20.02): inputIds/outputIds hold LayerBase.index of the Input/Output layers.
    // Scheme 1: they hold layerBindingIds. Either way the binding id exposed is the layer's layerBindingId.
    auto bind = [&](const flatbuffers::Vector<int32_t>* ids, fb::Layer want, const char* role, std::vector<Binding>& out) {
        std::vector<bool> used(n_layers, false);
        if (ids) {
            for (uint32_t i = 0; i < ids->size(); ++i) {
                const int32_t id = ids->Get(i);
                uint32_t found = n_layers;
                if (fv.binding_ids_scheme == 0) {
                    const auto it = position_of_index.find(static_cast<uint32_t>(id));
                    if (it != position_of_index.end() && fl[it->second].type == want) found = it->second;
                } else {
                    for (const FileLayer& l : fl) {
                        if (l.type != want || nodes[l.position].attr<BindingAttrs>().binding_id != id) continue;
                        if (found != n_layers)
                            bad(std::string(role) + " binding id " + std::to_string(id) + " is used by " +
                                fl[found].description + " and " + l.description);
                        found = l.position;
                    }
                }
                if (found == n_layers)
                    bad(std::string(role) + " " + std::to_string(i) + ": no " + role + " layer with " +
                        (fv.binding_ids_scheme == 0 ? "layer index " : "binding id ") + std::to_string(id));
                if (used[found]) bad(fl[found].description + " is listed twice as a model " + role);
                used[found] = true;
                const Node& n = nodes[found];
                Binding b;
                b.name = n.name;
                b.id = n.attr<BindingAttrs>().binding_id;
                b.tensor = want == fb::Layer::InputLayer ? n.outputs.at(0) : n.inputs.at(0);
                out.push_back(b);
            }
        }
        for (const FileLayer& l : fl)
            if (l.type == want && !used[l.position])
                bad(l.description + " is not listed among the model's " + role + "s");
    };
    bind(sg->inputIds(), fb::Layer::InputLayer, "input", g.inputs);
    bind(sg->outputIds(), fb::Layer::OutputLayer, "output", g.outputs);
    if (g.outputs.empty()) bad("the model has no outputs");

    order_nodes(g, nodes, fl);
    return g;
}

}  // namespace npurun

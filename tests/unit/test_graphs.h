// Helpers to build small graphs in code for the planner and executor tests.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace npurun::testing {

inline TensorId add_value(Graph& g, const std::string& name, Shape shape, DataType dt = DataType::Float32) {
    Tensor t;
    t.name = name;
    t.info.dtype = dt;
    t.info.shape = shape;
    return g.add_tensor(std::move(t));
}

inline TensorId add_constant(Graph& g, const std::string& name, Shape shape, const std::vector<float>& values) {
    Tensor t;
    t.name = name;
    t.info.shape = shape;
    uint8_t* data = g.allocate_owned(values.size() * sizeof(float));
    std::copy(values.begin(), values.end(), reinterpret_cast<float*>(data));
    t.data = data;
    return g.add_tensor(std::move(t));
}

inline void add_input(Graph& g, const std::string& name, TensorId t, int32_t id) {
    Node n;
    n.op = OpKind::Input;
    n.name = name;
    n.source_index = uint32_t(g.nodes.size());
    n.outputs = {t};
    n.attrs = BindingAttrs{id};
    g.nodes.push_back(n);
    g.inputs.push_back({name, id, t});
}

inline void add_output(Graph& g, const std::string& name, TensorId t, int32_t id) {
    Node n;
    n.op = OpKind::Output;
    n.name = name;
    n.source_index = uint32_t(g.nodes.size());
    n.inputs = {t};
    n.attrs = BindingAttrs{id};
    g.nodes.push_back(n);
    g.outputs.push_back({name, id, t});
}

inline void add_node(Graph& g, OpKind op, const std::string& name, std::vector<TensorId> in, std::vector<TensorId> out,
                     OpAttrs attrs = {}) {
    Node n;
    n.op = op;
    n.name = name;
    n.source_index = uint32_t(g.nodes.size());
    n.inputs = std::move(in);
    n.outputs = std::move(out);
    n.attrs = std::move(attrs);
    g.nodes.push_back(std::move(n));
}

}  // namespace npurun::testing

// Model loading: the loader builds the graph, op validation checks it; only then is it a Model.
#include "include/npurun/npurun.hpp"
#include "runtime/loaders/load_model.h"
#include "ir/ops/op_semantics.h"

namespace npurun {

std::shared_ptr<const Model> Model::load(const std::string& path) {
    Graph g = load_model_file(path);
    validate_graph(g);
    return std::make_shared<const Model>(std::move(g), path);
}

std::shared_ptr<const Model> Model::load_from_memory(const void* data, size_t size, const std::string& origin) {
    Graph g = load_model_memory(static_cast<const uint8_t*>(data), size, origin);
    validate_graph(g);
    return std::make_shared<const Model>(std::move(g), origin);
}

}  // namespace npurun

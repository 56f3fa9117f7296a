// Entry points of the model loaders (implemented by runtime/loaders/): bytes in, format-neutral Graph out.
// Every malformed file is an Error(BadModel) naming the problem.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/graph/graph.h"

namespace npurun {

Graph load_model_file(const std::string& path);
Graph load_model_memory(const void* data, size_t size, const std::string& origin);

}  // namespace npurun

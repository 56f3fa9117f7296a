// Op semantics: checks every node's operands and attributes and infers output shapes (implemented in
// runtime/ops/). Throws Error(BadModel) naming the layer and the problem.
#pragma once

#include "runtime/graph/graph.h"

namespace npurun {

void validate_graph(const Graph& graph);

}  // namespace npurun

// Op semantics independent of any kernel: for every OpKind, how its output descriptors follow from its
// input descriptors and attributes, and which operands and attributes are valid.
//
// Loaders call validate_graph() once the IR is built; kernels (ref, NEON) and the NPU lowering may then
// rely on every node having the operand count, dtypes, ranks and attribute ranges its infer function
// checks, and on declared output shapes being the inferred ones.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace npurun {

namespace ops {

// Computes a node's output descriptors (shape, dtype, and quantization where the op implies it) from its
// inputs and attributes. Where the file alone decides (e.g. the dtype of a Quantize output, the scale of
// a convolution output) the declared output is taken and checked for admissibility. Throws
// Error(BadModel, "<node.describe()>: <problem>") for invalid operands or attributes.
using InferFn = std::vector<TensorInfo> (*)(const Node& node, const Graph& graph);

// The infer function of an op kind; nullptr when its semantics are not implemented yet.
InferFn infer_fn(OpKind kind);

// infer_fn(node.op)(node, graph), or Error(Unsupported, "<layer>: <Op> is not supported yet").
std::vector<TensorInfo> infer_outputs(const Node& node, const Graph& graph);

}  // namespace ops

// Runs every node in order: tensor ids in range, every consumed tensor produced earlier (or constant),
// no tensor produced twice, the inferred output descriptors equal the declared ones (shape and dtype).
// Throws npurun::Error naming the layer and the problem.
void validate_graph(const Graph& graph);

}  // namespace npurun

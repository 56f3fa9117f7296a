#include <string>
#include <vector>

#include "core/error.h"
#include "ir/ops/infer_helpers.h"
#include "ir/ops/op_semantics.h"

namespace npurun {

void validate_graph(const Graph& graph) {
    const size_t num_tensors = graph.tensors.size();
    // available: the value exists when a node runs (constant data or an earlier producer).
    // produced:  some node already wrote it (a tensor has at most one producer).
    std::vector<uint8_t> available(num_tensors, 0), produced(num_tensors, 0);
    for (size_t t = 0; t < num_tensors; ++t)
        if (graph.tensors[t].is_constant()) available[t] = 1;

    for (const Node& node : graph.nodes) {
        for (size_t i = 0; i < node.inputs.size(); ++i) {
            const TensorId id = node.inputs[i];
            if (id == kNoTensor) continue;  // absent optional operand; the infer function decides
            if (id >= num_tensors)
                fail(ErrorKind::BadModel, node.describe() + ": input " + std::to_string(i) + " refers to tensor " +
                                              std::to_string(id) + ", which does not exist");
            if (!available[id])
                fail(ErrorKind::BadModel, node.describe() + ": input " + std::to_string(i) + " ('" +
                                              graph.tensors[id].name + "') is consumed before it is produced");
        }
        for (size_t i = 0; i < node.outputs.size(); ++i) {
            const TensorId id = node.outputs[i];
            if (id >= num_tensors)
                fail(ErrorKind::BadModel, node.describe() + ": output " + std::to_string(i) + " refers to tensor " +
                                              std::to_string(id) + ", which does not exist");
            const std::string what = "output " + std::to_string(i);
            ops::expect_valid_quantization(node, graph.tensors[id].info, what.c_str());
            if (produced[id])
                fail(ErrorKind::BadModel, node.describe() + ": output " + std::to_string(i) + " ('" +
                                              graph.tensors[id].name + "') is already produced by another layer");
        }

        const std::vector<TensorInfo> inferred = ops::infer_outputs(node, graph);
        if (inferred.size() != node.outputs.size())
            fail(ErrorKind::Internal, node.describe() + ": shape inference returned " +
                                          std::to_string(inferred.size()) + " outputs for " +
                                          std::to_string(node.outputs.size()));
        for (size_t i = 0; i < inferred.size(); ++i) {
            const TensorInfo& declared = graph.tensors[node.outputs[i]].info;
            if (declared.shape != inferred[i].shape)
                fail(ErrorKind::BadModel, node.describe() + ": output " + std::to_string(i) + " is declared as " +
                                              declared.shape.str() + " but the layer computes " +
                                              inferred[i].shape.str());
            if (declared.dtype != inferred[i].dtype)
                fail(ErrorKind::BadModel, node.describe() + ": output " + std::to_string(i) + " is declared as " +
                                              to_string(declared.dtype) + " but the layer produces " +
                                              to_string(inferred[i].dtype));
            (void)declared.num_bytes();  // rejects outputs too large to allocate (throws BadModel)
            available[node.outputs[i]] = 1;
            produced[node.outputs[i]] = 1;
        }
    }
}

}  // namespace npurun

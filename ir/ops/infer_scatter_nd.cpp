// ScatterNd (Arm NN layer type 72): N updates, each written at one position of the first K output dimensions
// and covering the remaining dimensions whole. The checks are those of Arm NN's reference workload (ranks,
// trailing dimensions, index bounds, no position twice for Update), done here for constant operands so a bad
// file fails at load; the kernel repeats the index checks for indices computed at run time.
#include <set>
#include <string>

#include "ir/ops/infer_fns.h"
#include "ir/ops/infer_helpers.h"

namespace npurun::ops {
namespace {

const std::initializer_list<DataType> kScatterTypes = {DataType::Float32,  DataType::Float16, DataType::QAsymmU8,
                                                       DataType::QAsymmS8, DataType::QSymmS8, DataType::QSymmS16,
                                                       DataType::Signed32};

// Without a data input, input 0 holds the output shape; shape inference needs its values, so it must be constant.
Shape shape_operand(const Node& node, const Graph& graph) {
    const TensorInfo& s = input(node, graph, 0);
    expect_dtype(node, s, "shape", {DataType::Signed32});
    expect_rank(node, s, "shape", 1);
    const Tensor& st = graph.tensor(node.inputs[0]);
    if (!st.is_constant()) bad(node, "the output shape (input 0) is computed at run time; only a constant shape is supported");
    if (s.shape[0] == 0 || s.shape[0] > kMaxRank)
        bad(node, "shape has " + std::to_string(s.shape[0]) + " dimensions (1.." + std::to_string(kMaxRank) + " supported)");
    const int32_t* v = static_cast<const int32_t*>(st.data);
    Shape out;
    out.rank = s.shape[0];
    for (uint32_t d = 0; d < out.rank; ++d) {
        if (v[d] <= 0) bad(node, "shape dimension " + std::to_string(d) + " is " + std::to_string(v[d]) + " (must be positive)");
        out.dims[d] = static_cast<uint32_t>(v[d]);
    }
    return out;
}

}  // namespace

std::vector<TensorInfo> infer_scatter_nd(const Node& node, const Graph& graph) {
    const auto& a = attrs_of<ScatterNdAttrs>(node);
    expect_inputs(node, 3, 3);
    expect_outputs(node, 1);
    const TensorInfo& upd = input(node, graph, 2);
    expect_typed(node, upd, "updates", kScatterTypes);
    Shape out;
    if (a.input_enabled) {
        const TensorInfo& x = input(node, graph, 0);
        expect_typed(node, x, "input", kScatterTypes);
        expect_same_dtype(node, x, "input", upd, "updates");
        out = x.shape;
        if (out.rank == 0) bad(node, "input is a scalar");
    } else {
        out = shape_operand(node, graph);
    }
    const TensorInfo& idx = input(node, graph, 1);
    expect_dtype(node, idx, "indices", {DataType::Signed32});
    expect_rank(node, idx, "indices", 2);
    const uint32_t n = idx.shape[0], k = idx.shape[1];
    if (n == 0) bad(node, "indices hold no position");
    if (k == 0 || k > out.rank)
        bad(node, "indices address " + std::to_string(k) + " dimensions of an output of rank " + std::to_string(out.rank));
    // updates: [N] followed by the output's dimensions K.. (the slice each position receives).
    if (upd.shape.rank != 1 + out.rank - k)
        bad(node, "updates " + upd.shape.str() + " should have rank " + std::to_string(1 + out.rank - k));
    if (upd.shape[0] != n)
        bad(node, "updates " + upd.shape.str() + " do not start with the " + std::to_string(n) + " positions of indices");
    for (uint32_t d = k; d < out.rank; ++d)
        if (upd.shape[1 + d - k] != out[d])
            bad(node, "updates " + upd.shape.str() + " do not match output dimension " + std::to_string(d) + " (" +
                          std::to_string(out[d]) + ")");
    const Tensor& it = graph.tensor(node.inputs[1]);
    if (it.is_constant()) {
        const int32_t* v = static_cast<const int32_t*>(it.data);
        std::set<std::vector<int32_t>> seen;
        for (uint32_t i = 0; i < n; ++i) {
            std::vector<int32_t> pos(v + size_t(i) * k, v + size_t(i) * k + k);
            for (uint32_t d = 0; d < k; ++d)
                if (pos[d] < 0 || uint32_t(pos[d]) >= out[d])
                    bad(node, "index " + std::to_string(pos[d]) + " of position " + std::to_string(i) +
                                  " is out of range for dimension " + std::to_string(out[d]));
            if (a.function == ScatterNdFunction::Update && !seen.insert(pos).second)
                bad(node, "position " + std::to_string(i) + " repeats an earlier one (Update needs distinct positions)");
        }
    }
    return {output_like(node, graph, 0, out, upd.dtype)};
}

}  // namespace npurun::ops

#include "runtime/exec/kernel_node_view.h"

#include <utility>

#include "core/error.h"

namespace npurun::exec {

KernelNodeView::KernelNodeView(const Node& node, const Graph& graph) {
    for (TensorId id : node.inputs) {
        if (id == kNoTensor) {
            inputs_.push_back(nullptr);
            constants_.push_back(nullptr);
            continue;
        }
        if (id >= graph.tensors.size()) fail(ErrorKind::BadModel, node.describe() + ": refers to a missing tensor");
        const Tensor& t = graph.tensors[id];
        inputs_.push_back(&t.info);
        constants_.push_back(t.is_constant() ? t.data : nullptr);
    }
    for (TensorId id : node.outputs) {
        if (id == kNoTensor || id >= graph.tensors.size())
            fail(ErrorKind::BadModel, node.describe() + ": an output refers to a missing tensor");
        outputs_.push_back(&graph.tensors[id].info);
    }
    view_.op = node.op;
    view_.attrs = &node.attrs;
    view_.inputs = inputs_.size();
    view_.outputs = outputs_.size();
    view_.input_infos = inputs_.data();
    view_.output_infos = outputs_.data();
    view_.constants = constants_.data();
}

KernelNodeView::KernelNodeView(KernelNodeView&& other) noexcept
    : inputs_(std::move(other.inputs_)),
      outputs_(std::move(other.outputs_)),
      constants_(std::move(other.constants_)),
      view_(other.view_) {}

void* prepare_standalone(const kernels::Kernel& k, const kernels::KernelNode& node, std::vector<uint8_t>& storage) {
    const size_t bytes = k.state_bytes != nullptr && k.prepare != nullptr ? k.state_bytes(node) : 0;
    if (bytes == 0) return nullptr;
    storage.assign(bytes + 64, 0);
    const uintptr_t p = reinterpret_cast<uintptr_t>(storage.data());
    void* state = reinterpret_cast<void*>((p + 63) & ~uintptr_t(63));
    k.prepare(kernels::PrepareArgs{node, state});
    return state;
}

}  // namespace npurun::exec

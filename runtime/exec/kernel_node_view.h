// The runtime's side of the kernel contract (kernels/kernel.h): a graph node adapted to the plain
// KernelNode a kernel sees, owning the descriptor and constant-pointer arrays the view points into.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel.h"

namespace npurun::exec {

class KernelNodeView {
public:
    KernelNodeView(const Node& node, const Graph& graph);
    KernelNodeView(const KernelNodeView&) = delete;
    KernelNodeView& operator=(const KernelNodeView&) = delete;
    KernelNodeView(KernelNodeView&& other) noexcept;  // the arrays' storage moves with them: views stay valid
    KernelNodeView& operator=(KernelNodeView&&) = delete;

    const kernels::KernelNode& view() const { return view_; }
    operator const kernels::KernelNode&() const { return view_; }

private:
    std::vector<const TensorInfo*> inputs_, outputs_;
    std::vector<const void*> constants_;
    kernels::KernelNode view_;
};

// Runs k's prepare for a node outside a Session (tests, benchmarks). `storage` holds the state; returns the
// pointer to pass as KernelArgs::state (nullptr: none).
void* prepare_standalone(const kernels::Kernel& k, const kernels::KernelNode& node, std::vector<uint8_t>& storage);

}  // namespace npurun::exec

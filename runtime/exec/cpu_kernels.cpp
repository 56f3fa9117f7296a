// The CPU backend's kernel choice. Its own file so that code which builds sessions over other kernels
// (tests) does not link the reference kernel library.
#include "kernels/ref/registry.h"
#include "runtime/exec/session_factory.h"
#include "runtime/exec/session_impl.h"

namespace npurun {

exec::KernelSelector SessionFactory::cpu_kernels() {
    // The NEON kernels will be preferred here when they can run a node; kernels/ref covers every op.
    return [](const Node& node, const Graph&) { return kernels::ref_kernel(node.op); };
}

// The public constructor lives with the CPU kernel choice for the same linking reason.
Session::Session(std::shared_ptr<const Model> model, const SessionOptions& options)
    : impl_(std::move(SessionFactory::create(std::move(model), options, SessionFactory::cpu_kernels())->impl_)) {}

}  // namespace npurun

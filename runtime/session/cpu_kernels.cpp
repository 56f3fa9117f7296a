// The CPU backend's kernel choice. Its own file so that code which builds sessions over other kernels
// (tests) does not link the reference kernel library.
#include <cstdlib>
#include <cstring>

#include "kernels/neon/cpu_features.h"
#include "kernels/neon/registry.h"
#include "kernels/neon/thread_pool.h"
#include "kernels/ref/fp16_arithmetic.h"
#include "kernels/ref/registry.h"
#include "runtime/exec/kernel_node_view.h"
#include "runtime/session/session_factory.h"
#include "runtime/session/session_impl.h"

namespace npurun {

exec::KernelSelector SessionFactory::cpu_kernels(bool fp16_arithmetic) {
    // The NEON kernel when it covers the node (its check() accepts it), otherwise kernels/ref, which
    // covers every op. NPURUN_KERNELS=ref selects the reference kernels only (benchmarks, bisecting);
    // NPURUN_KERNELS=no-i8mm the NEON kernels without the i8mm GEMM micro-kernel (SDOT instead where the CPU has
    // both: the on/off comparison of the i8mm path, which is otherwise taken whenever the CPU has it).
    const char* env = std::getenv("NPURUN_KERNELS");
    const bool ref_only = env != nullptr && std::strcmp(env, "ref") == 0;
    if (env != nullptr && std::strcmp(env, "no-i8mm") == 0) kernels::neon::set_i8mm(false);
    // fp16_arithmetic (SessionOptions::cpu_fp16): the fp16-arithmetic kernel first where it covers the node; under
    // NPURUN_KERNELS=ref its reference kernel (kernels/ref/fp16_arithmetic.h), so both modes keep one semantics.
    return [ref_only, fp16_arithmetic](const Node& node, const Graph& graph) -> const kernels::Kernel* {
        const exec::KernelNodeView view(node, graph);
        auto accepts = [&view](const kernels::Kernel* k) { return k != nullptr && k->check(view).empty(); };
        if (fp16_arithmetic) {
            const kernels::Kernel* k =
                ref_only ? kernels::ref_fp16_arithmetic_kernel(node.op) : kernels::neon_fp16_arithmetic_kernel(node.op);
            if (accepts(k)) return k;
        }
        if (!ref_only && accepts(kernels::neon_kernel(node.op))) return kernels::neon_kernel(node.op);
        return kernels::ref_kernel(node.op);
    };
}

// The public constructor lives with the CPU kernel choice for the same linking reason.
// The NEON kernels share one process-wide thread pool, sized here from the session's options.
namespace {
const SessionOptions& checked_cpu_fp16(const SessionOptions& options) {
    if (options.cpu_fp16 && !kernels::neon::fp16_arithmetic_available())
        fail(ErrorKind::Unsupported,
             "fp16 arithmetic on the CPU needs an aarch64 CPU with FEAT_FP16 (ARMv8.2-A half "
             "precision, e.g. RK3588's Cortex-A76/A55); this one has none");
    return options;
}
}  // namespace

Session::Session(std::shared_ptr<const Model> model, const SessionOptions& options)
    : impl_((kernels::neon::set_num_threads(options.threads == 0 ? 1 : options.threads),
             std::move(SessionFactory::create(std::move(model), checked_cpu_fp16(options),
                                              SessionFactory::cpu_kernels(options.cpu_fp16))
                           ->impl_))) {}

}  // namespace npurun

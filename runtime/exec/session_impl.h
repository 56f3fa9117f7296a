// Internal: what a Session holds. Shared by session.cpp and cpu_kernels.cpp (the public constructor).
#pragma once

#include <memory>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/exec/executor.h"
#include "runtime/npu/npu_backend.h"

namespace npurun {

struct Session::Impl {
    std::shared_ptr<const Model> model;
    DeviceKind device;
    // Before npu and executor: both reserve in it while they are built (runtime/plan/memory_budget.h).
    std::unique_ptr<plan::MemoryBudget> budget;
    std::unique_ptr<npu::NpuBackend> npu;  // --device npu|sim: placement and compiled segments (before executor)
    exec::Executor executor;
    std::vector<TensorBinding> inputs, outputs;

    // Session::export/import_native_input/output: import_fd < 0 exports the session's own buffer.
    // `import`: bind the caller's dma-buf `fd` (a negative fd is refused); else export the session's buffer.
    NativeTensor bind_native(const TensorBinding& b, size_t i, bool output, bool import, int fd);

    Impl(std::shared_ptr<const Model> m, DeviceKind d, const exec::KernelSelector& select, bool profile,
         std::unique_ptr<npu::NpuBackend> backend = nullptr, uint64_t max_memory_bytes = 0)
        : model(std::move(m)),
          device(d),
          budget(std::make_unique<plan::MemoryBudget>(max_memory_bytes)),
          npu(std::move(backend)),
          executor(model->graph(), select, profile, "cpu", npu ? &npu->external_steps() : nullptr, budget.get()) {}
};

}  // namespace npurun

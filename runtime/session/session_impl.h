// Internal: what a Session holds. Shared by session.cpp and cpu_kernels.cpp (the public constructor).
#pragma once

#include <memory>
#include <string>
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
    // NPU failure handling (Session::run): the CPU fallback and what made the NPU unusable.
    exec::KernelSelector cpu_select;
    bool cpu_fallback = false;
    bool native_bound = false;               // a dma-buf binding exists: no fallback (its bytes are not in the arena)
    std::string npu_lost;                    // non-empty once the device is gone
    std::unique_ptr<exec::Executor> cpu_executor;  // built at the first fallback
    bool last_run_fallback = false;

    void run();
    void run_on_cpu();
    // The graph the executor runs: the NPU backend's (Lstm layers decomposed, runtime/passes/lstm_lowering.h) or
    // the model's. Its tensor ids, inputs and outputs are the model's.
    const Graph& graph() const { return npu ? npu->graph() : model->graph(); }

    // Session::export/import_native_input/output: import_fd < 0 exports the session's own buffer.
    // `import`: bind the caller's dma-buf `fd` (a negative fd is refused); else export the session's buffer.
    NativeTensor bind_native(const TensorBinding& b, size_t i, bool output, bool import, int fd);

    Impl(std::shared_ptr<const Model> m, DeviceKind d, const exec::KernelSelector& select, bool profile,
         std::unique_ptr<npu::NpuBackend> backend = nullptr, uint64_t max_memory_bytes = 0)
        : model(std::move(m)),
          device(d),
          budget(std::make_unique<plan::MemoryBudget>(max_memory_bytes)),
          npu(std::move(backend)),
          executor(npu ? npu->graph() : model->graph(), select, profile, "cpu", npu ? &npu->external_steps() : nullptr,
                   budget.get()),
          cpu_select(select) {}
};

}  // namespace npurun

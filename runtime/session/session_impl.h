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
    std::unique_ptr<npu::NpuBackend> npu;  // --device npu|sim: placement and compiled segments (before executor)
    exec::Executor executor;
    std::vector<TensorBinding> inputs, outputs;

    // Session::export/import_native_input/output: import_fd < 0 exports the session's own buffer.
    // `import`: bind the caller's dma-buf `fd` (a negative fd is refused); else export the session's buffer.
    NativeTensor bind_native(const TensorBinding& b, size_t i, bool output, bool import, int fd);

    Impl(std::shared_ptr<const Model> m, DeviceKind d, const exec::KernelSelector& select, bool profile,
         std::unique_ptr<npu::NpuBackend> backend = nullptr)
        : model(std::move(m)),
          device(d),
          npu(std::move(backend)),
          executor(model->graph(), select, profile, "cpu", npu ? &npu->external_steps() : nullptr) {}
};

}  // namespace npurun

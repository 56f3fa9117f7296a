// Internal: building a Session over an explicit kernel set. The public constructor uses the CPU backend
// (kernels/ref); tests use this to run the executor with kernels of their own, and the NEON/NPU backends
// will choose kernels per node here.
#pragma once

#include <memory>

#include "include/npurun/npurun.hpp"
#include "runtime/exec/executor.h"

namespace npurun::npu {
class NpuBackend;
}

namespace npurun {

struct SessionFactory {
    static std::unique_ptr<Session> create(std::shared_ptr<const Model> model, const SessionOptions& options,
                                           const exec::KernelSelector& select);
    // The CPU kernel selector the public Session constructor uses.
    static exec::KernelSelector cpu_kernels(bool fp16_arithmetic = false);
    // The session's NPU backend (placement, compiled segments), nullptr for a CPU session.
    static const npu::NpuBackend* npu_backend(const Session& s);
};

}  // namespace npurun

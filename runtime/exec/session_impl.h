// Internal: what a Session holds. Shared by session.cpp and cpu_kernels.cpp (the public constructor).
#pragma once

#include <memory>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/exec/executor.h"

namespace npurun {

struct Session::Impl {
    std::shared_ptr<const Model> model;
    DeviceKind device;
    exec::Executor executor;
    std::vector<TensorBinding> inputs, outputs;

    Impl(std::shared_ptr<const Model> m, DeviceKind d, const exec::KernelSelector& select, bool profile)
        : model(std::move(m)), device(d), executor(model->graph(), select, profile, to_string(d)) {}
};

}  // namespace npurun

#include <cstring>
#include <utility>

#include "include/npurun/npurun.hpp"
#include "runtime/exec/executor.h"
#include "runtime/session/session_factory.h"
#include "runtime/session/session_impl.h"
#include "core/error.h"

namespace npurun {

const char* to_string(DeviceKind d) {
    switch (d) {
        case DeviceKind::Auto: return "auto";
        case DeviceKind::Cpu: return "cpu";
        case DeviceKind::Npu: return "npu";
        case DeviceKind::Sim: return "sim";
    }
    return "?";
}

namespace {

// npu and sim get the NPU backend and fail with Error(Device) when the device cannot be opened (never
// silently the CPU). Auto takes the board's NPU when a device node is present and opens, and otherwise
// the CPU; it never picks the simulator, which is only ever chosen by name.
DeviceKind resolve_device(DeviceKind requested, const Graph& g, bool fp16, unsigned npu_cores,
                          std::unique_ptr<npu::NpuBackend>* backend) {
    if (requested == DeviceKind::Npu || requested == DeviceKind::Sim) {
        *backend = std::make_unique<npu::NpuBackend>(g, requested, fp16, npu_cores);
        return requested;
    }
    if (requested == DeviceKind::Auto) {
        try {
            *backend = std::make_unique<npu::NpuBackend>(g, DeviceKind::Npu, fp16, npu_cores);
            return DeviceKind::Npu;
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Device) throw;  // a device that opened but failed otherwise is an error
        }
    }
    return DeviceKind::Cpu;
}

TensorBinding bind(const Graph& g, exec::Executor& ex, const Binding& b) {
    TensorBinding t;
    t.name = b.name;
    t.binding_id = b.id;
    t.info = g.info(b.tensor);
    t.data = ex.tensor_data(b.tensor);
    if (t.data == nullptr) fail(ErrorKind::BadModel, "binding '" + b.name + "' has no storage");
    return t;
}

}  // namespace

std::unique_ptr<Session> SessionFactory::create(std::shared_ptr<const Model> model, const SessionOptions& options,
                                                const exec::KernelSelector& select) {
    if (!model) fail(ErrorKind::Internal, "session created without a model");
    if (options.threads == 0) fail(ErrorKind::BadInput, "the number of threads must be at least 1");
    if (options.npu_cores > 3)
        fail(ErrorKind::BadInput, "the NPU has 3 cores; " + std::to_string(options.npu_cores) + " requested");
    std::unique_ptr<npu::NpuBackend> backend;
    const DeviceKind device = resolve_device(options.device, model->graph(), options.fp16, options.npu_cores, &backend);
    auto impl = std::make_unique<Session::Impl>(std::move(model), device, select, options.profile, std::move(backend),
                                                 options.max_memory_bytes);
    const Graph& g = impl->graph();
    for (const Binding& b : g.inputs) impl->inputs.push_back(bind(g, impl->executor, b));
    for (const Binding& b : g.outputs) impl->outputs.push_back(bind(g, impl->executor, b));
    impl->cpu_fallback = impl->npu && (options.cpu_fallback || options.device == DeviceKind::Auto);
    return std::unique_ptr<Session>(new Session(std::move(impl)));
}

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

const npu::NpuBackend* SessionFactory::npu_backend(const Session& s) { return s.impl_->npu.get(); }

Session::~Session() = default;

const Model& Session::model() const { return *impl_->model; }
DeviceKind Session::device() const { return impl_->device; }
size_t Session::num_inputs() const { return impl_->inputs.size(); }
size_t Session::num_outputs() const { return impl_->outputs.size(); }

TensorBinding& Session::input(size_t i) {
    if (i >= impl_->inputs.size())
        fail(ErrorKind::BadInput, "input " + std::to_string(i) + " requested; the model has " +
                                      std::to_string(impl_->inputs.size()));
    return impl_->inputs[i];
}

const TensorBinding& Session::output(size_t i) const {
    if (i >= impl_->outputs.size())
        fail(ErrorKind::BadInput, "output " + std::to_string(i) + " requested; the model has " +
                                      std::to_string(impl_->outputs.size()));
    return impl_->outputs[i];
}

void Session::run() { impl_->run(); }
bool Session::used_cpu_fallback() const { return impl_->last_run_fallback; }

void Session::Impl::run() {
    last_run_fallback = false;
    if (!npu) {
        executor.run();
        return;
    }
    if (npu_lost.empty()) {
        try {
            executor.run();
            return;
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::Device && e.kind() != ErrorKind::Runtime) throw;
            if (e.kind() == ErrorKind::Device) npu_lost = e.what();
            if (!cpu_fallback || native_bound) throw;
        }
    } else if (!cpu_fallback || native_bound) {
        fail(ErrorKind::Device, "the session's NPU is no longer usable (" + npu_lost + "); create a new session");
    }
    run_on_cpu();
    last_run_fallback = true;
}

// The whole model on the CPU kernels, reading the inputs the user wrote into the NPU session's bindings
// and writing the outputs back there, so the caller sees no difference but the time.
void Session::Impl::run_on_cpu() {
    const Graph& g = model->graph();
    if (!cpu_executor) cpu_executor = std::make_unique<exec::Executor>(g, cpu_select, false, "cpu", nullptr, budget.get());
    for (size_t i = 0; i < inputs.size(); ++i)
        std::memcpy(cpu_executor->tensor_data(g.inputs[i].tensor), inputs[i].data, inputs[i].info.num_bytes());
    cpu_executor->run();
    for (size_t i = 0; i < outputs.size(); ++i)
        std::memcpy(outputs[i].data, cpu_executor->tensor_data(g.outputs[i].tensor), outputs[i].info.num_bytes());
}

namespace {

NativeTensor describe_native(const TensorInfo& model_info, const npu::FeatureGeometry& g) {
    NativeTensor n;
    n.h = g.h;
    n.w = g.w;
    n.c = g.c;
    n.c2 = g.c2();
    n.plane_bytes = g.plane_bytes();
    n.size_bytes = g.alloc_bytes();
    n.info = model_info;
    if (g.elem_bytes == 2) {
        n.info.dtype = DataType::Float16;
    } else {
        if (model_info.dtype == DataType::QAsymmU8) n.info.quant.offset -= 128;
        n.info.dtype = DataType::QAsymmS8;
    }
    return n;
}

}  // namespace

NativeTensor Session::export_native_input(size_t i) { return impl_->bind_native(input(i), i, false, false, -1); }
NativeTensor Session::import_native_input(size_t i, int dmabuf_fd) { return impl_->bind_native(input(i), i, false, true, dmabuf_fd); }
NativeTensor Session::export_native_output(size_t i) { return impl_->bind_native(output(i), i, true, false, -1); }
NativeTensor Session::import_native_output(size_t i, int dmabuf_fd) { return impl_->bind_native(output(i), i, true, true, dmabuf_fd); }

// `b` is binding i, already range-checked by input(i) / output(i).
NativeTensor Session::Impl::bind_native(const TensorBinding& b, size_t i, bool output, bool import, int import_fd) {
    if (import && import_fd < 0)
        fail(ErrorKind::BadInput, std::string(output ? "output '" : "input '") + b.name + "': " + std::to_string(import_fd) +
                                      " is not a dma-buf file descriptor");
    if (!npu)
        fail(ErrorKind::BadInput, std::string(output ? "output '" : "input '") + b.name +
                                      "' cannot be bound to a dma-buf: the session runs on the CPU (needs --device npu or sim)");
    const Graph& g = graph();
    const auto& bindings = output ? g.outputs : g.inputs;
    const TensorId t = bindings[i].tensor;
    npu::CompiledSegment& seg = npu->native_segment(t, output);
    native_bound = true;
    NativeTensor n = describe_native(b.info, seg.native_geometry(t));
    if (!import) {
        n.fd = seg.export_native(t, &n.data);
    } else {
        seg.import_native(t, import_fd);
        n.fd = import_fd;
    }
    return n;
}

const std::vector<LayerProfile>& Session::profile() const { return impl_->executor.profile(); }
std::vector<TraceSpan> Session::trace() const { return impl_->executor.trace(); }

MemoryPlanStats Session::memory_stats() const {
    const plan::MemoryPlan& p = impl_->executor.plan();
    MemoryPlanStats s;
    s.arena_bytes = p.arena_bytes;
    s.naive_bytes = p.naive_bytes;
    s.num_tensors = p.num_buffers;
    return s;
}

}  // namespace npurun

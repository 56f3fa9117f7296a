// The C API (include/npurun/npurun.h) over the C++ one. No exception crosses this boundary: each entry
// point catches, stores the one-line message for npurun_last_error() and returns a status.
#include "include/npurun/npurun.h"

#include <cstddef>
#include <cstring>
#include <new>
#include <string>

#include "include/npurun/npurun.hpp"
#include "core/error.h"
#include "runtime/npurun_version.h"

struct npurun_model {
    std::shared_ptr<const npurun::Model> model;
};

struct npurun_session {
    std::unique_ptr<npurun::Session> session;
};

namespace {

thread_local std::string t_last_error;

npurun_status status_of(npurun::ErrorKind k) {
    switch (k) {
        case npurun::ErrorKind::BadModel: return NPURUN_ERROR_BAD_MODEL;
        case npurun::ErrorKind::BadInput: return NPURUN_ERROR_BAD_INPUT;
        case npurun::ErrorKind::Unsupported: return NPURUN_ERROR_UNSUPPORTED;
        case npurun::ErrorKind::Device: return NPURUN_ERROR_DEVICE;
        case npurun::ErrorKind::Runtime: return NPURUN_ERROR_RUNTIME;
        case npurun::ErrorKind::Internal: return NPURUN_ERROR_INTERNAL;
    }
    return NPURUN_ERROR_INTERNAL;
}

npurun_status set_error(npurun_status s, const std::string& message) {
    t_last_error = message;
    return s;
}

// Runs `f`, translating every exception into a status and a message.
template <class F> npurun_status guarded(F&& f) {
    try {
        f();
        return NPURUN_OK;
    } catch (const npurun::Error& e) {
        return set_error(status_of(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
        return set_error(NPURUN_ERROR_INTERNAL, "out of memory");
    } catch (const std::exception& e) {
        return set_error(NPURUN_ERROR_INTERNAL, std::string("internal error: ") + e.what());
    }
}

void fill(const npurun::TensorBinding& b, npurun_tensor* t) {
    t->name = b.name.c_str();
    t->binding_id = b.binding_id;
    t->dtype = static_cast<npurun_dtype>(b.info.dtype);
    t->rank = b.info.shape.rank;
    for (uint32_t i = 0; i < NPURUN_MAX_RANK; ++i) t->dims[i] = i < b.info.shape.rank ? b.info.shape[i] : 0;
    t->scale = npurun::is_quantized(b.info.dtype) ? b.info.quant.scale() : 0.0f;
    t->zero_point = b.info.quant.offset;
    t->data = b.data;
    t->bytes = b.info.num_bytes();
}

void fill_native(const npurun::NativeTensor& n, npurun_native_tensor* t) {
    t->fd = n.fd;
    t->data = n.data;
    t->h = n.h;
    t->w = n.w;
    t->c = n.c;
    t->c2 = n.c2;
    t->plane_bytes = n.plane_bytes;
    t->size_bytes = n.size_bytes;
    t->dtype = static_cast<npurun_dtype>(n.info.dtype);
    t->scale = npurun::is_quantized(n.info.dtype) ? n.info.quant.scale() : 0.0f;
    t->zero_point = n.info.quant.offset;
}

// The four native-tensor entry points differ only in the Session call they make.
template <class Bind>
npurun_status bind_native(const char* what, npurun_session* session, npurun_native_tensor* out, Bind&& bind) {
    if (session == nullptr || out == nullptr) return set_error(NPURUN_ERROR_INVALID_ARGUMENT, std::string(what) + ": NULL argument");
    return guarded([&] { fill_native(bind(*session->session), out); });
}

}  // namespace

static_assert(NPURUN_MAX_RANK == npurun::kMaxRank, "C and C++ rank limits agree");
static_assert(int(NPURUN_BOOLEAN) == int(npurun::DataType::Boolean), "C dtype order follows npurun::DataType");

extern "C" {

const char* npurun_version(void) { return NPURUN_VERSION; }

const char* npurun_status_string(npurun_status status) {
    switch (status) {
        case NPURUN_OK: return "ok";
        case NPURUN_ERROR_BAD_MODEL: return "bad model";
        case NPURUN_ERROR_BAD_INPUT: return "bad input";
        case NPURUN_ERROR_UNSUPPORTED: return "unsupported";
        case NPURUN_ERROR_DEVICE: return "device error";
        case NPURUN_ERROR_RUNTIME: return "runtime error";
        case NPURUN_ERROR_INTERNAL: return "internal error";
        case NPURUN_ERROR_INVALID_ARGUMENT: return "invalid argument";
    }
    return "unknown status";
}

const char* npurun_last_error(void) { return t_last_error.c_str(); }

void npurun_session_options_init(npurun_session_options* options) {
    if (options == nullptr) return;
    options->device = NPURUN_DEVICE_AUTO;
    options->threads = 1;
    options->profile = 0;
    options->max_memory_bytes = 0;
}

npurun_status npurun_model_load(const char* path, npurun_model** out_model) {
    if (path == nullptr || out_model == nullptr) return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_model_load: NULL argument");
    *out_model = nullptr;
    return guarded([&] { *out_model = new npurun_model{npurun::Model::load(path)}; });
}

npurun_status npurun_model_load_memory(const void* data, size_t size, npurun_model** out_model) {
    if (data == nullptr || out_model == nullptr)
        return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_model_load_memory: NULL argument");
    *out_model = nullptr;
    return guarded([&] { *out_model = new npurun_model{npurun::Model::load_from_memory(data, size, "<memory>")}; });
}

void npurun_model_release(npurun_model* model) { delete model; }

void npurun_session_options_ext_init(npurun_session_options_ext* ext) {
    if (ext == nullptr) return;
    std::memset(ext, 0, sizeof *ext);
    ext->struct_size = sizeof *ext;
}

npurun_status npurun_session_create(const npurun_model* model, const npurun_session_options* options,
                                    npurun_session** out_session) {
    if (model == nullptr || out_session == nullptr)
        return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_session_create: NULL argument");
    return npurun_session_create_ext(model, options, nullptr, out_session);
}

npurun_status npurun_session_create_ext(const npurun_model* model, const npurun_session_options* options,
                                        const npurun_session_options_ext* ext, npurun_session** out_session) {
    if (model == nullptr || out_session == nullptr)
        return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_session_create_ext: NULL argument");
    *out_session = nullptr;
    npurun_session_options defaults;
    npurun_session_options_init(&defaults);
    const npurun_session_options& o = options ? *options : defaults;
    return guarded([&] {
        npurun::SessionOptions so;
        switch (o.device) {
            case NPURUN_DEVICE_AUTO: so.device = npurun::DeviceKind::Auto; break;
            case NPURUN_DEVICE_CPU: so.device = npurun::DeviceKind::Cpu; break;
            case NPURUN_DEVICE_NPU: so.device = npurun::DeviceKind::Npu; break;
            case NPURUN_DEVICE_SIM: so.device = npurun::DeviceKind::Sim; break;
            default: npurun::fail(npurun::ErrorKind::BadInput, "unknown device " + std::to_string(int(o.device)));
        }
        so.threads = o.threads;
        so.profile = o.profile != 0;
        so.max_memory_bytes = o.max_memory_bytes;
        if (ext != nullptr) {
            // Fields are read only as far as the caller's struct reaches (an older header's is shorter).
            const size_t size = ext->struct_size;
            if (size < sizeof ext->struct_size)
                npurun::fail(npurun::ErrorKind::BadInput, "npurun_session_options_ext.struct_size " +
                                                              std::to_string(size) +
                                                              " is too small (use npurun_session_options_ext_init)");
            if (size > sizeof *ext)
                npurun::fail(npurun::ErrorKind::Unsupported, "npurun_session_options_ext.struct_size " +
                                                                 std::to_string(size) +
                                                                 " is from a newer npurun (this library knows " +
                                                                 std::to_string(sizeof *ext) + " bytes)");
            auto has = [&](size_t offset, size_t bytes) { return offset + bytes <= size; };
            if (has(offsetof(npurun_session_options_ext, npu_fp16), sizeof ext->npu_fp16)) so.fp16 = ext->npu_fp16 != 0;
            if (has(offsetof(npurun_session_options_ext, cpu_fp16), sizeof ext->cpu_fp16))
                so.cpu_fp16 = ext->cpu_fp16 != 0;
            if (has(offsetof(npurun_session_options_ext, npu_cores), sizeof ext->npu_cores))
                so.npu_cores = ext->npu_cores;
            if (has(offsetof(npurun_session_options_ext, cpu_fallback), sizeof ext->cpu_fallback))
                so.cpu_fallback = ext->cpu_fallback != 0;
        }
        auto session = std::make_unique<npurun::Session>(model->model, so);
        *out_session = new npurun_session{std::move(session)};
    });
}

size_t npurun_session_num_inputs(const npurun_session* session) { return session ? session->session->num_inputs() : 0; }
size_t npurun_session_num_outputs(const npurun_session* session) { return session ? session->session->num_outputs() : 0; }

npurun_status npurun_session_input(npurun_session* session, size_t index, npurun_tensor* out_tensor) {
    if (session == nullptr || out_tensor == nullptr)
        return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_session_input: NULL argument");
    return guarded([&] { fill(session->session->input(index), out_tensor); });
}

npurun_status npurun_session_output(const npurun_session* session, size_t index, npurun_tensor* out_tensor) {
    if (session == nullptr || out_tensor == nullptr)
        return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_session_output: NULL argument");
    return guarded([&] { fill(session->session->output(index), out_tensor); });
}

npurun_status npurun_session_run(npurun_session* session) {
    if (session == nullptr) return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_session_run: NULL session");
    return guarded([&] { session->session->run(); });
}

npurun_status npurun_session_memory(const npurun_session* session, size_t* arena_bytes, size_t* naive_bytes) {
    if (session == nullptr) return set_error(NPURUN_ERROR_INVALID_ARGUMENT, "npurun_session_memory: NULL session");
    const npurun::MemoryPlanStats s = session->session->memory_stats();
    if (arena_bytes) *arena_bytes = s.arena_bytes;
    if (naive_bytes) *naive_bytes = s.naive_bytes;
    return NPURUN_OK;
}

npurun_status npurun_session_export_native_input(npurun_session* session, size_t index, npurun_native_tensor* out) {
    return bind_native("npurun_session_export_native_input", session, out,
                       [&](npurun::Session& s) { return s.export_native_input(index); });
}

npurun_status npurun_session_export_native_output(npurun_session* session, size_t index, npurun_native_tensor* out) {
    return bind_native("npurun_session_export_native_output", session, out,
                       [&](npurun::Session& s) { return s.export_native_output(index); });
}

npurun_status npurun_session_import_native_input(npurun_session* session, size_t index, int dmabuf_fd,
                                                 npurun_native_tensor* out) {
    return bind_native("npurun_session_import_native_input", session, out,
                       [&](npurun::Session& s) { return s.import_native_input(index, dmabuf_fd); });
}

npurun_status npurun_session_import_native_output(npurun_session* session, size_t index, int dmabuf_fd,
                                                  npurun_native_tensor* out) {
    return bind_native("npurun_session_import_native_output", session, out,
                       [&](npurun::Session& s) { return s.import_native_output(index, dmabuf_fd); });
}

void npurun_session_destroy(npurun_session* session) { delete session; }

}  // extern "C"

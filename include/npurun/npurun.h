/* npurun C API: load a model, create a session, run it. For programs that cannot use the C++ API.
 *
 *   npurun_model* model;
 *   if (npurun_model_load("model.armnn", &model) != NPURUN_OK) { puts(npurun_last_error()); ... }
 *   npurun_session* session;
 *   npurun_session_create(model, NULL, &session);      // NULL: default options (device auto)
 *   npurun_tensor in;
 *   npurun_session_input(session, 0, &in);             // in.data, in.bytes, in.dtype, in.dims ...
 *   memcpy(in.data, image, in.bytes);
 *   npurun_session_run(session);
 *   npurun_tensor out;
 *   npurun_session_output(session, 0, &out);
 *   npurun_session_destroy(session);
 *   npurun_model_release(model);
 *
 * Every function returns a status; on failure npurun_last_error() gives a one-line message (per thread,
 * valid until the next failing call on that thread). A session may be destroyed before or after its model
 * is released: the session keeps what it needs alive. A session is not safe to use from two threads at once.
 */
#ifndef NPURUN_NPURUN_H
#define NPURUN_NPURUN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum npurun_status {
    NPURUN_OK = 0,
    NPURUN_ERROR_BAD_MODEL = 1,    /* malformed or inconsistent model file */
    NPURUN_ERROR_BAD_INPUT = 2,    /* bad argument value, index out of range */
    NPURUN_ERROR_UNSUPPORTED = 3,  /* valid, but this build cannot run it */
    NPURUN_ERROR_DEVICE = 4,       /* device missing or unusable */
    NPURUN_ERROR_RUNTIME = 5,      /* failure while running */
    NPURUN_ERROR_INTERNAL = 6,     /* broken invariant, out of memory */
    NPURUN_ERROR_INVALID_ARGUMENT = 7 /* NULL where an object was required */
} npurun_status;

typedef enum npurun_device { NPURUN_DEVICE_AUTO = 0, NPURUN_DEVICE_CPU, NPURUN_DEVICE_NPU, NPURUN_DEVICE_SIM } npurun_device;

/* Same order as npurun::DataType. */
typedef enum npurun_dtype {
    NPURUN_FLOAT16 = 0,
    NPURUN_FLOAT32,
    NPURUN_QASYMM_U8,
    NPURUN_QASYMM_S8,
    NPURUN_QSYMM_S8,
    NPURUN_QSYMM_S16,
    NPURUN_SIGNED32,
    NPURUN_SIGNED64,
    NPURUN_BOOLEAN
} npurun_dtype;

#define NPURUN_MAX_RANK 6

typedef struct npurun_model npurun_model;
typedef struct npurun_session npurun_session;

typedef struct npurun_session_options {
    npurun_device device;
    unsigned threads; /* >= 1 */
    int profile;      /* non-zero: collect per-layer timings */
    /* Upper bound in bytes on what the session allocates for the model (arena, NPU buffers), checked before
     * allocating; a model needing more gets NPURUN_ERROR_UNSUPPORTED naming the size. 0: half of physical memory. */
    uint64_t max_memory_bytes;
} npurun_session_options;

/* Options added after npurun_session_options was fixed, in a struct that starts with its own size: a program
 * sets struct_size = sizeof(npurun_session_options_ext) (npurun_session_options_ext_init does), so later versions
 * can append fields without breaking programs built against this header. A library older than the caller's
 * header refuses a larger struct_size with NPURUN_ERROR_UNSUPPORTED rather than ignore what it does not know. */
typedef struct npurun_session_options_ext {
    uint32_t struct_size;
    int npu_fp16;       /* non-zero: Float32 layers may run on the NPU in fp16 (lossy; npurun --fp16) */
    int cpu_fp16;       /* non-zero: fp16 arithmetic for Float32 convolutions / fully connected layers on the CPU
                         * (lossy; npurun --cpu-fp16); needs an aarch64 CPU with FEAT_FP16, else
                         * NPURUN_ERROR_UNSUPPORTED */
    unsigned npu_cores; /* NPU cores a layer may be split over: 0 auto, 1..3 (npurun --npu-cores) */
    int cpu_fallback;   /* non-zero: an inference the NPU fails at run time runs on the CPU instead */
} npurun_session_options_ext;

/* A view of one bound input or output. `name` and `data` stay valid as long as the session. */
typedef struct npurun_tensor {
    const char* name;
    int32_t binding_id;
    npurun_dtype dtype;
    uint32_t rank;
    uint32_t dims[NPURUN_MAX_RANK];
    float scale;      /* quantization (per-tensor; 0 for float tensors) */
    int32_t zero_point;
    void* data;
    size_t bytes;
} npurun_tensor;

/* An input or output kept in the NPU's native layout (zero copy through dma-buf; see Session::
 * export_native_input in npurun.hpp). NC1HWC2: element (y, x, c) is at
 * (c / c2) * plane_bytes + (y * w + x) * 16 + (c % c2) * element size. Stored values: QAsymmS8 (a QAsymmU8
 * tensor is stored as q - 128 with zero point - 128) or Float16. */
typedef struct npurun_native_tensor {
    int fd;     /* the dma-buf: exported ones are owned by the session; imported ones stay the caller's */
    void* data; /* CPU mapping of an exported buffer; NULL for an imported one */
    uint32_t h, w, c;
    uint32_t c2;          /* channels per 16-byte atom: 16 (int8) or 8 (fp16) */
    uint64_t plane_bytes; /* pitch of one channel plane */
    uint64_t size_bytes;  /* bytes the buffer must hold */
    npurun_dtype dtype;   /* the stored type: NPURUN_QASYMM_S8 or NPURUN_FLOAT16 */
    float scale;
    int32_t zero_point;
} npurun_native_tensor;

const char* npurun_version(void);
const char* npurun_status_string(npurun_status status);
const char* npurun_last_error(void);

void npurun_session_options_init(npurun_session_options* options); /* device auto, 1 thread, no profile, default memory limit */
void npurun_session_options_ext_init(
    npurun_session_options_ext* ext); /* struct_size set, everything else 0 (off, auto) */

npurun_status npurun_model_load(const char* path, npurun_model** out_model);
npurun_status npurun_model_load_memory(const void* data, size_t size, npurun_model** out_model);
void npurun_model_release(npurun_model* model); /* NULL is allowed */

npurun_status npurun_session_create(const npurun_model* model, const npurun_session_options* options,
                                    npurun_session** out_session);
/* npurun_session_create with the extended options; ext NULL: as npurun_session_create. */
npurun_status npurun_session_create_ext(const npurun_model* model, const npurun_session_options* options,
                                        const npurun_session_options_ext* ext, npurun_session** out_session);
size_t npurun_session_num_inputs(const npurun_session* session);
size_t npurun_session_num_outputs(const npurun_session* session);
npurun_status npurun_session_input(npurun_session* session, size_t index, npurun_tensor* out_tensor);
npurun_status npurun_session_output(const npurun_session* session, size_t index, npurun_tensor* out_tensor);
npurun_status npurun_session_run(npurun_session* session);
npurun_status npurun_session_memory(const npurun_session* session, size_t* arena_bytes, size_t* naive_bytes);
/* Zero copy (NPU sessions only; an input read by the CPU or an output produced by the CPU is refused with
 * NPURUN_ERROR_BAD_INPUT naming why). Export: the session's own buffer as a dma-buf to fill / read; import:
 * the caller's dma-buf (at least size_bytes; the fd stays the caller's and must outlive the binding). After
 * binding, run() neither converts nor copies that tensor. */
npurun_status npurun_session_export_native_input(npurun_session* session, size_t index, npurun_native_tensor* out);
npurun_status npurun_session_export_native_output(npurun_session* session, size_t index, npurun_native_tensor* out);
npurun_status npurun_session_import_native_input(npurun_session* session, size_t index, int dmabuf_fd,
                                                 npurun_native_tensor* out);
npurun_status npurun_session_import_native_output(npurun_session* session, size_t index, int dmabuf_fd,
                                                  npurun_native_tensor* out);
void npurun_session_destroy(npurun_session* session); /* NULL is allowed */

#ifdef __cplusplus
}
#endif

#endif /* NPURUN_NPURUN_H */

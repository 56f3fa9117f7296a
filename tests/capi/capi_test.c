/* The C API used from C: compiled as C11, no C++ in sight. Prints one line per failed check and exits
 * non-zero if any failed. Models come from make_capi_models (argument: the directory holding them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/npurun/npurun.h"

static int failures = 0;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
                    npurun_last_error());                                                  \
            ++failures;                                                                    \
        }                                                                                  \
    } while (0)

static char* join(const char* dir, const char* name) {
    char* p = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* The model `name` in `dir`, loaded (a failed load is a failed check and gives NULL). */
static npurun_model* load_model(const char* dir, const char* name) {
    char* path = join(dir, name);
    npurun_model* model = NULL;
    CHECK(npurun_model_load(path, &model) == NPURUN_OK);
    free(path);
    return model;
}

static void errors(const char* dir) {
    npurun_model* model = (npurun_model*)1;
    char* missing = join(dir, "does-not-exist.armnn");
    CHECK(npurun_model_load(missing, &model) != NPURUN_OK);
    CHECK(model == NULL);
    CHECK(strstr(npurun_last_error(), "does-not-exist.armnn") != NULL);
    free(missing);

    static const unsigned char garbage[64] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(npurun_model_load_memory(garbage, sizeof garbage, &model) == NPURUN_ERROR_BAD_MODEL);
    CHECK(strlen(npurun_last_error()) > 0);
    CHECK(strchr(npurun_last_error(), '\n') == NULL);

    CHECK(npurun_model_load(NULL, &model) == NPURUN_ERROR_INVALID_ARGUMENT);
    CHECK(npurun_session_create(NULL, NULL, NULL) == NPURUN_ERROR_INVALID_ARGUMENT);
    CHECK(npurun_session_run(NULL) == NPURUN_ERROR_INVALID_ARGUMENT);
    CHECK(strcmp(npurun_status_string(NPURUN_ERROR_DEVICE), "device error") == 0);
    npurun_model_release(NULL);
    npurun_session_destroy(NULL);
}

static void identity(const char* dir) {
    npurun_model* model = load_model(dir, "identity.armnn");
    if (model == NULL) return;

    npurun_session_options opts;
    npurun_session_options_init(&opts);
    opts.device = NPURUN_DEVICE_NPU;
    npurun_session* session = (npurun_session*)1;
    CHECK(npurun_session_create(model, &opts, &session) == NPURUN_ERROR_DEVICE);
    CHECK(session == NULL);
    CHECK(strstr(npurun_last_error(), "npu") != NULL);

    CHECK(npurun_session_create(model, NULL, &session) == NPURUN_OK);
    /* The session keeps the model alive. */
    npurun_model_release(model);
    if (session == NULL) return;
    CHECK(npurun_session_num_inputs(session) == 1);
    CHECK(npurun_session_num_outputs(session) == 1);

    npurun_tensor in, out;
    CHECK(npurun_session_input(session, 0, &in) == NPURUN_OK);
    CHECK(strcmp(in.name, "pixels") == 0);
    CHECK(in.dtype == NPURUN_QASYMM_U8);
    CHECK(in.rank == 2 && in.dims[0] == 1 && in.dims[1] == 6);
    CHECK(in.scale == 0.5f && in.zero_point == 10);
    CHECK(in.bytes == 6);
    CHECK(npurun_session_input(session, 1, &in) == NPURUN_ERROR_BAD_INPUT);
    CHECK(npurun_session_output(session, 5, &out) == NPURUN_ERROR_BAD_INPUT);

    CHECK(npurun_session_input(session, 0, &in) == NPURUN_OK);
    static const unsigned char pixels[6] = {10, 12, 14, 20, 30, 40};
    memcpy(in.data, pixels, sizeof pixels);
    for (int run = 0; run < 2; ++run) {
        CHECK(npurun_session_run(session) == NPURUN_OK);
        CHECK(npurun_session_output(session, 0, &out) == NPURUN_OK);
        CHECK(strcmp(out.name, "pixels out") == 0);
        CHECK(out.bytes == 6 && memcmp(out.data, pixels, 6) == 0);
    }
    size_t arena = 0, naive = 0;
    CHECK(npurun_session_memory(session, &arena, &naive) == NPURUN_OK);
    CHECK(arena > 0 && arena <= naive);
    npurun_session_destroy(session);
}

static void relu(const char* dir) {
    npurun_model* model = load_model(dir, "relu.armnn");
    if (model == NULL) return;
    npurun_session* session = NULL;
    CHECK(npurun_session_create(model, NULL, &session) == NPURUN_OK);
    if (session != NULL) {
        npurun_tensor in, out;
        CHECK(npurun_session_input(session, 0, &in) == NPURUN_OK);
        const float x[5] = {-1.0f, 2.0f, -3.0f, 4.0f, 0.5f};
        const float want[5] = {0.0f, 2.0f, 0.0f, 4.0f, 0.5f};
        CHECK(in.dtype == NPURUN_FLOAT32 && in.bytes == sizeof x);
        memcpy(in.data, x, sizeof x);
        CHECK(npurun_session_run(session) == NPURUN_OK);
        CHECK(npurun_session_output(session, 0, &out) == NPURUN_OK);
        CHECK(memcmp(out.data, want, sizeof want) == 0);
        npurun_session_destroy(session);
    }
    npurun_model_release(model);
}

/* Zero copy: input "a" goes in through the exported dma-buf's mapping in the NPU's native layout (NC1HWC2,
 * uint8 stored as q - 128), "b" as usual; the sum must be the CPU session's, byte for byte (the one NPU layer
 * rounds like the CPU kernel here: same scales). A CPU session refuses to bind. */
static void native(const char* dir) {
    npurun_model* model = load_model(dir, "add.armnn");
    if (model == NULL) return;
    unsigned char a[256], b[256], want[256];
    for (int i = 0; i < 256; ++i) {
        a[i] = (unsigned char)((i * 7) % 256);
        b[i] = (unsigned char)((i * 13 + 5) % 256);
    }
    npurun_session_options o;
    npurun_session_options_init(&o);
    o.device = NPURUN_DEVICE_CPU;
    npurun_session* cpu = NULL;
    CHECK(npurun_session_create(model, &o, &cpu) == NPURUN_OK);
    if (cpu != NULL) {
        npurun_tensor ta, tb, out;
        CHECK(npurun_session_input(cpu, 0, &ta) == NPURUN_OK && ta.bytes == 256);
        CHECK(npurun_session_input(cpu, 1, &tb) == NPURUN_OK && tb.bytes == 256);
        memcpy(ta.data, a, 256);
        memcpy(tb.data, b, 256);
        CHECK(npurun_session_run(cpu) == NPURUN_OK);
        CHECK(npurun_session_output(cpu, 0, &out) == NPURUN_OK);
        memcpy(want, out.data, 256);
        npurun_native_tensor nt;
        CHECK(npurun_session_export_native_input(cpu, 0, &nt) == NPURUN_ERROR_BAD_INPUT);
        CHECK(strlen(npurun_last_error()) > 0 && strchr(npurun_last_error(), '\n') == NULL);
        CHECK(npurun_session_export_native_input(NULL, 0, &nt) == NPURUN_ERROR_INVALID_ARGUMENT);
        CHECK(npurun_session_import_native_output(cpu, 0, 0, NULL) == NPURUN_ERROR_INVALID_ARGUMENT);
        npurun_session_destroy(cpu);
    }
    o.device = NPURUN_DEVICE_SIM;
    npurun_session* sim = NULL;
    if (npurun_session_create(model, &o, &sim) != NPURUN_OK) {
        /* Only a build without the simulator may get here. */
        CHECK(strstr(npurun_last_error(), "without the simulator") != NULL);
        printf("native tensors: no simulator in this build, refusals checked only\n");
        npurun_model_release(model);
        return;
    }
    npurun_native_tensor nt;
    CHECK(npurun_session_export_native_input(sim, 0, &nt) == NPURUN_OK);
    CHECK(nt.fd >= 0 && nt.data != NULL);
    CHECK(nt.h == 4 && nt.w == 4 && nt.c == 16 && nt.c2 == 16 && nt.dtype == NPURUN_QASYMM_S8);
    CHECK(nt.zero_point == 0 && nt.size_bytes >= 256);
    CHECK(npurun_session_import_native_input(sim, 0, -1, &nt) == NPURUN_ERROR_BAD_INPUT); /* not an fd */
    CHECK(npurun_session_export_native_input(sim, 0, &nt) == NPURUN_OK);
    if (nt.data != NULL && nt.c2 == 16) {
        signed char* native = (signed char*)nt.data;
        for (uint32_t y = 0; y < 4; ++y)
            for (uint32_t x = 0; x < 4; ++x)
                for (uint32_t c = 0; c < 16; ++c)
                    native[(c / 16) * nt.plane_bytes + (y * 4 + x) * 16 + c % 16] = (signed char)(a[(y * 4 + x) * 16 + c] - 128);
    }
    npurun_tensor ta, tb, out;
    CHECK(npurun_session_input(sim, 0, &ta) == NPURUN_OK);
    memset(ta.data, 0, ta.bytes); /* not read: the bound input comes from the dma-buf */
    CHECK(npurun_session_input(sim, 1, &tb) == NPURUN_OK);
    memcpy(tb.data, b, 256);
    CHECK(npurun_session_run(sim) == NPURUN_OK);
    CHECK(npurun_session_output(sim, 0, &out) == NPURUN_OK);
    CHECK(out.bytes == 256 && memcmp(out.data, want, 256) == 0);
    npurun_session_destroy(sim);
    npurun_model_release(model);
}

/* The extended options: struct_size checked both ways; npu_fp16 puts the Float32 Add on the (simulated) NPU in
 * fp16, so its sums are rounded to fp16, where without it the CPU's exact float sums come back; npu_cores out of
 * range; cpu_fp16 either runs (aarch64 with FEAT_FP16) or is refused naming FEAT_FP16. */
static void extended(const char* dir) {
    npurun_model* model = load_model(dir, "add_float.armnn");
    if (model == NULL) return;
    npurun_session_options o;
    npurun_session_options_init(&o);
    npurun_session_options_ext ext;
    npurun_session_options_ext_init(&ext);
    CHECK(ext.struct_size == sizeof ext && ext.npu_fp16 == 0 && ext.npu_cores == 0);
    npurun_session* s = NULL;
    ext.struct_size = sizeof ext + 8; /* a newer header's */
    CHECK(npurun_session_create_ext(model, &o, &ext, &s) == NPURUN_ERROR_UNSUPPORTED && s == NULL);
    CHECK(strstr(npurun_last_error(), "newer npurun") != NULL);
    ext.struct_size = 2;
    CHECK(npurun_session_create_ext(model, &o, &ext, &s) == NPURUN_ERROR_BAD_INPUT);
    npurun_session_options_ext_init(&ext);
    ext.npu_cores = 4;
    CHECK(npurun_session_create_ext(model, &o, &ext, &s) == NPURUN_ERROR_BAD_INPUT);
    CHECK(strstr(npurun_last_error(), "3 cores") != NULL);
    CHECK(npurun_session_create_ext(NULL, &o, &ext, &s) == NPURUN_ERROR_INVALID_ARGUMENT);

    npurun_session_options_ext_init(&ext);
    ext.cpu_fp16 = 1;
    o.device = NPURUN_DEVICE_CPU;
    const npurun_status st = npurun_session_create_ext(model, &o, &ext, &s);
    CHECK(st == NPURUN_OK || (st == NPURUN_ERROR_UNSUPPORTED && strstr(npurun_last_error(), "FEAT_FP16") != NULL));
    npurun_session_destroy(s);
    s = NULL;

    /* a = 0.1 k, b = 1/3: sums that fp16 cannot hold exactly. */
    float a[256], b[256];
    for (int i = 0; i < 256; ++i) a[i] = 0.1f * (float)(i % 37), b[i] = 1.0f / 3.0f;
    float got[2][256];
    o.device = NPURUN_DEVICE_SIM;
    for (int fp16 = 0; fp16 < 2; ++fp16) {
        npurun_session_options_ext_init(&ext);
        ext.npu_fp16 = fp16;
        s = NULL;
        if (npurun_session_create_ext(model, &o, &ext, &s) != NPURUN_OK) {
            CHECK(strstr(npurun_last_error(), "without the simulator") != NULL);
            printf("extended options: no simulator in this build, npu_fp16 not checked\n");
            npurun_model_release(model);
            return;
        }
        npurun_tensor ta, tb, out;
        CHECK(npurun_session_input(s, 0, &ta) == NPURUN_OK && ta.bytes == sizeof a);
        CHECK(npurun_session_input(s, 1, &tb) == NPURUN_OK && tb.bytes == sizeof b);
        memcpy(ta.data, a, sizeof a);
        memcpy(tb.data, b, sizeof b);
        CHECK(npurun_session_run(s) == NPURUN_OK);
        CHECK(npurun_session_output(s, 0, &out) == NPURUN_OK && out.bytes == sizeof got[0]);
        memcpy(got[fp16], out.data, sizeof got[0]);
        npurun_session_destroy(s);
    }
    int exact = 1, close = 1;
    for (int i = 0; i < 256; ++i) {
        const float want = a[i] + b[i];
        if (got[0][i] != want) exact = 0;
        const float d = got[1][i] - want;
        if (d > 4e-3f || d < -4e-3f) close = 0;
    }
    CHECK(exact);                                               /* npu_fp16 off: the Add stays on the CPU */
    CHECK(close && memcmp(got[0], got[1], sizeof got[0]) != 0); /* on: fp16 sums, near the exact ones */
    npurun_model_release(model);
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: capi_test MODEL_DIR\n");
        return 2;
    }
    printf("npurun %s\n", npurun_version());
    errors(argv[1]);
    identity(argv[1]);
    relu(argv[1]);
    native(argv[1]);
    extended(argv[1]);
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    else printf("all C API checks passed\n");
    return failures ? 1 : 0;
}

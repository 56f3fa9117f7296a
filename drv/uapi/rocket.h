// The mainline rocket accel driver's UAPI (include/uapi/drm/rocket_accel.h, Linux 6.18). When the system
// kernel headers provide it, that header is used; otherwise the structs are declared here from the
// documented layouts (shared/reference/kernel-uapi.md section 2). Either way the asserts below pin every
// size, offset and ioctl number to the reference table, so both variants are checked identically.
#pragma once

#include <cstddef>
#include <cstdint>

#include <drm.h>

#if __has_include(<drm/rocket_accel.h>)
#include <drm/rocket_accel.h>
#define NPUDRV_SYSTEM_ROCKET_UAPI 1
#else
#define NPUDRV_SYSTEM_ROCKET_UAPI 0
#endif

namespace npudrv::uapi {

#if NPUDRV_SYSTEM_ROCKET_UAPI
// Numbers first: the macros spell "struct drm_rocket_...", which would name the aliases below.
constexpr unsigned long DRM_IOCTL_ROCKET_CREATE_BO_NR = DRM_IOCTL_ROCKET_CREATE_BO;
constexpr unsigned long DRM_IOCTL_ROCKET_SUBMIT_NR = DRM_IOCTL_ROCKET_SUBMIT;
constexpr unsigned long DRM_IOCTL_ROCKET_PREP_BO_NR = DRM_IOCTL_ROCKET_PREP_BO;
constexpr unsigned long DRM_IOCTL_ROCKET_FINI_BO_NR = DRM_IOCTL_ROCKET_FINI_BO;
using drm_rocket_create_bo = ::drm_rocket_create_bo;
using drm_rocket_prep_bo = ::drm_rocket_prep_bo;
using drm_rocket_fini_bo = ::drm_rocket_fini_bo;
using drm_rocket_task = ::drm_rocket_task;
using drm_rocket_job = ::drm_rocket_job;
using drm_rocket_submit = ::drm_rocket_submit;
#else
struct drm_rocket_create_bo {
    uint32_t size;         // in: bytes (32-bit!)
    uint32_t handle;       // out
    uint64_t dma_address;  // out: NPU address in this fd's IOMMU domain (0 is a valid address)
    uint64_t offset;       // out: fake mmap offset
};

struct drm_rocket_prep_bo {
    uint32_t handle;
    uint32_t reserved;   // must be 0
    int64_t timeout_ns;  // ABSOLUTE CLOCK_MONOTONIC deadline
};

struct drm_rocket_fini_bo {
    uint32_t handle;
    uint32_t reserved;  // must be 0
};

struct drm_rocket_task {
    uint32_t regcmd;        // NPU address of the regcmd stream (32-bit)
    uint32_t regcmd_count;  // 64-bit entries INCLUDING the 4 trailing PC entries
};

struct drm_rocket_job {
    uint64_t tasks;           // user pointer to drm_rocket_task[]
    uint64_t in_bo_handles;   // user pointer to uint32_t[]
    uint64_t out_bo_handles;  // user pointer to uint32_t[]
    uint32_t task_count;
    uint32_t task_struct_size;
    uint32_t in_bo_handle_count;
    uint32_t out_bo_handle_count;
};

struct drm_rocket_submit {
    uint64_t jobs;  // user pointer to drm_rocket_job[]
    uint32_t job_count;
    uint32_t job_struct_size;
    uint64_t reserved;  // must be 0
};

constexpr unsigned long DRM_IOCTL_ROCKET_CREATE_BO_NR = DRM_IOWR(DRM_COMMAND_BASE + 0x00, drm_rocket_create_bo);
constexpr unsigned long DRM_IOCTL_ROCKET_SUBMIT_NR = DRM_IOW(DRM_COMMAND_BASE + 0x01, drm_rocket_submit);
constexpr unsigned long DRM_IOCTL_ROCKET_PREP_BO_NR = DRM_IOW(DRM_COMMAND_BASE + 0x02, drm_rocket_prep_bo);
constexpr unsigned long DRM_IOCTL_ROCKET_FINI_BO_NR = DRM_IOW(DRM_COMMAND_BASE + 0x03, drm_rocket_fini_bo);
#endif

// Names used by the rest of npudrv (the system header defines the DRM_IOCTL_ROCKET_* macros itself).
constexpr unsigned long kRocketIoctlCreateBo = DRM_IOCTL_ROCKET_CREATE_BO_NR;
constexpr unsigned long kRocketIoctlSubmit = DRM_IOCTL_ROCKET_SUBMIT_NR;
constexpr unsigned long kRocketIoctlPrepBo = DRM_IOCTL_ROCKET_PREP_BO_NR;
constexpr unsigned long kRocketIoctlFiniBo = DRM_IOCTL_ROCKET_FINI_BO_NR;

constexpr uint32_t kRocketDpuIrqMask = 0x300;     // the only completion the kernel waits for
constexpr uint32_t kRocketJobTimeoutMs = 500;     // drm_sched TDR per job (JOB_TIMEOUT_MS)
constexpr uint32_t kRocketPcTailEntries = 4;

static_assert(sizeof(drm_rocket_create_bo) == 24, "drm_rocket_create_bo size");
static_assert(offsetof(drm_rocket_create_bo, size) == 0 && offsetof(drm_rocket_create_bo, handle) == 4 &&
                  offsetof(drm_rocket_create_bo, dma_address) == 8 && offsetof(drm_rocket_create_bo, offset) == 16,
              "drm_rocket_create_bo offsets");
static_assert(sizeof(drm_rocket_prep_bo) == 16, "drm_rocket_prep_bo size");
static_assert(offsetof(drm_rocket_prep_bo, reserved) == 4 && offsetof(drm_rocket_prep_bo, timeout_ns) == 8,
              "drm_rocket_prep_bo offsets");
static_assert(sizeof(drm_rocket_fini_bo) == 8 && offsetof(drm_rocket_fini_bo, reserved) == 4, "drm_rocket_fini_bo");
static_assert(sizeof(drm_rocket_task) == 8 && offsetof(drm_rocket_task, regcmd_count) == 4, "drm_rocket_task");
static_assert(sizeof(drm_rocket_job) == 40, "drm_rocket_job size");
static_assert(offsetof(drm_rocket_job, tasks) == 0 && offsetof(drm_rocket_job, in_bo_handles) == 8 &&
                  offsetof(drm_rocket_job, out_bo_handles) == 16 && offsetof(drm_rocket_job, task_count) == 24 &&
                  offsetof(drm_rocket_job, task_struct_size) == 28 &&
                  offsetof(drm_rocket_job, in_bo_handle_count) == 32 &&
                  offsetof(drm_rocket_job, out_bo_handle_count) == 36,
              "drm_rocket_job offsets");
static_assert(sizeof(drm_rocket_submit) == 24, "drm_rocket_submit size");
static_assert(offsetof(drm_rocket_submit, job_count) == 8 && offsetof(drm_rocket_submit, job_struct_size) == 12 &&
                  offsetof(drm_rocket_submit, reserved) == 16,
              "drm_rocket_submit offsets");

static_assert(kRocketIoctlCreateBo == 0xc0186440ul, "DRM_IOCTL_ROCKET_CREATE_BO");
static_assert(kRocketIoctlSubmit == 0x40186441ul, "DRM_IOCTL_ROCKET_SUBMIT");
static_assert(kRocketIoctlPrepBo == 0x40106442ul, "DRM_IOCTL_ROCKET_PREP_BO");
static_assert(kRocketIoctlFiniBo == 0x40086443ul, "DRM_IOCTL_ROCKET_FINI_BO");

}  // namespace npudrv::uapi

// The vendor rknpu driver's UAPI (Rockchip BSP drivers/rknpu, ABI of 0.9.6 .. 0.9.8), declared here from
// the documented layouts in shared/reference/kernel-uapi.md section 1. No distribution ships this header,
// so there is no system copy to prefer. Every size, offset and ioctl number is asserted.
#pragma once

#include <cstddef>
#include <cstdint>

#include <drm.h>

namespace npudrv::uapi {

// ---- ioctl argument structs (little-endian, LP64; natural alignment unless noted) ----

struct rknpu_action {
    uint32_t flags;  // action code (RKNPU_GET_HW_VERSION ...)
    uint32_t value;  // GET result or SET value
};

struct rknpu_mem_create {
    uint32_t handle;  // must be 0 to allocate; an existing handle only returns its info
    uint32_t flags;   // RKNPU_MEM_*
    uint64_t size;    // in: requested; out: page-aligned
    uint64_t obj_addr;  // out: kernel address of the GEM object (cookie for MEM_SYNC / SUBMIT)
    uint64_t dma_addr;  // out: NPU-visible address
    uint64_t sram_size;
    int32_t iommu_domain_id;
    uint32_t core_mask;  // 0.9.8 name; "reserved" before
};

struct rknpu_mem_map {
    uint32_t handle;
    uint32_t reserved;
    uint64_t offset;  // out: fake mmap offset on the same fd
};

struct rknpu_mem_destroy {
    uint32_t handle;
    uint32_t reserved;
    uint64_t obj_addr;
};

struct rknpu_mem_sync {
    uint32_t flags;  // RKNPU_MEM_SYNC_TO_DEVICE / FROM_DEVICE
    uint32_t reserved;
    uint64_t obj_addr;
    uint64_t offset;
    uint64_t size;
};

// One task record of the task-array BO. The kernel declares it __packed (40 bytes, alignment 1).
#pragma pack(push, 1)
struct rknpu_task {
    uint32_t flags;
    uint32_t op_idx;
    uint32_t enable_mask;
    uint32_t int_mask;       // last task: the interrupt the kernel waits for; first task: INT_CLEAR
    uint32_t int_clear;
    uint32_t int_status;     // written back by the kernel (last task)
    uint32_t regcfg_amount;  // regcmd entries EXCLUDING the 4 trailing PC entries
    uint32_t regcfg_offset;
    uint64_t regcmd_addr;    // NPU address; only the low 32 bits reach the hardware
};
#pragma pack(pop)

struct rknpu_subcore_task {
    uint32_t task_start;
    uint32_t task_number;
};

struct rknpu_submit {
    uint32_t flags;    // RKNPU_JOB_*; RKNPU_JOB_PC is mandatory
    uint32_t timeout;  // milliseconds
    uint32_t task_start;
    uint32_t task_number;
    uint32_t task_counter;  // out
    int32_t priority;
    uint64_t task_obj_addr;  // obj_addr of the (KERNEL_MAPPING) task-array BO
    uint32_t iommu_domain_id;
    uint32_t reserved;
    uint64_t task_base_addr;
    int64_t hw_elapse_time;  // out, ns
    uint32_t core_mask;
    int32_t fence_fd;
    rknpu_subcore_task subcore_task[5];
};

// ---- constants (section 1.5) ----

constexpr uint32_t RKNPU_MEM_CONTIGUOUS = 0;
constexpr uint32_t RKNPU_MEM_NON_CONTIGUOUS = 1u << 0;
constexpr uint32_t RKNPU_MEM_NON_CACHEABLE = 0;
constexpr uint32_t RKNPU_MEM_CACHEABLE = 1u << 1;
constexpr uint32_t RKNPU_MEM_WRITE_COMBINE = 1u << 2;
constexpr uint32_t RKNPU_MEM_KERNEL_MAPPING = 1u << 3;
constexpr uint32_t RKNPU_MEM_IOMMU = 1u << 4;
constexpr uint32_t RKNPU_MEM_ZEROING = 1u << 5;
constexpr uint32_t RKNPU_MEM_SECURE = 1u << 6;
constexpr uint32_t RKNPU_MEM_DMA32 = 1u << 7;
constexpr uint32_t RKNPU_MEM_TRY_ALLOC_SRAM = 1u << 8;
constexpr uint32_t RKNPU_MEM_TRY_ALLOC_NBUF = 1u << 9;
constexpr uint32_t RKNPU_MEM_IOMMU_LIMIT_IOVA_ALIGNMENT = 1u << 10;
constexpr uint32_t RKNPU_MEM_MASK = 0x7ff;

constexpr uint32_t RKNPU_MEM_SYNC_TO_DEVICE = 1u << 0;
constexpr uint32_t RKNPU_MEM_SYNC_FROM_DEVICE = 1u << 1;

constexpr uint32_t RKNPU_JOB_SLAVE = 0;
constexpr uint32_t RKNPU_JOB_PC = 1u << 0;
constexpr uint32_t RKNPU_JOB_BLOCK = 0;
constexpr uint32_t RKNPU_JOB_NONBLOCK = 1u << 1;
constexpr uint32_t RKNPU_JOB_PINGPONG = 1u << 2;
constexpr uint32_t RKNPU_JOB_FENCE_IN = 1u << 3;
constexpr uint32_t RKNPU_JOB_FENCE_OUT = 1u << 4;
constexpr uint32_t RKNPU_JOB_MASK = 0x1f;

constexpr uint32_t RKNPU_CORE_AUTO_MASK = 0x0;
constexpr uint32_t RKNPU_CORE0_MASK = 0x1;
constexpr uint32_t RKNPU_CORE1_MASK = 0x2;
constexpr uint32_t RKNPU_CORE2_MASK = 0x4;
constexpr uint32_t RKNPU_MAX_CORES = 3;

constexpr uint32_t RKNPU_PC_DATA_EXTRA_AMOUNT = 4;  // trailing PC entries of every regcmd block
constexpr uint32_t RKNPU_INT_CLEAR = 0x1ffff;
constexpr uint32_t RKNPU_MAX_SUBMIT_NUMBER = 4095;

// Actions (rknpu_action.flags), section 1.6.
enum rknpu_action_code : uint32_t {
    RKNPU_GET_HW_VERSION = 0,
    RKNPU_GET_DRV_VERSION = 1,
    RKNPU_GET_FREQ = 2,
    RKNPU_SET_FREQ = 3,
    RKNPU_GET_VOLT = 4,
    RKNPU_SET_VOLT = 5,
    RKNPU_ACT_RESET = 6,
    RKNPU_GET_BW_PRIORITY = 7,
    RKNPU_SET_BW_PRIORITY = 8,
    RKNPU_GET_BW_EXPECT = 9,
    RKNPU_SET_BW_EXPECT = 10,
    RKNPU_GET_BW_TW = 11,
    RKNPU_SET_BW_TW = 12,
    RKNPU_ACT_CLR_TOTAL_RW_AMOUNT = 13,
    RKNPU_GET_DT_WR_AMOUNT = 14,
    RKNPU_GET_DT_RD_AMOUNT = 15,
    RKNPU_GET_WT_RD_AMOUNT = 16,
    RKNPU_GET_TOTAL_RW_AMOUNT = 17,
    RKNPU_GET_IOMMU_EN = 18,
    RKNPU_SET_PROC_NICE = 19,
    RKNPU_POWER_ON = 20,
    RKNPU_POWER_OFF = 21,
    RKNPU_GET_TOTAL_SRAM_SIZE = 22,
    RKNPU_GET_FREE_SRAM_SIZE = 23,
    RKNPU_GET_IOMMU_DOMAIN_ID = 24,
    RKNPU_SET_IOMMU_DOMAIN_ID = 25,
};

constexpr uint32_t rknpu_drv_version_code(uint32_t major, uint32_t minor, uint32_t patch) {
    return major * 10000 + minor * 100 + patch;
}

// ---- ioctl numbers (section 1.3) ----

constexpr unsigned RKNPU_ACTION = 0x00;
constexpr unsigned RKNPU_SUBMIT = 0x01;
constexpr unsigned RKNPU_MEM_CREATE = 0x02;
constexpr unsigned RKNPU_MEM_MAP = 0x03;
constexpr unsigned RKNPU_MEM_DESTROY = 0x04;
constexpr unsigned RKNPU_MEM_SYNC = 0x05;

constexpr unsigned long DRM_IOCTL_RKNPU_ACTION = DRM_IOWR(DRM_COMMAND_BASE + RKNPU_ACTION, rknpu_action);
constexpr unsigned long DRM_IOCTL_RKNPU_SUBMIT = DRM_IOWR(DRM_COMMAND_BASE + RKNPU_SUBMIT, rknpu_submit);
constexpr unsigned long DRM_IOCTL_RKNPU_MEM_CREATE =
    DRM_IOWR(DRM_COMMAND_BASE + RKNPU_MEM_CREATE, rknpu_mem_create);
constexpr unsigned long DRM_IOCTL_RKNPU_MEM_MAP = DRM_IOWR(DRM_COMMAND_BASE + RKNPU_MEM_MAP, rknpu_mem_map);
constexpr unsigned long DRM_IOCTL_RKNPU_MEM_DESTROY =
    DRM_IOWR(DRM_COMMAND_BASE + RKNPU_MEM_DESTROY, rknpu_mem_destroy);
constexpr unsigned long DRM_IOCTL_RKNPU_MEM_SYNC = DRM_IOWR(DRM_COMMAND_BASE + RKNPU_MEM_SYNC, rknpu_mem_sync);

// ---- layout checks against the reference table ----

static_assert(sizeof(rknpu_action) == 8 && offsetof(rknpu_action, value) == 4, "rknpu_action");

static_assert(sizeof(rknpu_mem_create) == 48, "rknpu_mem_create size");
static_assert(offsetof(rknpu_mem_create, handle) == 0, "mem_create.handle");
static_assert(offsetof(rknpu_mem_create, flags) == 4, "mem_create.flags");
static_assert(offsetof(rknpu_mem_create, size) == 8, "mem_create.size");
static_assert(offsetof(rknpu_mem_create, obj_addr) == 16, "mem_create.obj_addr");
static_assert(offsetof(rknpu_mem_create, dma_addr) == 24, "mem_create.dma_addr");
static_assert(offsetof(rknpu_mem_create, sram_size) == 32, "mem_create.sram_size");
static_assert(offsetof(rknpu_mem_create, iommu_domain_id) == 40, "mem_create.iommu_domain_id");
static_assert(offsetof(rknpu_mem_create, core_mask) == 44, "mem_create.core_mask");

static_assert(sizeof(rknpu_mem_map) == 16, "rknpu_mem_map size");
static_assert(offsetof(rknpu_mem_map, reserved) == 4 && offsetof(rknpu_mem_map, offset) == 8, "rknpu_mem_map");

static_assert(sizeof(rknpu_mem_destroy) == 16, "rknpu_mem_destroy size");
static_assert(offsetof(rknpu_mem_destroy, obj_addr) == 8, "rknpu_mem_destroy.obj_addr");

static_assert(sizeof(rknpu_mem_sync) == 32, "rknpu_mem_sync size");
static_assert(offsetof(rknpu_mem_sync, obj_addr) == 8 && offsetof(rknpu_mem_sync, offset) == 16 &&
                  offsetof(rknpu_mem_sync, size) == 24,
              "rknpu_mem_sync offsets");

static_assert(sizeof(rknpu_task) == 40 && alignof(rknpu_task) == 1, "rknpu_task is packed, 40 bytes");
static_assert(offsetof(rknpu_task, op_idx) == 4, "task.op_idx");
static_assert(offsetof(rknpu_task, enable_mask) == 8, "task.enable_mask");
static_assert(offsetof(rknpu_task, int_mask) == 12, "task.int_mask");
static_assert(offsetof(rknpu_task, int_clear) == 16, "task.int_clear");
static_assert(offsetof(rknpu_task, int_status) == 20, "task.int_status");
static_assert(offsetof(rknpu_task, regcfg_amount) == 24, "task.regcfg_amount");
static_assert(offsetof(rknpu_task, regcfg_offset) == 28, "task.regcfg_offset");
static_assert(offsetof(rknpu_task, regcmd_addr) == 32, "task.regcmd_addr");

static_assert(sizeof(rknpu_subcore_task) == 8, "rknpu_subcore_task");

static_assert(sizeof(rknpu_submit) == 104 && alignof(rknpu_submit) == 8, "rknpu_submit size");
static_assert(offsetof(rknpu_submit, timeout) == 4, "submit.timeout");
static_assert(offsetof(rknpu_submit, task_start) == 8, "submit.task_start");
static_assert(offsetof(rknpu_submit, task_number) == 12, "submit.task_number");
static_assert(offsetof(rknpu_submit, task_counter) == 16, "submit.task_counter");
static_assert(offsetof(rknpu_submit, priority) == 20, "submit.priority");
static_assert(offsetof(rknpu_submit, task_obj_addr) == 24, "submit.task_obj_addr");
static_assert(offsetof(rknpu_submit, iommu_domain_id) == 32, "submit.iommu_domain_id");
static_assert(offsetof(rknpu_submit, reserved) == 36, "submit.reserved");
static_assert(offsetof(rknpu_submit, task_base_addr) == 40, "submit.task_base_addr");
static_assert(offsetof(rknpu_submit, hw_elapse_time) == 48, "submit.hw_elapse_time");
static_assert(offsetof(rknpu_submit, core_mask) == 56, "submit.core_mask");
static_assert(offsetof(rknpu_submit, fence_fd) == 60, "submit.fence_fd");
static_assert(offsetof(rknpu_submit, subcore_task) == 64, "submit.subcore_task");

static_assert(DRM_IOCTL_RKNPU_ACTION == 0xc0086440ul, "DRM_IOCTL_RKNPU_ACTION");
static_assert(DRM_IOCTL_RKNPU_SUBMIT == 0xc0686441ul, "DRM_IOCTL_RKNPU_SUBMIT");
static_assert(DRM_IOCTL_RKNPU_MEM_CREATE == 0xc0306442ul, "DRM_IOCTL_RKNPU_MEM_CREATE");
static_assert(DRM_IOCTL_RKNPU_MEM_MAP == 0xc0106443ul, "DRM_IOCTL_RKNPU_MEM_MAP");
static_assert(DRM_IOCTL_RKNPU_MEM_DESTROY == 0xc0106444ul, "DRM_IOCTL_RKNPU_MEM_DESTROY");
static_assert(DRM_IOCTL_RKNPU_MEM_SYNC == 0xc0206445ul, "DRM_IOCTL_RKNPU_MEM_SYNC");

}  // namespace npudrv::uapi

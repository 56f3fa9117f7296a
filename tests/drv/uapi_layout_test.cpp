// The ioctl numbers and struct layouts against the reference table (kernel-uapi.md §1.3, §1.4, §2.2,
// §2.3, §5.1). The headers also static_assert these; the test states them once more as data, and checks
// that the fake kernel dispatches on exactly these numbers.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>

#include "drv/uapi/drm_core.h"
#include "drv/uapi/rknpu.h"
#include "drv/uapi/rocket.h"
#include "fake_env.h"

namespace npudrv::test {
namespace {

using namespace npudrv::uapi;

TEST(UapiLayout, RknpuIoctlNumbersMatchReference) {
    EXPECT_EQ(DRM_IOCTL_RKNPU_ACTION, 0xc0086440ul);
    EXPECT_EQ(DRM_IOCTL_RKNPU_SUBMIT, 0xc0686441ul);
    EXPECT_EQ(DRM_IOCTL_RKNPU_MEM_CREATE, 0xc0306442ul);
    EXPECT_EQ(DRM_IOCTL_RKNPU_MEM_MAP, 0xc0106443ul);
    EXPECT_EQ(DRM_IOCTL_RKNPU_MEM_DESTROY, 0xc0106444ul);
    EXPECT_EQ(DRM_IOCTL_RKNPU_MEM_SYNC, 0xc0206445ul);
}

TEST(UapiLayout, RocketIoctlNumbersMatchReference) {
    EXPECT_EQ(kRocketIoctlCreateBo, 0xc0186440ul);
    EXPECT_EQ(kRocketIoctlSubmit, 0x40186441ul);  // IOW: nothing is copied back
    EXPECT_EQ(kRocketIoctlPrepBo, 0x40106442ul);
    EXPECT_EQ(kRocketIoctlFiniBo, 0x40086443ul);
}

TEST(UapiLayout, StructSizesMatchReferenceChecklist) {
    EXPECT_EQ(sizeof(rknpu_submit), 104u);
    EXPECT_EQ(sizeof(rknpu_mem_create), 48u);
    EXPECT_EQ(sizeof(rknpu_task), 40u);
    EXPECT_EQ(alignof(rknpu_task), 1u);
    EXPECT_EQ(sizeof(rknpu_action), 8u);
    EXPECT_EQ(sizeof(rknpu_mem_map), 16u);
    EXPECT_EQ(sizeof(rknpu_mem_destroy), 16u);
    EXPECT_EQ(sizeof(rknpu_mem_sync), 32u);
    EXPECT_EQ(sizeof(rknpu_subcore_task), 8u);
    EXPECT_EQ(sizeof(drm_rocket_create_bo), 24u);
    EXPECT_EQ(sizeof(drm_rocket_prep_bo), 16u);
    EXPECT_EQ(sizeof(drm_rocket_fini_bo), 8u);
    EXPECT_EQ(sizeof(drm_rocket_task), 8u);
    EXPECT_EQ(sizeof(drm_rocket_job), 40u);
    EXPECT_EQ(sizeof(drm_rocket_submit), 24u);
}

TEST(UapiLayout, RknpuOffsetsMatchReference) {
    EXPECT_EQ(offsetof(rknpu_mem_create, obj_addr), 16u);
    EXPECT_EQ(offsetof(rknpu_mem_create, dma_addr), 24u);
    EXPECT_EQ(offsetof(rknpu_mem_create, iommu_domain_id), 40u);
    EXPECT_EQ(offsetof(rknpu_mem_create, core_mask), 44u);
    EXPECT_EQ(offsetof(rknpu_mem_sync, obj_addr), 8u);
    EXPECT_EQ(offsetof(rknpu_mem_sync, size), 24u);
    EXPECT_EQ(offsetof(rknpu_task, int_mask), 12u);
    EXPECT_EQ(offsetof(rknpu_task, regcfg_amount), 24u);
    EXPECT_EQ(offsetof(rknpu_task, regcmd_addr), 32u);
    EXPECT_EQ(offsetof(rknpu_submit, task_obj_addr), 24u);
    EXPECT_EQ(offsetof(rknpu_submit, task_base_addr), 40u);
    EXPECT_EQ(offsetof(rknpu_submit, hw_elapse_time), 48u);
    EXPECT_EQ(offsetof(rknpu_submit, core_mask), 56u);
    EXPECT_EQ(offsetof(rknpu_submit, fence_fd), 60u);
    EXPECT_EQ(offsetof(rknpu_submit, subcore_task), 64u);
}

TEST(UapiLayout, RocketOffsetsMatchReference) {
    EXPECT_EQ(offsetof(drm_rocket_create_bo, dma_address), 8u);
    EXPECT_EQ(offsetof(drm_rocket_create_bo, offset), 16u);
    EXPECT_EQ(offsetof(drm_rocket_prep_bo, timeout_ns), 8u);
    EXPECT_EQ(offsetof(drm_rocket_job, task_count), 24u);
    EXPECT_EQ(offsetof(drm_rocket_job, out_bo_handle_count), 36u);
    EXPECT_EQ(offsetof(drm_rocket_submit, job_struct_size), 12u);
    EXPECT_EQ(offsetof(drm_rocket_submit, reserved), 16u);
}

TEST(UapiLayout, RknpuConstantsMatchReference) {
    EXPECT_EQ(RKNPU_MEM_CACHEABLE, 2u);
    EXPECT_EQ(RKNPU_MEM_KERNEL_MAPPING, 8u);
    EXPECT_EQ(RKNPU_MEM_NON_CONTIGUOUS | RKNPU_MEM_CACHEABLE | RKNPU_MEM_KERNEL_MAPPING |
                  RKNPU_MEM_IOMMU_LIMIT_IOVA_ALIGNMENT,
              0x40bu);  // librknnrt's task-buffer flags
    EXPECT_EQ(RKNPU_JOB_PC | RKNPU_JOB_PINGPONG, 0x5u);
    EXPECT_EQ(RKNPU_JOB_MASK, 0x1fu);
    EXPECT_EQ(rknpu_drv_version_code(0, 9, 8), 908u);
    EXPECT_EQ(RKNPU_SET_IOMMU_DOMAIN_ID, 25u);
}

TEST(UapiLayout, DrmCoreNumbers) {
    EXPECT_EQ(kDrmIoctlGemClose, 0x40086409ul);
    EXPECT_EQ(kDrmIoctlPrimeHandleToFd, 0xc00c642dul);
    EXPECT_EQ(kDrmIoctlPrimeFdToHandle, 0xc00c642eul);
#if defined(__LP64__)
    EXPECT_EQ(kDrmIoctlVersion, 0xc0406400ul);
#endif
}

// drm_ioctl copies _IOC_SIZE bytes and zero-fills the rest, so the legacy 40- and 32-byte MEM_CREATE
// numbers work on a 0.9.8 kernel (reference §1.1).
TEST(UapiLayout, FakeKernelAcceptsLegacyMemCreateSizes) {
    FakeEnv env;
    int fd = env.open_fd(env.add(DriverKind::Rknpu));
    for (unsigned long legacy : {0xc0286442ul, 0xc0206442ul}) {
        uint8_t args[48] = {};
        uint64_t size = 8192;
        std::memcpy(args + 8, &size, 8);
        ASSERT_EQ(env.io(fd, legacy, args), 0) << std::hex << legacy;
        uint32_t handle;
        uint64_t dma;
        std::memcpy(&handle, args, 4);
        std::memcpy(&dma, args + 24, 8);
        EXPECT_NE(handle, 0u);
        EXPECT_NE(dma, 0u);
    }
    env.kernel->close(fd);
}

TEST(UapiLayout, FakeKernelRejectsUnknownDriverIoctlNumbers) {
    FakeEnv env;
    int rk = env.open_fd(env.add(DriverKind::Rknpu));
    int rc = env.open_fd(env.add(DriverKind::Rocket));
    uint8_t buf[128] = {};
    EXPECT_EQ(env.io(rk, DRM_IOWR(DRM_COMMAND_BASE + 0x06, rknpu_action), buf), -EINVAL);
    EXPECT_EQ(env.io(rc, DRM_IOWR(DRM_COMMAND_BASE + 0x04, drm_rocket_fini_bo), buf), -EINVAL);
    EXPECT_EQ(env.io(rk, DRM_IOWR(0x3f, rknpu_action), buf), -EINVAL);  // a core ioctl the fake does not model
    EXPECT_EQ(env.io(9999, DRM_IOCTL_RKNPU_ACTION, buf), -EBADF);
    env.kernel->close(rk);
    env.kernel->close(rc);
}

}  // namespace
}  // namespace npudrv::test

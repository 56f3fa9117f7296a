// The fake kernel's rknpu ioctls, called raw: the documented semantics and errno values (reference §1).
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cerrno>

#include "drv/uapi/drm_core.h"
#include "drv/uapi/rknpu.h"
#include "fake_env.h"

namespace npudrv::test {
namespace {

using namespace npudrv::uapi;

class FakeRknpu : public ::testing::Test {
protected:
    void SetUp() override {
        node = env.add(DriverKind::Rknpu);
        fd = env.open_fd(node);
    }
    void TearDown() override {
        if (fd >= 0) env.kernel->close(fd);
    }
    rknpu_mem_create create(uint64_t size, uint32_t flags, int expect = 0) {
        rknpu_mem_create a{};
        a.flags = flags;
        a.size = size;
        EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_CREATE, &a), expect);
        return a;
    }
    int action(uint32_t code, uint32_t* value) {
        rknpu_action a{code, value ? *value : 0};
        int ret = env.io(fd, DRM_IOCTL_RKNPU_ACTION, &a);
        if (value) *value = a.value;
        return ret;
    }
    // A task BO with `n` task records pointing at a regcmd BO; returns the submit args.
    rknpu_submit prepare(uint32_t n, uint32_t task_flags, uint32_t int_mask = 0x300) {
        regcmd = create(4096, RKNPU_MEM_CACHEABLE);
        tasks = create(n * sizeof(rknpu_task), task_flags);
        rknpu_mem_map m{};
        m.handle = tasks.handle;
        EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_MAP, &m), 0);
        int err = 0;
        task_map = static_cast<uint8_t*>(env.kernel->mmap(tasks.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset, &err));
        EXPECT_NE(task_map, nullptr);
        for (uint32_t i = 0; i < n; ++i) {
            rknpu_task t{};
            t.enable_mask = 0xd;
            t.int_mask = int_mask;
            t.int_clear = 0x1ffff;
            t.regcfg_amount = 12;
            t.regcmd_addr = regcmd.dma_addr + i * 128;
            std::memcpy(task_map + i * sizeof t, &t, sizeof t);
        }
        rknpu_submit s{};
        s.flags = RKNPU_JOB_PC | RKNPU_JOB_PINGPONG;
        s.timeout = 200;
        s.task_number = n;
        s.task_obj_addr = tasks.obj_addr;
        s.core_mask = 1;
        s.fence_fd = -1;
        s.subcore_task[0] = {0, n};
        return s;
    }
    void unmap_tasks() {
        if (task_map) {
            EXPECT_EQ(env.kernel->munmap(task_map, tasks.size), 0);
        }
        task_map = nullptr;
    }

    FakeEnv env;
    std::string node;
    int fd = -1;
    rknpu_mem_create regcmd{}, tasks{};
    uint8_t* task_map = nullptr;
};

TEST_F(FakeRknpu, ActionsFollowVersion098) {
    uint32_t v = 0;
    EXPECT_EQ(action(RKNPU_GET_DRV_VERSION, &v), 0);
    EXPECT_EQ(v, 908u);
    EXPECT_EQ(action(RKNPU_GET_HW_VERSION, &v), 0);
    EXPECT_EQ(action(RKNPU_GET_IOMMU_EN, &v), 0);
    EXPECT_EQ(v, 1u);
    EXPECT_EQ(action(RKNPU_POWER_ON, nullptr), -EINVAL);  // not handled in 0.9.8
    EXPECT_EQ(action(RKNPU_POWER_OFF, nullptr), -EINVAL);
    EXPECT_EQ(action(RKNPU_SET_FREQ, nullptr), -EINVAL);
    EXPECT_EQ(action(RKNPU_SET_BW_PRIORITY, nullptr), -EINVAL);
    EXPECT_EQ(action(99, nullptr), -EINVAL);
    v = 0xffffffed;  // -19, as librknnrt sends
    EXPECT_EQ(action(RKNPU_SET_PROC_NICE, &v), 0);
    v = 16;
    EXPECT_EQ(action(RKNPU_SET_IOMMU_DOMAIN_ID, &v), -EINVAL);
    v = 3;
    EXPECT_EQ(action(RKNPU_SET_IOMMU_DOMAIN_ID, &v), 0);
    EXPECT_EQ(action(RKNPU_GET_IOMMU_DOMAIN_ID, &v), 0);
    EXPECT_EQ(v, 3u);
    v = 1234;
    EXPECT_EQ(action(RKNPU_GET_TOTAL_RW_AMOUNT, &v), 0);
    EXPECT_EQ(v, 1234u);  // RK3588: value untouched
}

TEST_F(FakeRknpu, MemCreateAlignsAndReturnsAddresses) {
    auto a = create(100, RKNPU_MEM_CACHEABLE);
    EXPECT_NE(a.handle, 0u);
    EXPECT_EQ(a.size, 4096u);  // returned page-aligned
    EXPECT_NE(a.obj_addr, 0u);
    EXPECT_LT(a.dma_addr, uint64_t{1} << 32);
    auto b = create(5000, 0);
    EXPECT_EQ(b.size, 8192u);
    EXPECT_NE(b.handle, a.handle);
    EXPECT_NE(b.obj_addr, a.obj_addr);
    EXPECT_TRUE(b.dma_addr + b.size <= a.dma_addr || a.dma_addr + a.size <= b.dma_addr);
}

TEST_F(FakeRknpu, MemCreateErrors) {
    create(0, 0, -EINVAL);
    // RKNPU_MEM_MASK is not enforced: unknown flag bits are accepted (the driver checks them instead).
    create(4096, 0x80000000u, 0);
    env.kernel->set_memory_limit(1 << 20);
    create(2 << 20, 0, -ENOMEM);
}

TEST_F(FakeRknpu, MemCreateWithExistingHandleOnlyReturnsInfo) {
    auto a = create(4096, RKNPU_MEM_CACHEABLE | RKNPU_MEM_KERNEL_MAPPING);
    const size_t objects = env.kernel->counts().objects;
    rknpu_mem_create q{};
    q.handle = a.handle;
    ASSERT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_CREATE, &q), 0);
    EXPECT_EQ(q.obj_addr, a.obj_addr);
    EXPECT_EQ(q.dma_addr, a.dma_addr);
    EXPECT_EQ(q.flags, a.flags);
    EXPECT_EQ(env.kernel->counts().objects, objects);
}

TEST_F(FakeRknpu, MemMapAndMmap) {
    auto a = create(8192, 0);
    rknpu_mem_map m{};
    m.handle = 777;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_MAP, &m), -EINVAL);
    m.handle = a.handle;
    ASSERT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_MAP, &m), 0);
    EXPECT_GE(m.offset, uint64_t{1} << 32);  // DRM fake offsets, like 0x100000000 in captures
    int err = 0;
    EXPECT_EQ(env.kernel->mmap(8192, PROT_READ, MAP_SHARED, fd, m.offset + 0x100000, &err), nullptr);
    EXPECT_EQ(err, EINVAL);
    EXPECT_EQ(env.kernel->mmap(3 * 4096, PROT_READ, MAP_SHARED, fd, m.offset, &err), nullptr);
    EXPECT_EQ(err, EINVAL);  // longer than the object
    int other = env.open_fd(node);
    EXPECT_EQ(env.kernel->mmap(8192, PROT_READ, MAP_SHARED, other, m.offset, &err), nullptr);
    EXPECT_EQ(err, EACCES);  // that fd holds no handle to the object
    void* p = env.kernel->mmap(8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset, &err);
    ASSERT_NE(p, nullptr);
    static_cast<uint8_t*>(p)[8191] = 0x5a;
    EXPECT_EQ(env.kernel->counts().mappings, 1u);
    EXPECT_EQ(env.kernel->munmap(p, 8192), 0);
    EXPECT_EQ(env.kernel->munmap(p, 8192), -EINVAL);
    env.kernel->close(other);
}

TEST_F(FakeRknpu, MemDestroy) {
    auto a = create(4096, 0);
    rknpu_mem_destroy d{};
    d.handle = a.handle + 100;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_DESTROY, &d), -EINVAL);
    d.handle = a.handle;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_DESTROY, &d), 0);
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_DESTROY, &d), -EINVAL);
    EXPECT_EQ(env.kernel->counts().objects, 0u);
}

TEST_F(FakeRknpu, MemSyncRules) {
    auto cached = create(4096, RKNPU_MEM_CACHEABLE);
    auto uncached = create(4096, RKNPU_MEM_NON_CONTIGUOUS);
    rknpu_mem_sync s{};
    s.flags = RKNPU_MEM_SYNC_TO_DEVICE;
    s.size = 4096;
    s.obj_addr = uncached.obj_addr;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_SYNC, &s), -EINVAL);  // not CACHEABLE
    s.obj_addr = 0;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_SYNC, &s), -EINVAL);
    s.obj_addr = cached.handle;  // a handle is not an obj_addr: the real kernel would dereference it
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_SYNC, &s), -EFAULT);
    EXPECT_EQ(env.kernel->oopses().size(), 1u);
    s.obj_addr = cached.obj_addr;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_SYNC, &s), 0);
    s.flags = RKNPU_MEM_SYNC_FROM_DEVICE;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_SYNC, &s), 0);
    EXPECT_EQ(env.kernel->stats().syncs_to_device, 1u);
    EXPECT_EQ(env.kernel->stats().syncs_from_device, 1u);
}

TEST_F(FakeRknpu, SubmitRunsTasksAndWritesBackStatus) {
    auto s = prepare(3, RKNPU_MEM_KERNEL_MAPPING | RKNPU_MEM_CACHEABLE);
    ASSERT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), 0);
    EXPECT_EQ(s.task_counter, 3u);
    const auto& rec = env.hw->records();
    ASSERT_EQ(rec.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i) {
        EXPECT_EQ(rec[i].task.core, 0u);
        EXPECT_EQ(rec[i].task.regcmd_addr, regcmd.dma_addr + i * 128);
        EXPECT_EQ(rec[i].task.regcfg_amount, 16u);  // 12 + the 4 PC tail entries the PC fetches
        EXPECT_EQ(rec[i].task.int_mask, 0x300u);
        EXPECT_TRUE(rec[i].regcmd_readable);
    }
    rknpu_task last{};
    std::memcpy(&last, task_map + 2 * sizeof last, sizeof last);
    EXPECT_EQ(last.int_status, 0x300u);
    unmap_tasks();
}

TEST_F(FakeRknpu, SubmitValidation) {
    auto s = prepare(1, RKNPU_MEM_KERNEL_MAPPING);
    auto t = s;
    t.flags = RKNPU_JOB_PINGPONG;  // no RKNPU_JOB_PC
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &t), -EINVAL);
    t = s;
    t.task_number = 0;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &t), -EINVAL);
    t = s;
    t.core_mask = 8;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &t), -EINVAL);
    EXPECT_TRUE(env.hw->records().empty());

    // NULL task object and masks 5/6: EINVAL only after the whole timeout.
    const int64_t t0 = env.kernel->now_ns();
    t = s;
    t.task_obj_addr = 0;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &t), -EINVAL);
    EXPECT_EQ(env.kernel->now_ns() - t0, 200 * 1000000);
    t = s;
    t.core_mask = 5;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &t), -EINVAL);
    EXPECT_EQ(env.kernel->now_ns() - t0, 400 * 1000000);
    EXPECT_TRUE(env.kernel->oopses().empty());
    unmap_tasks();
}

TEST_F(FakeRknpu, SubmitWithoutKernelMappingIsAKernelOops) {
    auto s = prepare(1, RKNPU_MEM_CACHEABLE);  // no KERNEL_MAPPING
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), -EFAULT);
    ASSERT_EQ(env.kernel->oopses().size(), 1u);
    EXPECT_NE(env.kernel->oopses()[0].find("KERNEL_MAPPING"), std::string::npos);
    EXPECT_TRUE(env.hw->records().empty());
    unmap_tasks();
}

TEST_F(FakeRknpu, SubmitRangePastTaskArrayIsAKernelOops) {
    auto s = prepare(1, RKNPU_MEM_KERNEL_MAPPING);
    s.subcore_task[0] = {101, 2};  // the 4 KiB task BO holds 102 records
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), -EFAULT);
    EXPECT_EQ(env.kernel->oopses().size(), 1u);
    unmap_tasks();
}

TEST_F(FakeRknpu, SubmitTimesOutWhenHardwareNeverCompletes) {
    auto s = prepare(2, RKNPU_MEM_KERNEL_MAPPING);
    env.hw->set_mode(sim::RecordingHardware::Mode::NeverComplete);
    const int64_t t0 = env.kernel->now_ns();
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), -ETIMEDOUT);
    EXPECT_EQ(env.kernel->now_ns() - t0, (200 + 100) * 1000000);  // timeout + the abort's 100 ms sleep
    EXPECT_EQ(s.task_counter, 0u);  // copied back despite the error
    EXPECT_EQ(env.kernel->stats().soft_resets, 1u);
    unmap_tasks();
}

TEST_F(FakeRknpu, IntMaskMustMatchTheFuzzedStatus) {
    // Status 0x100 fuzzes to 0x300: completes for int_mask 0x300.
    auto s = prepare(1, RKNPU_MEM_KERNEL_MAPPING, 0x300);
    env.hw->set_int_status(0x100);
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), 0);
    unmap_tasks();
    // int_mask 0x100 (half a pair) can never match a fuzzed status.
    s = prepare(1, RKNPU_MEM_KERNEL_MAPPING, 0x100);
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), -ETIMEDOUT);
    unmap_tasks();
    // A PPU completion while the task waits for the DPU.
    s = prepare(1, RKNPU_MEM_KERNEL_MAPPING, 0x300);
    env.hw->set_int_status(0xc00);
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), -ETIMEDOUT);
    unmap_tasks();
}

TEST_F(FakeRknpu, SubcoreRangesPerCoreMask) {
    auto s = prepare(6, RKNPU_MEM_KERNEL_MAPPING);
    // Two cores: core c uses subcore_task[c].
    s.core_mask = 3;
    s.subcore_task[0] = {0, 2};
    s.subcore_task[1] = {2, 1};
    ASSERT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), 0);
    ASSERT_EQ(env.hw->records().size(), 3u);
    EXPECT_EQ(env.hw->records()[2].task.core, 1u);
    EXPECT_EQ(env.hw->records()[2].task.regcmd_addr, regcmd.dma_addr + 2 * 128);
    env.hw->clear();
    // Three cores: core c uses subcore_task[c + 2].
    s.core_mask = 7;
    s.subcore_task[0] = {0, 0};
    s.subcore_task[1] = {0, 0};
    s.subcore_task[2] = {0, 1};
    s.subcore_task[3] = {1, 2};
    s.subcore_task[4] = {3, 3};
    ASSERT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), 0);
    ASSERT_EQ(env.hw->records().size(), 6u);
    EXPECT_EQ(env.hw->records()[0].task.core, 0u);
    EXPECT_EQ(env.hw->records()[1].task.core, 1u);
    EXPECT_EQ(env.hw->records()[5].task.core, 2u);
    EXPECT_EQ(env.hw->records()[5].task.regcmd_addr, regcmd.dma_addr + 5 * 128);
    unmap_tasks();
}

TEST_F(FakeRknpu, RegcmdAddressIsTruncatedTo32Bits) {
    auto s = prepare(1, RKNPU_MEM_KERNEL_MAPPING);
    rknpu_task t{};
    std::memcpy(&t, task_map, sizeof t);
    t.regcmd_addr |= uint64_t{1} << 36;
    std::memcpy(task_map, &t, sizeof t);
    ASSERT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), 0);
    EXPECT_EQ(env.hw->records()[0].task.regcmd_addr, regcmd.dma_addr);  // writel() drops the high bits
    unmap_tasks();
}

TEST_F(FakeRknpu, FencesNeedTheKernelConfig) {
    sim::FakeDeviceConfig c;
    c.node = "/dev/dri/renderD130";
    c.fences = false;
    int nofence = env.open_fd(env.add(c));
    auto s = prepare(1, RKNPU_MEM_KERNEL_MAPPING);
    s.flags |= RKNPU_JOB_NONBLOCK | RKNPU_JOB_FENCE_OUT;
    // On a kernel with fences: a sync_file comes back and is already signalled.
    ASSERT_EQ(env.io(fd, DRM_IOCTL_RKNPU_SUBMIT, &s), 0);
    ASSERT_GE(s.fence_fd, 0);
    EXPECT_EQ(env.kernel->poll_readable(s.fence_fd, 10), 1);
    EXPECT_EQ(env.kernel->close(s.fence_fd), 0);
    // Without CONFIG_ROCKCHIP_RKNPU_FENCE: EINVAL (checked before the task object).
    s.fence_fd = -1;
    EXPECT_EQ(env.io(nofence, DRM_IOCTL_RKNPU_SUBMIT, &s), -EINVAL);
    env.kernel->close(nofence);
    unmap_tasks();
}

TEST_F(FakeRknpu, GemCloseAndPrime) {
    auto a = create(4096, RKNPU_MEM_CACHEABLE);
    drm_prime_handle p{};
    p.handle = a.handle;
    p.flags = 0x4000;  // not CLOEXEC|RDWR
    EXPECT_EQ(env.io(fd, kDrmIoctlPrimeHandleToFd, &p), -EINVAL);
    p.flags = DRM_CLOEXEC | DRM_RDWR;
    p.handle = 4242;
    EXPECT_EQ(env.io(fd, kDrmIoctlPrimeHandleToFd, &p), -ENOENT);
    p.handle = a.handle;
    ASSERT_EQ(env.io(fd, kDrmIoctlPrimeHandleToFd, &p), 0);
    const int dmabuf = p.fd;
    // Same file: the same handle comes back. Another file: a new handle to the same object.
    drm_prime_handle in{};
    in.fd = dmabuf;
    ASSERT_EQ(env.io(fd, kDrmIoctlPrimeFdToHandle, &in), 0);
    EXPECT_EQ(in.handle, a.handle);
    int other = env.open_fd(node);
    ASSERT_EQ(env.io(other, kDrmIoctlPrimeFdToHandle, &in), 0);
    rknpu_mem_create info{};
    info.handle = in.handle;
    ASSERT_EQ(env.io(other, DRM_IOCTL_RKNPU_MEM_CREATE, &info), 0);
    EXPECT_EQ(info.obj_addr, a.obj_addr);
    in.fd = 31337;
    EXPECT_EQ(env.io(fd, kDrmIoctlPrimeFdToHandle, &in), -EBADF);

    drm_gem_close c{};
    c.handle = a.handle;
    c.pad = 1;
    EXPECT_EQ(env.io(fd, kDrmIoctlGemClose, &c), -EINVAL);
    c.pad = 0;
    EXPECT_EQ(env.io(fd, kDrmIoctlGemClose, &c), 0);
    EXPECT_EQ(env.io(fd, kDrmIoctlGemClose, &c), -EINVAL);
    env.kernel->close(other);  // drops the other handle
    EXPECT_EQ(env.kernel->counts().objects, 1u);  // the dma-buf still holds it
    env.kernel->close(dmabuf);
    EXPECT_EQ(env.kernel->counts().objects, 0u);
}

TEST_F(FakeRknpu, RemovedDeviceFailsWithENODEV) {
    auto a = create(4096, 0);
    env.kernel->remove_device(node);
    uint32_t v = 0;
    EXPECT_EQ(action(RKNPU_GET_DRV_VERSION, &v), -ENODEV);
    rknpu_mem_map m{};
    m.handle = a.handle;
    EXPECT_EQ(env.io(fd, DRM_IOCTL_RKNPU_MEM_MAP, &m), -ENODEV);
    EXPECT_EQ(env.kernel->open(node, 2), -ENOENT);
    EXPECT_TRUE(env.kernel->list_dir("/dev/dri").empty());
}

}  // namespace
}  // namespace npudrv::test

// The fake kernel's rocket ioctls, called raw: the documented semantics and errno values (reference §2).
#include <gtest/gtest.h>

#include <cerrno>
#include <limits>
#include <vector>

#include "drv/uapi/drm_core.h"
#include "drv/uapi/rocket.h"
#include "fake_env.h"

namespace npudrv::test {
namespace {

using namespace npudrv::uapi;

constexpr int64_t kMs = 1000000;

class FakeRocket : public ::testing::Test {
protected:
    void SetUp() override {
        node = env.add(DriverKind::Rocket);
        fd = env.open_fd(node);
    }
    void TearDown() override { env.kernel->close(fd); }
    drm_rocket_create_bo create(uint32_t size, int expect = 0, int on_fd = -1) {
        drm_rocket_create_bo a{};
        a.size = size;
        EXPECT_EQ(env.io(on_fd < 0 ? fd : on_fd, kRocketIoctlCreateBo, &a), expect);
        return a;
    }
    int prep(uint32_t handle, int64_t deadline, uint32_t reserved = 0) {
        drm_rocket_prep_bo p{};
        p.handle = handle;
        p.reserved = reserved;
        p.timeout_ns = deadline;
        return env.io(fd, kRocketIoctlPrepBo, &p);
    }
    int fini(uint32_t handle, uint32_t reserved = 0) {
        drm_rocket_fini_bo f{};
        f.handle = handle;
        f.reserved = reserved;
        return env.io(fd, kRocketIoctlFiniBo, &f);
    }
    // One job of `count` tasks reading `in` and writing `out`.
    int submit_one(uint32_t regcmd_addr, uint32_t count, uint32_t in, uint32_t out, uint32_t regcmd_count = 20) {
        tasks.assign(count, drm_rocket_task{regcmd_addr, regcmd_count});
        ins = {in};
        outs = {out};
        drm_rocket_job job{};
        job.tasks = reinterpret_cast<uintptr_t>(tasks.data());
        job.task_count = count;
        job.task_struct_size = sizeof(drm_rocket_task);
        job.in_bo_handles = reinterpret_cast<uintptr_t>(ins.data());
        job.in_bo_handle_count = 1;
        job.out_bo_handles = reinterpret_cast<uintptr_t>(outs.data());
        job.out_bo_handle_count = 1;
        jobs = {job};
        drm_rocket_submit s{};
        s.jobs = reinterpret_cast<uintptr_t>(jobs.data());
        s.job_count = 1;
        s.job_struct_size = sizeof(drm_rocket_job);
        return env.io(fd, kRocketIoctlSubmit, &s);
    }

    FakeEnv env;
    std::string node;
    int fd = -1;
    std::vector<drm_rocket_task> tasks;
    std::vector<uint32_t> ins, outs;
    std::vector<drm_rocket_job> jobs;
};

TEST_F(FakeRocket, CreateBoPerFdAddressSpaceFromZero) {
    auto a = create(100);
    auto b = create(4096);
    EXPECT_EQ(a.dma_address, 0u);  // 0 is a valid NPU address on rocket
    EXPECT_EQ(b.dma_address, 4096u);
    EXPECT_NE(a.handle, b.handle);
    EXPECT_NE(a.offset, b.offset);
    int other = env.open_fd(node);
    auto c = create(4096, 0, other);
    EXPECT_EQ(c.dma_address, 0u);  // a new fd has its own IOMMU domain
    env.kernel->close(other);
}

TEST_F(FakeRocket, FreedAddressesAreReused) {
    auto a = create(8192);
    auto b = create(4096);
    drm_gem_close c{};
    c.handle = a.handle;
    ASSERT_EQ(env.io(fd, kDrmIoctlGemClose, &c), 0);
    auto d = create(4096);  // drm_mm: the lowest hole that fits
    EXPECT_EQ(d.dma_address, 0u);
    EXPECT_EQ(b.dma_address, 8192u);
}

TEST_F(FakeRocket, CreateBoErrors) {
    create(0, -EINVAL);
    env.kernel->set_memory_limit(64 * 1024);
    create(128 * 1024, -ENOMEM);
}

TEST_F(FakeRocket, FiniAndPrepValidation) {
    auto a = create(4096);
    EXPECT_EQ(fini(a.handle, 1), -EINVAL);
    EXPECT_EQ(fini(999), -ENOENT);
    EXPECT_EQ(fini(a.handle), 0);
    EXPECT_EQ(prep(a.handle, std::numeric_limits<int64_t>::max(), 1), -EINVAL);
    EXPECT_EQ(prep(999, std::numeric_limits<int64_t>::max()), -ENOENT);
    EXPECT_GT(prep(a.handle, std::numeric_limits<int64_t>::max()), 0);  // success is a positive value
    EXPECT_GT(prep(a.handle, 0), 0);  // idle: succeeds even with a past deadline
}

TEST_F(FakeRocket, SubmitArgumentValidation) {
    drm_rocket_submit s{};
    s.job_struct_size = sizeof(drm_rocket_job);
    s.job_count = 0;
    EXPECT_EQ(env.io(fd, kRocketIoctlSubmit, &s), 0);  // nothing to do
    s.job_count = 1;
    EXPECT_EQ(env.io(fd, kRocketIoctlSubmit, &s), -EFAULT);  // NULL job array
    s.job_struct_size = 39;
    EXPECT_EQ(env.io(fd, kRocketIoctlSubmit, &s), -EINVAL);
    s.job_struct_size = sizeof(drm_rocket_job);
    s.reserved = 1;
    EXPECT_EQ(env.io(fd, kRocketIoctlSubmit, &s), -EINVAL);
}

TEST_F(FakeRocket, SubmitRunsEachTaskOnOneCoreAndFencesOutputs) {
    auto regcmd = create(4096);
    auto in = create(4096);
    auto out = create(4096);
    ASSERT_EQ(submit_one(static_cast<uint32_t>(regcmd.dma_address), 3, in.handle, out.handle), 0);
    const auto& rec = env.hw->records();
    ASSERT_EQ(rec.size(), 3u);
    for (const auto& r : rec) {
        EXPECT_EQ(r.task.regcmd_addr, regcmd.dma_address);
        EXPECT_EQ(r.task.regcfg_amount, 20u);  // rocket counts include the PC tail
        EXPECT_EQ(r.task.int_mask, 0x300u);
        EXPECT_EQ(r.task.core, rec[0].task.core);
    }
    EXPECT_GT(prep(out.handle, env.kernel->now_ns()), 0);
}

TEST_F(FakeRocket, RejectedJobsAreDroppedSilently) {
    auto regcmd = create(4096);
    auto out = create(4096);
    EXPECT_EQ(submit_one(static_cast<uint32_t>(regcmd.dma_address), 1, 777, out.handle), 0);  // unknown handle
    EXPECT_EQ(submit_one(static_cast<uint32_t>(regcmd.dma_address), 1, regcmd.handle, out.handle, 0), 0);  // count 0
    EXPECT_EQ(submit_one(static_cast<uint32_t>(regcmd.dma_address), 0, regcmd.handle, out.handle), 0);  // no tasks
    EXPECT_EQ(env.kernel->stats().dropped_jobs, 3u);
    EXPECT_TRUE(env.hw->records().empty());
}

TEST_F(FakeRocket, HungJobEndsAfterTheSchedulerTimeout) {
    auto regcmd = create(4096);
    auto out = create(4096);
    env.hw->set_mode(sim::RecordingHardware::Mode::NeverComplete);
    const int64_t t0 = env.kernel->now_ns();
    ASSERT_EQ(submit_one(static_cast<uint32_t>(regcmd.dma_address), 1, regcmd.handle, out.handle), 0);
    EXPECT_EQ(prep(out.handle, t0), -EBUSY);                 // deadline already passed, still busy
    EXPECT_EQ(prep(out.handle, t0 + 100 * kMs), -ETIMEDOUT);  // the deadline comes first
    EXPECT_EQ(env.kernel->now_ns(), t0 + 100 * kMs);
    EXPECT_GT(prep(out.handle, t0 + 2000 * kMs), 0);          // the 500 ms reset signals the fence anyway
    EXPECT_EQ(env.kernel->now_ns(), t0 + 500 * kMs);
    EXPECT_EQ(env.kernel->stats().soft_resets, 1u);
}

TEST_F(FakeRocket, DpuInterruptIsTheOnlyCompletion) {
    auto regcmd = create(4096);
    auto out = create(4096);
    env.hw->set_int_status(0xc00);  // PPU only: IRQ_NONE, the job hangs
    const int64_t t0 = env.kernel->now_ns();
    ASSERT_EQ(submit_one(static_cast<uint32_t>(regcmd.dma_address), 1, regcmd.handle, out.handle), 0);
    EXPECT_EQ(prep(out.handle, t0 + 10 * kMs), -ETIMEDOUT);
}

TEST_F(FakeRocket, SubmitDoesNotCopyBack) {
    // SUBMIT is _IOW: whatever the kernel does to its copy, the user struct is unchanged.
    drm_rocket_submit s{};
    s.job_struct_size = sizeof(drm_rocket_job);
    s.reserved = 5;
    EXPECT_EQ(env.io(fd, kRocketIoctlSubmit, &s), -EINVAL);
    EXPECT_EQ(s.reserved, 5u);
}

TEST_F(FakeRocket, GemCloseFreesAndDependsOnMappings) {
    auto a = create(4096);
    int err = 0;
    void* p = env.kernel->mmap(4096, 3, 1, fd, a.offset, &err);
    ASSERT_NE(p, nullptr);
    drm_gem_close c{};
    c.handle = a.handle;
    EXPECT_EQ(env.io(fd, kDrmIoctlGemClose, &c), 0);
    EXPECT_EQ(env.kernel->counts().objects, 1u);  // the mapping still holds the object
    EXPECT_EQ(env.kernel->munmap(p, 4096), 0);
    EXPECT_EQ(env.kernel->counts().objects, 0u);
    EXPECT_EQ(fini(a.handle), -ENOENT);
}

TEST_F(FakeRocket, EarlyUapiHasNoPrepFini) {
    sim::FakeDeviceConfig c;
    c.driver = DriverKind::Rocket;
    c.node = "/dev/accel/accel1";
    c.rocket_prep_fini = false;
    int early = env.open_fd(env.add(c));
    drm_rocket_fini_bo f{};
    EXPECT_EQ(env.io(early, kRocketIoctlFiniBo, &f), -EINVAL);
    env.kernel->close(early);
}

TEST_F(FakeRocket, RemovalFailsTheWait) {
    auto regcmd = create(4096);
    auto out = create(4096);
    ASSERT_EQ(submit_one(static_cast<uint32_t>(regcmd.dma_address), 1, regcmd.handle, out.handle), 0);
    env.kernel->remove_device(node);
    EXPECT_EQ(prep(out.handle, std::numeric_limits<int64_t>::max()), -ENODEV);
}

}  // namespace
}  // namespace npudrv::test

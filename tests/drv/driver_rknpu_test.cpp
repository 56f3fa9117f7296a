// npudrv::Device/Buffer/Job on the vendor rknpu driver, run against the fake kernel: success paths, every
// documented failure, and the rules the driver enforces before a call.
#include <gtest/gtest.h>

#include <cerrno>

#include "drv/uapi/rknpu.h"
#include "fake_env.h"

namespace npudrv::test {
namespace {

constexpr unsigned kRknpuEntries = 20;  // 16 body + 4 PC tail entries

class DriverRknpu : public OneDriverTest {
protected:
    DriverRknpu() : OneDriverTest(DriverKind::Rknpu, kRknpuEntries, std::chrono::milliseconds(50)) {}
};

TEST_F(DriverRknpu, InfoFromVersionAndActions) {
    Device dev = env.open();
    const auto& info = dev.info();
    EXPECT_EQ(info.node, node);
    EXPECT_EQ(info.driver, DriverKind::Rknpu);
    EXPECT_EQ(info.driver_name, "rknpu");
    EXPECT_EQ(info.version.text(), "0.9.8");
    EXPECT_EQ(info.driver_date, "20240828");
    ASSERT_TRUE(info.hw_version.has_value());
    ASSERT_TRUE(info.iommu.has_value());
    EXPECT_TRUE(*info.iommu);
    EXPECT_TRUE(info.fake_kernel);
}

TEST_F(DriverRknpu, BufferLifecycle) {
    Device dev = env.open();
    Buffer b = dev.create_buffer(10000, kBufferCacheable);
    EXPECT_EQ(b.size(), 12288u);
    EXPECT_LT(b.dma_addr(), uint64_t{1} << 32);
    EXPECT_EQ(b.data(), nullptr);
    uint8_t* p = b.map();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(b.map(), p);  // idempotent
    p[0] = 1;
    p[12287] = 2;
    b.sync_to_device();
    b.sync_from_device(4096, 4096);
    EXPECT_EQ(env.kernel->stats().syncs_to_device, 1u);
    EXPECT_EQ(env.kernel->stats().syncs_from_device, 1u);
    b.unmap();
    EXPECT_EQ(env.kernel->counts().mappings, 0u);
    b.destroy();
    EXPECT_FALSE(b.valid());
    EXPECT_EQ(env.kernel->counts().objects, 0u);
    expect_error([&] { b.map(); }, "destroyed");
}

TEST_F(DriverRknpu, BadFlagsAndSizesAreRefusedBeforeTheCall) {
    Device dev = env.open();
    auto e = expect_error([&] { dev.create_buffer(4096, 0x100); }, "bad buffer flags 0x100");
    EXPECT_EQ(e.error_number(), 0);
    expect_error([&] { dev.create_buffer(0, 0); }, "zero-byte");
    Buffer b = dev.create_buffer(4096, kBufferCacheable);
    expect_error([&] { b.sync_to_device(4000, 200); }, "overruns the 4096-byte buffer");
    expect_error([&] { b.sync_from_device(8192); }, "offset 8192 is beyond");
    EXPECT_EQ(env.kernel->stats().syncs_to_device, 0u);
}

TEST_F(DriverRknpu, SyncOnNonCacheableBufferIsRefused) {
    Device dev = env.open();
    Buffer b = dev.create_buffer(4096, 0);
    auto e = expect_error([&] { b.sync_to_device(); }, "not CACHEABLE");
    EXPECT_EQ(e.error_number(), 0);  // refused by the driver, the kernel never saw it
    EXPECT_TRUE(env.kernel->oopses().empty());
}

TEST_F(DriverRknpu, OutOfMemory) {
    Device dev = env.open();
    env.kernel->set_memory_limit(1 << 20);
    Buffer ok = dev.create_buffer(512 * 1024, 0);
    auto e = expect_error([&] { dev.create_buffer(768 * 1024, 0); }, "out of NPU memory");
    EXPECT_EQ(e.error_number(), ENOMEM);
    EXPECT_EQ(e.kind(), ErrorKind::Runtime);
    EXPECT_NE(std::string(e.what()).find("MEM_CREATE (786432 bytes"), std::string::npos);
}

TEST_F(DriverRknpu, ExportImportSharesTheObject) {
    Device a = env.open();
    Device b = env.open();
    Buffer src = a.create_buffer(4096, kBufferCacheable);
    src.map()[100] = 0x42;
    int fd = src.export_dmabuf();
    Buffer imported = b.import_dmabuf(fd);
    a.close_fd(fd);
    EXPECT_EQ(imported.dma_addr(), src.dma_addr());  // one global domain per device
    EXPECT_EQ(imported.size(), 4096u);
    EXPECT_EQ(imported.flags() & kBufferCacheable, kBufferCacheable);
    EXPECT_EQ(imported.map()[100], 0x42);
    imported.sync_from_device();
    expect_error([&] { b.import_dmabuf(12345); }, "PRIME_FD_TO_HANDLE (import fd 12345) failed: EBADF");
}

TEST_F(DriverRknpu, JobRunsAndReportsStats) {
    Device dev = env.open();
    Buffer regcmd = make_regcmd(dev, 3, kRknpuEntries);
    Buffer in = dev.create_buffer(4096, kBufferCacheable);
    Buffer out = dev.create_buffer(4096, kBufferCacheable);
    JobSpec spec = one_lane(regcmd, out, 3);
    spec.inputs = {&in};
    Job job = dev.create_job(spec);
    const auto syncs = env.kernel->stats().syncs_to_device;
    job.run();
    // Synced to the device: the input, the regcmd buffer and the task array; from: the output + task status.
    EXPECT_EQ(env.kernel->stats().syncs_to_device - syncs, 3u);
    EXPECT_EQ(env.kernel->stats().syncs_from_device, 2u);
    const auto& rec = env.hw->records();
    ASSERT_EQ(rec.size(), 3u);
    for (unsigned i = 0; i < 3; ++i) {
        EXPECT_EQ(rec[i].task.regcmd_addr, regcmd.dma_addr() + stream_offset(i, kRknpuEntries));
        EXPECT_EQ(rec[i].task.regcfg_amount, kRknpuEntries);  // the kernel gets 4 fewer; the PC fetches the tail
        EXPECT_EQ(rec[i].task.enable_mask, 0xdu);
        EXPECT_TRUE(rec[i].regcmd_readable);
    }
    EXPECT_EQ(job.stats().task_counter, 3u);
    EXPECT_EQ(job.stats().last_int_status, 0x300u);
    job.run();  // a job is reusable
    EXPECT_EQ(env.hw->records().size(), 6u);
    EXPECT_TRUE(env.kernel->oopses().empty());
}

TEST_F(DriverRknpu, MultiCoreLanes) {
    Device dev = env.open();
    const JobBuffers b = job_buffers(dev, 6);
    JobSpec spec;
    spec.core_mask = 7;
    spec.lanes.resize(3);
    for (unsigned i = 0; i < 6; ++i)
        spec.lanes[i % 3].tasks.push_back({&b.regcmd, stream_offset(i, kRknpuEntries), kRknpuEntries, 0x18, 0x300});
    spec.outputs = {&b.out};
    Job job = dev.create_job(spec);
    job.run();
    std::vector<unsigned> per_core(3);
    for (const auto& r : env.hw->records()) per_core[r.task.core]++;
    EXPECT_EQ(per_core, (std::vector<unsigned>{2, 2, 2}));

    spec.core_mask = 5;
    expect_error([&] { dev.create_job(spec); }, "core_mask 0x5 is not one of");
    spec.core_mask = 3;
    expect_error([&] { dev.create_job(spec); }, "runs 2 lane(s) but the job has 3");
}

TEST_F(DriverRknpu, TaskRulesAreEnforcedBeforeSubmit) {
    Device dev = env.open();
    const JobBuffers b = job_buffers(dev, 2);
    expect_refused(dev, b.regcmd, b.out, "int_mask 0x100 can never match",
                   [&](JobSpec& s) { s.lanes[0].tasks[0].int_mask = 0x100; });
    expect_refused(dev, b.regcmd, b.out, "must include a body and the 4 trailing PC entries",
                   [&](JobSpec& s) { s.lanes[0].tasks[0].regcmd_entries = 4; });
    expect_refused(dev, b.regcmd, b.out, "not 16-byte aligned",
                   [&](JobSpec& s) { s.lanes[0].tasks[0].regcmd_offset = 8; });
    expect_refused(dev, b.regcmd, b.out, "overruns its",
                   [&](JobSpec& s) { s.lanes[0].tasks[0].regcmd_offset = b.regcmd.size() - 64; });
    expect_refused(dev, b.regcmd, b.out, "every buffer the NPU writes must be listed",
                   [&](JobSpec& s) { s.outputs.clear(); });
    expect_refused(dev, b.regcmd, b.out, "timeout must be 1",
                   [&](JobSpec& s) { s.timeout = std::chrono::milliseconds(0); });
    Device other = env.open();
    Buffer foreign = other.create_buffer(4096, 0);
    expect_refused(dev, b.regcmd, b.out, "belongs to another device", [&](JobSpec& s) { s.inputs = {&foreign}; });
    EXPECT_TRUE(env.hw->records().empty());
}

TEST_F(DriverRknpu, TaskBufferWithoutKernelMappingIsRefused) {
    Device dev = env.open();
    const JobBuffers b = job_buffers(dev, 1);
    Buffer tasks = dev.create_buffer(4096, kBufferCacheable);
    expect_refused(dev, b.regcmd, b.out, "lacks KERNEL_MAPPING", [&](JobSpec& s) { s.task_buffer = &tasks; });
    Buffer good = dev.create_buffer(4096, kBufferKernelMapping);
    JobSpec spec = one_lane(b.regcmd, b.out);
    spec.task_buffer = &good;
    Job job = dev.create_job(spec);
    job.run();
    EXPECT_TRUE(env.kernel->oopses().empty());
}

TEST_F(DriverRknpu, AddressesAbove4GiBAreRefused) {
    sim::FakeDeviceConfig c;
    c.node = "/dev/dri/renderD130";
    c.iova_top = uint64_t{1} << 36;  // a kernel handing out 40-bit IOVAs
    const std::string high = env.add(c);
    Device dev = env.open(high);
    Buffer regcmd = make_regcmd(dev, 1, kRknpuEntries);
    ASSERT_GE(regcmd.dma_addr(), uint64_t{1} << 32);
    Buffer out = dev.create_buffer(4096, 0);
    expect_error([&] { dev.create_job(one_lane(regcmd, out)); }, "above the 4 GiB limit");
}

TEST_F(DriverRknpu, TimeoutIsReportedWithoutSleeping) {
    Device dev = env.open();
    OneTaskJob j = one_task_job(dev);
    env.hw->set_mode(sim::RecordingHardware::Mode::NeverComplete);
    const int64_t t0 = env.kernel->now_ns();
    auto e = expect_error([&] { j.job.run(); }, "NPU job timed out after 50 ms (rknpu; 0 of 1 tasks done");
    EXPECT_EQ(e.error_number(), ETIMEDOUT);
    EXPECT_EQ(env.kernel->now_ns() - t0, 150 * 1000000);  // virtual time only
    env.hw->set_mode(sim::RecordingHardware::Mode::Complete);
    j.job.run();  // usable again after the failure
}

TEST_F(DriverRknpu, HardwareErrorIsShownInTheMessage) {
    Device dev = env.open();
    OneTaskJob j = one_task_job(dev);
    env.hw->set_mode(sim::RecordingHardware::Mode::Fail);
    expect_error([&] { j.job.run(); }, "simulator: recording double told to fail");
}

TEST_F(DriverRknpu, DeviceRemovedMidJob) {
    Device dev = env.open();
    OneTaskJob j = one_task_job(dev);
    env.hw->set_on_run([&](const sim::HwTask&) { env.kernel->remove_device(node); });
    auto e = expect_error([&] { j.job.run(); }, "the NPU device was removed");
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    EXPECT_EQ(e.error_number(), ENODEV);
    expect_error([&] { dev.create_buffer(4096, 0); }, "removed");
    expect_error([&] { j.out.destroy(); }, "MEM_DESTROY (handle");
}

TEST_F(DriverRknpu, FenceMode) {
    Device dev = env.open();
    Buffer regcmd = make_regcmd(dev, 1, kRknpuEntries);
    Buffer out = dev.create_buffer(4096, kBufferCacheable);
    JobSpec spec = one_lane(regcmd, out);
    spec.use_fence = true;
    Job job = dev.create_job(spec);
    job.submit();
    EXPECT_TRUE(job.pending());
    EXPECT_GE(job.fence_fd(), 0);
    job.wait();
    EXPECT_EQ(job.fence_fd(), -1);
    EXPECT_EQ(env.kernel->counts().fence_fds, 0u);
    env.hw->set_mode(sim::RecordingHardware::Mode::NeverComplete);
    job.submit();
    expect_error([&] { job.wait(); }, "fence not signalled");
    EXPECT_EQ(env.kernel->counts().fence_fds, 0u);
    expect_error([&] { job.wait(); }, "not submitted");
}

TEST_F(DriverRknpu, FenceWithoutKernelSupport) {
    sim::FakeDeviceConfig c;
    c.node = "/dev/dri/renderD130";
    c.fences = false;
    Device dev = env.open(env.add(c));
    const JobBuffers b = job_buffers(dev, 1);
    JobSpec spec = one_lane(b.regcmd, b.out);
    spec.use_fence = true;
    Job job = dev.create_job(spec);
    auto e = expect_error([&] { job.submit(); }, "rknpu SUBMIT failed: EINVAL");
    EXPECT_EQ(e.error_number(), EINVAL);
}

TEST(DriverRknpuShared, JobsSharingATaskBufferEachWriteTheirOwnRecords) {
    FakeEnv env;
    env.add(DriverKind::Rknpu);
    Device dev = env.open();
    Buffer regcmd = make_regcmd(dev, 2, 20);
    Buffer out = dev.create_buffer(4096, 0);
    Buffer tasks = dev.create_buffer(4096, kBufferKernelMapping | kBufferCacheable);
    JobSpec a = one_lane_job(regcmd, out, 20, JobSpec{}.timeout);
    a.task_buffer = &tasks;
    JobSpec b = a;
    b.lanes[0].tasks[0].regcmd_offset = stream_offset(1, 20);
    b.lanes[0].tasks[0].int_mask = 0xc00;
    Job ja = dev.create_job(a);
    Job jb = dev.create_job(b);
    ja.run();
    jb.run();
    ja.run();
    const auto& rec = env.hw->records();
    ASSERT_EQ(rec.size(), 3u);
    EXPECT_EQ(rec[0].task.regcmd_addr, regcmd.dma_addr());
    EXPECT_EQ(rec[1].task.regcmd_addr, regcmd.dma_addr() + stream_offset(1, 20));
    EXPECT_EQ(rec[2].task.regcmd_addr, regcmd.dma_addr());
    EXPECT_EQ(jb.stats().last_int_status, 0xc00u);
    EXPECT_EQ(ja.stats().last_int_status, 0x300u);
}

}  // namespace
}  // namespace npudrv::test

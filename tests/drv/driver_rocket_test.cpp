// npudrv::Device/Buffer/Job on the mainline rocket driver, run against the fake kernel.
#include <gtest/gtest.h>

#include <cerrno>

#include "fake_env.h"

namespace npudrv::test {
namespace {

constexpr unsigned kRocketEntries = 20;  // including the 4 PC tail entries, as rocket counts them

class DriverRocket : public OneDriverTest {
protected:
    DriverRocket() : OneDriverTest(DriverKind::Rocket, kRocketEntries, std::chrono::milliseconds(100)) {}
};

TEST_F(DriverRocket, Info) {
    Device dev = env.open();
    EXPECT_EQ(dev.info().driver, DriverKind::Rocket);
    EXPECT_EQ(dev.info().driver_name, "rocket");
    EXPECT_EQ(dev.info().node, "/dev/accel/accel0");
    EXPECT_FALSE(dev.info().hw_version.has_value());
    EXPECT_TRUE(dev.info().iommu.value_or(false));
}

TEST_F(DriverRocket, BufferLifecycleUsesFiniPrepAndGemClose) {
    Device dev = env.open();
    Buffer b = dev.create_buffer(5000, 0);
    EXPECT_EQ(b.size(), 8192u);
    EXPECT_EQ(b.dma_addr(), 0u);  // first BO of this fd's domain
    EXPECT_NE(b.flags() & kBufferCacheable, 0u);  // rocket memory is always cached
    b.map()[8191] = 7;
    b.sync_to_device();   // FINI_BO
    b.sync_from_device(); // PREP_BO
    EXPECT_EQ(env.kernel->stats().syncs_to_device, 1u);
    EXPECT_EQ(env.kernel->stats().syncs_from_device, 1u);
    expect_error([&] { b.sync_to_device(8000, 1000); }, "overruns the 8192-byte buffer");
    b.destroy();
    EXPECT_EQ(env.kernel->counts().objects, 0u);
    EXPECT_EQ(env.kernel->counts().handles, 0u);
}

TEST_F(DriverRocket, RefusedBuffers) {
    Device dev = env.open();
    expect_error([&] { dev.create_buffer(4096, kBufferContiguous); }, "shmem pages only");
    expect_error([&] { dev.create_buffer(uint64_t{5} << 30, 0); }, "32-bit size");
    Buffer b = dev.create_buffer(4096, 0);
    int fd = b.export_dmabuf();
    auto e = expect_error([&] { dev.import_dmabuf(fd); }, "rocket cannot import");
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    dev.close_fd(fd);
}

TEST_F(DriverRocket, OutOfMemory) {
    Device dev = env.open();
    env.kernel->set_memory_limit(1 << 20);
    auto e = expect_error([&] { dev.create_buffer(2 << 20, 0); }, "rocket CREATE_BO (2097152 bytes) failed: ENOMEM");
    EXPECT_EQ(e.error_number(), ENOMEM);
}

TEST_F(DriverRocket, JobRuns) {
    Device dev = env.open();
    Buffer regcmd = make_regcmd(dev, 2, kRocketEntries);
    Buffer in = dev.create_buffer(4096, 0);
    Buffer out = dev.create_buffer(4096, 0);
    JobSpec spec = one_lane(regcmd, out, 2);
    spec.inputs = {&in};
    Job job = dev.create_job(spec);
    job.submit();
    EXPECT_TRUE(job.pending());
    job.wait();
    const auto& rec = env.hw->records();
    ASSERT_EQ(rec.size(), 2u);
    EXPECT_EQ(rec[1].task.regcmd_addr, regcmd.dma_addr() + stream_offset(1, kRocketEntries));
    EXPECT_EQ(rec[1].task.regcfg_amount, kRocketEntries);
    EXPECT_TRUE(rec[0].regcmd_readable);
    EXPECT_EQ(env.kernel->stats().dropped_jobs, 0u);
    // FINI on the input, the regcmd buffer and the output; PREP on the output.
    EXPECT_EQ(env.kernel->stats().syncs_to_device, 3u);
    EXPECT_EQ(env.kernel->stats().syncs_from_device, 1u);
}

TEST_F(DriverRocket, LanesBecomeJobs) {
    Device dev = env.open();
    const JobBuffers b = job_buffers(dev, 3);
    JobSpec spec;
    spec.lanes.resize(3);
    for (unsigned i = 0; i < 3; ++i)
        spec.lanes[i].tasks.push_back({&b.regcmd, stream_offset(i, kRocketEntries), kRocketEntries, 0xd, 0x300});
    spec.outputs = {&b.out};
    dev.create_job(spec).run();
    ASSERT_EQ(env.hw->records().size(), 3u);
    EXPECT_EQ(env.kernel->stats().submits, 3u);  // one rocket job per lane
}

TEST_F(DriverRocket, RulesEnforcedBeforeSubmit) {
    Device dev = env.open();
    const JobBuffers b = job_buffers(dev, 1);
    expect_refused(dev, b.regcmd, b.out, "waits only for the DPU interrupt",
                   [&](JobSpec& s) { s.lanes[0].tasks[0].int_mask = 0xc00; });
    expect_refused(dev, b.regcmd, b.out, "cannot pin a job to cores", [&](JobSpec& s) { s.core_mask = 1; });
    expect_refused(dev, b.regcmd, b.out, "nothing to wait on", [&](JobSpec& s) { s.outputs.clear(); });
    expect_refused(dev, b.regcmd, b.out, "no sync_file fences", [&](JobSpec& s) { s.use_fence = true; });
    expect_refused(dev, b.regcmd, b.out, "4 trailing PC entries",
                   [&](JobSpec& s) { s.lanes[0].tasks[0].regcmd_entries = 3; });
    EXPECT_EQ(env.kernel->stats().dropped_jobs, 0u);
    EXPECT_TRUE(env.hw->records().empty());
}

TEST_F(DriverRocket, TimeoutShorterThanTheSchedulerLimit) {
    Device dev = env.open();
    OneTaskJob j = one_task_job(dev);
    env.hw->set_mode(sim::RecordingHardware::Mode::NeverComplete);
    auto e = expect_error([&] { j.job.run(); }, "NPU job timed out after 100 ms (rocket PREP_BO");
    EXPECT_EQ(e.error_number(), ETIMEDOUT);
}

TEST_F(DriverRocket, HungJobIsNotMistakenForSuccess) {
    // The kernel signals a hung job's fence after its 500 ms reset, so PREP_BO succeeds; the driver still
    // reports the timeout.
    Device dev = env.open();
    const JobBuffers b = job_buffers(dev, 1);
    JobSpec spec = one_lane(b.regcmd, b.out);
    spec.timeout = std::chrono::milliseconds(2000);
    Job job = dev.create_job(spec);
    env.hw->set_mode(sim::RecordingHardware::Mode::NeverComplete);
    auto e = expect_error([&] { job.run(); }, "hit the rocket kernel's 500 ms job timeout");
    EXPECT_EQ(e.error_number(), ETIMEDOUT);
}

TEST_F(DriverRocket, DeviceRemovedMidJob) {
    Device dev = env.open();
    OneTaskJob j = one_task_job(dev);
    j.job.submit();
    env.kernel->remove_device(node);
    auto e = expect_error([&] { j.job.wait(); }, "the NPU device was removed");
    EXPECT_EQ(e.kind(), ErrorKind::Device);
}

}  // namespace
}  // namespace npudrv::test

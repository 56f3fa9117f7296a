// After everything is destroyed, the fake kernel holds no fd, mapping, handle or object of the driver.
#include <gtest/gtest.h>

#include "fake_env.h"

namespace npudrv::test {
namespace {

void expect_nothing_left(const sim::FakeKernel& k) {
    const auto c = k.counts();
    EXPECT_EQ(c.open_fds, 0u);
    EXPECT_EQ(c.mappings, 0u);
    EXPECT_EQ(c.handles, 0u);
    EXPECT_EQ(c.objects, 0u);
    EXPECT_EQ(c.allocated_bytes, 0u);
    EXPECT_TRUE(k.oopses().empty());
}

void exercise(FakeEnv& env, DriverKind kind) {
    Device dev = env.open();
    Buffer regcmd = make_regcmd(dev, 4, 20);
    std::vector<Buffer> buffers;
    for (int i = 0; i < 8; ++i) {
        buffers.push_back(dev.create_buffer(4096 * (i + 1), kBufferCacheable));
        if (i % 2) buffers.back().map()[0] = static_cast<uint8_t>(i);
    }
    int fd = buffers[0].export_dmabuf();
    if (kind == DriverKind::Rknpu) {
        Buffer imported = dev.import_dmabuf(fd);
        imported.map();
    }
    dev.close_fd(fd);
    JobSpec spec;
    spec.lanes.resize(1);
    for (unsigned i = 0; i < 4; ++i) spec.lanes[0].tasks.push_back({&regcmd, stream_offset(i, 20), 20, 0xd, 0x300});
    spec.inputs = {&buffers[1]};
    spec.outputs = {&buffers[2]};
    spec.use_fence = kind == DriverKind::Rknpu;
    Job job = dev.create_job(spec);
    job.run();
    job.submit();  // left pending: its fence fd must still be closed by the Job's destructor
    EXPECT_GT(env.kernel->counts().handles, 0u);
}

TEST(Leaks, RknpuEverythingReleased) {
    FakeEnv env;
    env.add(DriverKind::Rknpu);
    exercise(env, DriverKind::Rknpu);
    expect_nothing_left(*env.kernel);
}

TEST(Leaks, RocketEverythingReleased) {
    FakeEnv env;
    env.add(DriverKind::Rocket);
    exercise(env, DriverKind::Rocket);
    expect_nothing_left(*env.kernel);
}

TEST(Leaks, BuffersMayOutliveTheirDevice) {
    FakeEnv env;
    env.add(DriverKind::Rknpu);
    Buffer b;
    {
        Device dev = env.open();
        b = dev.create_buffer(4096, 0);
        b.map()[4095] = 9;
    }
    EXPECT_EQ(env.kernel->counts().device_fds, 1u);  // the buffer keeps the fd open
    EXPECT_EQ(b.data()[4095], 9);
    b = Buffer();
    expect_nothing_left(*env.kernel);
}

TEST(Leaks, FailedOperationsLeakNothing) {
    FakeEnv env;
    env.add(DriverKind::Rknpu);
    {
        Device dev = env.open();
        env.kernel->set_memory_limit(64 * 1024);
        EXPECT_THROW(dev.create_buffer(1 << 20, 0), DriverError);
        EXPECT_THROW(dev.import_dmabuf(4242), DriverError);
        OneTaskJob j(dev, 20, std::chrono::milliseconds(10));
        env.hw->set_mode(sim::RecordingHardware::Mode::NeverComplete);
        EXPECT_THROW(j.job.run(), DriverError);
    }
    expect_nothing_left(*env.kernel);
}

TEST(Lifetimes, MovedFromObjectsThrowInsteadOfCrashing) {
    FakeEnv env;
    env.add(DriverKind::Rocket);
    Device a = env.open();
    Device b = std::move(a);
    expect_error([&] { a.info(); }, "moved-from npudrv::Device");  // NOLINT(bugprone-use-after-move)
    expect_error([&] { a.create_buffer(4096, 0); }, "moved-from npudrv::Device");
    Buffer x = b.create_buffer(4096, 0);
    Buffer y = std::move(x);
    expect_error([&] { x.map(); }, "empty or destroyed");  // NOLINT(bugprone-use-after-move)
    EXPECT_NE(y.map(), nullptr);
}

}  // namespace
}  // namespace npudrv::test

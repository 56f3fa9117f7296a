// Test fixture helpers: a fake kernel with a RecordingHardware the test can steer, and raw ioctl access.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "drv/device.h"
#include "drv/discovery.h"
#include "drv/sim/fake_kernel.h"
#include "drv/sim/recording_hardware.h"

namespace npudrv::test {

struct FakeEnv {
    std::shared_ptr<sim::FakeKernel> kernel;
    sim::RecordingHardware* hw = nullptr;  // owned by the kernel

    FakeEnv() {
        auto h = std::make_unique<sim::RecordingHardware>();
        hw = h.get();
        kernel = std::make_shared<sim::FakeKernel>(std::move(h));
    }
    std::string add(DriverKind driver) {
        sim::FakeDeviceConfig c;
        c.driver = driver;
        return kernel->add_device(c);
    }
    std::string add(sim::FakeDeviceConfig c) { return kernel->add_device(c); }
    Device open(const std::string& path = "") { return open_npu(kernel, path); }
    int open_fd(const std::string& node) {
        int fd = kernel->open(node, 2);
        EXPECT_GE(fd, 0) << node;
        return fd;
    }
    int io(int fd, unsigned long request, void* arg) { return kernel->ioctl(fd, request, arg); }
};

// Runs f, expects a DriverError whose message contains `text`; returns it for further checks.
template <typename F>
DriverError expect_error(F&& f, const std::string& text) {
    try {
        f();
    } catch (const DriverError& e) {
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << "message: " << e.what();
        return e;
    }
    ADD_FAILURE() << "expected a DriverError containing '" << text << "'";
    return DriverError(ErrorKind::Internal, "none");
}

// A regcmd buffer holding `tasks` streams of `entries` qwords each, 64-byte aligned.
inline Buffer make_regcmd(Device& dev, unsigned tasks, unsigned entries, uint32_t flags = kBufferCacheable) {
    Buffer b = dev.create_buffer(uint64_t{tasks} * ((entries * 8 + 63) / 64 * 64), flags);
    uint8_t* p = b.map();
    for (uint64_t i = 0; i + 8 <= b.size(); i += 8) {
        uint64_t q = 0x0101000000000000ull | i;  // recognisable, never decoded by the double
        std::memcpy(p + i, &q, 8);
    }
    return b;
}

inline uint64_t stream_offset(unsigned task, unsigned entries) { return uint64_t{task} * ((entries * 8 + 63) / 64 * 64); }

// One lane of `tasks` consecutive streams of `entries` qwords from `regcmd`, writing `out`: the job shape most
// driver tests submit (enable mask 0xd, completion on either core-0 interrupt).
inline JobSpec one_lane_job(const Buffer& regcmd, const Buffer& out, unsigned entries,
                            std::chrono::milliseconds timeout, unsigned tasks = 1) {
    JobSpec spec;
    spec.lanes.resize(1);
    for (unsigned i = 0; i < tasks; ++i)
        spec.lanes[0].tasks.push_back({&regcmd, stream_offset(i, entries), entries, 0xd, 0x300});
    spec.outputs = {&out};
    spec.timeout = timeout;
    return spec;
}

// A created one-task job with the regcmd and output buffers it points at. Built in place (never moved), as the
// job's spec holds their addresses.
struct OneTaskJob {
    OneTaskJob(Device& dev, unsigned entries, std::chrono::milliseconds timeout)
        : regcmd(make_regcmd(dev, 1, entries)),
          out(dev.create_buffer(4096, 0)),
          job(dev.create_job(one_lane_job(regcmd, out, entries, timeout))) {}
    Buffer regcmd, out;
    Job job;
};

// The fixture of one driver's tests: a fake kernel with one device of that driver at `node`, and the driver's
// stream length and job timeout so each test builds its jobs in one line.
class OneDriverTest : public ::testing::Test {
protected:
    OneDriverTest(DriverKind driver, unsigned entries, std::chrono::milliseconds timeout)
        : driver_(driver), entries_(entries), timeout_(timeout) {}
    void SetUp() override { node = env.add(driver_); }
    JobSpec one_lane(const Buffer& regcmd, const Buffer& out, unsigned tasks = 1) const {
        return one_lane_job(regcmd, out, entries_, timeout_, tasks);
    }
    OneTaskJob one_task_job(Device& dev) const { return OneTaskJob(dev, entries_, timeout_); }
    // A regcmd buffer of `tasks` streams and a 4 KiB output buffer on `dev`, for jobs a test builds itself.
    struct JobBuffers {
        Buffer regcmd, out;
    };
    JobBuffers job_buffers(Device& dev, unsigned tasks) const {
        return {make_regcmd(dev, tasks, entries_), dev.create_buffer(4096, 0)};
    }
    // The one-lane job of `regcmd` and `out`, changed by `edit`, is refused by create_job with `text`.
    template <typename Edit> void expect_refused(Device& dev, const Buffer& regcmd, const Buffer& out,
                                                 const std::string& text, Edit edit) const {
        JobSpec spec = one_lane(regcmd, out);
        edit(spec);
        expect_error([&] { dev.create_job(spec); }, text);
    }
    FakeEnv env;
    std::string node;

private:
    DriverKind driver_;
    unsigned entries_;
    std::chrono::milliseconds timeout_;
};

}  // namespace npudrv::test

// Test fixture helpers: a fake kernel with a RecordingHardware the test can steer, and raw ioctl access.
#pragma once

#include <gtest/gtest.h>

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

}  // namespace npudrv::test

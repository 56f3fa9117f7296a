// Shared by the reliability tests: a small NPU model, the simulated device steered per test (driver, fault
// injection at the system-call seam, a Hardware decorator that hangs/fails/unplugs), and leak probes.
#pragma once

#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drv/sim/fake_kernel.h"
#include "drv/sim/fake_kernel_faults.h"
#include "drv/sim/hardware.h"
#include "drv/uapi/rknpu.h"
#include "drv/uapi/rocket.h"
#include "include/npurun/npurun.hpp"
#include "tests/npu/npu_graphs.h"

namespace npurun::reliability_test {

using npudrv::DriverKind;
namespace sim = npudrv::sim;

// Two 3x3 int8 convolutions in one NPU segment (two hardware tasks), 8x8x16: small enough to run
// thousands of times a second on the simulator.
inline std::shared_ptr<const Model> two_conv_model() {
    Graph g;
    npu_test::ConvSpec s;
    s.h = s.w = 8;
    s.c = s.k = 16;
    const TensorId in = npu_test::value(g, "x", Shape{1, 8, 8, 16}, DataType::QAsymmU8, 0.05f, 118);
    const TensorId a = npu_test::add_conv(g, s, in, "conv1");
    s.seed = 2;
    const TensorId b = npu_test::add_conv(g, s, a, "conv2");
    npu_test::io(g, in, b);
    return std::make_shared<const Model>(std::move(g), "two-conv");
}

inline std::vector<uint8_t> output_bytes(const Session& s) {
    const TensorBinding& o = s.output(0);
    const uint8_t* p = static_cast<const uint8_t*>(o.data);
    return std::vector<uint8_t>(p, p + o.info.num_bytes());
}

// Runs `model` once with input seed `seed` on a fresh session of `o`; returns output 0.
inline std::vector<uint8_t> run_once(const std::shared_ptr<const Model>& model, const SessionOptions& o, uint32_t seed) {
    Session s(model, o);
    npu_test::fill_input(s, seed);
    s.run();
    return output_bytes(s);
}

// Passes tasks to the functional simulator unless the test's hook answers first.
class SteeredHardware final : public sim::Hardware {
public:
    using Hook = std::function<std::optional<sim::HwResult>(size_t task_index)>;
    SteeredHardware(std::unique_ptr<sim::Hardware> inner, std::shared_ptr<Hook> hook) : inner_(std::move(inner)), hook_(std::move(hook)) {}
    sim::HwResult run(const sim::HwTask& task, sim::DmaSpace& memory) override {
        const size_t n = count_++;
        if (*hook_) {
            if (auto r = (*hook_)(n)) return *r;
        }
        return inner_->run(task, memory);
    }

private:
    std::unique_ptr<sim::Hardware> inner_;
    std::shared_ptr<Hook> hook_;
    size_t count_ = 0;
};

// The simulated device every --device sim session of this scope opens: the chosen driver, a FaultInjector
// at its seam, the hardware hook; the kernels it creates are kept so their counts can be read afterwards.
struct SimHarness {
    DriverKind driver;
    std::shared_ptr<SteeredHardware::Hook> hook = std::make_shared<SteeredHardware::Hook>();
    std::vector<sim::FaultRule> rules;  // installed in every new device's injector
    std::vector<std::shared_ptr<sim::FakeKernel>> kernels;       // when keep_kernels
    std::vector<std::weak_ptr<sim::FakeKernel>> weak_kernels;   // always
    bool keep_kernels = true;
    std::vector<std::shared_ptr<sim::FaultInjector>> injectors;
    std::unique_ptr<sim::ScopedSimDeviceOverride> scope;

    explicit SimHarness(DriverKind d) : driver(d) {
        sim::SimDeviceOverride o;
        o.driver = d;
        o.hardware = [h = hook](std::unique_ptr<sim::Hardware> inner) -> std::unique_ptr<sim::Hardware> {
            return std::make_unique<SteeredHardware>(std::move(inner), h);
        };
        o.created = [this](const std::shared_ptr<sim::FakeKernel>& k) {
            weak_kernels.push_back(k);
            if (keep_kernels) kernels.push_back(k);
        };
        o.seam = [this](const std::shared_ptr<sim::FakeKernel>& k) -> std::shared_ptr<npudrv::Syscalls> {
            auto inj = std::make_shared<sim::FaultInjector>(k);
            for (const sim::FaultRule& r : rules) inj->add(r);
            if (keep_kernels) injectors.push_back(inj);
            return inj;
        };
        scope = std::make_unique<sim::ScopedSimDeviceOverride>(std::move(o));
    }
    std::string node() const { return driver == DriverKind::Rknpu ? "/dev/dri/renderD129" : "/dev/accel/accel0"; }
    // The ioctl that allocates a buffer object, and the one that waits for a job.
    unsigned long create_request() const {
        return driver == DriverKind::Rknpu ? npudrv::uapi::DRM_IOCTL_RKNPU_MEM_CREATE : npudrv::uapi::kRocketIoctlCreateBo;
    }
    unsigned long wait_request() const {
        return driver == DriverKind::Rknpu ? npudrv::uapi::DRM_IOCTL_RKNPU_SUBMIT : npudrv::uapi::kRocketIoctlPrepBo;
    }
};

// Nothing of the driver is left in a kernel once every session on it is gone.
inline void expect_kernel_empty(const sim::FakeKernel& k, const std::string& label) {
    const sim::FakeKernelCounts c = k.counts();
    EXPECT_EQ(c.open_fds, 0u) << label;
    EXPECT_EQ(c.mappings, 0u) << label;
    EXPECT_EQ(c.handles, 0u) << label;
    EXPECT_EQ(c.objects, 0u) << label;
    EXPECT_EQ(c.allocated_bytes, 0u) << label;
    EXPECT_TRUE(k.oopses().empty()) << label << ": " << (k.oopses().empty() ? "" : k.oopses()[0]);
}

// Open file descriptors of this process.
inline size_t open_fd_count() {
    size_t n = 0;
    if (DIR* d = opendir("/proc/self/fd")) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') ++n;
        closedir(d);
    }
    return n;
}

// Resident memory in kB: VmRSS of /proc/self/status less the anonymous memory backed by transparent huge
// pages (AnonHugePages of /proc/self/smaps_rollup), 0 when unknown. Under qemu-aarch64 (make test-aarch64)
// both files describe the emulator's host process, and its translated-code buffer, which qemu madvises for
// huge pages, grows in whole 2 MB pages as more guest code is translated: one more page during a soak loop
// says nothing about the code under test (seen: AnonHugePages 6144 -> 8192 kB while the guest's malloc arena
// stayed at 744 kB). Natively glibc's heap does not use huge pages under the default THP "madvise" mode, so
// there the figure is plain VmRSS.
inline size_t rss_kb() {
    auto field_kb = [](const char* path, const char* key) -> size_t {
        FILE* f = std::fopen(path, "r");
        if (f == nullptr) return 0;
        char line[256];
        size_t kb = 0;
        const size_t n = std::strlen(key);
        while (std::fgets(line, sizeof line, f))
            if (std::strncmp(line, key, n) == 0) kb = std::strtoul(line + n, nullptr, 10);
        std::fclose(f);
        return kb;
    };
    const size_t rss = field_kb("/proc/self/status", "VmRSS:");
    const size_t huge = field_kb("/proc/self/smaps_rollup", "AnonHugePages:");
    return huge < rss ? rss - huge : rss;
}

// Lines of /proc/self/maps: mappings of this process.
inline size_t mapping_count() {
    FILE* f = std::fopen("/proc/self/maps", "r");
    if (f == nullptr) return 0;
    size_t n = 0;
    for (int c; (c = std::fgetc(f)) != EOF;)
        if (c == '\n') ++n;
    std::fclose(f);
    return n;
}

}  // namespace npurun::reliability_test

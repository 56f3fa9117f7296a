// Fault injection at the system-call seam: a Syscalls that forwards to another one (the fake kernel) and
// fails chosen calls with a chosen errno — ENOMEM at the k-th buffer allocation, a failing mmap, EINTR on
// a submit, ENODEV after the device went away — so that every failure path of the driver and the runtime
// above it can be driven deterministically in a test.
//
// And the test seam of open_sim_device(): SimDeviceOverride picks the fake kernel's driver (rknpu or
// rocket) and lets a test put a FaultInjector (or anything else) between the driver and the fake kernel
// of every simulated device the runtime opens (`--device sim` sessions).
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "drv/device.h"
#include "drv/sim/hardware.h"
#include "drv/syscalls.h"

namespace npudrv::sim {

class FakeKernel;

enum class SysCall { Open, Close, Ioctl, Mmap, Munmap, Poll };

struct FaultRule {
    SysCall call = SysCall::Ioctl;
    unsigned long request = 0;  // Ioctl only: the request number to match; 0 matches every ioctl
    int error = 0;              // errno the failed call reports (Poll: 0 = "timed out", i.e. returns 0)
    unsigned skip = 0;          // let this many matching calls through first
    unsigned count = 1;         // then fail this many (UINT_MAX: every later one)
    unsigned period = 1;        // fail every period-th matching call after `skip` (2: every other one)
};

class FaultInjector final : public Syscalls {
public:
    // `keep_alive`: anything that must live as long as the seam (e.g. the kernel a SimDeviceOverride
    // replaced, whose simulator the runtime still points at).
    explicit FaultInjector(std::shared_ptr<Syscalls> inner, std::shared_ptr<void> keep_alive = nullptr)
        : inner_(std::move(inner)), keep_alive_(std::move(keep_alive)) {}

    void add(const FaultRule& rule);
    void clear();
    // Calls failed so far, and calls seen that a rule of this kind would match (to enumerate "the k-th").
    size_t injected() const;
    size_t seen(SysCall call, unsigned long request = 0) const;
    Syscalls& inner() { return *inner_; }

    int open(const std::string& path, int flags) override;
    int close(int fd) override { return inner_->close(fd); }
    int ioctl(int fd, unsigned long request, void* arg) override;
    void* mmap(size_t length, int prot, int flags, int fd, uint64_t offset, int* error) override;
    int munmap(void* address, size_t length) override { return inner_->munmap(address, length); }
    int poll_readable(int fd, int timeout_ms) override;
    std::vector<std::string> list_dir(const std::string& directory) override { return inner_->list_dir(directory); }
    std::string node_group(const std::string& path) override { return inner_->node_group(path); }
    int64_t monotonic_ns() override { return inner_->monotonic_ns(); }
    std::string diagnostics() override { return inner_->diagnostics(); }
    bool is_fake() const override { return inner_->is_fake(); }

private:
    struct Active {
        FaultRule rule;
        unsigned matched = 0;
    };
    // The errno to fail this call with, or nullopt to forward it.
    std::optional<int> decide(SysCall call, unsigned long request);

    std::shared_ptr<Syscalls> inner_;
    std::shared_ptr<void> keep_alive_;
    mutable std::mutex mutex_;
    std::vector<Active> rules_;
    std::vector<std::pair<std::pair<SysCall, unsigned long>, size_t>> seen_;
    size_t injected_ = 0;
};

// What open_sim_device() does with each fake kernel it creates (process-wide, for tests).
struct SimDeviceOverride {
    std::optional<DriverKind> driver;  // the driver the fake kernel plays (default: what was asked, rknpu)
    // Wraps the Hardware (the functional simulator) before the kernel gets it (hang, fail, unplug mid-job).
    std::function<std::unique_ptr<Hardware>(std::unique_ptr<Hardware>)> hardware;
    // The seam the device is opened through, given the new kernel (e.g. a FaultInjector around it).
    std::function<std::shared_ptr<Syscalls>(const std::shared_ptr<FakeKernel>&)> seam;
    // Told about every kernel created (to inspect counts() after the session is gone).
    std::function<void(const std::shared_ptr<FakeKernel>&)> created;
};
// Installs `o` (an empty one restores the default); returns the previous one.
SimDeviceOverride set_sim_device_override(SimDeviceOverride o);
SimDeviceOverride sim_device_override();

// RAII: installs an override for a scope.
class ScopedSimDeviceOverride {
public:
    explicit ScopedSimDeviceOverride(SimDeviceOverride o) : previous_(set_sim_device_override(std::move(o))) {}
    ~ScopedSimDeviceOverride() { set_sim_device_override(std::move(previous_)); }
    ScopedSimDeviceOverride(const ScopedSimDeviceOverride&) = delete;
    ScopedSimDeviceOverride& operator=(const ScopedSimDeviceOverride&) = delete;

private:
    SimDeviceOverride previous_;
};

}  // namespace npudrv::sim

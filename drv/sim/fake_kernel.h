// The fake kernel: both NPU drivers' ioctl semantics (vendor rknpu 0.9.8 and mainline rocket) behind the
// system-call seam, as shared/reference/kernel-uapi.md documents them, traps included: the same argument
// validation and errno values, GEM handles, rknpu object addresses and global IOVAs, rocket per-fd address
// spaces starting at 0, DRM fake mmap offsets, BO lifetime (handles, dma-buf fds and mappings all hold the
// object), cache-sync rules, submit parsing (task arrays, core masks, subcore ranges, regcfg amounts),
// timeouts, hot-unplug and a memory limit. Each task a submit starts is handed to a Hardware
// (drv/sim/hardware.h).
//
// Where the real kernel would crash or corrupt memory (an unknown obj_addr, a task BO without
// KERNEL_MAPPING, reading past the task array), the fake records an "oops" and fails the ioctl with EFAULT;
// tests assert that the driver never causes one.
//
// Time is virtual: waits advance the fake clock instantly (nothing sleeps), so timeout tests are fast.
// Single process, not thread-safe by design beyond a recursive lock around every call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drv/device.h"
#include "drv/sim/hardware.h"
#include "drv/syscalls.h"

namespace npudrv::sim {

struct FakeDeviceConfig {
    DriverKind driver = DriverKind::Rknpu;
    std::string node;  // default: /dev/dri/renderD129 (rknpu) or /dev/accel/accel0 (rocket)
    std::string name;  // DRM driver name; default "rknpu"/"rocket" (set e.g. "rockchip" for a foreign node)
    std::string desc;
    std::string date;
    int major = -1, minor = -1, patch = -1;  // default: 0.9.8 (rknpu), 0.0.0 (rocket)
    std::string group = "render";             // owner group of the node
    bool accessible = true;                   // false: open() fails with EACCES
    uint32_t hw_version = 0x46495045;         // rknpu GET_HW_VERSION; arbitrary (the real value is not documented)
    bool iommu = true;                        // rknpu GET_IOMMU_EN
    bool fences = true;                       // rknpu built with CONFIG_ROCKCHIP_RKNPU_FENCE
    bool rocket_prep_fini = true;             // false: the early rocket UAPI without PREP_BO/FINI_BO
    uint64_t iova_top = uint64_t{1} << 32;    // rknpu: IOVAs are handed out downward from here
};

struct FakeKernelCounts {
    size_t open_fds = 0;     // every fd of the fake kernel
    size_t device_fds = 0;
    size_t dmabuf_fds = 0;
    size_t fence_fds = 0;
    size_t mappings = 0;     // live mmap()s
    size_t handles = 0;      // GEM handles over all device fds
    size_t objects = 0;      // live buffer objects (held by handles, dma-bufs or mappings)
    uint64_t allocated_bytes = 0;
};

struct FakeKernelStats {
    size_t submits = 0;          // SUBMIT ioctls that reached the hardware
    size_t hw_tasks = 0;         // tasks handed to the Hardware
    size_t syncs_to_device = 0;  // MEM_SYNC TO_DEVICE / FINI_BO
    size_t syncs_from_device = 0;  // MEM_SYNC FROM_DEVICE / PREP_BO
    size_t soft_resets = 0;      // rknpu abort / rocket scheduler timeout resets
    size_t dropped_jobs = 0;     // rocket jobs rejected silently inside a "successful" SUBMIT
    size_t lane_races = 0;       // rknpu multi-core jobs whose lanes touch each other's data (refused)
    size_t undeclared_writes = 0;  // rocket jobs that wrote a BO not in out_bo_handles (refused, see fake_rocket)
};

class FakeKernel final : public Syscalls {
public:
    explicit FakeKernel(std::unique_ptr<Hardware> hardware);
    ~FakeKernel() override;
    FakeKernel(const FakeKernel&) = delete;
    FakeKernel& operator=(const FakeKernel&) = delete;

    // Adds a device node (config defaults are filled in per driver). Returns the node path.
    std::string add_device(FakeDeviceConfig config);
    // Hot-unplug: the node disappears, every ioctl/mmap on its open fds fails with ENODEV.
    void remove_device(const std::string& node);
    void set_memory_limit(uint64_t bytes);  // total BO bytes (default 256 MiB)

    int64_t now_ns() const;
    void advance_clock(int64_t ns);

    FakeKernelCounts counts() const;
    FakeKernelStats stats() const;
    std::vector<std::string> oopses() const;  // what would have crashed or corrupted the real kernel
    std::vector<std::string> log() const;     // notable events, for test diagnostics
    Hardware& hardware();

    // Syscalls
    int open(const std::string& path, int flags) override;
    int close(int fd) override;
    int ioctl(int fd, unsigned long request, void* arg) override;
    void* mmap(size_t length, int prot, int flags, int fd, uint64_t offset, int* error) override;
    int munmap(void* address, size_t length) override;
    int poll_readable(int fd, int timeout_ms) override;
    std::vector<std::string> list_dir(const std::string& directory) override;
    std::string node_group(const std::string& path) override;
    int64_t monotonic_ns() override { return now_ns(); }
    std::string diagnostics() override;
    bool is_fake() const override { return true; }

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace npudrv::sim

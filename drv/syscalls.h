// The system-call seam: every kernel call npudrv makes (open, close, ioctl, mmap, munmap, poll, the
// directory scan used for discovery, the monotonic clock) goes through this one interface. Production uses
// RealSyscalls; tests and `--device sim` plug in the fake kernel (drv/sim/fake_kernel.h), so the driver code
// above it runs unchanged against both.
//
// Results are kernel-style: a non-negative value on success, -errno on failure. Nothing reads errno.
//
// libdrm: the production ioctl goes through drmIoctl() (it restarts on EINTR/EAGAIN). The driver does NOT
// call drmGetVersion(), because that issues its own ioctl() and would bypass this seam; instead it runs
// the same two-pass DRM_IOCTL_VERSION protocol itself (drv/drm_version_query.h), so the fake kernel answers
// device identification exactly like every other call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npudrv {

class Syscalls {
public:
    virtual ~Syscalls() = default;

    virtual int open(const std::string& path, int flags) = 0;
    virtual int close(int fd) = 0;
    // Returns the ioctl's non-negative return value (rocket PREP_BO returns a positive one) or -errno.
    virtual int ioctl(int fd, unsigned long request, void* arg) = 0;
    // Returns the mapping or nullptr with *error = errno.
    virtual void* mmap(size_t length, int prot, int flags, int fd, uint64_t offset, int* error) = 0;
    virtual int munmap(void* address, size_t length) = 0;
    // Waits until fd is readable (a signalled sync_file): 1 ready, 0 timed out, -errno.
    virtual int poll_readable(int fd, int timeout_ms) = 0;

    // Entry names in a directory (unsorted; empty when it does not exist). Used by device discovery.
    virtual std::vector<std::string> list_dir(const std::string& directory) = 0;
    // Name of the group owning a device node ("" when unknown), for the permission-denied message.
    virtual std::string node_group(const std::string& path) = 0;
    // CLOCK_MONOTONIC in nanoseconds (rocket PREP_BO deadlines are absolute on this clock).
    virtual int64_t monotonic_ns() = 0;

    // Extra text the driver appends to a failure (the fake kernel reports what its Hardware refused).
    virtual std::string diagnostics() { return {}; }
    // True for the fake kernel; shown by npu-info so nobody mistakes the simulator for a board.
    virtual bool is_fake() const { return false; }
};

// ioctl / poll_readable restarted while the seam answers -EINTR or -EAGAIN (a signal arrived, or the
// driver asks to retry), as libdrm's drmIoctl does, at most kMaxRestarts times; then the last result. Every
// call the driver makes goes through these, so an interrupted system call is never reported as a failure,
// whatever seam is plugged in (tests inject EINTR through drv/sim/fake_kernel_faults.h).
constexpr int kMaxRestarts = 1000;
int restarting_ioctl(Syscalls& sys, int fd, unsigned long request, void* arg);
int restarting_poll(Syscalls& sys, int fd, int timeout_ms);

// The process-wide production implementation (real system calls; ioctl through libdrm's drmIoctl).
std::shared_ptr<Syscalls> real_syscalls();

}  // namespace npudrv

// Internal: the per-driver half of Device/Buffer/Job. One Backend owns one open device fd; Buffers and
// Jobs hold it by shared_ptr so the fd outlives them. Not part of the public API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "drv/device.h"
#include "drv/syscalls.h"

namespace npudrv::detail {

struct BoState {
    uint32_t handle = 0;
    uint64_t size = 0;
    uint32_t flags = 0;         // BufferFlag bits
    uint32_t driver_flags = 0;  // rknpu RKNPU_MEM_* actually passed
    uint64_t dma_addr = 0;
    uint64_t obj_addr = 0;      // rknpu kernel object cookie
    uint64_t mmap_offset = 0;
    bool has_mmap_offset = false;
    uint8_t* map = nullptr;
};

enum class SyncDirection { ToDevice, FromDevice };

class JobImpl {
public:
    virtual ~JobImpl() = default;
    virtual void submit() = 0;
    virtual void wait() = 0;
    virtual bool pending() const = 0;
    virtual int fence_fd() const { return -1; }
    const JobStats& stats() const { return stats_; }

protected:
    JobStats stats_;
};

class Backend : public std::enable_shared_from_this<Backend> {
public:
    Backend(std::shared_ptr<Syscalls> sys, int fd, DeviceInfo info);
    virtual ~Backend();  // closes the fd
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;

    const DeviceInfo& info() const { return info_; }
    Syscalls& sys() const { return *sys_; }
    int fd() const { return fd_; }

    virtual std::unique_ptr<BoState> create_bo(uint64_t size, uint32_t flags) = 0;
    virtual void destroy_bo(BoState& bo) = 0;  // throws on failure
    virtual uint64_t mmap_offset(BoState& bo) = 0;
    virtual void sync(BoState& bo, SyncDirection direction, uint64_t offset, uint64_t length) = 0;
    virtual std::unique_ptr<BoState> import_dmabuf(int dmabuf_fd) = 0;
    virtual std::unique_ptr<JobImpl> create_job(const JobSpec& spec) = 0;

    int export_dmabuf(const BoState& bo);
    void map(BoState& bo);
    void unmap(BoState& bo);
    Buffer wrap(std::unique_ptr<BoState> state) { return Buffer(shared_from_this(), std::move(state)); }
    // Access to a Buffer's internals (Backend is a friend of Buffer).
    static const Backend* owner(const Buffer& b) { return b.backend_.get(); }
    static BoState& bo(const Buffer& b) { return b.state(); }
    // Throws unless b is a live buffer of this device (a Job may only name its own device's buffers).
    void check_own(const Buffer* b, const std::string& role) const;

    // ioctl through the seam; returns the result or throws a DriverError naming what failed.
    int ioctl_or_throw(unsigned long request, void* arg, const std::string& what, ErrorKind kind = ErrorKind::Runtime);
    // Text appended to errors: the device node, plus the fake kernel's diagnostics if any.
    std::string where() const;

protected:
    std::shared_ptr<Syscalls> sys_;
    int fd_;
    DeviceInfo info_;
};

std::shared_ptr<Backend> open_rknpu_backend(std::shared_ptr<Syscalls> sys, int fd, DeviceInfo info);
std::shared_ptr<Backend> open_rocket_backend(std::shared_ptr<Syscalls> sys, int fd, DeviceInfo info);

// Checks shared by both backends.
void check_task_location(const Task& task, size_t lane, size_t index, uint64_t address_limit);
std::string task_name(size_t lane, size_t index);

}  // namespace npudrv::detail

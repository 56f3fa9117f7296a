#include "drv/syscalls.h"
#include "drv/device.h"

#include <sys/mman.h>

#include <cerrno>
#include <utility>

#include "drv/backend.h"
#include "drv/uapi/drm_core.h"

namespace npudrv {

const char* driver_name(DriverKind kind) { return kind == DriverKind::Rknpu ? "rknpu" : "rocket"; }

std::string DriverVersion::text() const {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

// ---------------------------------------------------------------- Backend (shared parts)

namespace detail {

Backend::Backend(std::shared_ptr<Syscalls> sys, int fd, DeviceInfo info)
    : sys_(std::move(sys)), fd_(fd), info_(std::move(info)) {}

Backend::~Backend() { sys_->close(fd_); }

std::string Backend::where() const {
    std::string text = " [" + info_.driver_name + " " + info_.node + "]";
    std::string extra = sys_->diagnostics();
    if (!extra.empty()) text += " (" + extra + ")";
    return text;
}

int Backend::ioctl_or_throw(unsigned long request, void* arg, const std::string& what, ErrorKind kind) {
    int ret = restarting_ioctl(*sys_, fd_, request, arg);
    if (ret >= 0) return ret;
    int e = -ret;
    std::string hint;
    if (e == ENODEV) {
        hint = ": the NPU device was removed";
        kind = ErrorKind::Device;
    } else if (e == ENOMEM) {
        hint = ": out of NPU memory";
    }
    raise(kind, what + " failed: " + describe_errno(e) + hint + where(), e);
}

int Backend::export_dmabuf(const BoState& bo) {
    uapi::drm_prime_handle args{};
    args.handle = bo.handle;
    args.flags = DRM_CLOEXEC | DRM_RDWR;
    args.fd = -1;
    ioctl_or_throw(uapi::kDrmIoctlPrimeHandleToFd, &args,
                   "PRIME_HANDLE_TO_FD (export handle " + std::to_string(bo.handle) + ")");
    return args.fd;
}

void Backend::map(BoState& bo) {
    if (bo.map) return;
    uint64_t offset = mmap_offset(bo);
    int error = 0;
    void* p = sys_->mmap(static_cast<size_t>(bo.size), PROT_READ | PROT_WRITE, MAP_SHARED, fd_, offset, &error);
    if (!p) {
        raise(error == ENODEV ? ErrorKind::Device : ErrorKind::Runtime,
             "mmap of buffer handle " + std::to_string(bo.handle) + " (" + std::to_string(bo.size) +
                 " bytes) failed: " + describe_errno(error) + where(),
             error);
    }
    bo.map = static_cast<uint8_t*>(p);
}

void Backend::unmap(BoState& bo) {
    if (!bo.map) return;
    int ret = sys_->munmap(bo.map, static_cast<size_t>(bo.size));
    bo.map = nullptr;
    if (ret < 0) raise(ErrorKind::Runtime, "munmap of buffer handle " + std::to_string(bo.handle) +
                                              " failed: " + describe_errno(-ret) + where(), -ret);
}

void Backend::check_own(const Buffer* b, const std::string& role) const {
    if (!b || !b->valid()) raise(ErrorKind::Internal, role + ": missing or destroyed buffer");
    if (owner(*b) != this) raise(ErrorKind::Internal, role + ": buffer belongs to another device (import it first)");
}

std::string task_name(size_t lane, size_t index) {
    return "lane " + std::to_string(lane) + " task " + std::to_string(index);
}

void check_task_location(const Task& task, size_t lane, size_t index, uint64_t address_limit) {
    const std::string name = task_name(lane, index);
    if (!task.regcmd || !task.regcmd->valid()) raise(ErrorKind::Internal, name + ": no regcmd buffer");
    if (task.regcmd_entries <= 4) {
        raise(ErrorKind::Internal, name + ": regcmd_entries " + std::to_string(task.regcmd_entries) +
                                      " must include a body and the 4 trailing PC entries");
    }
    if (task.regcmd_offset % 16 != 0) {
        raise(ErrorKind::Internal, name + ": regcmd offset " + std::to_string(task.regcmd_offset) +
                                      " is not 16-byte aligned (the PC fetches 128-bit units)");
    }
    const uint64_t bytes = uint64_t{task.regcmd_entries} * 8;
    if (task.regcmd_offset > task.regcmd->size() || bytes > task.regcmd->size() - task.regcmd_offset) {
        raise(ErrorKind::Internal, name + ": regcmd stream [" + std::to_string(task.regcmd_offset) + ", +" +
                                      std::to_string(bytes) + ") overruns its " +
                                      std::to_string(task.regcmd->size()) + "-byte buffer");
    }
    const uint64_t end = task.regcmd->dma_addr() + task.regcmd_offset + bytes;
    if (end > address_limit) {
        raise(ErrorKind::Internal, name + ": regcmd address " + hex(end - bytes) + " is above the 4 GiB limit (the PC takes a 32-bit address)");
    }
}

}  // namespace detail

// ---------------------------------------------------------------- Buffer

Buffer::Buffer() = default;
Buffer::Buffer(std::shared_ptr<detail::Backend> backend, std::unique_ptr<detail::BoState> state)
    : backend_(std::move(backend)), state_(std::move(state)) {}
Buffer::Buffer(Buffer&& other) noexcept = default;
Buffer& Buffer::operator=(Buffer&& other) noexcept {
    if (this != &other) {
        release();
        backend_ = std::move(other.backend_);
        state_ = std::move(other.state_);
    }
    return *this;
}
Buffer::~Buffer() { release(); }

void Buffer::release() noexcept {
    if (!state_) return;
    try {
        destroy();
    } catch (const std::exception&) {
        // A destructor cannot report; destroy() is the checked path. The handle is gone either way
        // (the fd's close releases it at the latest).
    }
    state_.reset();
    backend_.reset();
}

void Buffer::destroy() {
    if (!state_) return;
    auto state = std::move(state_);
    auto backend = std::move(backend_);
    std::string first_error;
    try {
        backend->unmap(*state);
    } catch (const DriverError& e) {
        first_error = e.what();
    }
    backend->destroy_bo(*state);
    if (!first_error.empty()) raise(ErrorKind::Runtime, first_error);
}

bool Buffer::valid() const { return state_ != nullptr; }
detail::BoState& Buffer::state() const {
    if (!state_) raise(ErrorKind::Internal, "use of an empty or destroyed npudrv::Buffer");
    return *state_;
}
uint64_t Buffer::size() const { return state().size; }
uint32_t Buffer::flags() const { return state().flags; }
uint64_t Buffer::dma_addr() const { return state().dma_addr; }
uint32_t Buffer::handle() const { return state().handle; }
uint8_t* Buffer::data() const { return state_ ? state_->map : nullptr; }

// Each method takes state() first: it throws on an empty Buffer, whose backend_ is null too.
uint8_t* Buffer::map() {
    detail::BoState& s = state();
    backend_->map(s);
    return s.map;
}
void Buffer::unmap() {
    detail::BoState& s = state();
    backend_->unmap(s);
}
void Buffer::sync_to_device(uint64_t offset, uint64_t length) {
    detail::BoState& s = state();
    backend_->sync(s, detail::SyncDirection::ToDevice, offset, length);
}
void Buffer::sync_from_device(uint64_t offset, uint64_t length) {
    detail::BoState& s = state();
    backend_->sync(s, detail::SyncDirection::FromDevice, offset, length);
}
int Buffer::export_dmabuf() const {
    detail::BoState& s = state();
    return backend_->export_dmabuf(s);
}

// ---------------------------------------------------------------- Job

Job::Job(std::unique_ptr<detail::JobImpl> impl) : impl_(std::move(impl)) {}
Job::Job(Job&&) noexcept = default;
Job& Job::operator=(Job&&) noexcept = default;
Job::~Job() = default;
detail::JobImpl& Job::impl() const {
    if (!impl_) raise(ErrorKind::Internal, "use of a moved-from npudrv::Job");
    return *impl_;
}
void Job::submit() { impl().submit(); }
void Job::wait() { impl().wait(); }
bool Job::pending() const { return impl().pending(); }
int Job::fence_fd() const { return impl().fence_fd(); }
const JobStats& Job::stats() const { return impl().stats(); }

// ---------------------------------------------------------------- Device

Device::Device(std::shared_ptr<detail::Backend> backend) : backend_(std::move(backend)) {}
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;
Device::~Device() = default;

Device make_device(std::shared_ptr<detail::Backend> backend) { return Device(std::move(backend)); }

detail::Backend& Device::backend() const {
    if (!backend_) raise(ErrorKind::Internal, "use of a moved-from npudrv::Device");
    return *backend_;
}
const DeviceInfo& Device::info() const { return backend().info(); }
Syscalls& Device::syscalls() const { return backend().sys(); }

Buffer Device::create_buffer(uint64_t size, uint32_t flags) {
    backend();
    if (flags & ~uint32_t{kBufferAllFlags}) {
        raise(ErrorKind::Internal, "bad buffer flags " + hex(flags) + " (known: CACHEABLE|CONTIGUOUS|KERNEL_MAPPING|ZEROED)");
    }
    if (size == 0) raise(ErrorKind::Internal, "cannot create a zero-byte NPU buffer");
    return backend().wrap(backend().create_bo(size, flags));
}

Buffer Device::import_dmabuf(int dmabuf_fd) { return backend().wrap(backend().import_dmabuf(dmabuf_fd)); }

Job Device::create_job(const JobSpec& spec) { return Job(backend().create_job(spec)); }

void Device::close_fd(int fd) {
    int ret = backend().sys().close(fd);
    if (ret < 0) raise(ErrorKind::Runtime, "close(" + std::to_string(fd) + ") failed: " + describe_errno(-ret));
}

}  // namespace npudrv

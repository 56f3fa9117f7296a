#include "drv/sim/fake_kernel.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "drv/error.h"
#include "drv/sim/fake_kernel_impl.h"
#include "drv/uapi/drm_core.h"

namespace npudrv::sim {

// ---------------------------------------------------------------- memory and objects

Memory::Memory(uint64_t bytes_size, std::shared_ptr<uint64_t> counter) : size(bytes_size), allocated(std::move(counter)) {
    // Page-aligned, zeroed, like the shmem / DMA pages of both drivers.
    bytes = static_cast<uint8_t*>(std::aligned_alloc(kFakePage, static_cast<size_t>(size)));
    if (bytes) {
        std::memset(bytes, 0, static_cast<size_t>(size));
        *allocated += size;
    }
}

Memory::~Memory() {
    if (bytes) *allocated -= size;
    std::free(bytes);
}

uint8_t* ObjectDmaSpace::translate(uint64_t addr, uint64_t size) {
    for (const auto& bo : objects_) {
        if (!bo->dma_mapped) continue;
        if (addr >= bo->dma_addr && addr - bo->dma_addr <= bo->size && size <= bo->size - (addr - bo->dma_addr)) {
            return bo->mem->bytes + (addr - bo->dma_addr);
        }
    }
    return nullptr;
}

void DeclaredWriteGuard::on_access(uint64_t addr, uint64_t size, bool write) {
    inner_.on_access(addr, size, write);
    if (!write || size == 0 || !violation_.empty()) return;
    for (const auto& bo : outputs_)
        if (addr >= bo->dma_addr && addr - bo->dma_addr < bo->size && size <= bo->size - (addr - bo->dma_addr)) return;
    char b[160];
    std::snprintf(b, sizeof b, "NPU write of %llu bytes at 0x%llx outside the job's declared output BOs",
                  static_cast<unsigned long long>(size), static_cast<unsigned long long>(addr));
    violation_ = b;
}

void LaneAccessLog::on_access(uint64_t addr, uint64_t size, bool write) {
    if (size != 0) ranges_.push_back({addr, addr + size, core_, write});
}

namespace {

struct Span {
    uint64_t begin, end;
};

// Sorted, merged spans of one core's reads or writes.
std::vector<Span> merged(std::vector<Span> v) {
    std::sort(v.begin(), v.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    std::vector<Span> out;
    for (const Span& s : v) {
        if (!out.empty() && s.begin <= out.back().end) {
            out.back().end = std::max(out.back().end, s.end);
        } else {
            out.push_back(s);
        }
    }
    return out;
}

// First address both sorted span lists cover, if any.
bool first_overlap(const std::vector<Span>& a, const std::vector<Span>& b, uint64_t* at) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const uint64_t lo = std::max(a[i].begin, b[j].begin), hi = std::min(a[i].end, b[j].end);
        if (lo < hi) {
            *at = lo;
            return true;
        }
        (a[i].end < b[j].end) ? ++i : ++j;
    }
    return false;
}

}  // namespace

std::string LaneAccessLog::race() const {
    std::map<uint32_t, std::vector<Span>> reads, writes;
    for (const Range& r : ranges_) (r.write ? writes : reads)[r.core].push_back({r.begin, r.end});
    std::map<uint32_t, std::vector<Span>> r_m, w_m;
    for (auto& [core, v] : reads) r_m[core] = merged(v);
    for (auto& [core, v] : writes) w_m[core] = merged(v);
    for (const auto& [wc, w] : w_m) {
        for (const auto& [oc, o] : r_m) {
            uint64_t at = 0;
            if (oc != wc && first_overlap(w, o, &at))
                return "core " + std::to_string(wc) + " writes " + hex(at) + ", which core " + std::to_string(oc) +
                       " reads in the same job";
        }
        for (const auto& [oc, o] : w_m) {
            uint64_t at = 0;
            if (oc > wc && first_overlap(w, o, &at))
                return "cores " + std::to_string(wc) + " and " + std::to_string(oc) + " both write " + hex(at) +
                       " in the same job";
        }
    }
    return "";
}

FakeKernel::Impl::Impl(std::unique_ptr<Hardware> hw) : hardware(std::move(hw)) {}

int FakeKernel::Impl::new_fd(FdEntry entry) {
    int fd = next_fd++;
    fds.emplace(fd, std::move(entry));
    return fd;
}

FdEntry* FakeKernel::Impl::find_fd(int fd) {
    auto it = fds.find(fd);
    return it == fds.end() ? nullptr : &it->second;
}

bool FakeKernel::Impl::find_iova(const std::vector<std::weak_ptr<GemObject>>& space, uint64_t size, uint64_t floor,
                                 uint64_t ceiling, bool top_down, uint64_t* addr) {
    std::vector<std::pair<uint64_t, uint64_t>> used;  // [start, end) of live mapped objects
    for (const auto& w : space) {
        auto o = w.lock();
        if (o && o->dma_mapped) used.emplace_back(o->dma_addr, o->dma_addr + o->size);
    }
    std::sort(used.begin(), used.end());
    // Gaps between floor, the used ranges, and ceiling.
    std::vector<std::pair<uint64_t, uint64_t>> gaps;
    uint64_t cursor = floor;
    for (const auto& [start, end] : used) {
        if (start > cursor) gaps.emplace_back(cursor, std::min(start, ceiling));
        cursor = std::max(cursor, end);
    }
    if (cursor < ceiling) gaps.emplace_back(cursor, ceiling);
    if (top_down) std::reverse(gaps.begin(), gaps.end());
    for (const auto& [start, end] : gaps) {
        if (end > start && end - start >= size) {
            *addr = top_down ? end - size : start;
            return true;
        }
    }
    return false;
}

std::shared_ptr<GemObject> FakeKernel::Impl::new_object(FakeDevice& dev, uint64_t size) {
    // Forget objects that are gone, so long simulator runs do not accumulate them.
    auto expired = [](const std::weak_ptr<GemObject>& w) { return w.expired(); };
    dev.objects.erase(std::remove_if(dev.objects.begin(), dev.objects.end(), expired), dev.objects.end());
    all_objects.erase(std::remove_if(all_objects.begin(), all_objects.end(), expired), all_objects.end());
    const uint64_t rounded = (size + kFakePage - 1) / kFakePage * kFakePage;
    if (rounded < size || rounded > memory_limit || *allocated > memory_limit - rounded) return nullptr;
    auto mem = std::make_shared<Memory>(rounded, allocated);
    if (!mem->bytes) return nullptr;
    auto bo = std::make_shared<GemObject>();
    bo->mem = std::move(mem);
    bo->device = &dev;
    bo->size = rounded;
    bo->obj_addr = next_obj_addr;
    next_obj_addr += 0x400;  // looks like slab-allocated kernel objects; never 0
    dev.objects.push_back(bo);
    all_objects.push_back(bo);
    return bo;
}

uint32_t FakeKernel::Impl::add_handle(FileState& file, std::shared_ptr<GemObject> bo) {
    uint32_t h = file.next_handle++;
    file.handles.emplace(h, std::move(bo));
    return h;
}

std::shared_ptr<GemObject> FakeKernel::Impl::lookup(FileState& file, uint32_t handle) {
    auto it = file.handles.find(handle);
    return it == file.handles.end() ? nullptr : it->second;
}

int FakeKernel::Impl::oops(const std::string& what) {
    oopses.push_back(what);
    log.push_back("OOPS: " + what);
    return -EFAULT;
}

bool FakeKernel::Impl::run_task(const HwTask& task, DmaSpace& space, uint32_t* int_status) {
    ++stats.hw_tasks;
    HwResult r = hardware->run(task, space);
    if (!r.error.empty()) {
        last_hw_error = r.error;
        log.push_back("hardware refused task on core " + std::to_string(task.core) + ": " + r.error);
        return false;
    }
    *int_status = r.int_status;
    return r.completed;
}

// ---------------------------------------------------------------- DRM core ioctls

int FakeKernel::Impl::drm_version(FileState& file, void* data) {
    auto* v = static_cast<uapi::drm_version*>(data);
    const auto& c = file.device->config;
    v->version_major = c.major;
    v->version_minor = c.minor;
    v->version_patchlevel = c.patch;
    // drm_copy_field: copy at most the user's buffer length, always report the full length.
    auto copy = [](const std::string& s, size_t* len, char* buf) {
        size_t n = std::min(*len, s.size());
        if (n && buf) std::memcpy(buf, s.data(), n);
        *len = s.size();
    };
    copy(c.name, &v->name_len, v->name);
    copy(c.date, &v->date_len, v->date);
    copy(c.desc, &v->desc_len, v->desc);
    return 0;
}

int FakeKernel::Impl::gem_close(FileState& file, void* data) {
    auto* a = static_cast<uapi::drm_gem_close*>(data);
    if (a->pad != 0) return -EINVAL;
    if (!file.handles.erase(a->handle)) return -EINVAL;
    return 0;
}

int FakeKernel::Impl::prime_handle_to_fd(FileState& file, void* data) {
    auto* a = static_cast<uapi::drm_prime_handle*>(data);
    if (a->flags & ~static_cast<uint32_t>(DRM_CLOEXEC | DRM_RDWR)) return -EINVAL;
    auto bo = lookup(file, a->handle);
    if (!bo) return -ENOENT;
    FdEntry e;
    e.kind = FdEntry::Kind::DmaBuf;
    e.bo = bo;
    a->fd = new_fd(std::move(e));
    return 0;
}

int FakeKernel::Impl::prime_fd_to_handle(FileState& file, void* data) {
    auto* a = static_cast<uapi::drm_prime_handle*>(data);
    FdEntry* e = find_fd(a->fd);
    if (!e) return -EBADF;
    if (e->kind != FdEntry::Kind::DmaBuf) return -EINVAL;
    std::shared_ptr<GemObject> bo = e->bo;
    FakeDevice& dev = *file.device;
    if (bo->device == &dev) {
        // Same device: the existing object; the same handle if this file already has one.
        for (const auto& [h, obj] : file.handles) {
            if (obj == bo) {
                a->handle = h;
                return 0;
            }
        }
        a->handle = add_handle(file, bo);
        return 0;
    }
    // Foreign dma-buf: a new GEM object of this device over the same pages.
    auto imported = std::make_shared<GemObject>();
    imported->mem = bo->mem;
    imported->device = &dev;
    imported->size = bo->size;
    imported->obj_addr = next_obj_addr;
    next_obj_addr += 0x400;
    imported->rknpu_flags = 1;  // NON_CONTIGUOUS: an sg-table import
    dev.objects.push_back(imported);
    all_objects.push_back(imported);
    if (dev.config.driver == DriverKind::Rknpu && !rknpu_map_iova(dev, *imported)) return -ENOMEM;
    a->handle = add_handle(file, imported);
    return 0;
}

// drm_ioctl(): the driver ioctl is chosen by _IOC_NR alone; _IOC_SIZE(cmd) bytes are copied in, the rest
// of the kernel struct is zero-filled, and _IOC_SIZE(cmd) bytes are copied back even when the handler
// failed (that is how task_counter comes back with ETIMEDOUT).
int FakeKernel::Impl::drm_ioctl(FileState& file, unsigned long request, void* arg) {
    FakeDevice& dev = *file.device;
    if (dev.removed) return -ENODEV;
    const unsigned nr = uapi::ioctl_nr(request);
    const size_t usize = uapi::ioctl_size(request);
    const unsigned dir = uapi::ioctl_dir(request);
    size_t ksize = 0;
    const bool driver_ioctl = nr >= uapi::kDrmCommandBase && nr < 0xa0;
    if (driver_ioctl) {
        ksize = dev.config.driver == DriverKind::Rknpu ? rknpu_kernel_size(nr - uapi::kDrmCommandBase)
                                                       : rocket_kernel_size(dev, nr - uapi::kDrmCommandBase);
    } else if (nr == uapi::ioctl_nr(uapi::kDrmIoctlVersion)) {
        ksize = sizeof(uapi::drm_version);
    } else if (nr == uapi::ioctl_nr(uapi::kDrmIoctlGemClose)) {
        ksize = sizeof(uapi::drm_gem_close);
    } else if (nr == uapi::ioctl_nr(uapi::kDrmIoctlPrimeHandleToFd) ||
               nr == uapi::ioctl_nr(uapi::kDrmIoctlPrimeFdToHandle)) {
        ksize = sizeof(uapi::drm_prime_handle);
    }
    if (ksize == 0) return -EINVAL;  // no such ioctl on this driver
    if (usize && !arg) return -EFAULT;

    std::vector<uint8_t> kdata(std::max(usize, ksize), 0);
    if (dir & _IOC_WRITE) std::memcpy(kdata.data(), arg, usize);
    int ret;
    if (driver_ioctl) {
        ret = dev.config.driver == DriverKind::Rknpu ? rknpu_ioctl(file, nr - uapi::kDrmCommandBase, kdata.data())
                                                     : rocket_ioctl(file, nr - uapi::kDrmCommandBase, kdata.data());
    } else if (nr == uapi::ioctl_nr(uapi::kDrmIoctlVersion)) {
        ret = drm_version(file, kdata.data());
    } else if (nr == uapi::ioctl_nr(uapi::kDrmIoctlGemClose)) {
        ret = gem_close(file, kdata.data());
    } else if (nr == uapi::ioctl_nr(uapi::kDrmIoctlPrimeHandleToFd)) {
        ret = prime_handle_to_fd(file, kdata.data());
    } else {
        ret = prime_fd_to_handle(file, kdata.data());
    }
    if (dir & _IOC_READ) std::memcpy(arg, kdata.data(), usize);
    return ret;
}

// ---------------------------------------------------------------- FakeKernel

FakeKernel::FakeKernel(std::unique_ptr<Hardware> hardware) : impl_(std::make_unique<Impl>(std::move(hardware))) {}

FakeKernel::~FakeKernel() = default;

std::string FakeKernel::add_device(FakeDeviceConfig c) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    const bool rknpu = c.driver == DriverKind::Rknpu;
    if (c.node.empty()) c.node = rknpu ? "/dev/dri/renderD129" : "/dev/accel/accel0";
    if (c.name.empty()) c.name = rknpu ? "rknpu" : "rocket";
    if (c.desc.empty()) c.desc = rknpu ? "RKNPU driver" : "rocket DRM";
    if (c.date.empty()) c.date = rknpu ? "20240828" : "0";
    if (c.major < 0) {
        c.major = 0;
        c.minor = rknpu ? 9 : 0;
        c.patch = rknpu ? 8 : 0;
    }
    auto dev = std::make_shared<FakeDevice>();
    dev->config = c;
    impl_->devices.push_back(dev);
    return c.node;
}

void FakeKernel::remove_device(const std::string& node) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    for (auto& d : impl_->devices) {
        if (d->config.node == node && !d->removed) {
            d->removed = true;
            impl_->log.push_back("device " + node + " removed");
        }
    }
}

void FakeKernel::set_memory_limit(uint64_t bytes) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    impl_->memory_limit = bytes;
}

int64_t FakeKernel::now_ns() const { return impl_->clock_ns; }

void FakeKernel::advance_clock(int64_t ns) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    impl_->clock_ns += ns;
}

FakeKernelCounts FakeKernel::counts() const {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    FakeKernelCounts c;
    c.open_fds = impl_->fds.size();
    for (const auto& [fd, e] : impl_->fds) {
        switch (e.kind) {
            case FdEntry::Kind::Device:
                ++c.device_fds;
                c.handles += e.file->handles.size();
                break;
            case FdEntry::Kind::DmaBuf: ++c.dmabuf_fds; break;
            case FdEntry::Kind::SyncFile: ++c.fence_fds; break;
        }
    }
    c.mappings = impl_->mappings.size();
    for (const auto& w : impl_->all_objects) c.objects += w.expired() ? 0 : 1;
    c.allocated_bytes = *impl_->allocated;
    return c;
}

FakeKernelStats FakeKernel::stats() const { return impl_->stats; }
std::vector<std::string> FakeKernel::oopses() const { return impl_->oopses; }
std::vector<std::string> FakeKernel::log() const { return impl_->log; }
Hardware& FakeKernel::hardware() { return *impl_->hardware; }

std::string FakeKernel::diagnostics() {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    return impl_->last_hw_error.empty() ? "" : "simulator: " + impl_->last_hw_error;
}

int FakeKernel::open(const std::string& path, int flags) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    (void)flags;
    for (auto& d : impl_->devices) {
        if (d->config.node != path || d->removed) continue;
        if (!d->config.accessible) return -EACCES;
        FdEntry e;
        e.kind = FdEntry::Kind::Device;
        e.file = std::make_shared<FileState>();
        e.file->device = d;
        return impl_->new_fd(std::move(e));
    }
    return -ENOENT;
}

int FakeKernel::close(int fd) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    // Closing a device fd releases its GEM handles (drm_release); mappings keep their objects alive.
    return impl_->fds.erase(fd) ? 0 : -EBADF;
}

int FakeKernel::ioctl(int fd, unsigned long request, void* arg) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    FdEntry* e = impl_->find_fd(fd);
    if (!e) return -EBADF;
    if (e->kind != FdEntry::Kind::Device) return -ENOTTY;  // dma-buf / sync_file ioctls are not modelled
    std::shared_ptr<FileState> file = e->file;  // the handler may create fds (rehashing the table)
    return impl_->drm_ioctl(*file, request, arg);
}

void* FakeKernel::mmap(size_t length, int prot, int flags, int fd, uint64_t offset, int* error) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    (void)prot;
    FdEntry* e = impl_->find_fd(fd);
    if (!e) {
        *error = EBADF;
        return nullptr;
    }
    if (e->kind != FdEntry::Kind::Device) {  // mmap of a dma-buf fd is not modelled
        *error = ENODEV;
        return nullptr;
    }
    FileState& file = *e->file;
    if (file.device->removed) {
        *error = ENODEV;
        return nullptr;
    }
    if (!(flags & 0x01 /* MAP_SHARED */) || length == 0 || offset % kFakePage) {
        *error = EINVAL;
        return nullptr;
    }
    // drm_gem_mmap: find the object owning this fake offset; this file must hold a handle to it.
    std::shared_ptr<GemObject> bo;
    for (const auto& w : file.device->objects) {
        auto o = w.lock();
        if (o && o->mmap_offset && offset >= o->mmap_offset && offset - o->mmap_offset < o->size) {
            bo = o;
            break;
        }
    }
    if (!bo) {
        *error = EINVAL;
        return nullptr;
    }
    bool allowed = false;
    for (const auto& [h, obj] : file.handles) allowed = allowed || obj == bo;
    if (!allowed) {
        *error = EACCES;
        return nullptr;
    }
    const uint64_t delta = offset - bo->mmap_offset;
    if (length > bo->size - delta) {
        *error = EINVAL;
        return nullptr;
    }
    uint8_t* p = bo->mem->bytes + delta;
    impl_->mappings.emplace(reinterpret_cast<uintptr_t>(p), Mapping{bo, length});
    return p;
}

int FakeKernel::munmap(void* address, size_t length) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    auto range = impl_->mappings.equal_range(reinterpret_cast<uintptr_t>(address));
    for (auto it = range.first; it != range.second; ++it) {
        if (it->second.length == length) {
            impl_->mappings.erase(it);
            return 0;
        }
    }
    // The real munmap accepts any range; here it means the driver lost track of a mapping.
    impl_->oopses.push_back("munmap of an address/length that was never mapped");
    return -EINVAL;
}

int FakeKernel::poll_readable(int fd, int timeout_ms) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    FdEntry* e = impl_->find_fd(fd);
    if (!e) return -EBADF;
    if (e->kind != FdEntry::Kind::SyncFile) return 1;  // device and dma-buf fds: nothing to wait for here
    const int64_t signal = e->fence->signal_ns;
    if (signal <= impl_->clock_ns) return 1;
    if (timeout_ms < 0) {
        if (signal == kNever) {
            impl_->oopses.push_back("poll without timeout on a fence that never signals (would hang)");
            return 0;
        }
        impl_->clock_ns = signal;
        return 1;
    }
    const int64_t deadline = impl_->clock_ns + int64_t{timeout_ms} * kMsNs;
    if (signal <= deadline) {
        impl_->clock_ns = signal;
        return 1;
    }
    impl_->clock_ns = deadline;
    return 0;
}

std::vector<std::string> FakeKernel::list_dir(const std::string& directory) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    std::vector<std::string> names;
    const std::string prefix = directory + "/";
    for (const auto& d : impl_->devices) {
        const std::string& node = d->config.node;
        if (!d->removed && node.compare(0, prefix.size(), prefix) == 0) names.push_back(node.substr(prefix.size()));
    }
    return names;
}

std::string FakeKernel::node_group(const std::string& path) {
    std::lock_guard<std::recursive_mutex> g(impl_->lock);
    for (const auto& d : impl_->devices)
        if (d->config.node == path) return d->config.group;
    return {};
}

}  // namespace npudrv::sim

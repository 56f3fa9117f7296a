// The vendor rknpu driver behind Device/Buffer/Job. Rules enforced before each call (reference §1, §5):
// task-array BO with KERNEL_MAPPING, MEM_SYNC only on CACHEABLE BOs and by obj_addr, RKNPU_JOB_PC always
// set, pair-complete int_mask, regcfg_amount without the 4 tail entries, subcore_task per §1.7, timeout
// in ms, core masks 5/6 refused (the kernel would queue them forever), regcmd addresses below 4 GiB.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "drv/syscalls.h"
#include "drv/backend.h"
#include "drv/uapi/drm_core.h"
#include "drv/uapi/rknpu.h"

namespace npudrv::detail {
namespace {

using namespace npudrv::uapi;

constexpr uint64_t k4GiB = uint64_t{1} << 32;

// Our buffer flags and the rknpu memory flags they map to, one row each; `inverted`: the rknpu flag is set
// when ours is clear (rknpu says NON_CONTIGUOUS where we say contiguous).
struct FlagPair {
    uint32_t ours, rknpu;
    bool inverted;
};
constexpr FlagPair kFlagPairs[] = {
    {kBufferCacheable, RKNPU_MEM_CACHEABLE, false},
    {kBufferContiguous, RKNPU_MEM_NON_CONTIGUOUS, true},
    {kBufferKernelMapping, RKNPU_MEM_KERNEL_MAPPING, false},
    {kBufferZeroed, RKNPU_MEM_ZEROING, false},
};

uint32_t to_rknpu_flags(uint32_t flags) {
    uint32_t f = 0;
    for (const FlagPair& p : kFlagPairs)
        if (((flags & p.ours) != 0) != p.inverted) f |= p.rknpu;
    return f;
}

uint32_t from_rknpu_flags(uint32_t f) {
    uint32_t flags = 0;
    for (const FlagPair& p : kFlagPairs)
        if (((f & p.rknpu) != 0) != p.inverted) flags |= p.ours;
    return flags;
}

// The kernel's IRQ "fuzz": each interrupt bit pair collapses to both bits if either is set (§1.7 step 7).
uint32_t fuzz_int_status(uint32_t status) {
    uint32_t out = status;
    for (uint32_t pair = 0x3; pair <= 0xc00; pair <<= 2) {
        if (status & pair) out |= pair;
    }
    return out;
}

// The range a MEM_SYNC / sync request covers, validated against the buffer.
uint64_t checked_length(const BoState& bo, uint64_t offset, uint64_t length, const char* what) {
    if (offset > bo.size) {
        raise(ErrorKind::Internal, std::string(what) + ": offset " + std::to_string(offset) + " is beyond the " +
                                      std::to_string(bo.size) + "-byte buffer");
    }
    if (length == kWholeBuffer) return bo.size - offset;
    if (length > bo.size - offset) {
        raise(ErrorKind::Internal, std::string(what) + ": range [" + std::to_string(offset) + ", +" +
                                      std::to_string(length) + ") overruns the " + std::to_string(bo.size) +
                                      "-byte buffer");
    }
    return length;
}

class RknpuBackend;

class RknpuJob final : public JobImpl {
public:
    RknpuJob(RknpuBackend& backend, std::shared_ptr<Backend> keep_alive, const JobSpec& spec);
    ~RknpuJob() override;
    void submit() override;
    void wait() override;
    bool pending() const override { return pending_; }
    int fence_fd() const override { return fence_fd_; }

private:
    void close_fence() noexcept;
    void finish();

    RknpuBackend& backend_;
    std::shared_ptr<Backend> keep_alive_;
    JobSpec spec_;
    Buffer own_task_buffer_;
    const Buffer* task_buffer_ = nullptr;
    uint32_t total_tasks_ = 0;
    std::vector<const Buffer*> to_device_;  // cacheable inputs, regcmd buffers, task array
    std::vector<rknpu_task> records_;       // the task array as written at each submit
    rknpu_submit args_{};
    bool pending_ = false;
    int fence_fd_ = -1;
};

class RknpuBackend final : public Backend {
public:
    using Backend::Backend;

    std::unique_ptr<BoState> create_bo(uint64_t size, uint32_t flags) override {
        rknpu_mem_create args{};
        args.handle = 0;  // 0 = allocate; a non-zero value would look up an existing handle instead
        args.flags = to_rknpu_flags(flags);
        args.size = size;
        ioctl_or_throw(DRM_IOCTL_RKNPU_MEM_CREATE, &args,
                       "rknpu MEM_CREATE (" + std::to_string(size) + " bytes, flags " + hex(args.flags) + ")");
        auto bo = std::make_unique<BoState>();
        bo->handle = args.handle;
        bo->size = args.size;
        bo->flags = flags;
        bo->driver_flags = args.flags;
        bo->dma_addr = args.dma_addr;
        bo->obj_addr = args.obj_addr;
        return bo;
    }

    void destroy_bo(BoState& bo) override {
        rknpu_mem_destroy args{};
        args.handle = bo.handle;
        args.obj_addr = bo.obj_addr;
        ioctl_or_throw(DRM_IOCTL_RKNPU_MEM_DESTROY, &args, "rknpu MEM_DESTROY (handle " + std::to_string(bo.handle) + ")");
    }

    uint64_t mmap_offset(BoState& bo) override {
        if (!bo.has_mmap_offset) {
            rknpu_mem_map args{};
            args.handle = bo.handle;
            ioctl_or_throw(DRM_IOCTL_RKNPU_MEM_MAP, &args, "rknpu MEM_MAP (handle " + std::to_string(bo.handle) + ")");
            bo.mmap_offset = args.offset;
            bo.has_mmap_offset = true;
        }
        return bo.mmap_offset;
    }

    void sync(BoState& bo, SyncDirection direction, uint64_t offset, uint64_t length) override {
        const char* dir = direction == SyncDirection::ToDevice ? "to device" : "from device";
        if (!(bo.driver_flags & RKNPU_MEM_CACHEABLE)) {
            raise(ErrorKind::Internal, std::string("sync ") + dir + " of rknpu buffer handle " + std::to_string(bo.handle) +
                                          ": the buffer is not CACHEABLE (the kernel rejects MEM_SYNC with EINVAL; "
                                          "non-cacheable buffers need no sync)");
        }
        rknpu_mem_sync args{};
        args.flags = direction == SyncDirection::ToDevice ? RKNPU_MEM_SYNC_TO_DEVICE : RKNPU_MEM_SYNC_FROM_DEVICE;
        args.obj_addr = bo.obj_addr;  // MEM_SYNC takes the kernel object address, not the handle
        args.offset = offset;
        args.size = checked_length(bo, offset, length, "rknpu MEM_SYNC");
        ioctl_or_throw(DRM_IOCTL_RKNPU_MEM_SYNC, &args,
                       std::string("rknpu MEM_SYNC ") + dir + " (handle " + std::to_string(bo.handle) + ")");
    }

    std::unique_ptr<BoState> import_dmabuf(int dmabuf_fd) override {
        drm_prime_handle prime{};
        prime.fd = dmabuf_fd;
        ioctl_or_throw(kDrmIoctlPrimeFdToHandle, &prime, "PRIME_FD_TO_HANDLE (import fd " + std::to_string(dmabuf_fd) + ")");
        // MEM_CREATE with an existing handle allocates nothing and returns the object's addresses.
        rknpu_mem_create args{};
        args.handle = prime.handle;
        int ret = restarting_ioctl(sys(), fd(), DRM_IOCTL_RKNPU_MEM_CREATE, &args);
        if (ret < 0 || args.handle != prime.handle) {
            if (ret == 0) {  // the kernel allocated a new object instead: free it again
                rknpu_mem_destroy extra{};
                extra.handle = args.handle;
                restarting_ioctl(sys(), fd(), DRM_IOCTL_RKNPU_MEM_DESTROY, &extra);
            }
            drm_gem_close close_args{};
            close_args.handle = prime.handle;
            restarting_ioctl(sys(), fd(), kDrmIoctlGemClose, &close_args);
            raise(ErrorKind::Runtime, "rknpu MEM_CREATE (info of imported handle " + std::to_string(prime.handle) +
                                         ") failed: " + (ret < 0 ? describe_errno(-ret) : "kernel allocated a new object") +
                                         where(), ret < 0 ? -ret : 0);
        }
        auto bo = std::make_unique<BoState>();
        bo->handle = prime.handle;
        bo->size = args.size;
        bo->driver_flags = args.flags;
        bo->flags = from_rknpu_flags(args.flags);
        bo->dma_addr = args.dma_addr;
        bo->obj_addr = args.obj_addr;
        return bo;
    }

    std::unique_ptr<JobImpl> create_job(const JobSpec& spec) override {
        return std::make_unique<RknpuJob>(*this, shared_from_this(), spec);
    }
};

RknpuJob::RknpuJob(RknpuBackend& backend, std::shared_ptr<Backend> keep_alive, const JobSpec& spec)
    : backend_(backend), keep_alive_(std::move(keep_alive)), spec_(spec) {
    const uint32_t mask = spec.core_mask;
    if (mask != 0 && mask != 1 && mask != 2 && mask != 4 && mask != 3 && mask != 7) {
        raise(ErrorKind::Internal, "rknpu core_mask " + hex(mask) +
                                      " is not one of 0 (auto), 1, 2, 4, 3, 7 (masks 5 and 6 are queued but never "
                                      "run: the submit would only time out)");
    }
    const size_t cores = mask == 0 ? 1 : static_cast<size_t>(__builtin_popcount(mask));
    if (spec.lanes.size() != cores) {
        raise(ErrorKind::Internal, "rknpu core_mask " + hex(mask) + " runs " + std::to_string(cores) +
                                      " lane(s) but the job has " + std::to_string(spec.lanes.size()));
    }
    if (spec.timeout.count() <= 0 || spec.timeout.count() > std::numeric_limits<uint32_t>::max()) {
        raise(ErrorKind::Internal, "rknpu job timeout must be 1 .. 4294967295 ms, got " +
                                      std::to_string(spec.timeout.count()));
    }
    if (spec.outputs.empty()) {
        raise(ErrorKind::Internal, "job lists no output buffer: every buffer the NPU writes must be listed");
    }
    uint64_t total = 0;
    for (size_t l = 0; l < spec.lanes.size(); ++l) {
        const auto& lane = spec.lanes[l];
        if (lane.tasks.empty()) raise(ErrorKind::Internal, "lane " + std::to_string(l) + " has no task");
        for (size_t i = 0; i < lane.tasks.size(); ++i) {
            const Task& t = lane.tasks[i];
            backend.check_own(t.regcmd, task_name(l, i) + " regcmd");
            check_task_location(t, l, i, k4GiB);
            if (t.int_mask == 0 || (t.int_mask & ~0xfffu) || fuzz_int_status(t.int_mask) != t.int_mask) {
                raise(ErrorKind::Internal, task_name(l, i) + ": int_mask " + hex(t.int_mask) +
                                              " can never match: rknpu completes only on whole interrupt pairs "
                                              "such as 0x300 (DPU) or 0xc00 (PPU)");
            }
        }
        total += lane.tasks.size();
    }
    if (total > RKNPU_MAX_SUBMIT_NUMBER * 3) raise(ErrorKind::Internal, "too many tasks in one job: " + std::to_string(total));
    total_tasks_ = static_cast<uint32_t>(total);

    for (const Buffer* b : spec.inputs) backend.check_own(b, "job input");
    for (const Buffer* b : spec.outputs) backend.check_own(b, "job output");

    // The task array: the kernel reads it through its own kernel mapping (task_obj_addr), so the BO must be
    // created with KERNEL_MAPPING; without it the kernel dereferences NULL.
    const uint64_t task_bytes = uint64_t{total_tasks_} * sizeof(rknpu_task);
    if (spec.task_buffer) {
        backend.check_own(spec.task_buffer, "task buffer");
        if (!(Backend::bo(*spec.task_buffer).driver_flags & RKNPU_MEM_KERNEL_MAPPING)) {
            raise(ErrorKind::Internal, "rknpu task buffer (handle " + std::to_string(spec.task_buffer->handle()) +
                                          ") lacks KERNEL_MAPPING: the kernel reads tasks through its kernel "
                                          "mapping and would dereference NULL");
        }
        if (spec.task_buffer->size() < task_bytes) {
            raise(ErrorKind::Internal, "rknpu task buffer holds " + std::to_string(spec.task_buffer->size()) +
                                          " bytes, the job needs " + std::to_string(task_bytes));
        }
        task_buffer_ = spec.task_buffer;
    } else {
        own_task_buffer_ = backend.wrap(backend.create_bo(task_bytes, kBufferKernelMapping | kBufferCacheable));
        task_buffer_ = &own_task_buffer_;
    }

    // The packed task records, written into the task buffer at every submit (a caller-supplied task buffer
    // may be shared between jobs, and the kernel writes int_status back into the last record).
    for (const auto& lane : spec.lanes) {
        for (const Task& t : lane.tasks) {
            rknpu_task rec{};
            rec.flags = 0;
            rec.op_idx = 0;
            rec.enable_mask = t.enable_mask;
            rec.int_mask = t.int_mask;
            rec.int_clear = RKNPU_INT_CLEAR;
            rec.int_status = 0;
            rec.regcfg_amount = t.regcmd_entries - RKNPU_PC_DATA_EXTRA_AMOUNT;  // excludes the PC tail
            rec.regcfg_offset = 0;
            rec.regcmd_addr = t.regcmd->dma_addr() + t.regcmd_offset;
            records_.push_back(rec);
        }
    }

    auto add_sync = [&](const Buffer* b) {
        if (!(Backend::bo(*b).driver_flags & RKNPU_MEM_CACHEABLE)) return;  // uncached: nothing to flush
        if (std::find(to_device_.begin(), to_device_.end(), b) == to_device_.end()) to_device_.push_back(b);
    };
    for (const Buffer* b : spec.inputs) add_sync(b);
    for (const auto& lane : spec.lanes)
        for (const Task& t : lane.tasks) add_sync(t.regcmd);
    add_sync(task_buffer_);

    // The submit arguments are fixed for the job's lifetime.
    args_.flags = RKNPU_JOB_PC | RKNPU_JOB_PINGPONG;
    if (spec.use_fence) args_.flags |= RKNPU_JOB_NONBLOCK | RKNPU_JOB_FENCE_OUT;
    args_.timeout = static_cast<uint32_t>(spec.timeout.count());
    args_.task_start = 0;
    args_.task_number = total_tasks_;
    args_.task_obj_addr = backend.bo(*task_buffer_).obj_addr;
    args_.core_mask = mask;
    args_.fence_fd = -1;
    if (mask == 0) {
        // The kernel picks the least-loaded core i and uses subcore_task[i]: fill 0..2 identically.
        for (int i = 0; i < 3; ++i) args_.subcore_task[i] = {0, total_tasks_};
    } else {
        // 1 or 2 cores: core c uses subcore_task[c]; 3 cores: core c uses subcore_task[c + 2].
        uint32_t start = 0;
        size_t lane = 0;
        for (uint32_t core = 0; core < RKNPU_MAX_CORES; ++core) {
            if (!(mask & (1u << core))) continue;
            const uint32_t n = static_cast<uint32_t>(spec.lanes[lane++].tasks.size());
            args_.subcore_task[cores == 3 ? core + 2 : core] = {start, n};
            start += n;
        }
    }
}

RknpuJob::~RknpuJob() { close_fence(); }

void RknpuJob::close_fence() noexcept {
    if (fence_fd_ >= 0) backend_.sys().close(fence_fd_);
    fence_fd_ = -1;
}

void RknpuJob::submit() {
    if (pending_) raise(ErrorKind::Internal, "job submitted twice without wait()");
    auto& task_bo = Backend::bo(*task_buffer_);
    if (!task_bo.map) backend_.map(task_bo);
    std::memcpy(task_bo.map, records_.data(), records_.size() * sizeof(rknpu_task));
    for (const Buffer* b : to_device_) backend_.sync(Backend::bo(*b), SyncDirection::ToDevice, 0, kWholeBuffer);

    rknpu_submit args = args_;
    int ret = restarting_ioctl(backend_.sys(), backend_.fd(), DRM_IOCTL_RKNPU_SUBMIT, &args);
    if (ret < 0) {
        const int e = -ret;
        if (e == ETIMEDOUT) {
            raise(ErrorKind::Runtime, "NPU job timed out after " + std::to_string(args.timeout) + " ms (rknpu; " +
                                         std::to_string(args.task_counter) + " of " + std::to_string(args.task_number) +
                                         " tasks done; the kernel soft-reset the NPU)" + backend_.where(), e);
        }
        if (e == ENODEV) raise(ErrorKind::Device, "rknpu SUBMIT failed: the NPU device was removed" + backend_.where(), e);
        raise(ErrorKind::Runtime, "rknpu SUBMIT failed: " + describe_errno(e) + backend_.where(), e);
    }
    stats_.task_counter = args.task_counter;
    stats_.hw_elapse_time_ns = args.hw_elapse_time;
    if (spec_.use_fence) fence_fd_ = args.fence_fd;
    pending_ = true;
}

void RknpuJob::wait() {
    if (!pending_) raise(ErrorKind::Internal, "wait() on a job that was not submitted");
    pending_ = false;
    if (fence_fd_ >= 0) {
        int ret = restarting_poll(backend_.sys(), fence_fd_, static_cast<int>(std::min<int64_t>(
                                                               spec_.timeout.count(), std::numeric_limits<int>::max())));
        close_fence();
        if (ret == 0) {
            raise(ErrorKind::Runtime, "NPU job timed out after " + std::to_string(spec_.timeout.count()) +
                                         " ms (rknpu fence not signalled)" + backend_.where(), ETIMEDOUT);
        }
        if (ret < 0) raise(ErrorKind::Runtime, "waiting for the rknpu fence failed: " + describe_errno(-ret) + backend_.where(), -ret);
    }
    finish();
}

void RknpuJob::finish() {
    for (const Buffer* b : spec_.outputs) {
        auto& bo = Backend::bo(*b);
        if (bo.driver_flags & RKNPU_MEM_CACHEABLE) backend_.sync(bo, SyncDirection::FromDevice, 0, kWholeBuffer);
    }
    auto& task_bo = Backend::bo(*task_buffer_);
    const uint64_t last = uint64_t{total_tasks_ - 1} * sizeof(rknpu_task);
    if (task_bo.driver_flags & RKNPU_MEM_CACHEABLE) {
        backend_.sync(task_bo, SyncDirection::FromDevice, last, sizeof(rknpu_task));
    }
    if (!task_bo.map) backend_.map(task_bo);
    rknpu_task rec{};
    std::memcpy(&rec, task_bo.map + last, sizeof rec);
    stats_.last_int_status = rec.int_status;
}

}  // namespace

std::shared_ptr<Backend> open_rknpu_backend(std::shared_ptr<Syscalls> sys, int fd, DeviceInfo info) {
    auto action = [&](uint32_t code, uint32_t* value) {
        rknpu_action a{code, 0};
        int ret = restarting_ioctl(*sys, fd, DRM_IOCTL_RKNPU_ACTION, &a);
        if (ret == 0) *value = a.value;
        return ret;
    };
    uint32_t value = 0;
    if (action(RKNPU_GET_HW_VERSION, &value) == 0) info.hw_version = value;
    if (action(RKNPU_GET_IOMMU_EN, &value) == 0) info.iommu = value != 0;
    info.address_space = "per-device IOMMU domain, 40-bit DMA mask (tasks need addresses below 4 GiB)";
    return std::make_shared<RknpuBackend>(std::move(sys), fd, std::move(info));
}

}  // namespace npudrv::detail

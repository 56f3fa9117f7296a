// The mainline rocket accel driver behind Device/Buffer/Job. Rules enforced before each call (reference
// §2, §5): 32-bit sizes and regcmd addresses, regcmd_count including the 4-entry PC tail, only DPU (0x300)
// completions, every written BO listed in out_bo_handles (else nothing to wait on), PREP_BO deadlines are
// absolute CLOCK_MONOTONIC and a positive return is success. SUBMIT returns 0 even when the kernel drops a
// job, so everything is validated here first.
#include <algorithm>
#include <cerrno>
#include <limits>

#include "drv/syscalls.h"
#include "drv/backend.h"
#include "drv/uapi/drm_core.h"
#include "drv/uapi/rocket.h"

namespace npudrv::detail {
namespace {

using namespace npudrv::uapi;

constexpr uint64_t k4GiB = uint64_t{1} << 32;
constexpr uint64_t kPage = 4096;  // drm_gem_shmem rounds to PAGE_SIZE (4 KiB on RK3588 kernels)
constexpr int64_t kMsToNs = 1000000;
// Explicit Buffer::sync_from_device waits at most this long: the 500 ms scheduler timeout bounds every job.
constexpr int64_t kPrepWaitNs = 2 * int64_t{kRocketJobTimeoutMs} * kMsToNs;

class RocketBackend;

class RocketJob final : public JobImpl {
public:
    RocketJob(RocketBackend& backend, std::shared_ptr<Backend> keep_alive, const JobSpec& spec);
    void submit() override;
    void wait() override;
    bool pending() const override { return pending_; }

private:
    RocketBackend& backend_;
    std::shared_ptr<Backend> keep_alive_;
    JobSpec spec_;
    std::vector<std::vector<drm_rocket_task>> tasks_;  // one array per lane (= rocket job)
    std::vector<uint32_t> in_handles_, out_handles_;
    std::vector<const Buffer*> to_device_;
    std::vector<drm_rocket_job> jobs_;
    int64_t submit_ns_ = 0;
    bool pending_ = false;
};

class RocketBackend final : public Backend {
public:
    using Backend::Backend;

    std::unique_ptr<BoState> create_bo(uint64_t size, uint32_t flags) override {
        if (flags & kBufferContiguous) {
            raise(ErrorKind::Internal, "rocket allocates shmem pages only: a contiguous buffer is not available");
        }
        if (size > std::numeric_limits<uint32_t>::max() - (kPage - 1)) {
            raise(ErrorKind::Internal, "rocket CREATE_BO takes a 32-bit size; " + std::to_string(size) + " bytes is too large");
        }
        drm_rocket_create_bo args{};
        args.size = static_cast<uint32_t>(size);
        ioctl_or_throw(kRocketIoctlCreateBo, &args, "rocket CREATE_BO (" + std::to_string(size) + " bytes)");
        auto bo = std::make_unique<BoState>();
        bo->handle = args.handle;
        bo->size = (size + kPage - 1) / kPage * kPage;
        // rocket buffers are always cached shmem (hence PREP/FINI) and always zeroed pages.
        bo->flags = (flags & ~uint32_t{kBufferKernelMapping}) | kBufferCacheable | kBufferZeroed;
        bo->dma_addr = args.dma_address;
        bo->mmap_offset = args.offset;
        bo->has_mmap_offset = true;
        return bo;
    }

    void destroy_bo(BoState& bo) override {
        drm_gem_close args{};
        args.handle = bo.handle;  // rocket has no destroy ioctl: GEM_CLOSE frees the handle
        ioctl_or_throw(kDrmIoctlGemClose, &args, "GEM_CLOSE (rocket handle " + std::to_string(bo.handle) + ")");
    }

    uint64_t mmap_offset(BoState& bo) override { return bo.mmap_offset; }

    void sync(BoState& bo, SyncDirection direction, uint64_t offset, uint64_t length) override {
        // PREP/FINI always cover the whole BO; the range is still checked so a bad call is caught on both drivers.
        if (offset > bo.size || (length != kWholeBuffer && length > bo.size - offset)) {
            raise(ErrorKind::Internal, "sync range [" + std::to_string(offset) + ", +" + std::to_string(length) +
                                          ") overruns the " + std::to_string(bo.size) + "-byte buffer");
        }
        if (direction == SyncDirection::ToDevice) {
            fini(bo);
        } else {
            prep(bo, sys().monotonic_ns() + kPrepWaitNs, kPrepWaitNs / kMsToNs);
        }
    }

    void fini(const BoState& bo) {
        drm_rocket_fini_bo args{};
        args.handle = bo.handle;
        ioctl_or_throw(kRocketIoctlFiniBo, &args, "rocket FINI_BO (handle " + std::to_string(bo.handle) + ")");
    }

    // Waits for the NPU's writes to bo until deadline_ns (absolute), then makes them visible to the CPU.
    void prep(const BoState& bo, int64_t deadline_ns, int64_t timeout_ms) {
        drm_rocket_prep_bo args{};
        args.handle = bo.handle;
        args.timeout_ns = deadline_ns;
        int ret = restarting_ioctl(sys(), fd(), kRocketIoctlPrepBo, &args);
        if (ret >= 0) return;  // PREP_BO returns the remaining jiffies on success
        const int e = -ret;
        if (e == ETIMEDOUT || e == EBUSY) {
            raise(ErrorKind::Runtime, "NPU job timed out after " + std::to_string(timeout_ms) +
                                         " ms (rocket PREP_BO on handle " + std::to_string(bo.handle) + ")" + where(), ETIMEDOUT);
        }
        if (e == ENODEV) raise(ErrorKind::Device, "rocket PREP_BO failed: the NPU device was removed" + where(), e);
        raise(ErrorKind::Runtime, "rocket PREP_BO (handle " + std::to_string(bo.handle) + ") failed: " + describe_errno(e) + where(), e);
    }

    std::unique_ptr<BoState> import_dmabuf(int dmabuf_fd) override {
        raise(ErrorKind::Unsupported, "rocket cannot import dma-buf fd " + std::to_string(dmabuf_fd) +
                                         ": it has no ioctl that reports an imported BO's NPU address");
    }

    std::unique_ptr<JobImpl> create_job(const JobSpec& spec) override {
        return std::make_unique<RocketJob>(*this, shared_from_this(), spec);
    }
};

RocketJob::RocketJob(RocketBackend& backend, std::shared_ptr<Backend> keep_alive, const JobSpec& spec)
    : backend_(backend), keep_alive_(std::move(keep_alive)), spec_(spec) {
    if (spec.core_mask != 0) {
        raise(ErrorKind::Internal, "rocket cannot pin a job to cores (core_mask " + hex(spec.core_mask) +
                                      "): its scheduler places each lane; use core_mask 0");
    }
    if (spec.lanes.empty()) raise(ErrorKind::Internal, "job has no lane");
    if (spec.timeout.count() <= 0) raise(ErrorKind::Internal, "job timeout must be positive");
    if (spec.use_fence) {
        raise(ErrorKind::Unsupported, "rocket has no sync_file fences: completion is waited on the output buffers");
    }
    if (spec.outputs.empty()) {
        raise(ErrorKind::Internal, "rocket job lists no output buffer: the kernel fences only out_bo_handles, so "
                                  "there would be nothing to wait on");
    }
    if (spec.task_buffer) raise(ErrorKind::Internal, "rocket takes tasks by user pointer: no task buffer");
    for (const Buffer* b : spec.inputs) backend.check_own(b, "job input");
    for (const Buffer* b : spec.outputs) backend.check_own(b, "job output");

    auto add_unique = [](std::vector<const Buffer*>& list, const Buffer* b) {
        if (std::find(list.begin(), list.end(), b) == list.end()) list.push_back(b);
    };
    std::vector<const Buffer*> reads;
    for (const Buffer* b : spec.inputs) add_unique(reads, b);
    for (size_t l = 0; l < spec.lanes.size(); ++l) {
        const auto& lane = spec.lanes[l];
        if (lane.tasks.empty()) raise(ErrorKind::Internal, "lane " + std::to_string(l) + " has no task");
        std::vector<drm_rocket_task> tasks;
        for (size_t i = 0; i < lane.tasks.size(); ++i) {
            const Task& t = lane.tasks[i];
            backend.check_own(t.regcmd, task_name(l, i) + " regcmd");
            check_task_location(t, l, i, k4GiB);
            if (t.int_mask != kRocketDpuIrqMask) {
                raise(ErrorKind::Internal, task_name(l, i) + ": int_mask " + hex(t.int_mask) +
                                              " cannot complete on rocket, which waits only for the DPU interrupt (0x300)");
            }
            drm_rocket_task rt{};
            rt.regcmd = static_cast<uint32_t>(t.regcmd->dma_addr() + t.regcmd_offset);
            rt.regcmd_count = t.regcmd_entries;  // includes the 4-entry PC tail
            tasks.push_back(rt);
            add_unique(reads, t.regcmd);
        }
        tasks_.push_back(std::move(tasks));
    }
    // A BO listed both as input and output would be locked twice by the kernel; the out list covers reads too.
    for (const Buffer* b : reads) {
        if (std::find(spec.outputs.begin(), spec.outputs.end(), b) == spec.outputs.end()) in_handles_.push_back(b->handle());
    }
    std::vector<const Buffer*> outs;
    for (const Buffer* b : spec.outputs) add_unique(outs, b);
    for (const Buffer* b : outs) out_handles_.push_back(b->handle());
    to_device_ = reads;
    for (const Buffer* b : outs) add_unique(to_device_, b);

    // Every lane gets the full in/out lists: the driver does not know which lane writes which buffer, and
    // listing too much only serialises lanes that share outputs (correct, maybe slower).
    for (auto& tasks : tasks_) {
        drm_rocket_job job{};
        job.tasks = reinterpret_cast<uintptr_t>(tasks.data());
        job.task_count = static_cast<uint32_t>(tasks.size());
        job.task_struct_size = sizeof(drm_rocket_task);
        job.in_bo_handles = reinterpret_cast<uintptr_t>(in_handles_.data());
        job.in_bo_handle_count = static_cast<uint32_t>(in_handles_.size());
        job.out_bo_handles = reinterpret_cast<uintptr_t>(out_handles_.data());
        job.out_bo_handle_count = static_cast<uint32_t>(out_handles_.size());
        jobs_.push_back(job);
    }
}

void RocketJob::submit() {
    if (pending_) raise(ErrorKind::Internal, "job submitted twice without wait()");
    for (const Buffer* b : to_device_) backend_.fini(Backend::bo(*b));
    drm_rocket_submit args{};
    args.jobs = reinterpret_cast<uintptr_t>(jobs_.data());
    args.job_count = static_cast<uint32_t>(jobs_.size());
    args.job_struct_size = sizeof(drm_rocket_job);
    args.reserved = 0;
    submit_ns_ = backend_.sys().monotonic_ns();
    backend_.ioctl_or_throw(kRocketIoctlSubmit, &args, "rocket SUBMIT (" + std::to_string(jobs_.size()) + " job(s))");
    pending_ = true;
}

void RocketJob::wait() {
    if (!pending_) raise(ErrorKind::Internal, "wait() on a job that was not submitted");
    pending_ = false;
    const int64_t timeout_ns = spec_.timeout.count() * kMsToNs;
    for (const Buffer* b : spec_.outputs) backend_.prep(Backend::bo(*b), submit_ns_ + timeout_ns, spec_.timeout.count());
    // A hung job is not reported by the kernel: the scheduler's 500 ms timeout resets the core and then
    // signals the job's fence anyway, so PREP_BO succeeds. A wait that only ended at or after that limit
    // is therefore treated as the timeout it was.
    const int64_t elapsed = backend_.sys().monotonic_ns() - submit_ns_;
    if (elapsed >= int64_t{kRocketJobTimeoutMs} * kMsToNs) {
        raise(ErrorKind::Runtime, "NPU job hit the rocket kernel's 500 ms job timeout (the core was reset; the "
                                 "output is not valid)" + backend_.where(), ETIMEDOUT);
    }
}

}  // namespace

std::shared_ptr<Backend> open_rocket_backend(std::shared_ptr<Syscalls> sys, int fd, DeviceInfo info) {
    info.iommu = true;
    info.address_space = "per-fd IOMMU domain starting at 0, 32-bit task addresses";
    return std::make_shared<RocketBackend>(std::move(sys), fd, std::move(info));
}

}  // namespace npudrv::detail

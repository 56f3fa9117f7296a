// The mainline rocket ioctls of the fake kernel (reference §2.2 - §2.4).
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "drv/sim/fake_kernel_impl.h"
#include "drv/uapi/rocket.h"

namespace npudrv::sim {

using namespace npudrv::uapi;

size_t FakeKernel::Impl::rocket_kernel_size(const FakeDevice& dev, unsigned nr) const {
    switch (nr) {
        case 0: return sizeof(drm_rocket_create_bo);
        case 1: return sizeof(drm_rocket_submit);
        case 2: return dev.config.rocket_prep_fini ? sizeof(drm_rocket_prep_bo) : 0;
        case 3: return dev.config.rocket_prep_fini ? sizeof(drm_rocket_fini_bo) : 0;
        default: return 0;
    }
}

int FakeKernel::Impl::rocket_ioctl(FileState& file, unsigned nr, void* data) {
    switch (nr) {
        case 0: return rocket_create_bo(file, data);
        case 1: return rocket_submit(file, data);
        case 2: return rocket_prep_bo(file, data);
        case 3: return rocket_fini_bo(file, data);
        default: return -EINVAL;
    }
}

bool FakeKernel::Impl::rocket_map_iova(FileState& file, const std::shared_ptr<GemObject>& bo) {
    // Each fd has its own IOMMU domain and drm_mm, starting at the aperture base 0 (lowest fit first).
    auto expired = [](const std::weak_ptr<GemObject>& w) { return w.expired(); };
    file.domain.erase(std::remove_if(file.domain.begin(), file.domain.end(), expired), file.domain.end());
    uint64_t addr = 0;
    if (!find_iova(file.domain, bo->size, 0, uint64_t{1} << 40, false, &addr)) return false;
    bo->dma_addr = addr;
    bo->dma_mapped = true;
    file.domain.push_back(bo);
    return true;
}

int FakeKernel::Impl::rocket_create_bo(FileState& file, void* data) {
    auto* a = static_cast<drm_rocket_create_bo*>(data);
    if (a->size == 0) return -EINVAL;  // an empty shmem object cannot be created [inferred]
    FakeDevice& dev = *file.device;
    auto bo = new_object(dev, a->size);
    if (!bo || !rocket_map_iova(file, bo)) return -ENOMEM;
    bo->mmap_offset = dev.next_mmap_offset;
    dev.next_mmap_offset += bo->size;
    a->handle = add_handle(file, bo);
    a->dma_address = bo->dma_addr;
    a->offset = bo->mmap_offset;
    return 0;
}

int FakeKernel::Impl::rocket_fini_bo(FileState& file, void* data) {
    auto* a = static_cast<drm_rocket_fini_bo*>(data);
    if (a->reserved != 0) return -EINVAL;
    if (!lookup(file, a->handle)) return -ENOENT;
    ++stats.syncs_to_device;
    return 0;
}

int FakeKernel::Impl::rocket_prep_bo(FileState& file, void* data) {
    auto* a = static_cast<drm_rocket_prep_bo*>(data);
    if (a->reserved != 0) return -EINVAL;
    auto bo = lookup(file, a->handle);
    if (!bo) return -ENOENT;
    const int64_t deadline = a->timeout_ns;
    const int64_t signal = bo->write_fence_ns;
    if (signal > clock_ns) {
        if (deadline <= clock_ns) return -EBUSY;  // no time left and still busy
        if (signal > deadline) {
            clock_ns = deadline;
            return -ETIMEDOUT;
        }
        clock_ns = signal;
    }
    ++stats.syncs_from_device;
    // Success returns the remaining jiffies (positive); 250 Hz, at least 1.
    const int64_t remaining_ms = deadline > clock_ns ? (deadline - clock_ns) / kMsNs : 0;
    return static_cast<int>(std::min<int64_t>(remaining_ms / 4 + 1, 0x7fffffff));
}

int FakeKernel::Impl::rocket_submit(FileState& file, void* data) {
    auto* s = static_cast<drm_rocket_submit*>(data);
    if (s->reserved != 0) return -EINVAL;
    if (s->job_struct_size < sizeof(drm_rocket_job)) return -EINVAL;
    if (s->job_count == 0) return 0;
    if (s->jobs == 0) return -EFAULT;
    FakeDevice& dev = *file.device;
    const auto* jobs = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(s->jobs));

    // The kernel ignores each job's error: a rejected job is dropped and the ioctl still returns 0.
    auto drop = [&](uint32_t index, const std::string& why) {
        ++stats.dropped_jobs;
        log.push_back("rocket job " + std::to_string(index) + " dropped: " + why);
    };
    for (uint32_t j = 0; j < s->job_count; ++j) {
        drm_rocket_job job{};
        std::memcpy(&job, jobs + uint64_t{j} * s->job_struct_size, sizeof job);
        if (job.task_count == 0 || job.task_struct_size < sizeof(drm_rocket_task)) {
            drop(j, "task_count 0 or task_struct_size < 8");
            continue;
        }
        if (job.tasks == 0) {
            drop(j, "tasks pointer is NULL (EFAULT)");
            continue;
        }
        std::vector<drm_rocket_task> tasks(job.task_count);
        const auto* tp = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(job.tasks));
        bool bad = false;
        for (uint32_t t = 0; t < job.task_count; ++t) {
            std::memcpy(&tasks[t], tp + uint64_t{t} * job.task_struct_size, sizeof(drm_rocket_task));
            bad = bad || tasks[t].regcmd_count == 0;
        }
        if (bad) {
            drop(j, "a task has regcmd_count 0");
            continue;
        }
        auto handles = [&](uint64_t ptr, uint32_t count, std::vector<std::shared_ptr<GemObject>>* out) {
            if (count && ptr == 0) return false;
            const auto* h = reinterpret_cast<const uint32_t*>(static_cast<uintptr_t>(ptr));
            for (uint32_t i = 0; i < count; ++i) {
                auto bo = lookup(file, h[i]);
                if (!bo) return false;
                out->push_back(bo);
            }
            return true;
        };
        std::vector<std::shared_ptr<GemObject>> in, out;
        if (!handles(job.in_bo_handles, job.in_bo_handle_count, &in) ||
            !handles(job.out_bo_handles, job.out_bo_handle_count, &out)) {
            drop(j, "unknown BO handle (ENOENT)");
            continue;
        }

        // Implicit dependencies: the job starts after the writers of its in and out BOs.
        int64_t start = clock_ns;
        for (const auto& bo : in) start = std::max(start, bo->write_fence_ns);
        for (const auto& bo : out) start = std::max(start, bo->write_fence_ns);

        std::vector<std::shared_ptr<GemObject>> visible;
        for (const auto& w : file.domain)
            if (auto o = w.lock()) visible.push_back(o);
        ObjectDmaSpace visible_space(visible);
        DeclaredWriteGuard space(visible_space, out);

        ++stats.submits;
        last_hw_error.clear();
        const uint32_t core = dev.next_core;
        dev.next_core = (dev.next_core + 1) % 3;
        bool hung = false;
        for (const auto& t : tasks) {  // all tasks of one job run in order on one core
            HwTask hw;
            hw.core = core;
            hw.regcmd_addr = t.regcmd;
            hw.regcfg_amount = t.regcmd_count;  // includes the 4 PC tail entries
            hw.int_mask = kRocketDpuIrqMask;
            uint32_t status = 0;
            // The IRQ handler returns IRQ_NONE unless a DPU bit is set: the task never completes.
            if (!run_task(hw, space, &status) || !(status & kRocketDpuIrqMask)) {
                hung = true;
                break;
            }
        }
        // A write outside the declared outputs is a driver bug the board would not report (the data races with
        // the CPU): the simulated NPU refuses the job, which then hangs like any refused job.
        if (!hung && !space.violation().empty()) {
            hung = true;
            ++stats.undeclared_writes;
            last_hw_error = "undeclared-write: " + space.violation();
            log.push_back("rocket job " + std::to_string(j) + " refused: " + last_hw_error);
        }
        // A hung job is ended by the scheduler's 500 ms timeout: core reset, then its fence signals anyway.
        const int64_t done = hung ? start + int64_t{kRocketJobTimeoutMs} * kMsNs : start;
        if (hung) {
            ++stats.soft_resets;
            log.push_back("rocket job " + std::to_string(j) + " timed out after 500 ms: core reset");
        }
        for (const auto& bo : out) bo->write_fence_ns = done;
    }
    if (dev.removed) return -ENODEV;
    return 0;
}

}  // namespace npudrv::sim

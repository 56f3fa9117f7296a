// The vendor rknpu 0.9.8 ioctls of the fake kernel (reference §1.3 - §1.7).
#include <cerrno>
#include <cstring>

#include "drv/sim/fake_kernel_impl.h"
#include "drv/uapi/rknpu.h"

namespace npudrv::sim {

using namespace npudrv::uapi;

namespace {

uint32_t fuzz(uint32_t status) {
    uint32_t out = status;
    for (uint32_t pair = 0x3; pair <= 0xc00; pair <<= 2)
        if (status & pair) out |= pair;
    return out;
}

}  // namespace

size_t FakeKernel::Impl::rknpu_kernel_size(unsigned nr) const {
    switch (nr) {
        case RKNPU_ACTION: return sizeof(uapi::rknpu_action);
        case RKNPU_SUBMIT: return sizeof(uapi::rknpu_submit);
        case RKNPU_MEM_CREATE: return sizeof(uapi::rknpu_mem_create);
        case RKNPU_MEM_MAP: return sizeof(uapi::rknpu_mem_map);
        case RKNPU_MEM_DESTROY: return sizeof(uapi::rknpu_mem_destroy);
        case RKNPU_MEM_SYNC: return sizeof(uapi::rknpu_mem_sync);
        default: return 0;
    }
}

int FakeKernel::Impl::rknpu_ioctl(FileState& file, unsigned nr, void* data) {
    switch (nr) {
        case RKNPU_ACTION: return rknpu_action(file, data);
        case RKNPU_SUBMIT: return rknpu_submit(file, data);
        case RKNPU_MEM_CREATE: return rknpu_mem_create(file, data);
        case RKNPU_MEM_MAP: return rknpu_mem_map(file, data);
        case RKNPU_MEM_DESTROY: return rknpu_mem_destroy(file, data);
        case RKNPU_MEM_SYNC: return rknpu_mem_sync(file, data);
        default: return -EINVAL;
    }
}

int FakeKernel::Impl::rknpu_action(FileState& file, void* data) {
    auto* a = static_cast<struct rknpu_action*>(data);
    FakeDevice& dev = *file.device;
    const auto& c = dev.config;
    switch (a->flags) {
        case RKNPU_GET_HW_VERSION: a->value = c.hw_version; return 0;
        case RKNPU_GET_DRV_VERSION:
            a->value = rknpu_drv_version_code(static_cast<uint32_t>(c.major), static_cast<uint32_t>(c.minor),
                                              static_cast<uint32_t>(c.patch));
            return 0;
        case RKNPU_GET_FREQ: a->value = 1000000000; return 0;
        case RKNPU_GET_VOLT: a->value = 750000; return 0;
        case RKNPU_ACT_RESET:
            ++stats.soft_resets;
            log.push_back("rknpu ACT_RESET");
            return 0;
        case RKNPU_ACT_CLR_TOTAL_RW_AMOUNT:
        case RKNPU_GET_DT_WR_AMOUNT:
        case RKNPU_GET_DT_RD_AMOUNT:
        case RKNPU_GET_WT_RD_AMOUNT:
        case RKNPU_GET_TOTAL_RW_AMOUNT:
            return 0;  // RK3588 has no amount counters: a warning, value untouched
        case RKNPU_GET_IOMMU_EN: a->value = c.iommu ? 1 : 0; return 0;
        case RKNPU_SET_PROC_NICE: return 0;
        case RKNPU_GET_TOTAL_SRAM_SIZE:
        case RKNPU_GET_FREE_SRAM_SIZE: a->value = 0; return 0;
        case RKNPU_GET_IOMMU_DOMAIN_ID: a->value = static_cast<uint32_t>(dev.iommu_domain_id); return 0;
        case RKNPU_SET_IOMMU_DOMAIN_ID: {
            const int32_t id = static_cast<int32_t>(a->value);
            if (id < 0 || id > 15) return -EINVAL;
            dev.iommu_domain_id = id;
            return 0;
        }
        default:
            // SET_FREQ, SET_VOLT, the bandwidth actions (no block on RK3588), POWER_ON/OFF (not handled in
            // 0.9.8) and unknown codes.
            return -EINVAL;
    }
}

bool FakeKernel::Impl::rknpu_map_iova(FakeDevice& dev, GemObject& bo) {
    // One global domain per device; IOVAs are handed out top-down below iova_top, like the 0xfffa4800-style
    // addresses seen in captures. Freed ranges are reused.
    uint64_t addr = 0;
    if (!find_iova(dev.objects, bo.size, kFakePage, dev.config.iova_top, true, &addr)) return false;
    bo.dma_addr = addr;
    bo.dma_mapped = true;
    return true;
}

int FakeKernel::Impl::rknpu_mem_create(FileState& file, void* data) {
    auto* a = static_cast<struct rknpu_mem_create*>(data);
    if (a->handle != 0) {
        // An existing handle of this file: nothing is allocated, only the info is returned.
        if (auto bo = lookup(file, a->handle)) {
            a->flags = bo->rknpu_flags;
            a->size = bo->size;
            a->obj_addr = bo->obj_addr;
            a->dma_addr = bo->dma_addr;
            a->sram_size = 0;
            return 0;
        }
    }
    if (a->size == 0) return -EINVAL;
    FakeDevice& dev = *file.device;
    auto bo = new_object(dev, a->size);
    if (!bo) return -ENOMEM;
    bo->rknpu_flags = a->flags;  // RKNPU_MEM_MASK is not enforced by the kernel
    if (!rknpu_map_iova(dev, *bo)) return -ENOMEM;  // IOVA space exhausted
    a->handle = add_handle(file, bo);
    a->size = bo->size;
    a->obj_addr = bo->obj_addr;
    a->dma_addr = bo->dma_addr;
    a->sram_size = 0;
    return 0;
}

int FakeKernel::Impl::rknpu_mem_map(FileState& file, void* data) {
    auto* a = static_cast<struct rknpu_mem_map*>(data);
    auto bo = lookup(file, a->handle);
    if (!bo) return -EINVAL;
    if (!bo->mmap_offset) {
        FakeDevice& dev = *file.device;
        bo->mmap_offset = dev.next_mmap_offset;
        dev.next_mmap_offset += bo->size;
    }
    a->offset = bo->mmap_offset;
    return 0;
}

int FakeKernel::Impl::rknpu_mem_destroy(FileState& file, void* data) {
    auto* a = static_cast<struct rknpu_mem_destroy*>(data);
    if (!file.handles.erase(a->handle)) return -EINVAL;
    return 0;
}

int FakeKernel::Impl::rknpu_mem_sync(FileState& file, void* data) {
    auto* a = static_cast<struct rknpu_mem_sync*>(data);
    if (a->obj_addr == 0) return -EINVAL;
    std::shared_ptr<GemObject> bo;
    for (const auto& w : file.device->objects) {
        auto o = w.lock();
        if (o && o->obj_addr == a->obj_addr) bo = o;
    }
    if (!bo) return oops("MEM_SYNC on obj_addr " + std::to_string(a->obj_addr) + ", which is no rknpu object");
    if (!(bo->rknpu_flags & RKNPU_MEM_CACHEABLE)) return -EINVAL;
    if (a->offset > bo->size || a->size > bo->size - a->offset) {
        return oops("MEM_SYNC range past the end of the object (the kernel does not check it)");
    }
    if (a->flags & RKNPU_MEM_SYNC_TO_DEVICE) ++stats.syncs_to_device;
    if (a->flags & RKNPU_MEM_SYNC_FROM_DEVICE) ++stats.syncs_from_device;
    return 0;  // the fake's memory is coherent: nothing to flush
}

int FakeKernel::Impl::rknpu_submit(FileState& file, void* data) {
    auto* s = static_cast<struct rknpu_submit*>(data);
    FakeDevice& dev = *file.device;
    if (!(s->flags & RKNPU_JOB_PC)) return -EINVAL;  // only PC mode exists in 0.9.8
    if (s->task_number == 0) return -EINVAL;
    if (s->core_mask > 0x7) return -EINVAL;
    if ((s->flags & (RKNPU_JOB_FENCE_IN | RKNPU_JOB_FENCE_OUT)) && !dev.config.fences) return -EINVAL;
    if (s->flags & RKNPU_JOB_FENCE_IN) {
        FdEntry* f = find_fd(s->fence_fd);
        if (!f || f->kind != FdEntry::Kind::SyncFile) return -EINVAL;
        if (f->fence->signal_ns > clock_ns && f->fence->signal_ns != kNever) clock_ns = f->fence->signal_ns;
    }
    if (s->iommu_domain_id > 15) return -EINVAL;  // the domain switch fails
    const int64_t timeout_ns = int64_t{s->timeout} * kMsNs;

    // Masks 5/6 are queued but never committed, and a NULL task object fails at commit: both only after
    // the whole timeout has been waited out.
    if (s->core_mask == 5 || s->core_mask == 6 || s->task_obj_addr == 0) {
        clock_ns += timeout_ns;
        log.push_back("rknpu job commit failed after the timeout");
        return -EINVAL;
    }
    std::shared_ptr<GemObject> task_bo;
    for (const auto& w : dev.objects) {
        auto o = w.lock();
        if (o && o->obj_addr == s->task_obj_addr) task_bo = o;
    }
    if (!task_bo) return oops("SUBMIT task_obj_addr is not an rknpu object (the kernel dereferences it)");
    if (!(task_bo->rknpu_flags & RKNPU_MEM_KERNEL_MAPPING)) {
        return oops("SUBMIT task BO has no KERNEL_MAPPING: NULL kv_addr dereferenced");
    }

    std::vector<uint32_t> cores;
    if (s->core_mask == 0) {
        cores.push_back(0);  // all idle: the least-loaded pick is core 0
    } else {
        for (uint32_t c = 0; c < 3; ++c)
            if (s->core_mask & (1u << c)) cores.push_back(c);
    }
    const size_t use_core_num = s->core_mask == 0 ? 1 : cores.size();

    // The NPU reaches every object of the device's (global) IOMMU domain.
    std::vector<std::shared_ptr<GemObject>> visible;
    for (const auto& w : dev.objects)
        if (auto o = w.lock()) visible.push_back(o);
    ObjectDmaSpace objects(visible);
    LaneAccessLog space(objects);

    ++stats.submits;
    last_hw_error.clear();
    bool hung = false;
    uint32_t last_status = 0;
    uint64_t last_task_offset = 0;
    const uint64_t task_capacity = task_bo->size / sizeof(rknpu_task);
    for (uint32_t core : cores) {
        const auto& range = s->subcore_task[use_core_num == 3 ? core + 2 : core];
        if (range.task_number == 0) continue;
        if (uint64_t{range.task_start} + range.task_number > task_capacity) {
            return oops("SUBMIT subcore_task range reads past the task array");
        }
        space.set_core(core);
        std::vector<rknpu_task> tasks(range.task_number);
        std::memcpy(tasks.data(), task_bo->mem->bytes + uint64_t{range.task_start} * sizeof(rknpu_task),
                    tasks.size() * sizeof(rknpu_task));
        uint32_t status = 0;
        for (const auto& t : tasks) {
            HwTask hw;
            hw.core = core;
            hw.regcmd_addr = t.regcmd_addr & 0xffffffffu;  // writel: only the low 32 bits reach PC_DATA_ADDR
            hw.regcfg_amount = t.regcfg_amount + RKNPU_PC_DATA_EXTRA_AMOUNT;  // the PC also fetches the tail
            hw.regcfg_offset = t.regcfg_offset;
            hw.enable_mask = t.enable_mask;
            hw.int_mask = t.int_mask;
            if (!run_task(hw, space, &status)) {
                hung = true;
                break;
            }
        }
        // The IRQ handler ignores any status whose fuzzed value is not exactly the last task's int_mask.
        if (!hung && fuzz(status) != tasks.back().int_mask) {
            hung = true;
            log.push_back("rknpu IRQ status " + std::to_string(status) + " does not match int_mask " +
                          std::to_string(tasks.back().int_mask) + ": ignored");
        }
        last_status = status;
        last_task_offset = (uint64_t{range.task_start} + range.task_number - 1) * sizeof(rknpu_task);
        if (hung) break;
    }

    // The cores ran their lanes in parallel on a board: a lane touching data another lane writes makes the
    // result depend on timing. The simulator refuses such a job, as it refuses any configuration it cannot
    // compute deterministically: it never completes (the kernel times out).
    if (!hung && cores.size() > 1) {
        const std::string race = space.race();
        if (!race.empty()) {
            hung = true;
            ++stats.lane_races;
            last_hw_error = "lane-race: " + race;
            log.push_back("hardware refused the job: " + last_hw_error);
        }
    }

    if (dev.removed) return -ENODEV;  // unplugged while the job ran

    if (s->flags & RKNPU_JOB_NONBLOCK) {
        if (s->flags & RKNPU_JOB_FENCE_OUT) {
            FdEntry e;
            e.kind = FdEntry::Kind::SyncFile;
            e.fence = std::make_shared<Fence>();
            e.fence->signal_ns = hung ? kNever : clock_ns;
            s->fence_fd = new_fd(std::move(e));
        }
        if (hung) {
            ++stats.soft_resets;
        } else {
            std::memcpy(task_bo->mem->bytes + last_task_offset + offsetof(rknpu_task, int_status), &last_status, 4);
        }
        return 0;
    }
    if (hung) {
        clock_ns += timeout_ns;     // wait_event_timeout expires
        clock_ns += 100 * kMsNs;    // rknpu_job_abort sleeps 100 ms, then soft-resets the NPU
        ++stats.soft_resets;
        s->task_counter = 0;        // the hardware task counter after the reset
        log.push_back("rknpu job timed out: soft reset");
        return -ETIMEDOUT;
    }
    std::memcpy(task_bo->mem->bytes + last_task_offset + offsetof(rknpu_task, int_status), &last_status, 4);
    s->task_counter = s->task_number;
    s->hw_elapse_time = 0;  // the fake hardware takes no time
    return 0;
}

}  // namespace npudrv::sim

// Internal state of the fake kernel, shared by fake_kernel.cpp (files, memory, DRM core ioctls),
// fake_rknpu.cpp and fake_rocket.cpp (the two drivers' ioctls).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "drv/sim/fake_kernel.h"

namespace npudrv::sim {

constexpr uint64_t kFakePage = 4096;
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
constexpr int64_t kMsNs = 1000000;

// Backing pages of a buffer object, shared by every device that imported it.
struct Memory {
    Memory(uint64_t size, std::shared_ptr<uint64_t> allocated);
    ~Memory();
    Memory(const Memory&) = delete;
    Memory& operator=(const Memory&) = delete;
    uint8_t* bytes = nullptr;
    uint64_t size = 0;
    std::shared_ptr<uint64_t> allocated;  // kernel-wide byte counter
};

struct FakeDevice;

struct GemObject {
    std::shared_ptr<Memory> mem;
    FakeDevice* device = nullptr;
    uint64_t size = 0;
    uint32_t rknpu_flags = 0;
    uint64_t obj_addr = 0;      // rknpu: fake kernel pointer
    uint64_t dma_addr = 0;
    bool dma_mapped = false;    // present in an NPU address space (imports into rocket are not)
    uint64_t mmap_offset = 0;   // 0 = no fake offset yet
    int64_t write_fence_ns = std::numeric_limits<int64_t>::min();  // rocket: when the last writer signals
};

struct FileState {
    std::shared_ptr<FakeDevice> device;
    std::map<uint32_t, std::shared_ptr<GemObject>> handles;
    uint32_t next_handle = 1;
    std::vector<std::weak_ptr<GemObject>> domain;  // rocket: BOs mapped in this fd's domain
};

struct FakeDevice {
    FakeDeviceConfig config;
    bool removed = false;
    std::vector<std::weak_ptr<GemObject>> objects;     // every object of this device
    uint64_t next_mmap_offset = uint64_t{1} << 32;     // DRM_FILE_PAGE_OFFSET_START on 64-bit
    int32_t iommu_domain_id = 0;
    uint32_t next_core = 0;                            // rocket: round-robin core pick
};

struct Fence {
    int64_t signal_ns = kNever;
};

struct FdEntry {
    enum class Kind { Device, DmaBuf, SyncFile } kind = Kind::Device;
    std::shared_ptr<FileState> file;
    std::shared_ptr<GemObject> bo;
    std::shared_ptr<Fence> fence;
};

struct Mapping {
    std::shared_ptr<GemObject> bo;
    size_t length = 0;
};

// NPU view of memory for one job: the listed objects, by DMA address.
class ObjectDmaSpace final : public DmaSpace {
public:
    explicit ObjectDmaSpace(std::vector<std::shared_ptr<GemObject>> objects) : objects_(std::move(objects)) {}
    uint8_t* translate(uint64_t addr, uint64_t size) override;

private:
    std::vector<std::shared_ptr<GemObject>> objects_;
};

// rocket jobs name the BOs they write (out_bo_handles): the kernel's implicit fences cover only those, so a
// write to any other BO races with the CPU and later jobs on a board. Wrapping the job's memory, this
// records the first NPU write that lies outside every declared output (the simulator reports each DMA
// access through on_access).
class DeclaredWriteGuard final : public DmaSpace {
public:
    DeclaredWriteGuard(DmaSpace& inner, std::vector<std::shared_ptr<GemObject>> outputs)
        : inner_(inner), outputs_(std::move(outputs)) {}
    uint8_t* translate(uint64_t addr, uint64_t size) override { return inner_.translate(addr, size); }
    void on_access(uint64_t addr, uint64_t size, bool write) override;
    const std::string& violation() const { return violation_; }

private:
    DmaSpace& inner_;
    std::vector<std::shared_ptr<GemObject>> outputs_;
    std::string violation_;
};

// The lanes of a multi-core job run in parallel on the hardware with no ordering between them, while the
// fake runs them one after the other. Wrapping the job's memory, it records which bytes each core reads and
// writes; race() names the first byte one core writes that another core reads or writes (the result would
// depend on timing on a board), or returns "" when the lanes are independent.
class LaneAccessLog final : public DmaSpace {
public:
    explicit LaneAccessLog(DmaSpace& inner) : inner_(inner) {}
    void set_core(uint32_t core) { core_ = core; }
    uint8_t* translate(uint64_t addr, uint64_t size) override { return inner_.translate(addr, size); }
    void on_access(uint64_t addr, uint64_t size, bool write) override;
    std::string race() const;

private:
    struct Range {
        uint64_t begin, end;
        uint32_t core;
        bool write;
    };
    DmaSpace& inner_;
    uint32_t core_ = 0;
    std::vector<Range> ranges_;
};

struct FakeKernel::Impl {
    explicit Impl(std::unique_ptr<Hardware> hw);

    std::recursive_mutex lock;
    std::unique_ptr<Hardware> hardware;
    std::vector<std::shared_ptr<FakeDevice>> devices;
    std::map<int, FdEntry> fds;
    std::multimap<uintptr_t, Mapping> mappings;
    std::vector<std::weak_ptr<GemObject>> all_objects;
    std::shared_ptr<uint64_t> allocated = std::make_shared<uint64_t>(0);
    uint64_t memory_limit = 256ull << 20;
    int next_fd = 1000;  // far from real fds, so a mix-up fails loudly
    int64_t clock_ns = 1000000000;
    uint64_t next_obj_addr = 0xffffff8001000000ull;
    FakeKernelStats stats;
    std::vector<std::string> oopses;
    std::vector<std::string> log;
    std::string last_hw_error;

    int new_fd(FdEntry entry);
    FdEntry* find_fd(int fd);
    // Allocates backing memory under the limit; nullptr = ENOMEM.
    std::shared_ptr<GemObject> new_object(FakeDevice& dev, uint64_t size);
    uint32_t add_handle(FileState& file, std::shared_ptr<GemObject> bo);
    std::shared_ptr<GemObject> lookup(FileState& file, uint32_t handle);
    int oops(const std::string& what);
    // Lowest (rocket drm_mm) or highest (rknpu, top-down) free IOVA range of `size` bytes among the live
    // objects of an address space, within [floor, ceiling). Returns false when there is no such gap.
    static bool find_iova(const std::vector<std::weak_ptr<GemObject>>& space, uint64_t size, uint64_t floor,
                          uint64_t ceiling, bool top_down, uint64_t* addr);
    // Hands one task to the hardware; false if it would never raise its interrupt.
    bool run_task(const HwTask& task, DmaSpace& space, uint32_t* int_status);

    // DRM core
    int drm_ioctl(FileState& file, unsigned long request, void* arg);
    int drm_version(FileState& file, void* data);
    int gem_close(FileState& file, void* data);
    int prime_handle_to_fd(FileState& file, void* data);
    int prime_fd_to_handle(FileState& file, void* data);

    // rknpu (fake_rknpu.cpp)
    int rknpu_ioctl(FileState& file, unsigned nr, void* data);
    int rknpu_action(FileState& file, void* data);
    int rknpu_mem_create(FileState& file, void* data);
    int rknpu_mem_map(FileState& file, void* data);
    int rknpu_mem_destroy(FileState& file, void* data);
    int rknpu_mem_sync(FileState& file, void* data);
    int rknpu_submit(FileState& file, void* data);
    size_t rknpu_kernel_size(unsigned nr) const;
    bool rknpu_map_iova(FakeDevice& dev, GemObject& bo);

    // rocket (fake_rocket.cpp)
    int rocket_ioctl(FileState& file, unsigned nr, void* data);
    int rocket_create_bo(FileState& file, void* data);
    int rocket_submit(FileState& file, void* data);
    int rocket_prep_bo(FileState& file, void* data);
    int rocket_fini_bo(FileState& file, void* data);
    size_t rocket_kernel_size(const FakeDevice& dev, unsigned nr) const;
    bool rocket_map_iova(FileState& file, const std::shared_ptr<GemObject>& bo);
};

}  // namespace npudrv::sim

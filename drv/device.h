// One C++ interface over both RK3588 NPU kernel drivers: the vendor `rknpu` (BSP) and the mainline
// `rocket` (accel). Callers see Device, Buffer and Job; the driver-specific differences (obj_addr vs
// handle, 40-bit vs per-fd 32-bit address spaces, task layouts, MEM_SYNC vs PREP/FINI_BO, MEM_DESTROY vs
// GEM_CLOSE) live in drv/rknpu_backend.cpp and drv/rocket_backend.cpp. Every documented kernel trap is
// checked here, before the ioctl, and reported as a one-line DriverError (drv/error.h).
//
// Lifetimes: a Buffer or Job keeps its device's file descriptor open (shared ownership), so destroying the
// Device first is safe. A Job refers to the Buffers named in its JobSpec by pointer: keep them alive (and
// do not move them) while the Job exists.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drv/error.h"

namespace npudrv {

class Syscalls;

namespace detail {
class Backend;
class JobImpl;
struct BoState;
}  // namespace detail

enum class DriverKind { Rknpu, Rocket };
const char* driver_name(DriverKind kind);  // "rknpu" / "rocket"

struct DriverVersion {
    int major = 0, minor = 0, patch = 0;
    std::string text() const;  // "0.9.8"
};

struct DeviceInfo {
    std::string node;           // e.g. /dev/dri/renderD129
    DriverKind driver = DriverKind::Rknpu;
    std::string driver_name;    // DRM_IOCTL_VERSION name
    std::string driver_desc;
    std::string driver_date;
    DriverVersion version;
    std::optional<uint32_t> hw_version;  // rknpu ACTION GET_HW_VERSION; rocket has no such query
    unsigned cores = 3;                  // RK3588 has 3; neither driver reports a count
    std::optional<bool> iommu;           // rknpu GET_IOMMU_EN; rocket always uses an IOMMU
    std::string address_space;          // "per-device, 40-bit DMA mask" / "per-fd IOMMU domain"
    bool fake_kernel = false;           // the fake kernel of drv/sim, not a board
};

// Driver-neutral buffer flags.
enum BufferFlag : uint32_t {
    kBufferCacheable = 1u << 0,      // CPU mapping is cached: needs sync_to/from_device (rocket: always)
    kBufferContiguous = 1u << 1,     // physically contiguous (rknpu only)
    kBufferKernelMapping = 1u << 2,  // kernel vmap (rknpu: needed by a task-array buffer)
    kBufferZeroed = 1u << 3,         // zero-filled allocation
    kBufferAllFlags = 0xf,
};

constexpr uint64_t kWholeBuffer = ~uint64_t{0};

// A DMA buffer object: created with flags, mappable, cache-synced, exportable as a dma-buf; RAII.
class Buffer {
public:
    Buffer();  // empty
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();  // unmaps and frees; errors are swallowed here (call destroy() to see them)

    bool valid() const;
    uint64_t size() const;      // page-rounded size the kernel allocated
    uint32_t flags() const;     // BufferFlag bits
    uint64_t dma_addr() const;  // NPU-visible address (what regcmds and tasks use)
    uint32_t handle() const;    // GEM handle on the device fd

    uint8_t* map();             // maps the whole buffer (idempotent) and returns the CPU address
    void unmap();
    uint8_t* data() const;      // current mapping or nullptr

    // Cache maintenance for [offset, offset+length). rknpu: MEM_SYNC (only on kBufferCacheable buffers);
    // rocket: FINI_BO / PREP_BO, which always cover the whole buffer (PREP_BO also waits for the NPU).
    void sync_to_device(uint64_t offset = 0, uint64_t length = kWholeBuffer);
    void sync_from_device(uint64_t offset = 0, uint64_t length = kWholeBuffer);

    // A new dma-buf file descriptor for this buffer (PRIME_HANDLE_TO_FD); the caller closes it through
    // Device::close_fd (it may belong to the fake kernel).
    int export_dmabuf() const;

    void destroy();  // unmap + free now, reporting errors

private:
    friend class Device;
    friend class detail::Backend;
    Buffer(std::shared_ptr<detail::Backend> backend, std::unique_ptr<detail::BoState> state);
    detail::BoState& state() const;
    void release() noexcept;

    std::shared_ptr<detail::Backend> backend_;
    std::unique_ptr<detail::BoState> state_;
};

// One hardware task: a regcmd stream in a buffer.
struct Task {
    const Buffer* regcmd = nullptr;  // buffer holding the stream
    uint64_t regcmd_offset = 0;      // byte offset of the first entry (16-byte aligned)
    uint32_t regcmd_entries = 0;     // 64-bit entries INCLUDING the 4 trailing PC entries
    uint32_t enable_mask = 0;        // value of the final OP_EN write (rknpu task record only)
    uint32_t int_mask = 0x300;       // completion interrupt: 0x300 DPU, 0xc00 PPU (rocket: DPU only)
};

// Tasks that run one after the other on one core.
struct Lane {
    std::vector<Task> tasks;
};

struct JobSpec {
    std::vector<Lane> lanes;  // lanes run in parallel, one per core
    // rknpu: 0 = auto (one lane), or 1/2/4 (one lane), 3 (two lanes), 7 (three lanes).
    // rocket: must be 0; the kernel's scheduler spreads lanes (= rocket jobs) over the cores.
    uint32_t core_mask = 0;
    std::chrono::milliseconds timeout{6000};
    std::vector<const Buffer*> inputs;   // read by the NPU: synced to the device before each submit
    std::vector<const Buffer*> outputs;  // EVERY buffer the NPU writes: waited on and synced back
    bool use_fence = false;              // rknpu: NONBLOCK + FENCE_OUT; wait() polls the sync_file
    const Buffer* task_buffer = nullptr; // rknpu: caller-supplied task-array buffer (else allocated)
};

struct JobStats {
    uint32_t task_counter = 0;       // rknpu: tasks the kernel reports done
    int64_t hw_elapse_time_ns = 0;   // rknpu: commit -> completion IRQ
    uint32_t last_int_status = 0;    // rknpu: INT_STATUS written back into the last task record
};

// A validated, ready-to-submit job. Created once (validation, task-array setup), submitted many times.
class Job {
public:
    Job(Job&&) noexcept;
    Job& operator=(Job&&) noexcept;
    ~Job();

    void submit();  // syncs inputs, submits; rknpu blocking mode returns when the job has finished
    void wait();    // waits for completion (rknpu fence / rocket PREP_BO on outputs), syncs outputs back
    void run() { submit(); wait(); }
    bool pending() const;
    int fence_fd() const;  // rknpu with use_fence: the sync_file of the pending submit, else -1
    const JobStats& stats() const;

private:
    friend class Device;
    explicit Job(std::unique_ptr<detail::JobImpl> impl);
    detail::JobImpl& impl() const;  // throws on a moved-from Job
    std::unique_ptr<detail::JobImpl> impl_;
};

class Device {
public:
    Device(Device&&) noexcept;
    Device& operator=(Device&&) noexcept;
    ~Device();

    const DeviceInfo& info() const;

    Buffer create_buffer(uint64_t size, uint32_t flags);
    // Imports a dma-buf fd (PRIME_FD_TO_HANDLE); the fd stays owned by the caller.
    Buffer import_dmabuf(int dmabuf_fd);
    Job create_job(const JobSpec& spec);
    void close_fd(int fd);  // closes an exported dma-buf / fence fd through the system-call seam

    Syscalls& syscalls() const;

private:
    friend Device make_device(std::shared_ptr<detail::Backend> backend);
    explicit Device(std::shared_ptr<detail::Backend> backend);
    detail::Backend& backend() const;  // throws on a moved-from Device
    std::shared_ptr<detail::Backend> backend_;
};

}  // namespace npudrv

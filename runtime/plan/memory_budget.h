// The memory budget of a session: every allocation whose size comes from the model (the activation arena
// with its kernel scratch, NPU DMA buffers for feature maps, constants and register commands, kernels'
// prepared state) is reserved here BEFORE it is made. A model file of a few hundred bytes can declare a
// tensor of tens of gigabytes; without this check the session would ask the allocator for it and be
// killed by the OOM killer (or swap the machine to a halt) instead of failing with a message.
//
// The limit is per session. Default: half of the machine's physical memory (sysconf _SC_PHYS_PAGES x
// _SC_PAGESIZE), so one session cannot take the memory the rest of the system needs; SessionOptions::
// max_memory_bytes, npurun_session_options.max_memory_bytes and `npurun --max-memory SIZE` change it.
#pragma once

#include <cstdint>
#include <string>

namespace npurun::plan {

// Physical memory of this machine in bytes (0 when sysconf cannot say).
uint64_t physical_memory_bytes();
// The limit a session gets when none is given: physical memory / kDefaultMemoryDivisor (1 GiB when the
// physical memory is unknown).
constexpr uint64_t kDefaultMemoryDivisor = 2;
uint64_t default_memory_limit();

// "23.7 GB", "512 KiB"-style human size for messages (decimal units with one decimal, bytes below 1 kB).
std::string format_bytes(uint64_t bytes);

// Parses "123", "64K", "512M", "2G", "1T" (binary multiples: K = 1024) as a byte count. Returns false for
// anything else, zero, or a value that overflows 64 bits.
bool parse_memory_size(const std::string& text, uint64_t* bytes);

class MemoryBudget {
public:
    // limit_bytes 0: default_memory_limit().
    explicit MemoryBudget(uint64_t limit_bytes = 0);

    // Reserves `bytes` for `what` ("activation arena", "NPU buffers of segment 0", ...), or throws
    // Error(Unsupported) with one line naming the size asked for, the total so far and the limit.
    // Nothing is reserved when it throws.
    void reserve(uint64_t bytes, const std::string& what);
    // Gives back a reservation (an allocation that was freed again).
    void release(uint64_t bytes);

    uint64_t limit() const { return limit_; }
    uint64_t used() const { return used_; }
    bool is_default() const { return default_; }

private:
    uint64_t limit_;
    uint64_t used_ = 0;
    bool default_;
};

}  // namespace npurun::plan

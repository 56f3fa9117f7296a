// The seam between the fake kernel (drv/sim/fake_kernel_*) and whatever plays the NPU hardware.
//
// The fake kernel parses a submit ioctl exactly as the real driver does, then hands each task it would
// start on a core to a Hardware. The functional simulator (drv/sim/npu_simulator) implements it by
// executing the task's regcmd stream; tests use a recording double. The Hardware sees memory only
// through DmaSpace, i.e. by NPU (IOVA) address, as the real NPU does: every access outside a buffer
// object of the job is an error, never a silent read of host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace npudrv::sim {

// NPU-visible memory of one job: the buffer objects, addressed by their device (DMA/IOVA) addresses.
class DmaSpace {
public:
    virtual ~DmaSpace() = default;
    // Host pointer for [addr, addr+size) when it lies entirely inside one buffer object, else nullptr.
    virtual uint8_t* translate(uint64_t addr, uint64_t size) = 0;
    // Called by the hardware for every data transfer it makes (feature maps, weights, operand streams,
    // outputs; not the regcmd fetch), after a successful translate(). The fake kernel uses it to check
    // that the lanes of a multi-core job are independent.
    virtual void on_access(uint64_t /*addr*/, uint64_t /*size*/, bool /*write*/) {}
};

// One task as the kernel programs it into a core (the fields of the vendor rknpu_task / the mainline
// rocket task, normalised).
struct HwTask {
    uint32_t core = 0;            // 0..2
    uint64_t regcmd_addr = 0;     // DMA address of the first regcmd entry
    uint32_t regcfg_amount = 0;   // number of 64-bit register-command entries the PC fetches
    uint32_t regcfg_offset = 0;
    uint32_t enable_mask = 0;     // vendor: task enable mask (which blocks the PC enables)
    uint32_t int_mask = 0;        // interrupt bits the kernel waits for
};

struct HwResult {
    bool completed = false;   // false: the hardware would never raise the interrupt (kernel times out)
    uint32_t int_status = 0;  // interrupt status bits raised at completion
    std::string error;        // non-empty: a named error (simulator refused the configuration)
};

class Hardware {
public:
    virtual ~Hardware() = default;
    virtual HwResult run(const HwTask& task, DmaSpace& memory) = 0;
};

}  // namespace npudrv::sim

// A Hardware test double: it records every task the fake kernel starts and answers as it is told
// (complete, never complete = the kernel times out, or fail with a named error). It computes nothing and
// writes no memory; it only checks that the task's regcmd stream is addressable in the job's DmaSpace
// (a real NPU fetching an unmapped address would fault and never complete).
#pragma once

#include <functional>
#include <vector>

#include "drv/sim/hardware.h"

namespace npudrv::sim {

class RecordingHardware final : public Hardware {
public:
    enum class Mode { Complete, NeverComplete, Fail };

    struct Record {
        HwTask task;
        bool regcmd_readable = false;  // the whole regcmd stream lies inside one buffer object
        uint64_t first_entry = 0;      // first regcmd qword, when readable
    };

    void set_mode(Mode mode) { mode_ = mode; }
    // Status raised at completion; default (0) echoes the task's int_mask.
    void set_int_status(uint32_t status) { int_status_ = status; }
    // Called at the start of each run (e.g. to unplug the device mid-job).
    void set_on_run(std::function<void(const HwTask&)> hook) { on_run_ = std::move(hook); }

    const std::vector<Record>& records() const { return records_; }
    void clear() { records_.clear(); }

    HwResult run(const HwTask& task, DmaSpace& memory) override;

private:
    Mode mode_ = Mode::Complete;
    uint32_t int_status_ = 0;
    std::function<void(const HwTask&)> on_run_;
    std::vector<Record> records_;
};

}  // namespace npudrv::sim

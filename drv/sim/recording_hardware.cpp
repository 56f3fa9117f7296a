#include "drv/sim/recording_hardware.h"

#include <cstring>

namespace npudrv::sim {

HwResult RecordingHardware::run(const HwTask& task, DmaSpace& memory) {
    if (on_run_) on_run_(task);
    Record rec;
    rec.task = task;
    const uint8_t* stream = memory.translate(task.regcmd_addr, uint64_t{task.regcfg_amount} * 8);
    rec.regcmd_readable = stream != nullptr && task.regcfg_amount > 0;
    if (rec.regcmd_readable) std::memcpy(&rec.first_entry, stream, sizeof rec.first_entry);
    records_.push_back(rec);

    HwResult result;
    if (!rec.regcmd_readable) {
        result.error = "regcmd stream at " + std::to_string(task.regcmd_addr) + " (" +
                       std::to_string(task.regcfg_amount) + " entries) is outside every buffer of the job";
        return result;
    }
    switch (mode_) {
        case Mode::Complete:
            result.completed = true;
            result.int_status = int_status_ ? int_status_ : task.int_mask;
            break;
        case Mode::NeverComplete: break;
        case Mode::Fail: result.error = "recording double told to fail"; break;
    }
    return result;
}

}  // namespace npudrv::sim

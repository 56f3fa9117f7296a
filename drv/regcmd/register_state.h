// The register file of one core as a regcmd stream leaves it: value + "was written" per register.
// Used by the decoder (what a task configured) and by the simulator (what the hardware executes).
#pragma once

#include "drv/regcmd/register_map.h"

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>

namespace npudrv::regcmd {

class RegisterState {
public:
    static constexpr size_t kSlots = 0x10000 / 4;
    void set(uint16_t offset, uint32_t value) {
        values_[offset / 4] = value;
        written_.set(offset / 4);
    }
    bool written(uint16_t offset) const { return written_.test(offset / 4); }
    // Value, or 0 when never written (reset value of every documented NPU register is 0).
    uint32_t get(uint16_t offset) const { return values_[offset / 4]; }
    uint32_t get(FieldRef f) const { return f.get(get(f.reg)); }
    std::optional<uint32_t> known(uint16_t offset) const {
        return written(offset) ? std::optional<uint32_t>(get(offset)) : std::nullopt;
    }
    std::optional<uint32_t> known(FieldRef f) const {
        return written(f.reg) ? std::optional<uint32_t>(get(f)) : std::nullopt;
    }
    void clear() {
        values_.fill(0);
        written_.reset();
    }

private:
    std::array<uint32_t, kSlots> values_{};
    std::bitset<kSlots> written_;
};

}  // namespace npudrv::regcmd

// A DmaSpace over test-owned buffers placed at chosen NPU addresses.
#pragma once

#include "drv/sim/hardware.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

namespace npudrv::sim::test {

class TestMemory : public DmaSpace {
public:
    // Adds a zero-filled buffer [addr, addr+size).
    std::vector<uint8_t>& add(uint64_t addr, size_t size) {
        auto& b = buffers_[addr];
        b.assign(size, 0);
        return b;
    }
    // Adds a buffer at addr holding a copy of `bytes`.
    void add_copy(uint64_t addr, const std::vector<uint8_t>& bytes) { buffers_[addr] = bytes; }
    uint8_t* translate(uint64_t addr, uint64_t size) override {
        auto it = buffers_.upper_bound(addr);
        if (it == buffers_.begin()) return nullptr;
        --it;
        const uint64_t base = it->first;
        const uint64_t len = it->second.size();
        if (addr < base || size > len || addr - base > len - size) return nullptr;
        return it->second.data() + (addr - base);
    }
    uint8_t* at(uint64_t addr) { return translate(addr, 1); }
    void put_qwords(uint64_t addr, const std::vector<uint64_t>& q) {
        std::memcpy(translate(addr, q.size() * 8), q.data(), q.size() * 8);
    }

private:
    std::map<uint64_t, std::vector<uint8_t>> buffers_;
};

}  // namespace npudrv::sim::test

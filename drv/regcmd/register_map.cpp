#include "drv/regcmd/register_map.h"

#include <array>

namespace npudrv::regcmd {

const char* block_name(Block b) {
    switch (b) {
        case Block::PC: return "PC";
        case Block::CNA: return "CNA";
        case Block::CORE: return "CORE";
        case Block::DPU: return "DPU";
        case Block::DPU_RDMA: return "DPU_RDMA";
        case Block::PPU: return "PPU";
        case Block::PPU_RDMA: return "PPU_RDMA";
        case Block::DDMA: return "DDMA";
        case Block::SDMA: return "SDMA";
        case Block::GLOBAL: return "GLOBAL";
    }
    return "?";
}

uint16_t block_target(Block b) {
    switch (b) {
        case Block::PC: return 0x0101;
        case Block::CNA: return 0x0201;
        case Block::CORE: return 0x0801;
        case Block::DPU: return 0x1001;
        case Block::DPU_RDMA: return 0x2001;
        case Block::PPU: return 0x4001;
        case Block::PPU_RDMA: return 0x8001;
        default: return 0;  // DDMA/SDMA/GLOBAL targets do not fit in 16 bits: never regcmd targets
    }
}

std::optional<Block> block_of_offset(uint16_t offset) {
    switch (offset >> 12) {
        case 0x0: return Block::PC;
        case 0x1: return Block::CNA;
        case 0x3: return Block::CORE;
        case 0x4: return Block::DPU;
        case 0x5: return Block::DPU_RDMA;
        case 0x6: return Block::PPU;
        case 0x7: return Block::PPU_RDMA;
        case 0x8: return Block::DDMA;
        case 0x9: return Block::SDMA;
        case 0xF: return Block::GLOBAL;
        default: return std::nullopt;
    }
}

namespace {

// Both tables indexed by register offset / 4, built once on first use: the simulator validates every
// register of every task through fields_of(), and a scan of the whole field table per register was ~8% of
// a simulated inference.
struct OffsetIndex {
    static constexpr size_t kSlots = 0x10000 / 4;
    std::array<const RegisterDef*, kSlots> reg{};
    std::array<FieldRange, kSlots> fields{};
    OffsetIndex() {
        for (const RegisterDef& r : kRegisters) {
            if (r.offset % 4 == 0 && reg[r.offset / 4] == nullptr) reg[r.offset / 4] = &r;
        }
        for (const FieldDef& f : kFields) {
            if (f.reg % 4 != 0) continue;
            FieldRange& range = fields[f.reg / 4];
            if (range.first == nullptr) {
                range = FieldRange{&f, 1};
            } else if (range.first + range.count == &f) {
                ++range.count;  // a register's fields are contiguous in the table (checked by a test)
            }
        }
    }
};

const OffsetIndex& offset_index() {
    static const OffsetIndex index;
    return index;
}

}  // namespace

const RegisterDef* find_register(uint16_t offset) {
    if (offset % 4 != 0) {
        for (const RegisterDef& r : kRegisters) {
            if (r.offset == offset) return &r;
        }
        return nullptr;
    }
    return offset_index().reg[offset / 4];
}

const RegisterDef* find_register(std::string_view name) {
    for (const RegisterDef& r : kRegisters) {
        if (detail::str_eq(r.name, name)) return &r;
    }
    return nullptr;
}

FieldRange fields_of(uint16_t reg_offset) {
    if (reg_offset % 4 == 0) return offset_index().fields[reg_offset / 4];
    const FieldDef* begin = nullptr;
    size_t count = 0;
    for (const FieldDef& f : kFields) {
        if (f.reg == reg_offset) {
            if (begin == nullptr) begin = &f;
            ++count;
        } else if (begin != nullptr) {
            break;
        }
    }
    return FieldRange{begin, count};
}

const FieldDef* find_field(uint16_t reg_offset, std::string_view field_name) {
    for (const FieldDef& f : fields_of(reg_offset)) {
        if (detail::str_eq(f.name, field_name)) return &f;
    }
    return nullptr;
}

std::string field_full_name(const FieldDef& f) {
    const RegisterDef* r = find_register(f.reg);
    return std::string(r ? r->name : "?") + "." + f.name;
}

}  // namespace npudrv::regcmd

// Lookups over the register table (register_table.h) and the regcmd entry format.
//
// Entry (64-bit little-endian): bits 63:48 target (block select), 47:16 value, 15:0 core-relative offset.
// Field handles are generated from the table (regs::CNA_CONV_CON1::CONV_MODE, register_table.h); the
// constexpr `field("CNA_CONV_CON1", "CONV_MODE")` resolves names given as strings (tests, tools).
#pragma once

#include "drv/regcmd/register_table.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace npudrv::regcmd {

class RegcmdError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Special targets of the PC tail (reference §1.1/§2.2).
inline constexpr uint16_t kTargetOpEnBroadcast = 0x0081;  // + offset 0x0008: op_en of the listed blocks
inline constexpr uint16_t kTargetPreOpEnMarker = 0x0041;  // qword 0x0041_0000_0000_0000 before op_en
inline constexpr uint16_t kOpEnOffset = 0x0008;

// op_en broadcast bits (= GLOBAL_OPERATION_ENABLE layout).
inline constexpr uint32_t kEnCna = 1u << 0;
inline constexpr uint32_t kEnCore = 1u << 2;
inline constexpr uint32_t kEnDpu = 1u << 3;
inline constexpr uint32_t kEnDpuRdma = 1u << 4;
inline constexpr uint32_t kEnPpu = 1u << 5;
inline constexpr uint32_t kEnPpuRdma = 1u << 6;

// Interrupt status bits (PC_INTERRUPT_*).
inline constexpr uint32_t kIntDpu0 = 1u << 8;
inline constexpr uint32_t kIntDpu1 = 1u << 9;
inline constexpr uint32_t kIntPpu0 = 1u << 10;
inline constexpr uint32_t kIntPpu1 = 1u << 11;
inline constexpr uint32_t kIntDmaReadError = 1u << 12;
inline constexpr uint32_t kIntDmaWriteError = 1u << 13;

const char* block_name(Block b);
// Regcmd target code a block is written with (0 for blocks that are never regcmd targets).
uint16_t block_target(Block b);
std::optional<Block> block_of_offset(uint16_t offset);

const RegisterDef* find_register(uint16_t offset);
const RegisterDef* find_register(std::string_view name);
const FieldDef* find_field(uint16_t reg, std::string_view field_name);
// Fields of a register, in table order (begin/count into kFields).
struct FieldRange {
    const FieldDef* first;
    size_t count;
    const FieldDef* begin() const { return first; }
    const FieldDef* end() const { return first + count; }
};
FieldRange fields_of(uint16_t reg);

namespace detail {
constexpr bool str_eq(const char* a, std::string_view b) {
    size_t i = 0;
    for (; a[i] != '\0'; ++i) {
        if (i >= b.size() || a[i] != b[i]) return false;
    }
    return i == b.size();
}
}  // namespace detail

constexpr uint16_t reg(std::string_view name) {
    for (const RegisterDef& r : kRegisters) {
        if (detail::str_eq(r.name, name)) return r.offset;
    }
    throw RegcmdError("unknown register name");
}

constexpr FieldRef field(std::string_view reg_name, std::string_view field_name) {
    const uint16_t off = reg(reg_name);
    for (const FieldDef& f : kFields) {
        if (f.reg == off && detail::str_eq(f.name, field_name)) return FieldRef{off, f.msb, f.lsb};
    }
    throw RegcmdError("unknown field name");
}

// Full qualified field name "CNA_CONV_CON1.CONV_MODE".
std::string field_full_name(const FieldDef& f);

// Regcmd entry helpers.
constexpr uint64_t make_entry(uint16_t target, uint32_t value, uint16_t offset) {
    return (uint64_t{target} << 48) | (uint64_t{value} << 16) | offset;
}
constexpr uint16_t entry_target(uint64_t q) { return static_cast<uint16_t>(q >> 48); }
constexpr uint32_t entry_value(uint64_t q) { return static_cast<uint32_t>(q >> 16); }
constexpr uint16_t entry_offset(uint64_t q) { return static_cast<uint16_t>(q); }

// PC_REGISTER_AMOUNTS for a list of `body_qwords` register writes plus the 4-qword tail:
// 128-bit words to fetch minus one (vendor kernel / rocket rule, reference §2.3).
constexpr uint32_t fetch_amount(uint32_t body_qwords) { return (body_qwords + 4 + 1) / 2 - 1; }
// Inverse: qwords the PC fetches for a PC_DATA_AMOUNT value.
constexpr uint32_t fetched_qwords(uint32_t amount) { return (amount + 1) * 2; }

}  // namespace npudrv::regcmd

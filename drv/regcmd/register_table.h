// The RK3588 NPU register map, made from the one table in register_table.def:
//  - regs::<REGISTER> a type per register, regs::<REGISTER>::<FIELD> a handle per field (bit range + the
//    register's type): RegcmdWriter::write({regs::CNA_CBUF_CON0::WEIGHT_REUSE(1), ...}) only compiles for
//    fields that exist and belong to one register; the simulator and the decoder read fields through the
//    same handles (fields.h), and limits are derived from their widths (max_value()).
//  - kRegisters / kFields, the same table as data, for lookups by offset or by name at run time (decoder,
//    capture tools, the table tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace npudrv::regcmd {

enum class Block : uint8_t { PC, CNA, CORE, DPU, DPU_RDMA, PPU, PPU_RDMA, DDMA, SDMA, GLOBAL };

enum class Doc : uint8_t {
    Trm,           // in the TRM / registers.xml
    Undocumented,  // written by real (vendor/Mesa) streams, absent from the TRM
};

struct RegisterDef {
    uint16_t offset;        // core-relative offset (= low 16 bits of a regcmd entry)
    Block block;
    const char* name;       // BLOCK_REGISTER, e.g. "CNA_CONV_CON1"
    Doc doc;
    const char* meaning;
};

struct FieldDef {
    uint16_t reg;           // offset of the register the field belongs to
    const char* name;
    uint8_t msb;
    uint8_t lsb;
    const char* meaning;
    Doc doc = Doc::Trm;  // Undocumented: a bit real streams set in a TRM register where the TRM says reserved
    constexpr uint8_t width() const { return static_cast<uint8_t>(msb - lsb + 1); }
    constexpr uint32_t mask() const {
        return width() >= 32 ? 0xFFFFFFFFu : (((1u << width()) - 1u) << lsb);
    }
    constexpr uint32_t extract(uint32_t value) const { return (value & mask()) >> lsb; }
    constexpr uint32_t max_value() const { return width() >= 32 ? 0xFFFFFFFFu : ((1u << width()) - 1u); }
};

// A resolved field: register offset + bit range, usable in constant expressions.
struct FieldRef {
    uint16_t reg;
    uint8_t msb;
    uint8_t lsb;
    constexpr uint8_t width() const { return static_cast<uint8_t>(msb - lsb + 1); }
    constexpr uint32_t mask() const {
        return width() >= 32 ? 0xFFFFFFFFu : (((1u << width()) - 1u) << lsb);
    }
    constexpr uint32_t max_value() const { return width() >= 32 ? 0xFFFFFFFFu : ((1u << width()) - 1u); }
    constexpr uint32_t get(uint32_t reg_value) const { return (reg_value & mask()) >> lsb; }
};

// A value for one field of register R (what a handle's call makes; RegcmdWriter range-checks it).
template <class R>
struct FieldValue {
    FieldRef field;
    uint32_t value;
};

// The handle of a field of register R. Its type names R, so fields of different registers cannot be
// combined in one write.
template <class R>
struct Field : FieldRef {
    constexpr FieldValue<R> operator()(uint32_t v) const { return {*this, v}; }
};

struct RegisterBase {};
template <uint16_t Offset>
struct Register : RegisterBase {
    static constexpr uint16_t offset = Offset;
};
template <class R>
inline constexpr bool is_register_v = std::is_base_of_v<RegisterBase, R>;

// clang-format off
namespace regs {
#define NPU_REGISTER(NAME, OFFSET, BLOCK, DOC, MEANING) \
    struct NAME : Register<OFFSET> { static constexpr const char* name = #NAME;
#define NPU_FIELD(REG, NAME, MSB, LSB, DOC, MEANING) static constexpr Field<REG> NAME{{offset, MSB, LSB}};
#define NPU_END(NAME) };
#include "drv/regcmd/register_table.def"
#undef NPU_REGISTER
#undef NPU_FIELD
#undef NPU_END
}  // namespace regs

inline constexpr RegisterDef kRegisters[] = {
#define NPU_REGISTER(NAME, OFFSET, BLOCK, DOC, MEANING) {OFFSET, Block::BLOCK, #NAME, Doc::DOC, MEANING},
#define NPU_FIELD(REG, NAME, MSB, LSB, DOC, MEANING)
#define NPU_END(NAME)
#include "drv/regcmd/register_table.def"
#undef NPU_REGISTER
#undef NPU_FIELD
#undef NPU_END
};

inline constexpr FieldDef kFields[] = {
#define NPU_REGISTER(NAME, OFFSET, BLOCK, DOC, MEANING)
#define NPU_FIELD(REG, NAME, MSB, LSB, DOC, MEANING) {regs::REG::offset, #NAME, MSB, LSB, MEANING, Doc::DOC},
#define NPU_END(NAME)
#include "drv/regcmd/register_table.def"
#undef NPU_REGISTER
#undef NPU_FIELD
#undef NPU_END
};
// clang-format on

// CBUF geometry (reference §1, §9.2): 12 banks of 32 KiB shared by feature data and weights; a task's
// DATA_BANK + WEIGHT_BANK must not exceed the bank count.
inline constexpr uint32_t kCbufBanks = 12;
inline constexpr uint32_t kCbufBankBytes = 32 * 1024;
static_assert(kCbufBanks <= regs::CNA_CBUF_CON0::DATA_BANK.max_value() &&
                  kCbufBanks <= regs::CNA_CBUF_CON0::WEIGHT_BANK.max_value(),
              "the CBUF_CON0 bank fields hold the bank count");

// DPU lookup table (reference §12 lists its size as uncertain): two tables, LE and LO, of 513 16-bit entries
// each, loaded through LUT_ACCESS_CFG / LUT_ACCESS_DATA. 513 is what allbilly/rk3588's SiLU stream writes and
// runs on an RK3588 (experimental/kernel_6_18/silu.py); 512 intervals, so LUT_ADDR's 10 bits address them.
inline constexpr uint32_t kDpuLutEntries = 513;
static_assert(kDpuLutEntries - 1 <= regs::DPU_LUT_ACCESS_CFG::LUT_ADDR.max_value(), "LUT_ADDR addresses every entry");

inline constexpr size_t kRegisterCount = sizeof(kRegisters) / sizeof(kRegisters[0]);
inline constexpr size_t kFieldCount = sizeof(kFields) / sizeof(kFields[0]);

}  // namespace npudrv::regcmd

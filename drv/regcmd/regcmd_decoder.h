// Decodes regcmd streams: entries -> named register writes, grouped into tasks (a task ends with the
// op_en broadcast of its PC tail), plus a one-line description of the operation each task performs.
#pragma once

#include "drv/regcmd/register_map.h"
#include "drv/regcmd/register_state.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npudrv::regcmd {

enum class EntryKind {
    Register,       // a write to a register of the table
    UnknownOffset,  // offset not in the table
    OpEnable,       // 0x0081 op_en broadcast
    PreOpEnMarker,  // 0x0041 marker
    Nop,            // all-zero qword (padding / "no next task")
};

struct DecodedWrite {
    uint64_t raw = 0;
    EntryKind kind = EntryKind::Nop;
    uint16_t target = 0;
    uint16_t offset = 0;
    uint32_t value = 0;
    const RegisterDef* reg = nullptr;
    bool target_matches = true;  // target code agrees with the block of the offset
};

DecodedWrite decode_entry(uint64_t q);
// "CNA_CONV_CON1 = 0x00000120 {PROC_PRECISION=2 IN_PRECISION=2}" (non-zero fields; flags problems).
std::string format_write(const DecodedWrite& w);

struct DecodedTask {
    size_t index = 0;
    uint64_t addr = 0;                 // DMA address of the list (0 when unknown)
    std::vector<DecodedWrite> writes;  // every entry, in order, tail included
    std::optional<uint32_t> op_en;     // enable bits of the tail's op_en broadcast
    std::optional<uint64_t> next_addr; // PC_BASE_ADDRESS written by the tail (0 = last)
    std::optional<uint32_t> next_amount;
    size_t entries_expected = 0;       // for partial captures: entries the list has
    size_t entries_known = 0;          //   ... and how many of them were captured
    uint32_t descriptor_enable_mask = 0;  // from a task descriptor when there is one
    RegisterState state;               // register file after this task (carried over from previous tasks)
    std::string description;           // one line, see describe_task
};

// Splits a contiguous buffer of lists (zero padding between lists allowed) into tasks and decodes them.
// Register state is carried from task to task as on the hardware.
std::vector<DecodedTask> decode_stream(const std::vector<uint64_t>& qwords, uint64_t base_addr);

// One task's writes (some may be unknown in partial captures) applied on top of `previous`.
DecodedTask decode_task(const std::vector<std::optional<uint64_t>>& entries, const RegisterState& previous,
                        size_t index, uint64_t addr);

// One-line description of what the blocks started by `op_en` do with the registers in `state`, e.g.
// "conv 3x3 s1 p1, in 32x14x14 fp16 NC1HWC2, out 128x12x12 fp16, cbuf data 2 banks / weights 10".
std::string describe_task(const RegisterState& state, uint32_t op_en);

const char* precision_name(uint32_t code);  // CNA/DPU precision codes

}  // namespace npudrv::regcmd

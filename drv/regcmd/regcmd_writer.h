// Builds regcmd buffers: typed field writes -> 64-bit entries, one list per task, each list ended by
// the 4-qword PC tail that chains to the next task, lists 64-byte aligned (reference §2.2-§2.4).
#pragma once

#include "drv/regcmd/register_map.h"

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

namespace npudrv::regcmd {

// What kind of work a task does decides which blocks its op_en starts and which interrupt the kernel
// waits for (values seen in vendor, Mesa and allbilly streams, reference §2.2/§2.6).
enum class TaskKind {
    Conv,             // CNA+CORE+DPU                  op_en 0x0D, int DPU
    ConvWithDpuRdma,  // CNA+CORE+DPU+DPU_RDMA (bias/EW) op_en 0x1D, int DPU
    DpuFlying,        // DPU+DPU_RDMA (element-wise)   op_en 0x18, int DPU
    PpuFlying,        // PPU+PPU_RDMA (pooling)        op_en 0x60, int PPU
};
uint32_t op_enable_bits(TaskKind kind);
uint32_t interrupt_mask(TaskKind kind);
// enable_mask of the vendor task descriptor: vendor captures show it equal to the op_en bits.
uint32_t descriptor_enable_mask(TaskKind kind);

// One register value being assembled from named fields.
class RegisterValue {
public:
    explicit RegisterValue(uint16_t reg_offset);
    RegisterValue(std::string_view reg_name);
    // Sets a field; throws RegcmdError when the field does not belong to this register or the value
    // does not fit the field.
    RegisterValue& set(FieldRef f, uint32_t v);
    RegisterValue& set(std::string_view field_name, uint32_t v);
    uint16_t offset() const { return offset_; }
    uint32_t value() const { return value_; }

private:
    uint16_t offset_;
    uint32_t value_ = 0;
};

struct TaskList {
    TaskKind kind;
    std::vector<uint64_t> body;  // register writes, tail excluded
};

// Descriptor of one laid-out task (what the driver puts into rknpu_task / rocket task).
struct LaidOutTask {
    uint64_t regcmd_addr;      // DMA address of the list
    uint32_t offset;           // byte offset in the buffer
    uint32_t regcfg_amount;    // body qwords (tail excluded), as the vendor descriptor counts
    uint32_t total_qwords;     // body + tail
    uint32_t enable_mask;
    uint32_t int_mask;
    uint32_t op_en;
};

struct RegcmdBuffer {
    std::vector<uint64_t> qwords;      // the whole buffer, zero padded between lists
    std::vector<LaidOutTask> tasks;
    uint64_t base_addr = 0;
    size_t size_bytes() const { return qwords.size() * 8; }
};

class RegcmdWriter {
public:
    // Starts a new task list; subsequent writes go to it.
    void begin_task(TaskKind kind);
    // Whole-register write (value checked against the table: bits outside any field must be 0).
    void write(uint16_t reg_offset, uint32_t value);
    void write(const RegisterValue& v) { write(v.offset(), v.value()); }
    // Register assembled from its fields, named by the handles generated from the table:
    //   w.write({regs::CNA_CONV_CON1::PROC_PRECISION(2), regs::CNA_CONV_CON1::CONV_MODE(3)});
    // A misspelt field, or fields of two registers in one write, do not compile; every value is
    // range-checked against its field (RegcmdError). The other fields of the register are 0.
    template <class R>
    void write(std::initializer_list<FieldValue<R>> fields) {
        write(R{}, fields);
    }
    // The same with the register named first: w.write(regs::CNA_DCOMP_CTRL{}) writes it as 0.
    template <class R, class = std::enable_if_t<is_register_v<R>>>
    void write(R, std::initializer_list<FieldValue<R>> fields = {}) {
        RegisterValue v(R::offset);
        for (const FieldValue<R>& f : fields) v.set(f.field, f.value);
        write(v);
    }
    // By name, resolved at run time (tests and tools that iterate the table; the lowering never does):
    // w.write("CNA_CONV_CON1", {{"CONV_MODE", 3}}).
    void write(std::string_view reg_name, std::initializer_list<std::pair<std::string_view, uint32_t>> fields);
    void write_fields(std::initializer_list<std::pair<FieldRef, uint32_t>> fields);
    // Raw entry, no checks (for undocumented targets in tests / replays).
    void write_raw(uint64_t entry);

    size_t task_count() const { return tasks_.size(); }
    const std::vector<TaskList>& tasks() const { return tasks_; }

    // Lays the lists out from `base_addr` (must be 16-byte aligned): each list 64-byte aligned, the
    // tail of task i points at task i+1 (PC_BASE_ADDRESS + PC_REGISTER_AMOUNTS), the last tail has
    // raw 0 / amount 0.
    RegcmdBuffer finish(uint64_t base_addr) const;

private:
    std::vector<TaskList> tasks_;
};

}  // namespace npudrv::regcmd

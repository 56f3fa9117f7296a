#include "drv/regcmd/regcmd_writer.h"

#include "core/hex.h"

#include <cstdio>
#include <string>

namespace npudrv::regcmd {

namespace {
using npurun::hex;
uint32_t covered_bits(uint16_t reg_offset) {
    uint32_t m = 0;
    for (const FieldDef& f : fields_of(reg_offset)) m |= f.mask();
    return m;
}
}  // namespace

uint32_t op_enable_bits(TaskKind kind) {
    switch (kind) {
        case TaskKind::Conv: return kEnCna | kEnCore | kEnDpu;
        case TaskKind::ConvWithDpuRdma: return kEnCna | kEnCore | kEnDpu | kEnDpuRdma;
        case TaskKind::DpuFlying: return kEnDpu | kEnDpuRdma;
        case TaskKind::PpuFlying: return kEnPpu | kEnPpuRdma;
    }
    return 0;
}

uint32_t interrupt_mask(TaskKind kind) {
    return kind == TaskKind::PpuFlying ? (kIntPpu0 | kIntPpu1) : (kIntDpu0 | kIntDpu1);
}

uint32_t descriptor_enable_mask(TaskKind kind) { return op_enable_bits(kind); }

RegisterValue::RegisterValue(uint16_t reg_offset) : offset_(reg_offset) {
    if (find_register(reg_offset) == nullptr) throw RegcmdError("unknown register offset " + hex(reg_offset));
}

RegisterValue::RegisterValue(std::string_view reg_name) : offset_(0) {
    const RegisterDef* r = find_register(reg_name);
    if (r == nullptr) throw RegcmdError("unknown register " + std::string(reg_name));
    offset_ = r->offset;
}

RegisterValue& RegisterValue::set(FieldRef f, uint32_t v) {
    if (f.reg != offset_) throw RegcmdError("field does not belong to register " + hex(offset_));
    if (v > f.max_value()) throw RegcmdError("value " + hex(v) + " does not fit a " + std::to_string(f.width()) + "-bit field of " + hex(offset_));
    value_ = (value_ & ~f.mask()) | (v << f.lsb);
    return *this;
}

RegisterValue& RegisterValue::set(std::string_view field_name, uint32_t v) {
    const FieldDef* f = find_field(offset_, field_name);
    if (f == nullptr) {
        throw RegcmdError("register " + std::string(find_register(offset_)->name) + " has no field " + std::string(field_name));
    }
    return set(FieldRef{f->reg, f->msb, f->lsb}, v);
}

void RegcmdWriter::begin_task(TaskKind kind) { tasks_.push_back(TaskList{kind, {}}); }

void RegcmdWriter::write(uint16_t reg_offset, uint32_t value) {
    if (tasks_.empty()) throw RegcmdError("register write before begin_task");
    const RegisterDef* r = find_register(reg_offset);
    if (r == nullptr) throw RegcmdError("unknown register offset " + hex(reg_offset));
    const uint16_t target = block_target(r->block);
    if (target == 0) throw RegcmdError(std::string("register ") + r->name + " is not writable through regcmd");
    const uint32_t stray = value & ~covered_bits(reg_offset);
    if (stray != 0) throw RegcmdError(std::string("value ") + hex(value) + " sets reserved bits " + hex(stray) + " of " + r->name);
    tasks_.back().body.push_back(make_entry(target, value, reg_offset));
}

void RegcmdWriter::write(std::string_view reg_name, std::initializer_list<std::pair<std::string_view, uint32_t>> fields) {
    RegisterValue v(reg_name);
    for (const auto& [name, value] : fields) v.set(name, value);
    write(v);
}

void RegcmdWriter::write_fields(std::initializer_list<std::pair<FieldRef, uint32_t>> fields) {
    if (fields.size() == 0) throw RegcmdError("write_fields with no fields");
    RegisterValue v(fields.begin()->first.reg);
    for (const auto& [f, value] : fields) v.set(f, value);
    write(v);
}

void RegcmdWriter::write_raw(uint64_t entry) {
    if (tasks_.empty()) throw RegcmdError("register write before begin_task");
    tasks_.back().body.push_back(entry);
}

RegcmdBuffer RegcmdWriter::finish(uint64_t base_addr) const {
    if (base_addr % 16 != 0) throw RegcmdError("regcmd base address must be 16-byte aligned");
    RegcmdBuffer out;
    out.base_addr = base_addr;
    // First pass: offsets (each list 64-byte aligned = 8 qwords).
    std::vector<size_t> starts;
    size_t pos = 0;
    for (const TaskList& t : tasks_) {
        starts.push_back(pos);
        pos += t.body.size() + 4;
        pos = (pos + 7) / 8 * 8;
    }
    out.qwords.assign(pos, 0);
    for (size_t i = 0; i < tasks_.size(); ++i) {
        const TaskList& t = tasks_[i];
        size_t p = starts[i];
        for (uint64_t q : t.body) out.qwords[p++] = q;
        const uint32_t op_en = op_enable_bits(t.kind);
        if (i + 1 < tasks_.size()) {
            const uint64_t next = base_addr + starts[i + 1] * 8;
            if (next > 0xFFFFFFFFull) throw RegcmdError("regcmd address above 4 GiB");
            out.qwords[p++] = make_entry(block_target(Block::PC), static_cast<uint32_t>(next), regs::PC_BASE_ADDRESS::offset);
            out.qwords[p++] = make_entry(block_target(Block::PC),
                                         fetch_amount(static_cast<uint32_t>(tasks_[i + 1].body.size())),
                                         regs::PC_REGISTER_AMOUNTS::offset);
        } else {
            out.qwords[p++] = 0;  // "no next task": raw zero, as the vendor writes it
            out.qwords[p++] = make_entry(block_target(Block::PC), 0, regs::PC_REGISTER_AMOUNTS::offset);
        }
        out.qwords[p++] = make_entry(kTargetPreOpEnMarker, 0, 0);
        out.qwords[p++] = make_entry(kTargetOpEnBroadcast, op_en, kOpEnOffset);
        LaidOutTask lt;
        lt.offset = static_cast<uint32_t>(starts[i] * 8);
        lt.regcmd_addr = base_addr + lt.offset;
        lt.regcfg_amount = static_cast<uint32_t>(t.body.size());
        lt.total_qwords = static_cast<uint32_t>(t.body.size() + 4);
        lt.enable_mask = descriptor_enable_mask(t.kind);
        lt.int_mask = interrupt_mask(t.kind);
        lt.op_en = op_en;
        out.tasks.push_back(lt);
    }
    return out;
}

}  // namespace npudrv::regcmd

#include "drv/sim/npu_simulator.h"

#include "drv/regcmd/regcmd_decoder.h"
#include "drv/sim/sim_internal.h"
#include "core/fp16.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

namespace npudrv::sim {

using npurun::fp16_to_fp32;
using npurun::fp32_to_fp16;

namespace detail {

uint32_t bytes_of(uint32_t precision) {
    switch (precision) {
        case kInt8: return 1;
        case kInt16:
        case kFp16: return 2;
        case kInt32:
        case kFp32: return 4;
    }
    throw SimError("unmodelled-config", "precision code " + std::to_string(precision));
}

bool is_float(uint32_t precision) { return precision == kFp16 || precision == kFp32; }

void TaskExec::require(regcmd::FieldRef f, std::initializer_list<uint32_t> allowed, const char* why) const {
    const uint32_t v = regs_.get(f);
    for (uint32_t a : allowed) {
        if (v == a) return;
    }
    const regcmd::RegisterDef* r = regcmd::find_register(f.reg);
    std::string name = r ? r->name : hex(f.reg);
    for (const regcmd::FieldDef& fd : regcmd::fields_of(f.reg)) {
        if (fd.lsb == f.lsb && fd.msb == f.msb) name += std::string(".") + fd.name;
    }
    throw SimError("unmodelled-config", name + "=" + std::to_string(v) + " (" + why + ")");
}

void TaskExec::check_block(uint16_t first, uint16_t last, const std::vector<regcmd::FieldRef>& modelled) const {
    for (uint32_t off = first; off <= last; off += 4) {
        const auto o = static_cast<uint16_t>(off);
        if (!regs_.written(o)) continue;
        const uint32_t v = regs_.get(o);
        if (v == 0) continue;  // no field set
        for (const regcmd::FieldDef& fd : regcmd::fields_of(o)) {
            if (fd.extract(v) == 0) continue;
            bool ok = false;
            for (const regcmd::FieldRef& m : modelled) {
                if (m.reg == o && m.lsb == fd.lsb && m.msb == fd.msb) ok = true;
            }
            if (!ok) {
                throw SimError("unmodelled-config", regcmd::field_full_name(fd) + "=" + hex(fd.extract(v)) +
                                                         " is not modelled by the simulator");
            }
        }
    }
}

uint8_t* TaskExec::dma_access(uint64_t addr, uint64_t size, const char* what, bool write) {
    uint8_t* p = mem_.translate(addr, size);
    if (p == nullptr) {
        throw SimError("dma-out-of-bounds", std::string(what) + (write ? " write [" : " read [") + hex(addr) + ", " +
                                                hex(addr + size) + ") is not inside one buffer of the job");
    }
    (write ? counters_.dma_write_bytes : counters_.dma_read_bytes) += size;
    mem_.on_access(addr, size, write);
    return p;
}

const uint8_t* TaskExec::dma_read(uint64_t addr, uint64_t size, const char* what) {
    if (size == 0) return nullptr;
    const uint8_t* p = dma_access(addr, size, what, false);
    // The port of the read (cost_model.h), by the name the stage gives it (the callers' fixed strings).
    const std::string_view w(what);
    if (w == "CNA weights") {
        counters_.dma_weight_bytes += size;
    } else if (w == "CNA feature" || w == "DPU_RDMA main input" || w == "PPU_RDMA input") {
        counters_.dma_feature_bytes += size;
    }
    return p;
}

uint8_t* TaskExec::dma_write(uint64_t addr, uint64_t size, const char* what) {
    return size == 0 ? nullptr : dma_access(addr, size, what, true);
}

int64_t load_int(const uint8_t* p, uint32_t precision) {
    switch (precision) {
        case kInt8: return static_cast<int8_t>(p[0]);
        case kInt16: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        case kInt32: {
            int32_t v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
    throw SimError("unmodelled-config", "integer load of precision " + std::to_string(precision));
}

void unmodelled_precision(const char* what, uint32_t precision) {
    throw SimError("unmodelled-config", std::string(what) + " of precision " + std::to_string(precision));
}

int64_t int_min(uint32_t precision) {
    return precision == kInt8 ? -128 : precision == kInt16 ? -32768 : INT64_C(-2147483648);
}
int64_t int_max(uint32_t precision) { return precision == kInt8 ? 127 : precision == kInt16 ? 32767 : 2147483647; }

void store_int(uint8_t* p, uint32_t precision, int64_t v) {
    switch (precision) {
        case kInt8: p[0] = static_cast<uint8_t>(static_cast<int8_t>(v)); return;
        case kInt16: {
            const auto x = static_cast<int16_t>(v);
            std::memcpy(p, &x, 2);
            return;
        }
        case kInt32: {
            const auto x = static_cast<int32_t>(v);
            std::memcpy(p, &x, 4);
            return;
        }
    }
    throw SimError("unmodelled-config", "integer store of precision " + std::to_string(precision));
}

}  // namespace detail

using detail::SimError;
namespace rc = npudrv::regcmd;

void NpuSimulator::reset() {
    for (Core& c : cores_) c = Core{};
    records_.clear();
    last_ = TaskCounters{};
}

TaskCounters NpuSimulator::total_counters() const {
    TaskCounters t;
    for (const TaskRecord& r : records_) {
        t.macs += r.counters.macs;
        t.dma_read_bytes += r.counters.dma_read_bytes;
        t.dma_write_bytes += r.counters.dma_write_bytes;
        t.dma_feature_bytes += r.counters.dma_feature_bytes;
        t.dma_weight_bytes += r.counters.dma_weight_bytes;
        t.regcmd_bytes += r.counters.regcmd_bytes;
        t.cbuf_data_banks = std::max(t.cbuf_data_banks, r.counters.cbuf_data_banks);
        t.cbuf_weight_banks = std::max(t.cbuf_weight_banks, r.counters.cbuf_weight_banks);
    }
    return t;
}

HwResult NpuSimulator::run(const HwTask& task, DmaSpace& memory) {
    uint64_t next_addr = 0;
    uint32_t next_amount = 0;
    // HwTask.regcfg_amount is what the PC fetches INCLUDING the 4-qword tail (hardware.h; the fake
    // kernel adds the tail to the vendor descriptor's body count), rounded up to whole 128-bit words.
    if (task.regcfg_amount < 4) {
        HwResult bad;
        bad.error = "regcmd-format: regcfg_amount " + std::to_string(task.regcfg_amount) +
                    " cannot hold the 4-entry PC tail";
        TaskRecord rec;
        rec.core = task.core;
        rec.regcmd_addr = task.regcmd_addr;
        rec.result = bad;
        records_.push_back(rec);
        return bad;
    }
    const uint32_t fetch = rc::fetched_qwords(rc::fetch_amount(task.regcfg_amount - 4));
    HwResult r = run_list(task.core, task.regcmd_addr, fetch, task.int_mask, memory,
                          &next_addr, &next_amount);
    if (r.error.empty() && next_addr != 0) {
        // The tail must point at a list the PC could fetch: inside the job's memory.
        if (memory.translate(next_addr, uint64_t{rc::fetched_qwords(next_amount)} * 8) == nullptr) {
            r.completed = false;
            r.error = "dma-out-of-bounds: PC tail points at " + detail::hex(next_addr) + " (" +
                      std::to_string(rc::fetched_qwords(next_amount)) + " qwords) outside the job's buffers";
            records_.back().result = r;
        }
    }
    return r;
}

std::vector<HwResult> NpuSimulator::run_chain(uint32_t core, uint64_t regcmd_addr, uint32_t regcfg_amount,
                                              uint32_t task_number, uint32_t int_mask, DmaSpace& memory) {
    std::vector<HwResult> out;
    uint64_t addr = regcmd_addr;
    if (regcfg_amount < 4) {
        HwResult bad;
        bad.error = "regcmd-format: regcfg_amount " + std::to_string(regcfg_amount) + " cannot hold the 4-entry PC tail";
        return {bad};
    }
    uint32_t fetch = rc::fetched_qwords(rc::fetch_amount(regcfg_amount - 4));
    for (uint32_t i = 0; i < task_number; ++i) {
        uint64_t next_addr = 0;
        uint32_t next_amount = 0;
        HwResult r = run_list(core, addr, fetch, i + 1 == task_number ? int_mask : 0, memory, &next_addr, &next_amount);
        out.push_back(r);
        if (!r.error.empty()) break;
        if (i + 1 < task_number) {
            if (next_addr == 0) {
                HwResult stop;
                stop.error = "regcmd-format: task " + std::to_string(i) + " ends the chain but TASK_NUMBER is " +
                             std::to_string(task_number);
                out.push_back(stop);
                break;
            }
            addr = next_addr;
            fetch = rc::fetched_qwords(next_amount);
        }
    }
    return out;
}

HwResult NpuSimulator::run_list(uint32_t core_index, uint64_t addr, uint32_t fetch_qwords, uint32_t int_mask,
                                DmaSpace& memory, uint64_t* next_addr, uint32_t* next_amount) {
    TaskRecord rec;
    rec.core = core_index;
    rec.regcmd_addr = addr;
    last_ = TaskCounters{};
    HwResult result;
    try {
        if (core_index >= kCores) throw SimError("regcmd-format", "core " + std::to_string(core_index) + " does not exist");
        Core& core = cores_[core_index];
        if (addr % 16 != 0) throw SimError("regcmd-format", "regcmd address " + detail::hex(addr) + " not 16-byte aligned");
        const uint8_t* list = memory.translate(addr, uint64_t{fetch_qwords} * 8);
        if (list == nullptr) {
            throw SimError("dma-out-of-bounds", "regcmd fetch [" + detail::hex(addr) + ", " +
                                                    detail::hex(addr + uint64_t{fetch_qwords} * 8) +
                                                    ") is not inside one buffer of the job");
        }
        last_.regcmd_bytes = uint64_t{fetch_qwords} * 8;
        std::optional<uint32_t> op_en;
        bool marker_before = false;
        for (uint32_t i = 0; i < fetch_qwords && !op_en; ++i) {
            uint64_t q;
            std::memcpy(&q, list + size_t{i} * 8, 8);
            const rc::DecodedWrite w = rc::decode_entry(q);
            const bool marker = w.kind == rc::EntryKind::PreOpEnMarker;
            switch (w.kind) {
                case rc::EntryKind::Nop: break;
                case rc::EntryKind::PreOpEnMarker:
                    if (!w.target_matches) throw SimError("regcmd-format", "0x0041 marker with payload " + detail::hex(q));
                    break;
                case rc::EntryKind::OpEnable:
                    if (!marker_before) {
                        throw SimError("invalid-combination", "op_en broadcast not preceded by the 0x0041 marker (TRM: mandatory)");
                    }
                    op_en = w.value;
                    break;
                case rc::EntryKind::UnknownOffset:
                    throw SimError("unmodelled-register", "entry " + std::to_string(i) + " writes unknown register " +
                                                              detail::hex(w.offset) + " = " + detail::hex(w.value));
                case rc::EntryKind::Register: {
                    if (!w.target_matches) {
                        throw SimError("regcmd-format", std::string("entry ") + std::to_string(i) + " writes " + w.reg->name +
                                                            " with target " + detail::hex(w.target));
                    }
                    const rc::Block b = w.reg->block;
                    const bool tail = w.offset == rc::regs::PC_BASE_ADDRESS::offset || w.offset == rc::regs::PC_REGISTER_AMOUNTS::offset;
                    if (b == rc::Block::PC && !tail) {
                        throw SimError("unmodelled-register", std::string(w.reg->name) + " written from a regcmd list");
                    }
                    if (b == rc::Block::DDMA || b == rc::Block::SDMA || b == rc::Block::GLOBAL) {
                        throw SimError("unmodelled-register", std::string(w.reg->name) + " written from a regcmd list");
                    }
                    if (w.reg->doc == rc::Doc::Undocumented && w.value != 0) {
                        throw SimError("unmodelled-register", std::string(w.reg->name) + " (not in the TRM) = " +
                                                                  detail::hex(w.value));
                    }
                    if (w.reg->doc == rc::Doc::Undocumented && w.offset != rc::regs::CORE_3030::offset && w.offset != rc::regs::DPU_40C4::offset) {
                        throw SimError("unmodelled-register", std::string(w.reg->name) + " (not in the TRM) written");
                    }
                    uint32_t covered = 0;
                    for (const rc::FieldDef& fd : rc::fields_of(w.offset)) covered |= fd.mask();
                    if (w.value & ~covered) {
                        throw SimError("unmodelled-register", std::string(w.reg->name) + " = " + detail::hex(w.value) +
                                                                  " sets reserved bits " + detail::hex(w.value & ~covered));
                    }
                    core.regs.set(w.offset, w.value);
                    // The LUT port acts on each write, in list order (its data register auto-increments).
                    if (w.offset == rc::regs::DPU_LUT_ACCESS_CFG::offset) detail::lut_access_cfg(core.lut, w.value);
                    if (w.offset == rc::regs::DPU_LUT_ACCESS_DATA::offset) detail::lut_access_data(core.lut, w.value);
                    if (w.offset == rc::regs::PC_BASE_ADDRESS::offset) *next_addr = w.value & rc::f::PC_SOURCE_ADDR.mask();
                    if (w.offset == rc::regs::PC_REGISTER_AMOUNTS::offset) *next_amount = rc::f::PC_DATA_AMOUNT.get(w.value);
                    break;
                }
            }
            marker_before = marker;
        }
        if (!op_en) throw SimError("regcmd-format", "no op_en broadcast within the " + std::to_string(fetch_qwords) + " fetched entries");
        rec.op_en = *op_en;
        rec.description = rc::describe_task(core.regs, *op_en);
        const uint32_t en = *op_en;
        detail::TaskExec exec(core.regs, memory, last_, core.cbuf, core.weight_memo, core.lut, en);
        uint32_t status = 0;
        if (en == (rc::kEnCna | rc::kEnCore | rc::kEnDpu) || en == (rc::kEnCna | rc::kEnCore | rc::kEnDpu | rc::kEnDpuRdma)) {
            detail::ConvResult conv = detail::run_cna_core(exec);
            detail::run_dpu(exec, &conv);
            status = core.dpu_group ? rc::kIntDpu1 : rc::kIntDpu0;
            core.dpu_group ^= 1;
        } else if (en == (rc::kEnDpu | rc::kEnDpuRdma)) {
            detail::run_dpu(exec, nullptr);
            status = core.dpu_group ? rc::kIntDpu1 : rc::kIntDpu0;
            core.dpu_group ^= 1;
        } else if (en == (rc::kEnPpu | rc::kEnPpuRdma)) {
            detail::run_ppu(exec);
            status = core.ppu_group ? rc::kIntPpu1 : rc::kIntPpu0;
            core.ppu_group ^= 1;
        } else {
            throw SimError("unmodelled-config", "op_en block combination " + detail::hex(en) +
                                                    " (modelled: 0x0D/0x1D conv, 0x18 DPU flying, 0x60 PPU flying)");
        }
        result.int_status = status;
        result.completed = true;
        if (int_mask != 0 && (status & int_mask) == 0) {
            result.completed = false;
            result.error = "interrupt-mismatch: the task raises " + detail::hex(status) + " but the kernel waits for " +
                           detail::hex(int_mask);
        }
    } catch (const SimError& e) {
        result.completed = false;
        result.int_status = 0;
        result.error = e.what();
    } catch (const std::exception& e) {  // e.g. allocation failure on absurd sizes
        result.completed = false;
        result.error = std::string("unmodelled-config: ") + e.what();
    }
    rec.counters = last_;
    if (result.completed) rec.cost = cost::estimate_task(cores_[core_index].regs, rec.op_en, last_);
    rec.result = result;
    records_.push_back(rec);
    return result;
}

}  // namespace npudrv::sim

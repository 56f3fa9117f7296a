#include "drv/regcmd/regcmd_decoder.h"

#include "core/hex.h"
#include "drv/regcmd/fields.h"

#include <cstdio>
#include <sstream>

namespace npudrv::regcmd {

namespace {
using npurun::hex;
}  // namespace

const char* precision_name(uint32_t code) {
    switch (code) {
        case 0: return "int8";
        case 1: return "int16";
        case 2: return "fp16";
        case 3: return "bf16";
        case 4: return "int32";
        case 5: return "fp32";
        case 6: return "int4";
        case 7: return "tf32";
    }
    return "?";
}

DecodedWrite decode_entry(uint64_t q) {
    DecodedWrite w;
    w.raw = q;
    w.target = entry_target(q);
    w.value = entry_value(q);
    w.offset = entry_offset(q);
    if (q == 0) {
        w.kind = EntryKind::Nop;
        return w;
    }
    if (w.target == kTargetOpEnBroadcast && w.offset == kOpEnOffset) {
        w.kind = EntryKind::OpEnable;
        w.reg = find_register(regs::GLOBAL_OPERATION_ENABLE::offset);
        return w;
    }
    if (w.target == kTargetPreOpEnMarker) {
        w.kind = EntryKind::PreOpEnMarker;
        w.target_matches = (w.value == 0 && w.offset == 0);
        return w;
    }
    w.reg = find_register(w.offset);
    if (w.reg == nullptr) {
        w.kind = EntryKind::UnknownOffset;
        const auto b = block_of_offset(w.offset);
        w.target_matches = b.has_value() && block_target(*b) == w.target;
        return w;
    }
    w.kind = EntryKind::Register;
    w.target_matches = block_target(w.reg->block) == w.target;
    return w;
}

std::string format_write(const DecodedWrite& w) {
    std::ostringstream os;
    switch (w.kind) {
        case EntryKind::Nop: return "nop (0)";
        case EntryKind::PreOpEnMarker:
            return w.target_matches ? "pre-op_en marker (0x0041)" : "pre-op_en marker with non-zero payload " + hex(w.raw, 16);
        case EntryKind::OpEnable: {
            os << "op_en broadcast = " << hex(w.value, 2) << " {";
            bool first = true;
            for (const FieldDef& fd : fields_of(regs::GLOBAL_OPERATION_ENABLE::offset)) {
                if (fd.extract(w.value)) {
                    os << (first ? "" : " ") << fd.name;
                    first = false;
                }
            }
            os << "}";
            return os.str();
        }
        case EntryKind::UnknownOffset:
            os << "UNKNOWN register " << hex(w.offset, 4) << " (target " << hex(w.target, 4) << ") = " << hex(w.value, 8);
            return os.str();
        case EntryKind::Register: break;
    }
    os << w.reg->name << " = " << hex(w.value, 8);
    if (w.reg->doc == Doc::Undocumented) os << " [not in TRM]";
    os << " {";
    bool first = true;
    uint32_t covered = 0;
    for (const FieldDef& fd : fields_of(w.offset)) {
        covered |= fd.mask();
        const uint32_t v = fd.extract(w.value);
        if (v == 0) continue;
        os << (first ? "" : " ") << fd.name << "=" << (v < 0x10000 ? std::to_string(v) : hex(v));
        if (fd.doc == Doc::Undocumented) os << "[not in TRM]";
        first = false;
    }
    os << "}";
    if (w.value & ~covered) os << " RESERVED BITS " << hex(w.value & ~covered);
    if (!w.target_matches) os << " TARGET MISMATCH " << hex(w.target, 4);
    return os.str();
}

DecodedTask decode_task(const std::vector<std::optional<uint64_t>>& entries, const RegisterState& previous,
                        size_t index, uint64_t addr) {
    DecodedTask t;
    t.index = index;
    t.addr = addr;
    t.state = previous;
    t.entries_expected = entries.size();
    for (const auto& e : entries) {
        if (!e) continue;
        ++t.entries_known;
        DecodedWrite w = decode_entry(*e);
        if (w.kind == EntryKind::Register || w.kind == EntryKind::UnknownOffset) t.state.set(w.offset, w.value);
        if (w.kind == EntryKind::Register && w.offset == regs::PC_BASE_ADDRESS::offset) t.next_addr = w.value & f::PC_SOURCE_ADDR.mask();
        if (w.kind == EntryKind::Register && w.offset == regs::PC_REGISTER_AMOUNTS::offset) t.next_amount = f::PC_DATA_AMOUNT.get(w.value);
        if (w.kind == EntryKind::OpEnable) t.op_en = w.value;
        t.writes.push_back(w);
    }
    // The last task of a chain has a raw zero where PC_BASE_ADDRESS would be.
    if (t.op_en && !t.next_addr && entries.size() >= 4 && entries[entries.size() - 4] && *entries[entries.size() - 4] == 0) {
        t.next_addr = 0;
    }
    t.description = t.op_en ? describe_task(t.state, *t.op_en) : std::string("(no op_en captured)");
    return t;
}

std::vector<DecodedTask> decode_stream(const std::vector<uint64_t>& qwords, uint64_t base_addr) {
    std::vector<DecodedTask> tasks;
    RegisterState state;
    size_t i = 0;
    while (i < qwords.size()) {
        // Skip zero padding between lists (lists start 64-byte aligned; a list never starts with 0).
        while (i < qwords.size() && qwords[i] == 0) ++i;
        if (i >= qwords.size()) break;
        const size_t start = i;
        std::vector<std::optional<uint64_t>> entries;
        bool ended = false;
        while (i < qwords.size()) {
            const uint64_t q = qwords[i++];
            entries.emplace_back(q);
            if (entry_target(q) == kTargetOpEnBroadcast && entry_offset(q) == kOpEnOffset) {
                ended = true;
                break;
            }
        }
        // Last list: its tail begins with a raw zero which the padding skip above would eat; it is part
        // of the list, not padding, so it stays in `entries` (the scan above keeps zeros inside a list).
        DecodedTask t = decode_task(entries, state, tasks.size(), base_addr + start * 8);
        if (!ended) t.description = "incomplete list: no op_en broadcast before the end of the buffer";
        state = t.state;
        tasks.push_back(std::move(t));
    }
    return tasks;
}

namespace {

// Field value as text, "?" when the register was never written (partial captures).
std::string val(const RegisterState& s, FieldRef f, uint32_t add = 0) {
    return s.written(f.reg) ? std::to_string(s.get(f) + add) : std::string("?");
}

std::string conv_description(const RegisterState& s, uint32_t op_en) {
    std::ostringstream os;
    const bool dw = s.get(f::CNA_CONV_MODE) == 3 || (!s.written(f::CNA_CONV_MODE.reg) && s.get(f::CORE_DW_EN));
    const auto prec = s.written(f::CNA_PROC_PRECISION.reg) ? s.known(f::CNA_PROC_PRECISION) : s.known(f::CORE_PROC_PRECISION);
    const uint32_t kw = s.get(f::CNA_WEIGHT_WIDTH), kh = s.get(f::CNA_WEIGHT_HEIGHT);
    const uint32_t sx = s.get(f::CNA_STRIDE_X), sy = s.get(f::CNA_STRIDE_Y);
    const uint32_t pl = s.get(f::CNA_PAD_LEFT), pt = s.get(f::CNA_PAD_TOP);
    const uint32_t w = s.get(f::CNA_IN_WIDTH), h = s.get(f::CNA_IN_HEIGHT);
    const uint32_t wo = s.get(f::CORE_OUT_WIDTH) + 1, ho = s.get(f::CORE_OUT_HEIGHT) + 1;
    const bool geometry = s.written(f::CNA_WEIGHT_WIDTH.reg) && s.written(f::CNA_STRIDE_X.reg) && s.written(f::CNA_PAD_LEFT.reg) &&
                          s.written(f::CNA_IN_WIDTH.reg) && s.written(f::CORE_OUT_WIDTH.reg);
    os << (dw ? "dw conv " : "conv ") << val(s, f::CNA_WEIGHT_WIDTH) << "x" << val(s, f::CNA_WEIGHT_HEIGHT) << " s"
       << val(s, f::CNA_STRIDE_X);
    if (sy != sx) os << "x" << sy;
    if (geometry) {
        // Right/bottom padding is implied by the sizes: (out-1)*stride + k = in + pad_lo + pad_hi.
        const long pr = static_cast<long>(wo - 1) * (sx ? sx : 1) + kw - w - pl;
        const long pb = static_cast<long>(ho - 1) * (sy ? sy : 1) + kh - h - pt;
        if (pl == pt && pr == pl && pb == pl) {
            os << " p" << pl;
        } else {
            os << " pad l" << pl << " t" << pt << " r" << pr << " b" << pb;
        }
    } else {
        os << " p?";
    }
    os << ", in " << (s.written(f::CNA_IN_CHANNEL.reg) ? val(s, f::CNA_IN_CHANNEL) : val(s, f::CNA_DMA_CHANNEL)) << "x"
       << (s.written(f::CNA_IN_HEIGHT.reg) ? val(s, f::CNA_IN_HEIGHT) : val(s, f::CNA_DMA_HEIGHT)) << "x"
       << (s.written(f::CNA_IN_WIDTH.reg) ? val(s, f::CNA_IN_WIDTH) : val(s, f::CNA_DMA_WIDTH)) << " "
       << (prec ? precision_name(*prec) : "?") << " NC1HWC2";
    os << ", out " << val(s, f::DPU_ORIG_CHANNEL, 1);
    if (s.written(f::CORE_OUT_CHANNEL.reg) && s.get(f::CORE_OUT_CHANNEL) != s.get(f::DPU_ORIG_CHANNEL)) {
        os << "(" << val(s, f::CORE_OUT_CHANNEL, 1) << ")";
    }
    os << "x" << val(s, f::CORE_OUT_HEIGHT, 1) << "x" << val(s, f::CORE_OUT_WIDTH, 1) << " "
       << (s.written(f::DPU_OUT_PRECISION.reg) ? precision_name(s.get(f::DPU_OUT_PRECISION)) : "?");
    if (!dw) os << ", " << val(s, f::CNA_WEIGHT_KERNELS) << " kernels";
    os << ", cbuf data " << val(s, f::CNA_DATA_BANK) << " banks / weights " << val(s, f::CNA_WEIGHT_BANK);
    if (s.get(f::CNA_DATA_REUSE)) os << " (data reuse)";
    if (s.get(f::CNA_WEIGHT_REUSE)) os << " (weight reuse)";
    if (op_en & kEnDpuRdma) os << ", DPU_RDMA operands";
    if (!s.get(f::DPU_EW_BYPASS) && s.written(regs::DPU_EW_CFG::offset)) os << ", EW stage";
    os << ", in@" << hex(s.get(f::CNA_FEATURE_ADDR)) << " w@" << hex(s.get(f::CNA_DCOMP_ADDR)) << " out@"
       << hex(s.get(f::DPU_DST_BASE));
    return os.str();
}

const char* ew_algo_name(uint32_t algo) {
    switch (algo) {
        case 0: return "max";
        case 1: return "min";
        case 2: return "add";
        case 3: return "div";
        case 4: return "sub";
        case 5: return "abs";
        case 6: return "neg";
        case 7: return "floor";
        case 8: return "ceil";
    }
    return "?";
}

std::string dpu_flying_description(const RegisterState& s) {
    std::ostringstream os;
    os << "dpu ";
    if (s.get(f::DPU_EW_BYPASS)) {
        os << "copy";
    } else if (s.get(f::DPU_EW_OP_TYPE)) {
        os << "ew mul";
    } else {
        os << "ew " << ew_algo_name(s.get(f::DPU_EW_ALU_ALGO));
    }
    if (!s.get(f::DPU_EW_BYPASS)) {
        if (!s.get(f::DPU_EW_OP_SRC)) os << " const";
        else os << (s.get(f::RDMA_ERDMA_DATA_MODE) == 0 ? " per-channel tensor" : " tensor");
    }
    os << ", " << (s.get(f::DPU_CHANNEL) + 1) << "x" << (s.get(f::DPU_HEIGHT) + 1) << "x" << (s.get(f::DPU_WIDTH) + 1)
       << " " << precision_name(s.get(f::RDMA_IN_PRECISION)) << " -> " << precision_name(s.get(f::DPU_OUT_PRECISION))
       << ", a@" << hex(s.get(f::RDMA_SRC_BASE)) << " b@" << hex(s.get(f::RDMA_EW_BASE)) << " out@"
       << hex(s.get(f::DPU_DST_BASE));
    return os.str();
}

std::string ppu_description(const RegisterState& s) {
    std::ostringstream os;
    if (!s.written(regs::PPU_OPERATION_MODE_CFG::offset)) return "pooling (PPU registers not captured)";
    static const char* methods[] = {"avg", "max", "min", "?"};
    os << "pool " << methods[s.get(f::PPU_METHOD) & 3] << " " << (s.get(f::PPU_KERNEL_W) + 1) << "x"
       << (s.get(f::PPU_KERNEL_H) + 1) << " s" << (s.get(f::PPU_STRIDE_W) + 1);
    const uint32_t pl = s.get(f::PPU_PAD_LEFT), pt = s.get(f::PPU_PAD_TOP), pr = s.get(f::PPU_PAD_RIGHT),
                   pb = s.get(f::PPU_PAD_BOTTOM);
    if (pl == pt && pl == pr && pl == pb) {
        os << " p" << pl;
    } else {
        os << " pad l" << pl << " t" << pt << " r" << pr << " b" << pb;
    }
    os << ", in " << (s.get(f::PPU_IN_CHANNEL) + 1) << "x" << (s.get(f::PPU_IN_HEIGHT) + 1) << "x"
       << (s.get(f::PPU_IN_WIDTH) + 1) << " " << precision_name(s.get(f::PPU_PROC_PRECISION)) << ", out "
       << (s.get(f::PPU_OUT_CHANNEL) + 1) << "x" << (s.get(f::PPU_OUT_HEIGHT) + 1) << "x" << (s.get(f::PPU_OUT_WIDTH) + 1)
       << (s.get(f::PPU_FLYING_MODE) ? ", from memory" : ", from DPU") << ", in@" << hex(s.get(f::PRDMA_SRC_BASE))
       << " out@" << hex(s.get(regs::PPU_DST_BASE_ADDR::offset));
    return os.str();
}

}  // namespace

std::string describe_task(const RegisterState& s, uint32_t op_en) {
    if (op_en & kEnCna) return conv_description(s, op_en);
    if ((op_en & kEnDpu) && s.get(f::DPU_FLYING_MODE)) return dpu_flying_description(s);
    if (op_en & kEnPpu) return ppu_description(s);
    return "op_en " + hex(op_en, 2) + " (no recognised operation)";
}

}  // namespace npudrv::regcmd

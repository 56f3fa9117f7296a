// Internals shared by the simulator's stages (PC, CNA+CORE, DPU, PPU). Not a public header.
#pragma once

#include "core/fp16.h"
#include "core/hex.h"
#include "drv/regcmd/fields.h"
#include "drv/regcmd/register_state.h"
#include "drv/sim/buffer_pool.h"
#include "drv/sim/dpu_lut.h"
#include "drv/sim/npu_simulator.h"

#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace npudrv::sim::detail {

// A named refusal; its what() is "<name>: <details>" and becomes HwResult.error.
class SimError : public std::runtime_error {
public:
    SimError(const char* name, const std::string& details) : std::runtime_error(std::string(name) + ": " + details) {}
};

using npurun::hex;  // "0x1F" (core/hex.h)

// Element precisions (CNA/DPU codes).
inline constexpr uint32_t kInt8 = 0;
inline constexpr uint32_t kInt16 = 1;
inline constexpr uint32_t kFp16 = 2;
inline constexpr uint32_t kInt32 = 4;
inline constexpr uint32_t kFp32 = 5;
uint32_t bytes_of(uint32_t precision);
inline uint32_t atom_channels(uint32_t precision) { return 16 / bytes_of(precision); }
bool is_float(uint32_t precision);

// A feature cube in the DPU's working form: [C][H][W], one value per element. Integer pipelines hold
// exact integers (int64), float pipelines fp32.
struct Cube {
    uint32_t c = 0, h = 0, w = 0;
    bool is_float = false;
    PooledVector<int64_t> i;  // storage reused across tasks (buffer_pool.h)
    PooledVector<float> f;
    size_t index(uint32_t ch, uint32_t y, uint32_t x) const { return (size_t{ch} * h + y) * w + x; }
    void resize(uint32_t cc, uint32_t hh, uint32_t ww, bool fl) {
        c = cc;
        h = hh;
        w = ww;
        is_float = fl;
        const size_t n = size_t{cc} * hh * ww;
        if (fl) {
            f.clear();
            f.pooled_resize(n);  // value-initialised: a memset (assign(n, 0.0f) was an element loop)
            i.clear();
        } else {
            i.pooled_assign(n, 0);
            f.clear();
        }
    }
};

// Everything one task's execution needs.
class TaskExec {
public:
    TaskExec(const regcmd::RegisterState& regs, DmaSpace& mem, TaskCounters& counters, CbufContents& cbuf,
             WeightMemo& weight_memo, const DpuLutMemory& lut, uint32_t op_en)
        : regs_(regs), mem_(mem), counters_(counters), cbuf_(cbuf), weight_memo_(weight_memo), lut_(lut), op_en_(op_en) {}

    uint32_t get(regcmd::FieldRef f) const { return regs_.get(f); }
    uint32_t raw(uint16_t offset) const { return regs_.get(offset); }
    const regcmd::RegisterState& regs() const { return regs_; }
    uint32_t op_en() const { return op_en_; }
    CbufContents& cbuf() { return cbuf_; }
    WeightMemo& weight_memo() { return weight_memo_; }
    const DpuLutMemory& lut() const { return lut_; }
    TaskCounters& counters() { return counters_; }

    // unmodelled-config unless the field holds one of `allowed`.
    void require(regcmd::FieldRef f, std::initializer_list<uint32_t> allowed, const char* why) const;
    [[noreturn]] void invalid(const std::string& what) const { throw SimError("invalid-combination", what); }
    [[noreturn]] void unmodelled(const std::string& what) const { throw SimError("unmodelled-config", what); }

    // Every non-zero field of every register written in [first, last] offsets must be in `modelled`.
    void check_block(uint16_t first, uint16_t last, const std::vector<regcmd::FieldRef>& modelled) const;

    // The simulator's own resource limit (not a hardware rule): refuses tasks whose working arrays or
    // MAC count would make a functional model unreasonably slow or large.
    static constexpr uint64_t kMaxElements = uint64_t{1} << 24;
    static constexpr uint64_t kMaxMacs = uint64_t{1} << 31;
    void check_size(uint64_t elements, const char* what) const {
        if (elements > kMaxElements) {
            throw SimError("unmodelled-config", std::string(what) + " of " + std::to_string(elements) +
                                                    " elements exceeds the simulator's limit");
        }
    }

    // DMA: host view of [addr, addr+size) inside one buffer of the job, else dma-out-of-bounds.
    const uint8_t* dma_read(uint64_t addr, uint64_t size, const char* what);
    uint8_t* dma_write(uint64_t addr, uint64_t size, const char* what);

private:
    uint8_t* dma_access(uint64_t addr, uint64_t size, const char* what, bool write);
    const regcmd::RegisterState& regs_;
    DmaSpace& mem_;
    TaskCounters& counters_;
    CbufContents& cbuf_;
    WeightMemo& weight_memo_;
    const DpuLutMemory& lut_;
    uint32_t op_en_;
};

// Element access in a 16-byte atom. The float pair is inline: the simulator calls it for every fp16
// element it fetches and writes back (an out-of-line call per element was a third of a --fp16 inference).
[[noreturn]] void unmodelled_precision(const char* what, uint32_t precision);
int64_t load_int(const uint8_t* p, uint32_t precision);
void store_int(uint8_t* p, uint32_t precision, int64_t v);
inline float load_float(const uint8_t* p, uint32_t precision) {
    if (precision == kFp16) {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return npurun::fp16_to_fp32(h);
    }
    if (precision != kFp32) unmodelled_precision("float load", precision);
    float v;
    std::memcpy(&v, p, 4);
    return v;
}
inline void store_float(uint8_t* p, uint32_t precision, float v) {
    if (precision == kFp16) {
        const uint16_t h = npurun::fp32_to_fp16(v);
        std::memcpy(p, &h, 2);
        return;
    }
    if (precision != kFp32) unmodelled_precision("float store", precision);
    std::memcpy(p, &v, 4);
}
int64_t int_min(uint32_t precision);
int64_t int_max(uint32_t precision);

// Stages.
// CNA + CORE: fetches feature data and weights, runs the MAC array; returns the accumulator cube with
// `out_channels` (CORE DATAOUT_CHANNEL+1) channels, plus the per-window input sums for the CPEND stage.
struct ConvResult {
    Cube acc;
    // Input values under each kernel window, integer pipelines only: [oy][ox] summed over all input
    // channels for a direct conv; [c][oy][ox] per channel for depthwise (an output channel of a
    // depthwise conv only sees its own input channel, so only that channel's sum can be its offset term).
    PooledVector<int64_t> window_sums;
    bool per_channel_sums = false;
};
ConvResult run_cna_core(TaskExec& t);
// DPU: post-processing of `main` (from CORE or, in flying mode, read by DPU_RDMA) and the write DMA.
// `conv`'s accumulator cube is moved into the DPU pipeline (not copied).
void run_dpu(TaskExec& t, ConvResult* conv);
// The DPU lookup table (dpu_lut.h): the port's register writes, applied as the PC makes them, and the
// lookup of every element of a float cube (EW stage, after the operand, before the EW ReLU).
void lut_access_cfg(DpuLutMemory& m, uint32_t value);
void lut_access_data(DpuLutMemory& m, uint32_t value);
void run_lut(TaskExec& t, Cube& x);
// PPU fed by PPU_RDMA (flying mode).
void run_ppu(TaskExec& t);

}  // namespace npudrv::sim::detail

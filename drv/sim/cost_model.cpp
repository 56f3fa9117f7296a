#include "drv/sim/cost_model.h"

#include "drv/regcmd/fields.h"
#include "drv/regcmd/register_map.h"
#include "drv/sim/npu_simulator.h"

#include <initializer_list>

namespace npudrv::sim::cost {

namespace f = regcmd::f;

namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
uint64_t div_up(uint64_t v, uint64_t d) { return (v + d - 1) / d; }

}  // namespace

TaskCost& TaskCost::operator+=(const TaskCost& o) {
    // Tasks run one after the other on a core: their cycles add (the max is taken per task).
    const uint64_t total = cycles() + o.cycles();
    for (uint64_t TaskCost::*m : {&TaskCost::useful_macs, &TaskCost::issued_macs, &TaskCost::feature_bytes, &TaskCost::weight_bytes,
                                  &TaskCost::operand_bytes, &TaskCost::output_bytes, &TaskCost::cbuf_reused_bytes,
                                  &TaskCost::compute_cycles, &TaskCost::memory_cycles})
        this->*m += o.*m;
    overhead_cycles = total - (compute_cycles > memory_cycles ? compute_cycles : memory_cycles);
    return *this;
}

ConvIssue conv_issue(uint64_t pixels, uint64_t taps, uint64_t channels, uint64_t kernels, bool fp16, bool depthwise) {
    ConvIssue r;
    if (depthwise) {
        const uint64_t group = kDepthwiseGroupBytes / (fp16 ? 2 : 1);
        r.issued_macs = pixels * taps * align_up(channels, group);
        r.compute_cycles = div_up(r.issued_macs, group);
    } else {
        const uint64_t kg = fp16 ? kAtomicKernelsFp16 : kAtomicKernelsInt8;
        r.issued_macs = pixels * taps * align_up(channels, kAtomicChannels) * align_up(kernels, kg);
        r.compute_cycles = div_up(r.issued_macs, fp16 ? kFp16MacsPerCycle : kInt8MacsPerCycle);
    }
    return r;
}

uint64_t task_overhead_cycles(uint64_t regcmd_bytes) { return kTaskFixedCycles + div_up(regcmd_bytes, kDmaBytesPerCycle); }

TaskCost estimate_task(const regcmd::RegisterState& regs, uint32_t op_en, const TaskCounters& c) {
    TaskCost t;
    t.useful_macs = c.macs;
    t.feature_bytes = c.dma_feature_bytes;
    t.weight_bytes = c.dma_weight_bytes;
    t.operand_bytes = c.dma_read_bytes - c.dma_feature_bytes - c.dma_weight_bytes;
    t.output_bytes = c.dma_write_bytes;
    if ((op_en & (regcmd::kEnCna | regcmd::kEnCore)) == (regcmd::kEnCna | regcmd::kEnCore)) {
        const bool fp16 = regs.get(f::CNA_PROC_PRECISION) == 2;
        const uint64_t bpe = fp16 ? 2 : 1;
        const bool dw = regs.get(f::CNA_CONV_MODE) == 3;
        const uint64_t C = regs.get(f::CNA_IN_CHANNEL), K = regs.get(f::CNA_WEIGHT_KERNELS);
        const uint64_t taps = uint64_t{regs.get(f::CNA_WEIGHT_WIDTH)} * regs.get(f::CNA_WEIGHT_HEIGHT);
        const uint64_t pixels = uint64_t{regs.get(f::CORE_OUT_WIDTH) + 1} * (regs.get(f::CORE_OUT_HEIGHT) + 1);
        const ConvIssue issue = conv_issue(pixels, taps, C, K, fp16, dw);
        t.issued_macs = issue.issued_macs;
        t.compute_cycles = issue.compute_cycles;
        if (regs.get(f::CNA_DATA_REUSE)) {
            t.cbuf_reused_bytes += uint64_t{regs.get(f::CNA_IN_WIDTH)} * regs.get(f::CNA_IN_HEIGHT) * C * bpe;
        }
        if (regs.get(f::CNA_WEIGHT_REUSE)) t.cbuf_reused_bytes += regs.get(f::CNA_WEIGHT_BYTES);
    }
    t.memory_cycles = div_up(t.dma_bytes(), kDmaBytesPerCycle);
    t.overhead_cycles = task_overhead_cycles(c.regcmd_bytes);
    return t;
}

}  // namespace npudrv::sim::cost

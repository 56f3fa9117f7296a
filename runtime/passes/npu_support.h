// Which layers may run on the RK3588 NPU, and why not when they may not.
//
// The verdict encodes seed 003 (RKNN2 constraints) and the register-level limits (npu_limits.h) per op
// and per data type. It answers for one node in isolation; fusion (an activation folded into the
// convolution before it) and segment formation are decided by the placement pass on top of it.
// Every refusal carries a reason that names the limit, for `npurun --explain`.
#pragma once

#include <string>

#include "core/refusal.h"
#include "ir/graph.h"

namespace npurun {

struct NpuPolicy {
    // Float32 layers go to the NPU (as fp16, lossy) only when the user asked for it (--fp16).
    bool fp32_as_fp16 = false;
};

// The arithmetic a layer would use on the NPU.
enum class NpuDomain {
    Int8,  // QAsymmS8, or QAsymmU8 shifted into the signed domain (zero point - 128)
    Fp16,  // Float16, or Float32 converted at the segment edge under NpuPolicy::fp32_as_fp16
};

struct NpuVerdict {
    NpuDomain domain = NpuDomain::Int8;  // when supported
    Refusal refusal;                     // why not ("MaxPool kernel 9x9 exceeds 7x7"), or accepted

    bool supported() const { return refusal.accepted(); }
    const std::string& reason() const { return refusal.reason(); }
    static NpuVerdict yes(NpuDomain d) { return {d, Refusal()}; }
    static NpuVerdict no(std::string why) { return {NpuDomain::Int8, Refusal::because(std::move(why))}; }
};

NpuVerdict check_npu_support(const Graph& graph, const Node& node, const NpuPolicy& policy);

// An ElementwiseBinary Power's exponent when it is what seed 003's Pow allows (a constant of one element, one of
// npu_limits::kPowExponents, read as the CPU reference reads it), or why not. Shared by the checker and the
// backend's Pow lowering.
bool pow_exponent(const Graph& graph, const Node& node, float* exponent, std::string* why);

}  // namespace npurun

// An NPU operation as one unit. Each operation the backend lowers (runtime/npu/ops/*.cpp: convolution /
// depthwise / fully connected, pooling, element-wise, pad, views) answers three questions through one
// entry of the table keyed by op kind (npu_op_unit()):
//   check    can this node be lowered in this domain, or why not: geometry and limits only, nothing packed
//            (placement asks it for every node the checker accepts; --list-layers lists the table);
//   prepare  the node, with what placement fused into it, as an NpuOp of this segment;
//   then the NpuOp's constant_bytes / write_constants (its constants, packed once, straight into the
//   segment's constants buffer) and emit (its register lists).
// The segment (compiled_segment.h) only lays out regions and buffers and strings the ops' tasks together.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/refusal.h"
#include "drv/regcmd/regcmd_writer.h"
#include "ir/graph.h"
#include "runtime/npu/buffer_alias.h"
#include "runtime/npu/window_packing.h"
#include "runtime/passes/npu_support.h"

namespace npurun::npu {

// A node and what placement fused into it (Placed::Fused nodes of the same segment).
struct FusedNodes {
    const Node* node = nullptr;
    const Node* activation = nullptr;  // ReLU / ReLU-X folded into the layer
    const Node* pad = nullptr;         // a constant Pad folded into a convolution's padding
    const Node* gate = nullptr;        // a Sigmoid whose output the host Mul multiplies by its input (SiLU)
};

// DMA addresses of an op's operands when its tasks are emitted (feature maps NC1HWC2, plane pitch H*W*16).
struct OpAddresses {
    uint32_t input = 0;      // the main input's region
    uint32_t operand = 0;    // element-wise: the EW operand (a feature region, or the op's constants)
    uint32_t output = 0;     // the output's region
    uint32_t constants = 0;  // the op's block in the constants buffer
    uint32_t scratch = 0;    // the op's own feature region (scratch_bytes), else 0
};

// One NPU layer of a segment, prepared.
class NpuOp {
public:
    virtual ~NpuOp() = default;

    TensorId input = kNoTensor;    // main input (feature map read by the first task)
    TensorId operand = kNoTensor;  // a second run-time feature map read (element-wise), else kNoTensor
    TensorId output = kNoTensor;   // feature map written (a fused activation's output)

    // A view (Reshape / Concat / Slice / Splitter) has no task: it only places tensors inside other tensors' regions.
    virtual bool is_view() const { return false; }
    virtual void add_views(AliasMap* aliases) const { (void)aliases; }
    // Feature maps a view relates (its node's inputs and outputs: a Splitter has several); empty for computing ops.
    virtual std::vector<TensorId> view_tensors() const { return {}; }
    // The output region holds bytes written once at load (a Pad border), so it cannot be the user's buffer.
    virtual bool output_written_at_load() const { return false; }

    virtual uint64_t macs() const { return 0; }
    // Bytes of this op's block in the constants buffer, and the packing of that block (once per compile).
    virtual uint64_t constant_bytes() const { return 0; }
    virtual void write_constants(uint8_t* block) const { (void)block; }
    // Bytes of a feature region of the op's own: a map one of its tasks writes and a later one of its tasks reads
    // (a channel expansion, channel_expansion.h), which no other layer sees. 0: none.
    virtual uint64_t scratch_bytes() const { return 0; }
    // Writes what stays constant in the output region (at load, into the zeroed feature buffer).
    virtual void write_output_at_load(uint8_t* output_region) const { (void)output_region; }

    // The segment's first layer reading a host input (window_packing.h): asks the op to read the input as
    // its windows packed on the host. Returns the packing when the op now reads that form, or nullptr and
    // why not (the op's shape, or the cost model says the unpacked layer is as cheap).
    virtual const WindowPacking* pack_input_windows(std::string* why) {
        *why = "only a convolution packs its input windows";
        return nullptr;
    }

    // Spreads the op's tasks over up to `lanes` cores when it can (one lane per core, nothing shared
    // between lanes); returns the lanes its tasks now use (1 when it cannot). rows_only: split by output
    // rows wherever the layer can be (see lane_rows), even where another split moves fewer bytes.
    virtual uint32_t spread_over_lanes(uint32_t lanes, bool rows_only = false) {
        (void)lanes, (void)rows_only;
        return 1;
    }
    // Rows [begin, end) of its main input that lane `lane` reads and of its output that it writes (every
    // channel of them), when the op's lanes split it by output rows; false otherwise.
    struct Rows {
        uint32_t begin = 0, end = 0;
    };
    // The cost model's cycles of the op's slowest lane under its current plan (drv/sim/cost_model.h); 0 when the
    // op has no estimate.
    virtual uint64_t slowest_lane_cycles() const { return 0; }
    virtual bool lane_rows(uint32_t lane, Rows* reads, Rows* writes) const {
        (void)lane, (void)reads, (void)writes;
        return false;
    }
    // Appends the op's tasks to the lanes' writers (one writer per lane the op uses); returns how many.
    virtual uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const = 0;
};

struct NpuOpUnit {
    OpKind kind;
    // Cheap: can `node` (as placement sees it, without fused nodes) be lowered in domain d?
    Refusal (*check)(const Graph& g, const Node& node, NpuDomain d);
    // The op for `nodes` in domain d; refused when what placement fused into it cannot be lowered.
    Refusal (*prepare)(const Graph& g, const FusedNodes& nodes, NpuDomain d, std::unique_ptr<NpuOp>* out);
};

// The unit lowering `op`, or nullptr when the backend has none.
const NpuOpUnit* npu_op_unit(OpKind op);

// Placement's question (PlacementOptions::lowering_refusal): the unit's check, or "no NPU lowering".
Refusal npu_lowering_refusal(const Graph& g, const Node& node, NpuDomain d);

}  // namespace npurun::npu

// The Expand unit (seed 003 Expand: input int8/float16 per-layer, a size-1 axis repeated to the target shape).
// Arm NN writes it as a Tile whose tiled axes all have size 1 (TfLite BROADCAST_TO and ONNX Expand reach a
// serialized graph that way; BroadcastTo itself has no place in the serializer schema). The checker
// (runtime/passes/npu_support.cpp check_tile) holds seed 003's patterns and limits; this unit lowers them on a
// [1,H,W,C] map as DPU flying copies (identity BS/EW/output converter, dpu_flying.h; raw like Gather, so input
// and output share one quantization):
//   0. the channel-broadcasting patterns ([b,1,1,w] and [b,1,h,1] -> [b,c,h,w]) first repeat the one channel
//      across C (channel_expansion.h: a 1x1 convolution with weights 1, exact) into a region of the op's own; the
//      steps below then read that map as their input;
//   1. the input into the output's first rows: one task when the rows keep their width (the input's planes are
//      then a contiguous band of each output plane), else one 1x1 task per input row (the write DMA has no
//      documented line stride, so a task writes whole rows or a run inside one row);
//   2. along W, by doubling inside each of those rows: columns [0, k) copied to [k, 2k), k = 1, 2, 4, ... (the
//      last copy shorter): ceil(log2 W) tasks per row;
//   3. along H, by doubling whole rows: rows [0, k) copied to [k, 2k): ceil(log2 H) tasks, each a band
//      contiguous in every channel plane.
// Steps 1-3 read what earlier tasks of the same chain wrote, as Pad's reflect mode does: the tasks of one
// op go to one core and run in chain order, each finishing its writes before the next starts.
// Refused with the reason: differing input / output quantization, cubes above the 13-bit fields, more than
// kMaxFlyingTasksPerLayer tasks, a channel expansion the convolution unit cannot lower.
// Constants: the channel expansion's weights and BS stream, when there is one.
#include <algorithm>
#include <optional>
#include <vector>

#include "runtime/npu/channel_expansion.h"
#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/layer_unit.h"
#include "runtime/npu/ops/units.h"
#include "runtime/passes/npu_limits.h"

namespace npurun::npu::ops {

namespace {

struct ExpandLayer {
    NpuDomain domain = NpuDomain::Int8;
    uint32_t c = 0, h = 0, w = 0;  // input
    uint32_t ho = 0, wo = 0;       // output
    // The one input channel repeated across c first (then c is the output's channel count).
    std::optional<ChannelExpansion> channels;

    // ceil(log2(n / from)) doublings take `from` copies of a block to n.
    static uint64_t doublings(uint32_t from, uint32_t n) {
        uint64_t k = 0;
        for (uint64_t have = from; have < n; have *= 2) ++k;
        return k;
    }
    // emit_expand_tasks' three steps (W expanded means w == 1).
    uint64_t task_count() const {
        const uint64_t place_and_w = w == wo ? 1 : h * (1 + doublings(1, wo));
        return (channels ? channels->task_count() : 0) + place_and_w + doublings(h, ho);
    }
};

Refusal prepare_expand_layer(const Graph& g, const Node& node, NpuDomain d, ExpandLayer* out) {
    if (node.op != OpKind::Tile || node.inputs.size() != 1 || node.outputs.size() != 1) return Refusal::because("not a Tile");
    const TensorInfo& xi = g.info(node.inputs[0]);
    const TensorInfo& yi = g.info(node.outputs[0]);
    if (xi.shape.rank != 4 || yi.shape.rank != 4) return Refusal::because("Expand of a tensor that is not 4-D NHWC");
    if (xi.shape[0] != 1 || yi.shape[0] != 1) return Refusal::because("Expand of a batch other than 1");
    if (xi.dtype != yi.dtype || xi.quant.scales != yi.quant.scales || xi.quant.offset != yi.quant.offset)
        return Refusal::because("Expand input and output quantization differ (the NPU copy is raw)");
    // The checker admitted only size-1 axes being repeated; the unit relies on it.
    for (uint32_t a = 1; a < 3; ++a)
        if (xi.shape[a] != yi.shape[a] && xi.shape[a] != 1)
            return Refusal::because("Tile repeats axis " + std::to_string(a) + " of size " + std::to_string(xi.shape[a]) + " (not an Expand)");
    if (xi.shape[3] != yi.shape[3] && xi.shape[3] != 1)
        return Refusal::because("Tile repeats axis 3 of size " + std::to_string(xi.shape[3]) + " (not an Expand)");
    ExpandLayer L;
    if (xi.shape[3] != yi.shape[3]) {
        // Seed 003 admits a channel broadcast only together with H or W (the checker); any such shape is lowered
        // as the expansion followed by the spatial steps.
        ChannelExpansion e;
        if (Refusal r = ChannelExpansion::make(xi, yi.shape[3], d, &e); r.refused()) return r;
        L.channels = std::move(e);
    }
    std::string why;
    FeatureGeometry gx, gy;
    if (!feature_geometry(L.channels ? L.channels->expanded() : xi, d, &gx, &why) ||
        !feature_geometry(yi, d, &gy, &why))
        return Refusal::because(why);
    L.domain = d;
    L.c = gx.c, L.h = gx.h, L.w = gx.w, L.ho = gy.h, L.wo = gy.w;
    if (L.c > npu_limits::kCubeMaxDim || L.ho > npu_limits::kCubeMaxDim || L.wo > npu_limits::kCubeMaxDim)
        return Refusal::because("cube above " + std::to_string(npu_limits::kCubeMaxDim) + " (13-bit fields)");
    if (L.task_count() > kMaxFlyingTasksPerLayer)
        return Refusal::because("Expand " + xi.shape.str() + " -> " + yi.shape.str() + " needs " + std::to_string(L.task_count()) +
                                " copy tasks, above " + std::to_string(kMaxFlyingTasksPerLayer));
    *out = L;
    return {};
}

uint32_t emit_expand_tasks(npudrv::regcmd::RegcmdWriter& w, const ExpandLayer& L, uint32_t input, uint32_t output) {
    const uint32_t out_plane = L.ho * L.wo;
    uint32_t tasks = 0;
    // 1. The input into the first h rows (column 0 when W is expanded).
    DpuFlyingTask t = flying_copy_task(L.domain == NpuDomain::Int8, L.c, L.h * L.w, out_plane);
    if (L.w == L.wo) {
        t.h = L.h, t.w = L.w;
        t.src = input, t.dst = output;
        emit_dpu_flying_task(w, t);
        ++tasks;
    } else {
        t.h = 1, t.w = 1;
        for (uint32_t y = 0; y < L.h; ++y) {
            t.src = input + y * 16;
            t.dst = output + y * L.wo * 16;
            emit_dpu_flying_task(w, t);
            ++tasks;
        }
    }
    // 2. Along W inside each of those rows; source and destination are both the output.
    DpuFlyingTask d = flying_copy_task(L.domain == NpuDomain::Int8, L.c, out_plane, out_plane);
    if (L.w != L.wo) {
        d.h = 1;
        for (uint32_t y = 0; y < L.h; ++y)
            for (uint32_t have = 1; have < L.wo; have *= 2) {
                d.w = std::min(have, L.wo - have);
                d.src = output + y * L.wo * 16;
                d.dst = d.src + have * 16;
                emit_dpu_flying_task(w, d);
                ++tasks;
            }
    }
    // 3. Along H, whole rows.
    return tasks + emit_row_doublings(w, L.domain == NpuDomain::Int8, L.c, L.ho, L.wo, L.h, output);
}

class ExpandOp : public LayerOp<ExpandLayer> {
public:
    using LayerOp<ExpandLayer>::LayerOp;
    uint64_t macs() const override { return layer_.channels ? layer_.channels->macs() : 0; }
    uint64_t constant_bytes() const override { return layer_.channels ? layer_.channels->constant_bytes() : 0; }
    void write_constants(uint8_t* block) const override {
        if (layer_.channels) layer_.channels->write_constants(block);
    }
    uint64_t scratch_bytes() const override { return layer_.channels ? layer_.channels->scratch_bytes() : 0; }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        if (!layer_.channels) return emit_expand_tasks(lanes[0], layer_, a.input, a.output);
        const uint32_t n = layer_.channels->emit(lanes[0], a.input, a.scratch, a.constants);
        return n + emit_expand_tasks(lanes[0], layer_, a.scratch, a.output);
    }
};

}  // namespace

const NpuOpUnit kExpand{OpKind::Tile, check_layer<ExpandLayer, prepare_expand_layer>,
    prepare_layer_op<ExpandOp, ExpandLayer, prepare_expand_layer>};

}  // namespace npurun::npu::ops

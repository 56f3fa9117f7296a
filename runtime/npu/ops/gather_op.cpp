// The Gather unit (seed 003 Gather: X int8/float16 per-layer, Indices int rank 1, axis in {0,1,2,3}): a
// selection of rows (axis H) or columns (axis W) of a [1,H,W,C] map by constant indices, lowered to DPU
// flying copy tasks (identity BS/EW/output converter, dpu_flying.h), as Pad copies its interior:
//   axis H: one task per run of consecutive indices (a band of whole rows is contiguous in each channel plane);
//   axis W: one task per input row and run of consecutive indices (the write DMA has no line stride);
//   axis N: batch 1 with the single index 0 is a whole-cube copy.
// Refused, with the reason: run-time indices (the tasks' addresses are fixed at compile time), indices of rank
// other than 1 or out of range, the channel axis (elements inside the 16-byte NC1HWC2 atoms: the DMA moves whole
// atoms), differing input / output quantization (the copy is raw), more than kMaxFlyingTasksPerLayer tasks.
// No constants.
#include <cstring>
#include <vector>

#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/layer_unit.h"
#include "runtime/npu/ops/units.h"

namespace npurun::npu::ops {

namespace {

struct GatherLayer {
    NpuDomain domain = NpuDomain::Int8;
    uint32_t axis = 1;             // NHWC axis: 0 batch, 1 H, 2 W
    uint32_t c = 0, h = 0, w = 0;  // input
    uint32_t ho = 0, wo = 0;       // output
    // Runs of consecutive indices: output positions [dst, dst + len) take input positions [src, src + len).
    struct Run {
        uint32_t src = 0, dst = 0, len = 0;
    };
    std::vector<Run> runs;

    uint64_t task_count() const { return axis == 2 ? uint64_t{h} * runs.size() : runs.size(); }
};

std::vector<GatherLayer::Run> index_runs(const std::vector<int32_t>& idx) {
    std::vector<GatherLayer::Run> runs;
    for (uint32_t j = 0; j < idx.size(); ++j) {
        const auto s = static_cast<uint32_t>(idx[j]);
        if (!runs.empty() && runs.back().src + runs.back().len == s) {
            ++runs.back().len;
        } else {
            runs.push_back({s, j, 1});
        }
    }
    return runs;
}

// The constant indices, checked: rank 1, Signed32, each in [0, dim).
Refusal read_indices(const Graph& g, TensorId id, uint32_t dim, std::vector<int32_t>* out) {
    const Tensor& t = g.tensor(id);
    if (!t.is_constant()) return Refusal::because("Gather indices computed at run time (the copy addresses are fixed when the stream is built)");
    if (t.info.dtype != DataType::Signed32) return Refusal::because(std::string("Gather indices are ") + to_string(t.info.dtype) + ", not Signed32");
    if (t.info.shape.rank != 1) return Refusal::because("Gather indices of rank " + std::to_string(t.info.shape.rank) + " (seed 003: rank 1)");
    const uint32_t n = t.info.shape[0];
    if (n == 0) return Refusal::because("Gather with no index");
    out->resize(n);
    std::memcpy(out->data(), t.data, size_t{n} * sizeof(int32_t));
    for (int32_t v : *out)
        if (v < 0 || static_cast<uint32_t>(v) >= dim)
            return Refusal::because("Gather index " + std::to_string(v) + " outside [0, " + std::to_string(dim) + ")");
    return {};
}

Refusal prepare_gather_layer(const Graph& g, const Node& node, NpuDomain d, GatherLayer* out) {
    if (node.op != OpKind::Gather || node.inputs.size() != 2 || node.outputs.size() != 1) return Refusal::because("not a Gather");
    const TensorInfo& xi = g.info(node.inputs[0]);
    const TensorInfo& yi = g.info(node.outputs[0]);
    if (xi.shape.rank != 4 || yi.shape.rank != 4) return Refusal::because("Gather of a tensor that is not 4-D NHWC");
    int32_t axis = node.attr<GatherAttrs>().axis;
    if (axis < 0) axis += 4;
    if (axis < 0 || axis > 3) return Refusal::because("Gather axis " + std::to_string(node.attr<GatherAttrs>().axis) + " outside {0,1,2,3}");
    if (axis == 3)
        return Refusal::because(
            "Gather along the channel axis is not lowered (it selects elements inside the 16-byte NC1HWC2 atoms; the "
            "DMA moves whole atoms)");
    FeatureGeometry gx, gy;
    if (Refusal r = raw_copy_maps(xi, yi, d, "Gather", &gx, &gy); r.refused()) return r;
    GatherLayer L;
    L.domain = d;
    L.axis = static_cast<uint32_t>(axis);
    L.c = gx.c, L.h = gx.h, L.w = gx.w, L.ho = gy.h, L.wo = gy.w;
    const uint32_t dim = axis == 0 ? 1u : (axis == 1 ? L.h : L.w);
    std::vector<int32_t> idx;
    if (Refusal r = read_indices(g, node.inputs[1], dim, &idx); r.refused()) return r;
    const uint32_t n = static_cast<uint32_t>(idx.size());
    const bool shape_ok = gy.c == gx.c && (axis == 0 ? (n == 1 && L.ho == L.h && L.wo == L.w)
                                          : axis == 1 ? (L.ho == n && L.wo == L.w) : (L.ho == L.h && L.wo == n));
    if (!shape_ok) return Refusal::because("Gather output shape " + yi.shape.str() + " does not match the input and the indices");
    L.runs = index_runs(idx);
    if (L.task_count() > kMaxFlyingTasksPerLayer)
        return Refusal::because("Gather needs " + std::to_string(L.task_count()) + " copy tasks, above " + std::to_string(kMaxFlyingTasksPerLayer));
    *out = std::move(L);
    return {};
}

uint32_t emit_gather_tasks(npudrv::regcmd::RegcmdWriter& w, const GatherLayer& L, uint32_t input, uint32_t output) {
    DpuFlyingTask t = flying_copy_task(L.domain == NpuDomain::Int8, L.c, L.h * L.w, L.ho * L.wo);
    uint32_t tasks = 0;
    if (L.axis != 2) {
        // Axis N (one run of the whole map) or H: bands of whole rows.
        t.w = L.w;
        for (const GatherLayer::Run& r : L.runs) {
            t.h = L.axis == 0 ? L.h : r.len;
            t.src = input + (L.axis == 0 ? 0u : r.src * L.w * 16);
            t.dst = output + (L.axis == 0 ? 0u : r.dst * L.w * 16);
            emit_dpu_flying_task(w, t);
            ++tasks;
        }
        return tasks;
    }
    t.h = 1;
    for (uint32_t y = 0; y < L.h; ++y)
        for (const GatherLayer::Run& r : L.runs) {
            t.w = r.len;
            t.src = input + (y * L.w + r.src) * 16;
            t.dst = output + (y * L.wo + r.dst) * 16;
            emit_dpu_flying_task(w, t);
            ++tasks;
        }
    return tasks;
}

using GatherOp = OneLaneLayerOp<GatherLayer, emit_gather_tasks>;

}  // namespace

const NpuOpUnit kGather{OpKind::Gather, check_layer<GatherLayer, prepare_gather_layer>,
    prepare_layer_op<GatherOp, GatherLayer, prepare_gather_layer>};

}  // namespace npurun::npu::ops

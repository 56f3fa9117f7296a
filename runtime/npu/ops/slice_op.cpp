// The Slice that moves data (view_op.cpp's kSlice takes a channel cut on the 16-byte atom as a view of the input's
// region, and hands every other Slice to this file). A cut of rows and / or columns that keeps every channel is
// copied by DPU flying copy tasks (identity BS / EW / output converter, dpu_flying.h), like Gather's runs:
//   rows only: one task, the band of rows [h0, h0 + hs) of every plane (contiguous in each channel plane);
//   columns:   one task per output row (the write DMA has no line stride), columns [w0, w0 + ws) of input row h0 + y.
// Refused, with the reason: a cut of channels together with rows / columns, of the batch, a requantizing Slice.
// No constants.
#include "runtime/npu/dpu_flying.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/layer_unit.h"
#include "runtime/npu/ops/units.h"
#include "runtime/passes/npu_limits.h"

namespace npurun::npu::ops {

namespace {

struct SliceCopyLayer {
    NpuDomain domain = NpuDomain::Int8;
    uint32_t c = 0, h = 0, w = 0;  // input
    uint32_t h0 = 0, hs = 0;       // rows [h0, h0 + hs)
    uint32_t w0 = 0, ws = 0;       // columns [w0, w0 + ws)

    bool whole_rows() const { return w0 == 0 && ws == w; }
};

Refusal prepare_slice_copy(const Graph& g, const Node& node, NpuDomain d, SliceCopyLayer* out) {
    if (node.op != OpKind::Slice || node.inputs.size() != 1 || node.outputs.size() != 1)
        return Refusal::because("not a Slice");
    const TensorInfo& xi = g.info(node.inputs[0]);
    const TensorInfo& yi = g.info(node.outputs[0]);
    if (g.tensor(node.inputs[0]).is_constant()) return Refusal::because("Slice of a constant");
    if (xi.shape.rank != 4 || yi.shape.rank != 4)
        return Refusal::because("a copy of rows / columns only of a 4-D NHWC map");
    const auto& a = node.attr<SliceAttrs>();
    if (a.begin.size() != 4 || a.size.size() != 4) return Refusal::because("Slice without one begin and size per axis");
    for (uint32_t ax = 0; ax < 4; ++ax)
        if (uint64_t{a.begin[ax]} + a.size[ax] > xi.shape[ax] || a.size[ax] != yi.shape[ax])
            return Refusal::because("Slice begin / size outside its input " + xi.shape.str());
    if (a.begin[0] != 0 || a.size[0] != xi.shape[0]) return Refusal::because("Slice along the batch");
    if (a.begin[3] != 0 || a.size[3] != xi.shape[3])
        return Refusal::because(
            "Slice of channels together with rows or columns (a copy moves whole 16-byte atoms of all channels)");
    FeatureGeometry gx, gy;
    if (Refusal r = raw_copy_maps(xi, yi, d, "Slice", &gx, &gy); r.refused()) return r;
    SliceCopyLayer L;
    L.domain = d;
    L.c = gx.c, L.h = gx.h, L.w = gx.w;
    L.h0 = a.begin[1], L.hs = a.size[1], L.w0 = a.begin[2], L.ws = a.size[2];
    if (L.hs == 0 || L.ws == 0) return Refusal::because("empty Slice");
    static_assert(npu_limits::kCubeMaxDim <= kMaxFlyingTasksPerLayer,
                  "one task per row stays within the layer's tasks");
    *out = L;
    return {};
}

uint32_t emit_slice_copy(npudrv::regcmd::RegcmdWriter& w, const SliceCopyLayer& L, uint32_t input, uint32_t output) {
    DpuFlyingTask t = flying_copy_task(L.domain == NpuDomain::Int8, L.c, L.h * L.w, L.hs * L.ws);
    if (L.whole_rows()) {
        t.h = L.hs, t.w = L.w;
        t.src = input + L.h0 * L.w * 16;
        t.dst = output;
        emit_dpu_flying_task(w, t);
        return 1;
    }
    t.h = 1, t.w = L.ws;
    for (uint32_t y = 0; y < L.hs; ++y) {
        t.src = input + ((L.h0 + y) * L.w + L.w0) * 16;
        t.dst = output + y * L.ws * 16;
        emit_dpu_flying_task(w, t);
    }
    return L.hs;
}

using SliceCopyOp = OneLaneLayerOp<SliceCopyLayer, emit_slice_copy>;

}  // namespace

Refusal check_slice_copy(const Graph& g, const Node& node, NpuDomain d) {
    SliceCopyLayer L;
    return prepare_slice_copy(g, node, d, &L);
}

Refusal prepare_slice_copy_op(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    return prepare_layer_op<SliceCopyOp, SliceCopyLayer, prepare_slice_copy>(g, f, d, out);
}

}  // namespace npurun::npu::ops

// The convolution unit: Convolution2d, DepthwiseConvolution2d and FullyConnected (a 1x1 convolution over one
// pixel). check: geometry, requantization and a CBUF tiling (conv_layer.h, conv_tiling.h), nothing packed;
// constants: weights then the BS stream, packed once (conv_layer.h); emit: the tiles' CNA/CORE/DPU lists
// (conv_regcmd.h), over several lanes when the segment is this one convolution.
// Window packing (window_packing.h) is not part of check: it never refuses a layer. The segment offers it
// to a convolution whose input comes from the host and that no other layer of the segment reads; the op
// takes it when its shape allows (window_packing_refusal: not depthwise, not 1x1 stride 1, C below the
// feature atom, kh*kw*C <= kMaxPackedChannels, the packed layer tiles) and the cost model's cycles of the packed layer
// (issued MAC slots against its DMA bytes) are fewer than the unpacked layer's.
#include <algorithm>

#include "core/error.h"
#include "runtime/npu/conv_regcmd.h"
#include "runtime/npu/ops/units.h"
#include "runtime/passes/pad_folding.h"

namespace npurun::npu::ops {

namespace {

class ConvOp : public NpuOp {
public:
    ConvOp(const Graph& g, const Node& node, const Node* act, const ConvLayer& L, const ConvTiling& t)
        : graph_(g), node_(node), act_(act), layer_(L), tiling_(t) {
        input = node_.inputs[0];
        output = act ? act->outputs[0] : node_.outputs[0];
    }

    uint64_t macs() const override { return layer_.macs(); }
    uint64_t constant_bytes() const override { return conv_constant_bytes(layer_); }
    void write_constants(uint8_t* block) const override { write_conv_constants(graph_, node_, act_, layer_, block); }

    const WindowPacking* pack_input_windows(std::string* why) override {
        ConvLayer P;
        ConvTiling t;
        if (Refusal r = choose_window_packing(layer_, tiling_, &P, &t); r.refused()) {
            *why = r.reason();
            return nullptr;
        }
        packing_ = window_packing(layer_);
        layer_ = P;
        tiling_ = t;
        return &packing_;
    }

    uint32_t spread_over_lanes(uint32_t lanes, bool rows_only) override {
        if (lanes > 1) {
            TilingRequest req;
            req.lanes = lanes;
            req.rows_only = rows_only;
            std::string why;
            ConvTiling t;
            if (plan_conv_tiling(layer_, &t, &why, req)) tiling_ = t;
        }
        return std::max(1u, tiling_.lanes);
    }

    uint64_t slowest_lane_cycles() const override { return estimated_slowest_lane_cycles(layer_, tiling_); }
    bool lane_rows(uint32_t lane, Rows* reads, Rows* writes) const override {
        if (tiling_.split != LaneSplit::Rows || lane >= tiling_.lanes) return false;
        const auto [oy0, rows] = lane_range(layer_, tiling_, lane);
        const InputWindow in = input_window(layer_, oy0, rows);
        *reads = {in.iy0, in.iy1};
        *writes = {oy0, oy0 + rows};
        return true;
    }

    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        const ConvAddresses ca = conv_addresses(layer_, a.input, a.output, a.constants);
        const uint32_t n = static_cast<uint32_t>(lanes.size());
        uint32_t tasks = 0;
        for (uint32_t lane = 0; lane < n; ++lane) tasks += emit_conv_tasks(lanes[lane], layer_, tiling_, ca, n > 1 ? int(lane) : -1);
        return tasks;
    }

private:
    const Graph& graph_;
    Node node_;  // a copy: a folded Pad makes a convolution node that exists only here
    const Node* act_;
    ConvLayer layer_;
    ConvTiling tiling_;
    WindowPacking packing_;  // valid once pack_input_windows() took it
};

Refusal check(const Graph& g, const Node& node, NpuDomain d) {
    ConvLayer L;
    if (Refusal r = check_conv_layer(g, node, nullptr, d, &L); r.refused()) return r;
    ConvTiling t;
    std::string why;
    if (!plan_conv_tiling(L, &t, &why)) return Refusal::because(why);
    return {};
}

Refusal prepare(const Graph& g, const FusedNodes& f, NpuDomain d, std::unique_ptr<NpuOp>* out) {
    Node folded;
    std::string why;
    if (f.pad != nullptr && !fold_pad_into_conv(g, *f.pad, *f.node, &folded, &why))
        fail(ErrorKind::Internal, f.node->describe() + ": the Pad placed into it does not fold: " + why);
    const Node& conv = f.pad != nullptr ? folded : *f.node;
    ConvLayer L;
    if (Refusal r = check_conv_layer(g, conv, f.activation, d, &L); r.refused()) return r;
    ConvTiling t;
    if (!plan_conv_tiling(L, &t, &why)) return Refusal::because(why);
    *out = std::make_unique<ConvOp>(g, conv, f.activation, L, t);
    return {};
}

}  // namespace

const NpuOpUnit kConvolution{OpKind::Convolution2d, check, prepare};
const NpuOpUnit kDepthwise{OpKind::DepthwiseConvolution2d, check, prepare};
const NpuOpUnit kFullyConnected{OpKind::FullyConnected, check, prepare};

}  // namespace npurun::npu::ops

#include "runtime/npu/buffer_alias.h"

#include <algorithm>
#include <vector>

#include "core/error.h"
#include "runtime/npu/feature_layout.h"

namespace npurun::npu {

namespace {

const Node* producer_of(const Graph& g, TensorId t) {
    for (const Node& n : g.nodes)
        if (std::find(n.outputs.begin(), n.outputs.end(), t) != n.outputs.end()) return &n;
    return nullptr;
}

bool is_conv_like(OpKind op) {
    return op == OpKind::Convolution2d || op == OpKind::DepthwiseConvolution2d || op == OpKind::FullyConnected;
}

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// How many channels from t's first one t's producer writes: whole C2 atoms; a convolution (possibly
// through the activation fused into it) 16-channel groups in both precisions (conv_layer.h coa); a
// Concat whatever its inputs' producers write at their offsets.
uint32_t written_channels(const Graph& g, TensorId t, uint32_t c2, int depth = 0) {
    const Shape& s = g.info(t).shape;
    const uint32_t c = s.rank == 0 ? 0 : s[s.rank - 1];
    uint32_t extent = align_up(c, c2);
    const Node* p = producer_of(g, t);
    if (p != nullptr && p->op == OpKind::Activation && !p->inputs.empty()) p = producer_of(g, p->inputs[0]);
    if (p == nullptr) return extent;
    if (is_conv_like(p->op)) return std::max(extent, align_up(c, 16));
    if (p->op == OpKind::Concat && depth < 64) {
        const auto& a = p->attr<ConcatAttrs>();
        for (size_t j = 0; j < p->inputs.size() && j < a.view_origins.size(); ++j)
            if (p->inputs[j] != kNoTensor && !a.view_origins[j].empty())
                extent = std::max(extent, a.view_origins[j].back() + written_channels(g, p->inputs[j], c2, depth + 1));
    }
    return extent;
}

std::string reshape_refusal(const Graph& g, const Node& n, NpuDomain d) {
    if (n.inputs.empty() || n.inputs[0] == kNoTensor || n.outputs.empty()) return "Reshape without input or output";
    if (g.tensor(n.inputs[0]).is_constant()) return "Reshape of a constant";
    FeatureGeometry in, out;
    std::string why;
    if (!feature_geometry(g.info(n.inputs[0]), d, &in, &why) || !feature_geometry(g.info(n.outputs[0]), d, &out, &why))
        return "Reshape " + why;
    if (in.c != out.c || uint64_t{in.h} * in.w != uint64_t{out.h} * out.w)
        return "Reshape " + g.info(n.inputs[0]).shape.str() + " -> " + g.info(n.outputs[0]).shape.str() +
               " changes the channel count, which moves data in the NC1HWC2 layout";
    return {};
}

std::string concat_refusal(const Graph& g, const Node& n, NpuDomain d) {
    const auto& a = n.attr<ConcatAttrs>();
    if (n.outputs.empty() || n.inputs.empty() || a.view_origins.size() != n.inputs.size()) return "Concat without views";
    FeatureGeometry out;
    std::string why;
    if (g.info(n.outputs[0]).shape.rank != 4 || !feature_geometry(g.info(n.outputs[0]), d, &out, &why))
        return "Concat output: " + (why.empty() ? std::string("not a 4-D [1,H,W,C] map") : why);
    const uint32_t c2 = out.c2();
    struct View {
        uint32_t origin, channels;
        TensorId t;
    };
    std::vector<View> views;
    for (size_t j = 0; j < n.inputs.size(); ++j) {
        const TensorId t = n.inputs[j];
        if (t == kNoTensor || g.tensor(t).is_constant()) return "Concat of a constant (only run-time tensors are views)";
        for (size_t k = 0; k < j; ++k)
            if (n.inputs[k] == t) return "Concat reads the same tensor twice (it cannot live at two offsets)";
        FeatureGeometry in;
        if (g.info(t).shape.rank != 4 || !feature_geometry(g.info(t), d, &in, &why)) return "Concat input: " + why;
        const auto& o = a.view_origins[j];
        if (o.size() != 4 || o[0] != 0 || o[1] != 0 || o[2] != 0 || in.h != out.h || in.w != out.w)
            return "Concat is a buffer view on the NPU only along the channel axis";
        if (o[3] % c2 != 0)
            return "Concat input " + std::to_string(j) + " starts at channel " + std::to_string(o[3]) +
                   ", not a multiple of the " + std::to_string(c2) + "-channel NC1HWC2 atom (it would need a copy)";
        const Node* p = producer_of(g, t);
        if (p != nullptr && p->op == OpKind::Reshape) return "Concat input is a Reshape's view (chained views are not planned)";
        for (const Node& other : g.nodes)
            if (&other != &n && other.op == OpKind::Concat &&
                std::find(other.inputs.begin(), other.inputs.end(), t) != other.inputs.end())
                return "Concat input '" + g.tensor(t).name + "' also feeds another Concat (it cannot live at two offsets)";
        views.push_back({o[3], in.c, t});
    }
    std::sort(views.begin(), views.end(), [](const View& x, const View& y) { return x.origin < y.origin; });
    uint32_t next = 0;
    for (size_t j = 0; j < views.size(); ++j) {
        if (views[j].origin != next) return "Concat views do not tile the output channels";
        next += views[j].channels;
        // Producers write whole atoms (fp16 convolutions: 16-channel groups, also inside a nested Concat):
        // what an input writes past its channels must not land on the next input.
        const bool last = j + 1 == views.size();
        if (!last && written_channels(g, views[j].t, c2) > views[j].channels)
            return "Concat input of " + std::to_string(views[j].channels) + " channels is written in " +
                   std::to_string(written_channels(g, views[j].t, c2)) +
                   " channels (an fp16 convolution writes 16-channel groups), over the next input";
    }
    if (next != out.c) return "Concat views do not tile the output channels";
    return {};
}

}  // namespace

bool is_buffer_alias(OpKind op) { return op == OpKind::Reshape || op == OpKind::Concat; }

Refusal buffer_alias_refusal(const Graph& g, const Node& n, NpuDomain d) {
    std::string why = std::string(to_string(n.op)) + " is not a buffer view";
    if (n.op == OpKind::Reshape) why = reshape_refusal(g, n, d);
    if (n.op == OpKind::Concat) why = concat_refusal(g, n, d);
    return why.empty() ? Refusal() : Refusal::because(why);
}

void add_buffer_alias(const Graph& g, const Node& n, AliasMap* map) {
    auto link = [&](TensorId child, TensorId parent, uint32_t offset) {
        if (!map->emplace(child, std::make_pair(parent, offset)).second)
            fail(ErrorKind::Internal, n.describe() + ": tensor '" + g.tensor(child).name + "' would be a view of two buffers");
    };
    if (n.op == OpKind::Reshape) {
        link(n.outputs[0], n.inputs[0], 0);
    } else if (n.op == OpKind::Concat) {
        const auto& a = n.attr<ConcatAttrs>();
        for (size_t j = 0; j < n.inputs.size(); ++j) link(n.inputs[j], n.outputs[0], a.view_origins.at(j).at(3));
    }
}

TensorId alias_root(const AliasMap& map, TensorId t, uint32_t* channel_offset) {
    uint32_t off = 0;
    for (size_t steps = 0; steps <= map.size(); ++steps) {
        auto it = map.find(t);
        if (it == map.end()) {
            *channel_offset = off;
            return t;
        }
        off += it->second.second;
        t = it->second.first;
    }
    fail(ErrorKind::Internal, "NPU buffer views form a cycle");
}

}  // namespace npurun::npu

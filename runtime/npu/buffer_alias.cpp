#include "runtime/npu/buffer_alias.h"

#include <algorithm>
#include <vector>

#include "core/align.h"
#include "core/error.h"
#include "runtime/npu/feature_layout.h"

namespace npurun::npu {

namespace {

const Node* producer_of(const Graph& g, TensorId t) {
    for (const Node& n : g.nodes)
        if (std::find(n.outputs.begin(), n.outputs.end(), t) != n.outputs.end()) return &n;
    return nullptr;
}

bool is_channel_view(OpKind op) { return op == OpKind::Slice || op == OpKind::Splitter; }

bool is_conv_like(OpKind op) {
    return op == OpKind::Convolution2d || op == OpKind::DepthwiseConvolution2d || op == OpKind::FullyConnected;
}

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
        if (p != nullptr && is_channel_view(p->op))
            return std::string("Concat input is a ") + to_string(p->op) +
                   "'s view of another buffer (it cannot live at two offsets)";
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

// The channel ranges a Slice (one output) or Splitter (one per output) takes: [origin, origin + size) of the last
// axis, every other axis whole; false with why when some output takes a part of another axis.
struct ChannelRange {
    uint32_t begin = 0, size = 0;
};
bool channel_ranges(const Graph& g, const Node& n, std::vector<ChannelRange>* out, std::string* why) {
    const Shape& s = g.info(n.inputs[0]).shape;
    std::vector<std::vector<uint32_t>> origins, sizes;
    if (n.op == OpKind::Slice) {
        const auto& a = n.attr<SliceAttrs>();
        origins = {a.begin}, sizes = {a.size};
    } else {
        const auto& a = n.attr<SplitterAttrs>();
        origins = a.view_origins, sizes = a.view_sizes;
    }
    if (s.rank == 0 || origins.size() != n.outputs.size() || sizes.size() != n.outputs.size()) {
        *why = std::string(to_string(n.op)) + " without one view per output";
        return false;
    }
    for (size_t j = 0; j < origins.size(); ++j) {
        if (origins[j].size() != s.rank || sizes[j].size() != s.rank) {
            *why = std::string(to_string(n.op)) + " view " + std::to_string(j) + " does not have one entry per axis";
            return false;
        }
        for (uint32_t a = 0; a + 1 < s.rank; ++a)
            if (origins[j][a] != 0 || sizes[j][a] != s[a]) {
                *why = std::string(to_string(n.op)) + " takes part of axis " + std::to_string(a) +
                       ": a buffer view on the NPU only along the channel axis (other axes would move data)";
                return false;
            }
        out->push_back({origins[j][s.rank - 1], sizes[j][s.rank - 1]});
    }
    return true;
}

std::string channel_view_refusal(const Graph& g, const Node& n, NpuDomain d) {
    const char* op = to_string(n.op);
    if (n.inputs.empty() || n.inputs[0] == kNoTensor || n.outputs.empty() ||
        std::find(n.outputs.begin(), n.outputs.end(), kNoTensor) != n.outputs.end())
        return std::string(op) + " without input or output";
    if (g.tensor(n.inputs[0]).is_constant()) return std::string(op) + " of a constant";
    std::string why;
    std::vector<ChannelRange> ranges;
    if (!channel_ranges(g, n, &ranges, &why)) return why;
    FeatureGeometry in;
    if (!feature_geometry(g.info(n.inputs[0]), d, &in, &why)) return std::string(op) + " input: " + why;
    const uint32_t c2 = in.c2();
    for (size_t j = 0; j < ranges.size(); ++j) {
        const ChannelRange& r = ranges[j];
        FeatureGeometry o;
        if (!feature_geometry(g.info(n.outputs[j]), d, &o, &why)) return std::string(op) + " output: " + why;
        if (o.c != r.size || o.h != in.h || o.w != in.w || uint64_t{r.begin} + r.size > in.c)
            return std::string(op) + " output " + std::to_string(j) + " " + g.info(n.outputs[j]).shape.str() +
                   " is not its view of " + g.info(n.inputs[0]).shape.str();
        if (r.begin % c2 != 0)
            return std::string(op) + " output " + std::to_string(j) + " starts at channel " + std::to_string(r.begin) +
                   ", not a multiple of the " + std::to_string(c2) + "-channel NC1HWC2 atom (it would need a copy)";
        if (r.size % c2 != 0 && r.begin + r.size != in.c)
            return std::string(op) + " output " + std::to_string(j) + " of " + std::to_string(r.size) +
                   " channels ends inside an NC1HWC2 atom before the input's last channel (its consumers would read "
                   "the next channels as its padding)";
        for (const Node& other : g.nodes)
            if (other.op == OpKind::Concat &&
                std::find(other.inputs.begin(), other.inputs.end(), n.outputs[j]) != other.inputs.end())
                return std::string(op) + " output '" + g.tensor(n.outputs[j]).name +
                       "' feeds a Concat (it cannot be a view of two buffers)";
    }
    return {};
}

}  // namespace

bool is_buffer_alias(OpKind op) {
    return op == OpKind::Reshape || op == OpKind::Concat || op == OpKind::Slice || op == OpKind::Splitter;
}

Refusal buffer_alias_refusal(const Graph& g, const Node& n, NpuDomain d) {
    std::string why = std::string(to_string(n.op)) + " is not a buffer view";
    if (n.op == OpKind::Reshape) why = reshape_refusal(g, n, d);
    if (n.op == OpKind::Concat) why = concat_refusal(g, n, d);
    if (is_channel_view(n.op)) why = channel_view_refusal(g, n, d);
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
    } else if (is_channel_view(n.op)) {
        std::vector<ChannelRange> ranges;
        std::string why;
        if (!channel_ranges(g, n, &ranges, &why)) fail(ErrorKind::Internal, n.describe() + ": " + why);
        for (size_t j = 0; j < ranges.size(); ++j) link(n.outputs[j], n.inputs[0], ranges[j].begin);
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

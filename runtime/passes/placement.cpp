#include "runtime/passes/placement.h"

#include "core/enum_names.h"
#include "runtime/passes/layer_macs.h"
#include "runtime/passes/lstm_lowering.h"
#include "runtime/passes/pad_folding.h"
#include "runtime/passes/segment_schedule.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <set>

namespace npurun {

const char* const kPlacedNames[] = {"CPU", "NPU", "NPU (fused)"};
static_assert(std::size(kPlacedNames) == size_t(Placed::Fused) + 1);

const char* to_string(Placed p) { return enum_name(p, kPlacedNames); }

namespace {

// Consumers of every tensor, by node index.
std::vector<std::vector<uint32_t>> consumers_of(const Graph& g) {
    std::vector<std::vector<uint32_t>> c(g.tensors.size());
    for (uint32_t i = 0; i < g.nodes.size(); ++i)
        for (TensorId t : g.nodes[i].inputs)
            if (t != kNoTensor) c[t].push_back(i);
    return c;
}

bool is_model_output(const Graph& g, TensorId t) {
    for (const Binding& b : g.outputs)
        if (b.tensor == t) return true;
    return false;
}

// ReLU and ReLU-like clamps at zero fold into the DPU of the NPU layer that produces their input
// (DPU activation stage); a lower bound other than 0 is a general clip, which the DPU also does.
bool foldable_activation(const Node& n) {
    if (n.op != OpKind::Activation) return false;
    const auto& a = n.attr<ActivationAttrs>();
    // The DPU clamps at 0 (ReLU) and at an upper bound (ReLU-X); a BoundedReLu whose lower bound is not 0
    // needs a clamp the BS stage does not have.
    return a.function == ActivationFunction::ReLu || (a.function == ActivationFunction::BoundedReLu && a.b == 0.0f);
}

bool accepts_fused_activation(const Node& n) {
    if (n.op == OpKind::Convolution2d || n.op == OpKind::DepthwiseConvolution2d || n.op == OpKind::FullyConnected)
        return true;
    // MulRelu (seed 003) and the DPU's element-wise stage followed by its activation stage; not a Pow, which the
    // NPU runs as an activation of its base (runtime/npu/ops/activation_op.cpp).
    return n.op == OpKind::ElementwiseBinary && n.attr<ElementwiseBinaryAttrs>().op != BinaryOp::Power;
}

bool bookkeeping(OpKind op) { return op == OpKind::Input || op == OpKind::Output || op == OpKind::Constant; }

// A constant Pad placed on the NPU right before NPU convolution i (no computation between them, so both land in
// one segment) folds into the convolution's padding when the folded convolution still passes the checker and
// the backend (pad_folding.h); the Pad then runs as part of the convolution.
void fold_preceding_pad(const Graph& g, uint32_t i, const PlacementOptions& opt, Placement* p) {
    const Node& conv = g.nodes[i];
    if (conv.op != OpKind::Convolution2d && conv.op != OpKind::DepthwiseConvolution2d) return;
    int j = int(i) - 1;
    while (j >= 0 && bookkeeping(g.nodes[j].op)) --j;
    if (j < 0 || g.nodes[j].op != OpKind::Pad || p->nodes[j].device != Placed::Npu || p->nodes[j].domain != p->nodes[i].domain)
        return;
    Node folded;
    std::string why;
    if (!fold_pad_into_conv(g, g.nodes[j], conv, &folded, &why)) return;
    const NpuVerdict v = check_npu_support(g, folded, opt.policy);
    if (!v.supported() || v.domain != p->nodes[i].domain) return;
    if (opt.lowering_refusal && opt.lowering_refusal(g, folded, v.domain).refused()) return;
    p->nodes[j].device = Placed::Fused;
    p->nodes[j].fused_into = int(i);
}

// SiLU as TfLite exports write it: LOGISTIC, then MUL by the same x. An fp16 Sigmoid on the NPU whose only
// consumer is the NPU Mul i, multiplying it by the Sigmoid's own input (same shape, no broadcast), folds into
// that Mul as its gate (runtime/npu/ops/activation_op.cpp: two DPU tasks instead of three, the sigmoid map
// never stored).
void fold_silu_gate(const Graph& g, uint32_t i, const std::vector<std::vector<uint32_t>>& consumers, Placement* p) {
    const Node& m = g.nodes[i];
    if (m.op != OpKind::ElementwiseBinary || m.attr<ElementwiseBinaryAttrs>().op != BinaryOp::Mul || m.inputs.size() != 2 ||
        m.outputs.size() != 1 || p->nodes[i].domain != NpuDomain::Fp16)
        return;
    for (size_t k = 0; k < 2; ++k) {
        const TensorId s = m.inputs[k], x = m.inputs[1 - k];
        if (s == kNoTensor || x == kNoTensor || s == x || consumers[s].size() != 1 || is_model_output(g, s)) continue;
        if (!(g.info(x).shape == g.info(m.outputs[0]).shape) || !(g.info(s).shape == g.info(x).shape)) continue;
        for (uint32_t j = 0; j < i; ++j) {
            const Node& sig = g.nodes[j];
            if (std::find(sig.outputs.begin(), sig.outputs.end(), s) == sig.outputs.end()) continue;
            if (sig.op == OpKind::Activation && sig.attr<ActivationAttrs>().function == ActivationFunction::Sigmoid &&
                sig.inputs.size() == 1 && sig.inputs[0] == x && p->nodes[j].device == Placed::Npu &&
                p->nodes[j].domain == NpuDomain::Fp16) {
                p->nodes[j].device = Placed::Fused;
                p->nodes[j].fused_into = int(i);
                return;
            }
            break;
        }
    }
}

// Whether a node placed before NPU node j was folded into it as an input gate (fold_silu_gate).
bool has_gate(const Graph& g, const Placement& p, uint32_t j) {
    for (uint32_t k = 0; k < j; ++k)
        if (p.nodes[k].device == Placed::Fused && p.nodes[k].fused_into == int(j) && g.nodes[k].op == OpKind::Activation)
            return true;
    return false;
}

}  // namespace

// The backend's remarks on NPU nodes whose main input comes from the host: a segment input that no other
// node of the segment reads (runtime/npu/window_packing.h packs such an input's windows on the CPU). A
// convolution with a Pad fused into it is asked as the segment lowers it: folded, reading the Pad's input.
static void note_host_inputs(const Graph& g, const PlacementOptions& opt, Placement* p) {
    for (const Segment& s : p->segments)
        for (uint32_t i : s.nodes) {
            if (p->nodes[i].device != Placed::Npu || g.nodes[i].inputs.empty()) continue;
            Node folded;
            const Node* n = &g.nodes[i];
            for (uint32_t j : s.nodes) {
                std::string why;
                if (p->nodes[j].device == Placed::Fused && p->nodes[j].fused_into == int(i) && g.nodes[j].op == OpKind::Pad &&
                    fold_pad_into_conv(g, g.nodes[j], g.nodes[i], &folded, &why))
                    n = &folded;
            }
            const TensorId x = n->inputs[0];
            if (std::find(s.inputs.begin(), s.inputs.end(), x) == s.inputs.end()) continue;
            const bool shared = std::any_of(s.nodes.begin(), s.nodes.end(), [&](uint32_t j) {
                return j != i && p->nodes[j].fused_into != int(i) &&
                       std::find(g.nodes[j].inputs.begin(), g.nodes[j].inputs.end(), x) != g.nodes[j].inputs.end();
            });
            if (!shared) p->nodes[i].note = opt.lowering_note(g, *n, s.domain);
        }
}

Placement place(const Graph& g, const PlacementOptions& opt) {
    Placement p;
    p.nodes.resize(g.nodes.size());
    const auto consumers = consumers_of(g);
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        NodePlacement& np = p.nodes[i];
        if (n.op == OpKind::Input || n.op == OpKind::Output || n.op == OpKind::Constant) {
            np.reason = "not a computation";
            continue;
        }
        if (!opt.use_npu) {
            np.reason = "CPU selected (--device cpu)";
            continue;
        }
        // An activation directly after an NPU layer that feeds only it is folded into that layer.
        if (foldable_activation(n) && !n.inputs.empty() && n.inputs[0] != kNoTensor) {
            const TensorId in = n.inputs[0];
            for (uint32_t j = 0; j < i; ++j) {
                const Node& prod = g.nodes[j];
                if (std::find(prod.outputs.begin(), prod.outputs.end(), in) == prod.outputs.end()) continue;
                // Fusing skips the rounding of the intermediate tensor: for quantized tensors that stays within
                // 1 of the unfused result only when the intermediate grid is at least as fine as the output's.
                const TensorInfo& mid = g.info(in);
                const TensorInfo& fin = g.info(n.outputs[0]);
                const bool grid_ok = mid.quant.scales.empty() || fin.quant.scales.empty() ||
                                     mid.quant.scale() <= fin.quant.scale() * 1.000001f;
                if (p.nodes[j].device == Placed::Npu && accepts_fused_activation(prod) && consumers[in].size() == 1 &&
                    !is_model_output(g, in) && mid.dtype == fin.dtype && grid_ok && !has_gate(g, p, j)) {
                    np.device = Placed::Fused;
                    np.fused_into = int(j);
                    np.domain = p.nodes[j].domain;
                }
                break;
            }
            if (np.device == Placed::Fused) continue;
        }
        NpuVerdict v = check_npu_support(g, n, opt.policy);
        if (is_lowerable_lstm(n.op) && opt.use_npu) {
            // An Lstm reaches the NPU only as its parts (lower_lstm_layers); one still here says why it was kept.
            const Refusal r = lstm_lowering_refusal(g, n, opt);
            v = NpuVerdict::no(r.refused()
                                   ? "not decomposed for the NPU: " + r.reason()
                                   : "runs on the NPU once decomposed into its parts (lower_lstm_layers), which "
                                     "the caller did not do");
        }
        if (v.supported() && opt.lowering_refusal) {
            const Refusal r = opt.lowering_refusal(g, n, v.domain);
            if (r.refused()) v = NpuVerdict::no("NPU lowering: " + r.reason());
        }
        if (v.supported()) {
            np.device = Placed::Npu;
            np.domain = v.domain;
            fold_preceding_pad(g, i, opt, &p);
            fold_silu_gate(g, i, consumers, &p);
        } else {
            np.reason = v.reason();
        }
    }

    // The schedule (segment_schedule.h): the loader's order, or one that moves CPU nodes past NPU work they
    // do not feed when that makes fewer segments. Only then: an order that gains nothing keeps the model's.
    std::vector<int> node_class(g.nodes.size(), ScheduleClass::kCpu);
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
        if (bookkeeping(g.nodes[i].op))
            node_class[i] = ScheduleClass::kNeutral;
        else if (p.nodes[i].device != Placed::Cpu)
            node_class[i] = int(p.nodes[i].domain);
    }
    p.order.resize(g.nodes.size());
    for (uint32_t i = 0; i < g.nodes.size(); ++i) p.order[i] = i;
    if (opt.use_npu) {
        std::vector<uint32_t> grouped = schedule_by_class(g, node_class);
        if (count_npu_runs(grouped, node_class) < count_npu_runs(p.order, node_class)) p.order = std::move(grouped);
    }
    // A gate (fold_silu_gate: fused into a later node) must land in its host's segment: with a CPU node between
    // them in the schedule it stays a layer of its own.
    std::vector<size_t> pos(g.nodes.size());
    for (size_t k = 0; k < p.order.size(); ++k) pos[p.order[k]] = k;
    for (uint32_t k = 0; k < g.nodes.size(); ++k) {
        NodePlacement& np = p.nodes[k];
        if (np.device != Placed::Fused || np.fused_into <= int(k)) continue;
        for (size_t q = pos[k] + 1; q < pos[uint32_t(np.fused_into)]; ++q)
            if (p.nodes[p.order[q]].device == Placed::Cpu && !bookkeeping(g.nodes[p.order[q]].op)) {
                np.device = Placed::Npu;
                np.fused_into = -1;
                break;
            }
    }

    // Segments: maximal runs of NPU work in schedule order with one arithmetic domain. Nodes that are
    // not computations (Input/Output/Constant) do not break a run.
    int current = -1;
    for (uint32_t i : p.order) {
        NodePlacement& np = p.nodes[i];
        const OpKind op = g.nodes[i].op;
        if (op == OpKind::Input || op == OpKind::Output || op == OpKind::Constant) continue;
        if (np.device == Placed::Cpu) {
            current = -1;
            continue;
        }
        if (current < 0 || p.segments[current].domain != np.domain) {
            p.segments.push_back({});
            current = int(p.segments.size() - 1);
            p.segments[current].domain = np.domain;
        }
        np.segment = current;
        p.segments[current].nodes.push_back(i);
    }

    // A segment of only Reshape / Concat / Slice / Splitter would compute nothing: on the NPU they are views of other
    // layers' buffers (runtime/npu/buffer_alias.h) or, a Slice of rows / columns, a copy; alone they would only add
    // layout conversions.
    for (size_t s = 0; s < p.segments.size();) {
        const bool only_views = std::all_of(p.segments[s].nodes.begin(), p.segments[s].nodes.end(), [&](uint32_t i) {
            const OpKind op = g.nodes[i].op;
            return op == OpKind::Reshape || op == OpKind::Concat || op == OpKind::Slice || op == OpKind::Splitter;
        });
        if (!only_views) {
            ++s;
            continue;
        }
        for (uint32_t i : p.segments[s].nodes) {
            p.nodes[i].device = Placed::Cpu;
            p.nodes[i].segment = -1;
            p.nodes[i].reason = std::string(to_string(g.nodes[i].op)) +
                                " only moves NPU data (a view or a copy) and no NPU layer is next to it";
        }
        p.segments.erase(p.segments.begin() + static_cast<long>(s));
        for (NodePlacement& np : p.nodes)
            if (np.segment > int(s)) --np.segment;
    }

    // Segment boundaries: what crosses them needs a layout/quantization conversion.
    for (Segment& s : p.segments) {
        std::set<TensorId> produced;
        for (uint32_t i : s.nodes)
            for (TensorId t : g.nodes[i].outputs) produced.insert(t);
        std::set<TensorId> seen_in;
        for (uint32_t i : s.nodes)
            for (TensorId t : g.nodes[i].inputs)
                if (t != kNoTensor && !g.tensor(t).is_constant() && !produced.count(t) && seen_in.insert(t).second)
                    s.inputs.push_back(t);
        for (uint32_t i : s.nodes)
            for (TensorId t : g.nodes[i].outputs) {
                bool outside = is_model_output(g, t);
                for (uint32_t c : consumers[t])
                    if (p.nodes[c].segment != int(&s - p.segments.data())) outside = true;
                if (outside) s.outputs.push_back(t);
            }
    }
    if (opt.lowering_note) note_host_inputs(g, opt, &p);
    return p;
}

// "NPU share of MACs: X%": the MACs (runtime/passes/layer_macs.h) of layers placed on the NPU over all layers'.
std::string npu_mac_share_line(const Graph& g, const Placement& p) {
    uint64_t on_npu = 0, all = 0;
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
        const uint64_t m = layer_macs(g, g.nodes[i]);
        const uint64_t room = UINT64_MAX - all;  // saturate: a share, not an exact count, is printed
        all += m < room ? m : room;
        if (p.nodes[i].device != Placed::Cpu) on_npu += m < UINT64_MAX - on_npu ? m : UINT64_MAX - on_npu;
    }
    char line[80];
    std::snprintf(line, sizeof line, "NPU share of MACs: %.1f%%%s\n", all ? 100.0 * double(on_npu) / double(all) : 0.0,
                  all ? "" : " (the model has no MAC layers)");
    return line;
}

std::string explain(const Graph& g, const Placement& p) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-5s %-28s %-24s %-12s %s\n", "layer", "name", "type", "device", "why not NPU / note");
    out += line;
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.op == OpKind::Input || n.op == OpKind::Output || n.op == OpKind::Constant) continue;
        const NodePlacement& np = p.nodes[i];
        std::string dev = to_string(np.device);
        if (np.segment >= 0) dev += " s" + std::to_string(np.segment);
        std::string name = n.name.size() > 28 ? n.name.substr(0, 25) + "..." : n.name;
        std::snprintf(line, sizeof line, "%-5u %-28s %-24s %-12s %s\n", n.source_index, name.c_str(), to_string(n.op),
                      dev.c_str(), np.device == Placed::Cpu ? np.reason.c_str() : np.note.c_str());
        out += line;
    }
    size_t npu = 0, total = 0;
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
        const OpKind op = g.nodes[i].op;
        if (op == OpKind::Input || op == OpKind::Output || op == OpKind::Constant) continue;
        ++total;
        if (p.nodes[i].device != Placed::Cpu) ++npu;
    }
    std::snprintf(line, sizeof line, "%zu of %zu layers on the NPU in %zu segment(s)\n", npu, total, p.segments.size());
    out += line;
    out += npu_mac_share_line(g, p);
    return out;
}

}  // namespace npurun

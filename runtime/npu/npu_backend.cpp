#include "runtime/npu/npu_backend.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"
#include "drv/regcmd/regcmd_decoder.h"
#include "runtime/npu/segment_trace.h"
#include "runtime/passes/lstm_lowering.h"

namespace npurun::npu {

PlacementOptions npu_placement_options(bool fp16) {
    PlacementOptions o;
    o.use_npu = true;
    o.policy.fp32_as_fp16 = fp16;
    o.lowering_refusal = npu_lowering_refusal;
    o.lowering_note = window_packing_note;
    return o;
}

NpuBackend::NpuBackend(const Graph& model_graph, DeviceKind kind, bool fp16, unsigned cores)
    : context_(kind == DeviceKind::Sim ? open_sim_context() : open_npu_context()),
      lowered_(lower_lstm_layers(model_graph, npu_placement_options(fp16))),
      graph_(lowered_ ? *lowered_ : model_graph) {
    const Graph& g = graph_;
    // The notes are for `npurun --explain` only: lowering decides the packing itself
    // (CompiledSegment::pack_first_windows), so a session does not compute them at start-up.
    PlacementOptions po = npu_placement_options(fp16);
    po.lowering_note = nullptr;
    placement_ = place(g, po);
    external_.handled.assign(g.nodes.size(), false);
    for (size_t i = 0; i < g.nodes.size(); ++i) external_.handled[i] = placement_.nodes[i].segment >= 0;
    external_.order = placement_.order;
    external_.build = [this, cores](exec::Executor& ex) {
        context_->budget = ex.memory_budget();
        std::vector<exec::ExternalStep> steps;
        for (uint32_t s = 0; s < placement_.segments.size(); ++s) {
            segments_.push_back(std::make_unique<CompiledSegment>(
                graph_, placement_, s, *context_, [&ex](TensorId t) { return ex.tensor_data(t); }, cores));
            CompiledSegment* seg = segments_.back().get();
            const std::string device = context_->simulator ? "sim" : "npu";
            exec::ExternalStep st;
            st.first_node = placement_.segments[s].nodes.front();
            st.run = [seg] { seg->run(); };
            st.trace = [this, seg, s](std::chrono::steady_clock::time_point origin, std::vector<TraceSpan>& out) {
                append_segment_trace(graph_, *seg, s, origin, out);
            };
            st.profile_rows = [this, seg, device] {
                std::vector<LayerProfile> rows;
                for (const NpuLayerStats& l : seg->layers()) {
                    LayerProfile r;
                    r.name = l.name;
                    r.type = l.type;
                    r.device = device;
                    const Node& n = graph_.nodes[l.node];
                    if (!n.outputs.empty() && n.outputs[0] != kNoTensor) r.output_shape = graph_.info(n.outputs[0]).shape;
                    r.macs = l.macs;
                    r.dma_bytes = l.dma_read_bytes + l.dma_write_bytes;
                    r.tasks = l.tasks;
                    r.issued_macs = l.cost.issued_macs;
                    r.ideal_dma_bytes = l.ideal_dma_bytes;
                    r.estimated_us = npudrv::sim::cost::microseconds(l.cost.cycles());
                    rows.push_back(std::move(r));
                }
                return rows;
            };
            steps.push_back(std::move(st));
        }
        return steps;
    };
}

CompiledSegment& NpuBackend::native_segment(TensorId t, bool output) {
    const std::string name = std::string(output ? "output '" : "input '") + graph_.tensor(t).name + "'";
    std::vector<CompiledSegment*> found;
    for (size_t s = 0; s < segments_.size(); ++s) {
        const auto& edge = output ? placement_.segments[s].outputs : placement_.segments[s].inputs;
        if (std::find(edge.begin(), edge.end(), t) != edge.end()) found.push_back(segments_[s].get());
    }
    if (found.empty()) {
        std::string why = output ? "no NPU layer produces it" : "no NPU layer reads it";
        for (size_t i = 0; i < graph_.nodes.size(); ++i) {
            const Node& n = graph_.nodes[i];
            const auto& ends = output ? n.outputs : n.inputs;
            if (n.op == OpKind::Input || n.op == OpKind::Output || std::find(ends.begin(), ends.end(), t) == ends.end()) continue;
            if (placement_.nodes[i].device == Placed::Cpu) {
                why = std::string(output ? "it is produced by " : "it is read by ") + n.describe() + " on the CPU (" +
                      placement_.nodes[i].reason + ")" + (output ? "" : ", which needs it in NHWC");
                break;
            }
        }
        fail(ErrorKind::BadInput, name + " cannot be bound to a dma-buf: " + why);
    }
    if (found.size() > 1) fail(ErrorKind::BadInput, name + " cannot be bound to a dma-buf: several NPU segments read it");
    const Refusal r = found[0]->native_refusal(t);
    if (r.refused()) fail(ErrorKind::BadInput, name + " cannot be bound to a dma-buf: " + r.reason());
    return *found[0];
}

void dump_regcmd(const NpuBackend& backend, const std::string& dir) {
    if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST)
        fail(ErrorKind::Runtime, "cannot create --dump-regcmd directory '" + dir + "': " + std::strerror(errno));
    for (size_t s = 0; s < backend.segments().size(); ++s) {
        const npudrv::regcmd::RegcmdBuffer& b = backend.segments()[s]->regcmd();
        const std::string base = dir + "/seg" + std::to_string(s);
        std::FILE* f = std::fopen((base + ".regcmd").c_str(), "wb");
        if (!f) fail(ErrorKind::Runtime, "cannot write '" + base + ".regcmd': " + std::strerror(errno));
        const size_t n = std::fwrite(b.qwords.data(), 8, b.qwords.size(), f);
        const bool ok = n == b.qwords.size() && std::fclose(f) == 0;
        if (!ok) fail(ErrorKind::Runtime, "cannot write '" + base + ".regcmd'");
        std::FILE* t = std::fopen((base + ".txt").c_str(), "w");
        if (!t) fail(ErrorKind::Runtime, "cannot write '" + base + ".txt': " + std::strerror(errno));
        const CompiledSegment& seg = *backend.segments()[s];
        std::fprintf(t, "# segment %zu: %zu tasks, %zu bytes of regcmd at 0x%llx, %u lane(s), core_mask %u\n", s,
                     b.tasks.size(), b.size_bytes(), static_cast<unsigned long long>(b.base_addr), seg.lane_count(),
                     seg.core_mask());
        const auto decoded = npudrv::regcmd::decode_stream(b.qwords, b.base_addr);
        for (size_t i = 0; i < b.tasks.size(); ++i) {
            const auto& lt = b.tasks[i];
            std::fprintf(t, "task %zu addr 0x%llx entries %u op_en 0x%x: %s\n", i,
                         static_cast<unsigned long long>(lt.regcmd_addr), lt.total_qwords, lt.op_en,
                         i < decoded.size() ? decoded[i].description.c_str() : "?");
        }
        if (std::fclose(t) != 0) fail(ErrorKind::Runtime, "cannot write '" + base + ".txt'");
    }
}

}  // namespace npurun::npu

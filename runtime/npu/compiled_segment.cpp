#include "runtime/npu/compiled_segment.h"

#include <algorithm>
#include <cstring>

#include "drv/sim/npu_simulator.h"
#include "core/error.h"
#include "runtime/npu/buffer_alias.h"
#include "runtime/npu/eltwise_layer.h"
#include "runtime/npu/pad_layer.h"
#include "runtime/npu/pool_layer.h"
#include "runtime/passes/pad_folding.h"

namespace npurun::npu {

namespace {

constexpr uint64_t kAlign = 64;
uint64_t align_up(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

bool is_conv_like(OpKind op) {
    return op == OpKind::Convolution2d || op == OpKind::DepthwiseConvolution2d || op == OpKind::FullyConnected;
}

}  // namespace

std::string lowering_refusal(const Graph& g, const Node& n, NpuDomain d) {
    if (is_buffer_alias(n.op)) return buffer_alias_refusal(g, n, d);
    if (n.op == OpKind::Pooling2d) {
        PoolLayer P;
        std::string why;
        return prepare_pool_layer(g, n, d, &P, &why) ? std::string() : why;
    }
    if (n.op == OpKind::ElementwiseBinary) {
        EltwiseLayer E;
        std::string why;
        return prepare_eltwise_layer(g, n, nullptr, d, &E, &why) ? std::string() : why;
    }
    if (n.op == OpKind::Pad) {
        PadLayer P;
        std::string why;
        return prepare_pad_layer(g, n, d, &P, &why) ? std::string() : why;
    }
    if (!is_conv_like(n.op)) return std::string(to_string(n.op)) + " has no NPU lowering yet";
    ConvLayer L;
    std::string why;
    if (!prepare_conv_layer(g, n, nullptr, d, &L, &why)) return why;
    ConvTiling t;
    if (!plan_conv_tiling(L, &t, &why)) return why;
    return {};
}

CompiledSegment::CompiledSegment(const Graph& g, const Placement& p, uint32_t segment, NpuContext& npu,
                                 const std::function<void*(TensorId)>& host, unsigned cores)
    : graph_(g), npu_(npu) {
    const Segment& seg = p.segments.at(segment);

    // 1. Layers: every NPU node with the activation fused into it.
    struct Prepared {
        bool is_pool = false, is_eltwise = false, is_pad = false;
        bool is_view = false;  // Reshape / Concat: a view of other buffers, no task (buffer_alias.h)
        PoolLayer pool;
        EltwiseLayer eltwise;
        PadLayer pad;
        TensorId in2 = kNoTensor;     // element-wise: the run-time EW operand (kNoTensor when constant)
        uint64_t operand_off = 0;     // element-wise: a constant EW operand in the constants buffer
        ConvLayer layer;
        ConvTiling tiling;
        TensorId in, out;
        uint64_t weights_off = 0, bs_off = 0;
    };
    std::vector<Prepared> prepared;
    AliasMap aliases;
    for (uint32_t i : seg.nodes) {
        if (p.nodes[i].device != Placed::Npu) continue;
        const Node& n = g.nodes[i];
        if (is_buffer_alias(n.op)) {
            add_buffer_alias(g, n, &aliases);
            Prepared pr;
            pr.is_view = true;
            pr.in = n.inputs[0];
            pr.out = n.outputs[0];
            NpuLayerStats st;
            st.node = i;
            st.name = n.name.empty() ? n.describe() : n.name;
            st.type = to_string(n.op);
            layers_.push_back(st);
            prepared.push_back(std::move(pr));
            continue;
        }
        const Node* act = nullptr;
        const Node* pad = nullptr;  // a Pad folded into this convolution's padding (pad_folding.h)
        for (uint32_t j : seg.nodes)
            if (p.nodes[j].device == Placed::Fused && p.nodes[j].fused_into == int(i))
                (g.nodes[j].op == OpKind::Pad ? pad : act) = &g.nodes[j];
        Prepared pr;
        std::string why;
        pr.in = n.inputs[0];
        if (n.op == OpKind::ElementwiseBinary) {
            pr.is_eltwise = true;
            if (!prepare_eltwise_layer(g, n, act, seg.domain, &pr.eltwise, &why))
                fail(ErrorKind::Unsupported, n.describe() + ": cannot be lowered to the NPU: " + why);
            pr.in = n.inputs[pr.eltwise.main_input];
            if (pr.eltwise.operand_constant.empty()) pr.in2 = n.inputs[pr.eltwise.operand_input()];
        } else if (n.op == OpKind::Pad) {
            pr.is_pad = true;
            if (act != nullptr || !prepare_pad_layer(g, n, seg.domain, &pr.pad, &why))
                fail(ErrorKind::Unsupported, n.describe() + ": cannot be lowered to the NPU: " + (act ? "fused activation" : why));
        } else if (n.op == OpKind::Pooling2d) {
            pr.is_pool = true;
            if (act != nullptr || !prepare_pool_layer(g, n, seg.domain, &pr.pool, &why))
                fail(ErrorKind::Unsupported, n.describe() + ": cannot be lowered to the NPU: " + (act ? "fused activation" : why));
        } else {
            Node folded;
            if (pad != nullptr && !fold_pad_into_conv(g, *pad, n, &folded, &why))
                fail(ErrorKind::Internal, n.describe() + ": the Pad placed into it does not fold: " + why);
            const Node& conv = pad != nullptr ? folded : n;
            pr.in = conv.inputs[0];
            if (!prepare_conv_layer(g, conv, act, seg.domain, &pr.layer, &why) || !plan_conv_tiling(pr.layer, &pr.tiling, &why))
                fail(ErrorKind::Unsupported, n.describe() + ": cannot be lowered to the NPU: " + why);
        }
        pr.out = act ? act->outputs[0] : n.outputs[0];
        NpuLayerStats st;
        st.node = i;
        st.name = n.name.empty() ? n.describe() : n.name;
        st.type = std::string(pad ? "Pad+" : "") + to_string(n.op) + (act ? "+" + std::string(to_string(act->attr<ActivationAttrs>().function)) : "");
        st.macs = (pr.is_pool || pr.is_eltwise || pr.is_pad) ? 0 : pr.layer.macs();
        layers_.push_back(st);
        prepared.push_back(std::move(pr));
    }
    if (std::all_of(prepared.begin(), prepared.end(), [](const Prepared& x) { return x.is_view; }))
        fail(ErrorKind::Internal, "NPU segment " + std::to_string(segment) + " has no layer that computes");

    // 1b. Multi-core. The lanes of one job run in parallel with no barrier between them (rknpu commits every
    // selected core at once; the fake kernel refuses lanes that touch each other's data), so a layer is
    // spread over cores only when nothing else in the segment reads what it writes or writes what it reads:
    // a segment of one convolution, whose input and output are the segment's boundary tensors. Its tasks
    // are split by output rows or K (conv_regcmd.h), each lane a chain of its own.
    if (prepared.size() == 1 && !prepared[0].is_pool && !prepared[0].is_eltwise && !prepared[0].is_pad &&
        !prepared[0].is_view) {
        const unsigned avail = std::max(1u, std::min(3u, npu_.device.info().cores));
        const unsigned want = cores != 0 ? std::min(cores, avail) : (prepared[0].layer.macs() >= kAutoMultiCoreMacs ? avail : 1u);
        if (want > 1) {
            TilingRequest req;
            req.lanes = want;
            std::string why;
            ConvTiling t;
            if (plan_conv_tiling(prepared[0].layer, &t, &why, req)) prepared[0].tiling = t;
        }
    }

    // 2. Feature buffer: one region per tensor the segment touches, NC1HWC2 in the segment's domain; a
    // view (Reshape output, Concat input) lies inside the region of the tensor that owns its storage, at
    // its channel planes. A region spans everything its members write (a producer writes whole atoms).
    std::vector<TensorId> touched;
    for (uint32_t i : seg.nodes) {
        if (p.nodes[i].device != Placed::Npu) continue;
        const Node& n = g.nodes[i];
        if (is_buffer_alias(n.op)) touched.insert(touched.end(), n.inputs.begin(), n.inputs.end());
    }
    for (const Prepared& pr : prepared) {
        touched.push_back(pr.in);
        if (pr.in2 != kNoTensor) touched.push_back(pr.in2);
        touched.push_back(pr.out);
    }
    touched.insert(touched.end(), seg.inputs.begin(), seg.inputs.end());
    touched.insert(touched.end(), seg.outputs.begin(), seg.outputs.end());
    std::map<TensorId, FeatureGeometry> geoms;
    std::map<TensorId, uint64_t> root_extent;
    std::vector<TensorId> roots;  // in first-use order, so the layout does not depend on tensor ids
    for (TensorId t : touched) {
        if (geoms.count(t)) continue;
        FeatureGeometry geom;
        std::string why;
        if (!feature_geometry(g.info(t), seg.domain, &geom, &why)) fail(ErrorKind::Unsupported, "NPU segment tensor '" + g.tensor(t).name + "': " + why);
        geoms[t] = geom;
    }
    for (const auto& [t, geom] : geoms) {
        uint32_t ch = 0;
        const TensorId root = alias_root(aliases, t, &ch);
        if (!geoms.count(root)) fail(ErrorKind::Internal, "NPU buffer view of '" + g.tensor(t).name + "' has no owner in the segment");
        const uint64_t extent = uint64_t{ch / geom.c2()} * geom.plane_bytes() + geom.alloc_bytes();
        root_extent[root] = std::max(root_extent[root], extent);
    }
    for (TensorId t : touched) {
        uint32_t ch = 0;
        const TensorId root = alias_root(aliases, t, &ch);
        if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
    }
    // Model inputs read only by this segment, and model outputs only it produces and only the user reads, get
    // a buffer of their own (zero-copy binding, see the header); every other root lives in the feature buffer.
    std::map<TensorId, int> edge_index;
    auto is_binding = [](const std::vector<Binding>& bs, TensorId t) {
        return std::any_of(bs.begin(), bs.end(), [&](const Binding& b) { return b.tensor == t; });
    };
    auto add_edge = [&](TensorId t, bool output) {
        std::string why;
        uint32_t ch = 0;
        if (!is_binding(output ? g.outputs : g.inputs, t)) why = output ? "it is not a model output" : "it is not a model input";
        else if (is_binding(output ? g.inputs : g.outputs, t)) why = "it is both a model input and a model output";
        else if (alias_root(aliases, t, &ch) != t) why = "it is a view into another tensor's NPU buffer (Concat input)";
        for (size_t i = 0; i < g.nodes.size() && why.empty(); ++i) {
            const Node& n = g.nodes[i];
            if (n.op == OpKind::Output || std::find(n.inputs.begin(), n.inputs.end(), t) == n.inputs.end()) continue;
            if (p.nodes[i].segment != int(segment) || p.nodes[i].device == Placed::Cpu)
                why = "it is also read by " + n.describe() + (p.nodes[i].device == Placed::Cpu ? " on the CPU" : " in another NPU segment") +
                      ", which needs it in NHWC";
        }
        for (const auto& [u, geom] : geoms) {
            uint32_t c = 0;
            if (why.empty() && u != t && alias_root(aliases, u, &c) == t) why = "a view (Reshape/Concat) shares its NPU buffer";
        }
        for (const Prepared& pr : prepared)
            if (why.empty() && pr.is_pad && pr.out == t) why = "it is a Pad output, whose border is written once at load into the session's buffer";
        if (!why.empty()) {
            edge_refusals_[t] = why;
            return;
        }
        auto e = std::make_unique<NativeEdge>();
        e->tensor = t;
        e->output = output;
        e->geom = geoms.at(t);
        e->bytes = root_extent.at(t);
        edge_index[t] = int(edges_.size());
        edges_.push_back(std::move(e));
    };
    for (TensorId t : seg.inputs) add_edge(t, false);
    for (TensorId t : seg.outputs) add_edge(t, true);
    std::map<TensorId, std::pair<uint64_t, FeatureGeometry>> regions;
    std::map<TensorId, uint64_t> root_offset;
    std::map<TensorId, TensorId> root_of;
    uint64_t feature_bytes = 0;
    for (TensorId r : roots) {
        if (edge_index.count(r)) {
            root_offset[r] = 0;  // at the start of its own buffer
            continue;
        }
        root_offset[r] = feature_bytes;
        feature_bytes = align_up(feature_bytes + root_extent[r]);
    }
    for (const auto& [t, geom] : geoms) {
        uint32_t ch = 0;
        const TensorId root = alias_root(aliases, t, &ch);
        root_of[t] = root;
        regions[t] = {root_offset[root] + uint64_t{ch / geom.c2()} * geom.plane_bytes(), geom};
    }
    auto region = [&](TensorId t) {
        auto it = regions.find(t);
        if (it == regions.end()) fail(ErrorKind::Internal, "NPU segment tensor '" + g.tensor(t).name + "' has no region");
        return it->second;
    };
    uint64_t constant_bytes = 0;
    for (Prepared& pr : prepared) {
        pr.weights_off = constant_bytes;
        constant_bytes = align_up(constant_bytes + pr.layer.weights.size());
        pr.bs_off = constant_bytes;
        constant_bytes = align_up(constant_bytes + pr.layer.bs_stream.size());
        pr.operand_off = constant_bytes;
        constant_bytes = align_up(constant_bytes + pr.eltwise.operand_constant.size());
    }

    // 3. Buffers (zeroed: padding channels of the feature maps start as 0 and stay finite).
    try {
        features_ = npu_.device.create_buffer(std::max<uint64_t>(feature_bytes, kAlign), npudrv::kBufferZeroed);
        for (auto& e : edges_) {
            e->own = npu_.device.create_buffer(std::max<uint64_t>(e->bytes, kAlign), npudrv::kBufferZeroed);
            e->own.map();
            e->active = &e->own;
        }
        constants_ = npu_.device.create_buffer(std::max<uint64_t>(constant_bytes, kAlign), npudrv::kBufferZeroed);
        uint8_t* cmap = constants_.map();
        for (const Prepared& pr : prepared) {
            if (!pr.eltwise.operand_constant.empty())
                std::memcpy(cmap + pr.operand_off, pr.eltwise.operand_constant.data(), pr.eltwise.operand_constant.size());
            if (pr.layer.weights.empty()) continue;  // pooling / element-wise / pad: no weights
            std::memcpy(cmap + pr.weights_off, pr.layer.weights.data(), pr.layer.weights.size());
            if (!pr.layer.bs_stream.empty()) std::memcpy(cmap + pr.bs_off, pr.layer.bs_stream.data(), pr.layer.bs_stream.size());
        }
        uint8_t* fmap = features_.map();
        // Pad borders: constant, written once here; the pad tasks only write the interior. This relies on nothing
        // else writing the Pad output's region (regions are not reused across tensors).
        for (const Prepared& pr : prepared)
            if (pr.is_pad && !pr.pad.reflect) write_pad_border(pr.pad, fmap + regions[pr.out].first);

        // 4. The chained regcmd of the whole segment: one chain per lane (a single lane unless the layer was
        // spread over cores), the chains back to back in one buffer, each ending with a zero tail. Kept as a
        // function of the buffers' addresses: binding a model input/output to the user's dma-buf re-emits it
        // (same tasks, same size) with that buffer's address.
        lanes_ = prepared.size() == 1 ? std::max(1u, prepared[0].tiling.lanes) : 1u;
        auto kept = std::make_shared<std::vector<Prepared>>(std::move(prepared));
        emit_ = [this, kept, regions, root_of, edge_index](uint64_t base, std::vector<std::pair<size_t, size_t>>* lane_tasks) {
        const std::vector<Prepared>& prepared = *kept;
        auto addr = [&](TensorId t) -> uint64_t {
            const auto e = edge_index.find(root_of.at(t));
            const npudrv::Buffer& b = e == edge_index.end() ? features_ : *edges_[size_t(e->second)]->active;
            return b.dma_addr() + regions.at(t).first;
        };
        std::vector<npudrv::regcmd::RegcmdWriter> writers(lanes_);
        for (size_t l = 0; l < prepared.size(); ++l) {
            const Prepared& pr = prepared[l];
            npudrv::regcmd::RegcmdWriter& w = writers[0];
            layers_[l].first_task = static_cast<uint32_t>(w.task_count());
            if (pr.is_view) continue;  // no task: producers and consumers address the shared buffer
            if (pr.is_eltwise) {
                const uint64_t operand = pr.in2 != kNoTensor ? addr(pr.in2)
                                                             : constants_.dma_addr() + pr.operand_off;
                layers_[l].tasks = emit_eltwise_tasks(w, pr.eltwise, static_cast<uint32_t>(addr(pr.in)),
                                                      static_cast<uint32_t>(operand),
                                                      static_cast<uint32_t>(addr(pr.out)));
                continue;
            }
            if (pr.is_pad) {
                layers_[l].tasks = emit_pad_tasks(w, pr.pad, static_cast<uint32_t>(addr(pr.in)),
                                                  static_cast<uint32_t>(addr(pr.out)));
                continue;
            }
            if (pr.is_pool) {
                emit_pool_task(w, pr.pool, static_cast<uint32_t>(addr(pr.in)),
                               static_cast<uint32_t>(addr(pr.out)));
                layers_[l].tasks = 1;
                continue;
            }
            ConvAddresses a;
            a.input = static_cast<uint32_t>(addr(pr.in));
            a.output = static_cast<uint32_t>(addr(pr.out));
            a.weights = static_cast<uint32_t>(constants_.dma_addr() + pr.weights_off);
            a.bs_stream = static_cast<uint32_t>(constants_.dma_addr() + pr.bs_off);
            layers_[l].tasks = 0;
            for (uint32_t lane = 0; lane < lanes_; ++lane)
                layers_[l].tasks += emit_conv_tasks(writers[lane], pr.layer, pr.tiling, a, lanes_ > 1 ? int(lane) : -1);
        }
        std::vector<uint64_t> lane_bytes;
        uint64_t regcmd_bytes = 0;
        for (const auto& w : writers) {
            lane_bytes.push_back(regcmd_bytes);
            regcmd_bytes = align_up(regcmd_bytes + w.finish(0).size_bytes());
        }
        npudrv::regcmd::RegcmdBuffer all;
        all.base_addr = base;
        all.qwords.assign(regcmd_bytes / 8, 0);
        lane_tasks->clear();  // [first, end) in all.tasks
        for (size_t i = 0; i < writers.size(); ++i) {
            const npudrv::regcmd::RegcmdBuffer b = writers[i].finish(base + lane_bytes[i]);
            std::copy(b.qwords.begin(), b.qwords.end(), all.qwords.begin() + static_cast<std::ptrdiff_t>(lane_bytes[i] / 8));
            lane_tasks->push_back({all.tasks.size(), all.tasks.size() + b.tasks.size()});
            for (npudrv::regcmd::LaidOutTask t : b.tasks) {
                t.offset += static_cast<uint32_t>(lane_bytes[i]);
                all.tasks.push_back(t);
            }
        }
        return all;
        };
        std::vector<std::pair<size_t, size_t>> lane_tasks;
        const uint64_t regcmd_bytes = emit_(0, &lane_tasks).size_bytes();
        commands_ = npu_.device.create_buffer(regcmd_bytes, 0);
        regcmd_ = emit_(commands_.dma_addr(), &lane_tasks);
        lane_tasks_ = lane_tasks;
        std::memcpy(commands_.map(), regcmd_.qwords.data(), regcmd_.size_bytes());
        // Written once here; only cacheable mappings need a cache flush (rknpu rejects MEM_SYNC otherwise).
        if (constants_.flags() & npudrv::kBufferCacheable) constants_.sync_to_device();
        if (commands_.flags() & npudrv::kBufferCacheable) commands_.sync_to_device();

        // 5. One job: one lane of tasks per core, one task record per list (as the vendor runtime submits
        // chains). rknpu pins the lanes to cores 0+1 (mask 3) or 0+1+2 (mask 7); rocket takes mask 0 and its
        // scheduler spreads the lanes (= rocket jobs) over the cores.
        npudrv::JobSpec spec;
        for (const auto& [first, end] : lane_tasks) {
            npudrv::Lane lane;
            for (size_t i = first; i < end; ++i) {
                const npudrv::regcmd::LaidOutTask& t = regcmd_.tasks[i];
                npudrv::Task task;
                task.regcmd = &commands_;
                task.regcmd_offset = t.offset;
                task.regcmd_entries = t.total_qwords;
                task.enable_mask = t.enable_mask;
                task.int_mask = t.int_mask;
                lane.tasks.push_back(task);
            }
            spec.lanes.push_back(std::move(lane));
        }
        if (lanes_ > 1 && npu_.device.info().driver == npudrv::DriverKind::Rknpu) spec.core_mask = lanes_ == 2 ? 3u : 7u;
        core_mask_ = spec.core_mask;
        spec.inputs = {&features_};
        spec.outputs = {&features_};
        for (const auto& e : edges_) (e->output ? spec.outputs : spec.inputs).push_back(e->active);
        job_ = std::make_unique<npudrv::Job>(npu_.device.create_job(spec));
        job_spec_ = std::move(spec);
    } catch (const npudrv::DriverError& e) {
        fail(ErrorKind::Device, std::string("NPU segment ") + std::to_string(segment) + ": " + e.what());
    }

    // 6. Boundary tensors and their CPU storage.
    for (TensorId t : seg.inputs) {
        auto r = region(t);
        void* h = host(t);
        if (h == nullptr) fail(ErrorKind::Internal, "NPU segment input '" + g.tensor(t).name + "' has no CPU storage");
        const auto e = edge_index.find(t);
        inputs_.push_back({t, h, r.second, r.first, e == edge_index.end() ? -1 : e->second});
    }
    for (TensorId t : seg.outputs) {
        auto r = region(t);
        void* h = host(t);
        if (h == nullptr) fail(ErrorKind::Internal, "NPU segment output '" + g.tensor(t).name + "' has no CPU storage");
        const auto e = edge_index.find(t);
        outputs_.push_back({t, h, r.second, r.first, e == edge_index.end() ? -1 : e->second});
    }
}

void CompiledSegment::run() {
    using Clock = std::chrono::steady_clock;
    uint8_t* fmap = features_.data();
    timing_.conversions.clear();  // keeps its capacity: no allocation after the first run
    for (const Boundary& b : inputs_) {
        const auto t0 = Clock::now();
        if (b.edge < 0) {
            pack_feature(graph_.info(b.tensor), b.host, b.geom, fmap + b.offset);
        } else {
            NativeEdge& e = *edges_[size_t(b.edge)];
            if (e.bound) continue;  // the user's dma-buf already holds it in the NPU layout: no conversion, no copy
            pack_feature(graph_.info(b.tensor), b.host, b.geom, e.own.data() + b.offset);
        }
        ++input_conversions_;
        timing_.conversions.push_back({b.tensor, true, t0, Clock::now()});
    }
    // The simulator keeps a record per task; forget earlier ones so memory does not grow per inference.
    if (npu_.simulator) npu_.simulator->clear_records();
    const size_t before = 0;
    try {
        timing_.submit_begin = Clock::now();
        job_->submit();
        timing_.submit_end = Clock::now();
        job_->wait();
        timing_.wait_end = Clock::now();
    } catch (const npudrv::DriverError& e) {
        fail(ErrorKind::Runtime, std::string("NPU job failed: ") + e.what());
    }
    for (const Boundary& b : outputs_) {
        const auto t0 = Clock::now();
        if (b.edge < 0) {
            unpack_feature(graph_.info(b.tensor), b.geom, fmap + b.offset, b.host);
        } else {
            NativeEdge& e = *edges_[size_t(b.edge)];
            if (e.bound) continue;  // the NPU wrote it straight into the user's dma-buf
            unpack_feature(graph_.info(b.tensor), b.geom, e.own.data() + b.offset, b.host);
        }
        ++output_conversions_;
        timing_.conversions.push_back({b.tensor, false, t0, Clock::now()});
    }
    if (npu_.simulator) {
        const auto& rec = npu_.simulator->records();
        for (NpuLayerStats& l : layers_) {
            l.dma_read_bytes = l.dma_write_bytes = l.sim_macs = 0;
            for (uint32_t t = 0; t < l.tasks; ++t) {
                const size_t i = before + l.first_task + t;
                if (i >= rec.size()) break;
                l.dma_read_bytes += rec[i].counters.dma_read_bytes;
                l.dma_write_bytes += rec[i].counters.dma_write_bytes;
                l.sim_macs += rec[i].counters.macs;
            }
        }
    }
}


JobStatsView CompiledSegment::job_stats_view() const {
    JobStatsView v;
    if (job_) v.hw_elapse_time_ns = job_->stats().hw_elapse_time_ns;
    return v;
}

CompiledSegment::~CompiledSegment() {
    for (const auto& e : edges_) {
        if (e->exported_fd < 0) continue;
        try {
            npu_.device.close_fd(e->exported_fd);
        } catch (const npudrv::DriverError&) {
            // Nothing to report to from a destructor; the fd is gone either way.
        }
    }
}

std::string CompiledSegment::native_refusal(TensorId t) const {
    for (const auto& e : edges_)
        if (e->tensor == t) return {};
    const auto r = edge_refusals_.find(t);
    return r != edge_refusals_.end() ? r->second : "it is not an input or output of this NPU segment";
}

CompiledSegment::NativeEdge& CompiledSegment::edge_of(TensorId t) {
    for (auto& e : edges_)
        if (e->tensor == t) return *e;
    fail(ErrorKind::BadInput, "tensor '" + graph_.tensor(t).name + "' cannot be bound to a dma-buf: " + native_refusal(t));
}

const FeatureGeometry& CompiledSegment::native_geometry(TensorId t) const {
    for (const auto& e : edges_)
        if (e->tensor == t) return e->geom;
    fail(ErrorKind::BadInput, "tensor '" + graph_.tensor(t).name + "' cannot be bound to a dma-buf: " + native_refusal(t));
}

int CompiledSegment::export_native(TensorId t, void** data) {
    NativeEdge& e = edge_of(t);
    try {
        if (e.active != &e.own) {  // previously imported: back to the session's own buffer
            e.active = &e.own;
            rebuild_commands();
            e.imported = npudrv::Buffer();
        }
        if (e.exported_fd < 0) e.exported_fd = e.own.export_dmabuf();
    } catch (const npudrv::DriverError& err) {
        fail(ErrorKind::Device, std::string("cannot export ") + (e.output ? "output '" : "input '") + graph_.tensor(t).name + "' as a dma-buf: " + err.what());
    }
    e.bound = true;
    *data = e.own.data();
    return e.exported_fd;
}

void CompiledSegment::import_native(TensorId t, int dmabuf_fd) {
    NativeEdge& e = edge_of(t);
    const std::string name = std::string(e.output ? "output '" : "input '") + graph_.tensor(t).name + "'";
    npudrv::Buffer imported;
    try {
        imported = npu_.device.import_dmabuf(dmabuf_fd);
    } catch (const npudrv::DriverError& err) {
        fail(ErrorKind::BadInput, "cannot import dma-buf fd " + std::to_string(dmabuf_fd) + " for " + name + ": " + err.what());
    }
    if (imported.size() < e.bytes)
        fail(ErrorKind::BadInput, "dma-buf fd " + std::to_string(dmabuf_fd) + " for " + name + " holds " + std::to_string(imported.size()) +
                                      " bytes; its NPU layout needs " + std::to_string(e.bytes));
    // The job and the regcmd refer to the active buffer: swap only once the new ones exist.
    npudrv::Buffer previous = std::move(e.imported);
    e.imported = std::move(imported);
    e.active = &e.imported;
    try {
        rebuild_commands();
    } catch (const npudrv::DriverError& err) {
        fail(ErrorKind::Device, "cannot bind " + name + " to dma-buf fd " + std::to_string(dmabuf_fd) + ": " + err.what());
    }
    e.bound = true;
}

void CompiledSegment::rebuild_commands() {
    std::vector<std::pair<size_t, size_t>> lane_tasks;  // unchanged: the same tasks at other addresses
    const npudrv::regcmd::RegcmdBuffer fresh = emit_(commands_.dma_addr(), &lane_tasks);
    if (fresh.size_bytes() != regcmd_.size_bytes() || fresh.tasks.size() != regcmd_.tasks.size())
        fail(ErrorKind::Internal, "NPU regcmd changed size when re-emitted for new buffer addresses");
    job_.reset();
    regcmd_ = fresh;
    std::memcpy(commands_.data(), regcmd_.qwords.data(), regcmd_.size_bytes());
    if (commands_.flags() & npudrv::kBufferCacheable) commands_.sync_to_device();
    job_spec_.inputs = {&features_};
    job_spec_.outputs = {&features_};
    for (const auto& e : edges_) (e->output ? job_spec_.outputs : job_spec_.inputs).push_back(e->active);
    job_ = std::make_unique<npudrv::Job>(npu_.device.create_job(job_spec_));
}

}  // namespace npurun::npu

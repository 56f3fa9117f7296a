#include "runtime/npu/compiled_segment.h"

#include <algorithm>
#include <cstring>

#include "core/align.h"
#include "drv/sim/npu_simulator.h"
#include "core/error.h"

namespace npurun::npu {

namespace {

constexpr uint64_t kAlign = 64;
uint64_t align_up(uint64_t v) { return npurun::align_up(v, kAlign); }  // segment regions start on kAlign

}  // namespace

CompiledSegment::CompiledSegment(const Graph& g, const Placement& p, uint32_t segment, NpuContext& npu,
                                 const std::function<void*(TensorId)>& host, unsigned cores)
    : graph_(g), npu_(npu) {
    const Segment& seg = p.segments.at(segment);
    domain_ = seg.domain;
    prepare_layers(p, seg);
    pack_first_windows(seg);
    if (std::all_of(ops_.begin(), ops_.end(), [](const Layer& l) { return l.op->is_view(); }))
        fail(ErrorKind::Internal, "NPU segment " + std::to_string(segment) + " has no layer that computes");
    spread_over_cores(cores);
    const uint64_t feature_bytes = plan_regions(p, segment);
    const uint64_t constant_bytes = plan_constants();
    // The DMA buffers are reserved in the session's memory budget before they are created (the regcmd
    // buffer where its size is known, below).
    if (npu_.budget != nullptr) {
        uint64_t total = std::max<uint64_t>(feature_bytes, kAlign) + std::max<uint64_t>(constant_bytes, kAlign);
        for (const auto& e : edges_) total += std::max<uint64_t>(e->bytes, kAlign);
        npu_.budget->reserve(total, "the NPU buffers of segment " + std::to_string(segment) + " (feature maps, weights)");
    }
    try {
        allocate_buffers(feature_bytes, constant_bytes);
        // The regcmd is emitted once to learn its size, then at the regcmd buffer's address.
        const uint64_t regcmd_bytes = emit_commands(0).size_bytes();
        if (npu_.budget != nullptr) npu_.budget->reserve(regcmd_bytes, "the register commands of NPU segment " + std::to_string(segment));
        commands_ = npu_.device.create_buffer(regcmd_bytes, 0);
        regcmd_ = emit_commands(commands_.dma_addr());
        std::memcpy(commands_.map(), regcmd_.qwords.data(), regcmd_.size_bytes());
        // Written once here; only cacheable mappings need a cache flush (rknpu rejects MEM_SYNC otherwise).
        if (constants_.flags() & npudrv::kBufferCacheable) constants_.sync_to_device();
        if (commands_.flags() & npudrv::kBufferCacheable) commands_.sync_to_device();
        make_jobs();
    } catch (const npudrv::DriverError& e) {
        fail(ErrorKind::Device, std::string("NPU segment ") + std::to_string(segment) + ": " + e.what());
    }
    bind_boundaries(seg, host);
}

// What a layer must move at least: each non-constant input and the output once at the domain's element size
// (int8: 1 byte, fp16: 2), the weights once at that size, other constants (bias) at 4 bytes per element (the
// int32 / fp32 the DPU adds).
static uint64_t ideal_dma_bytes(const Graph& g, const Node& n, NpuDomain d) {
    const uint64_t e = d == NpuDomain::Fp16 ? 2 : 1;
    uint64_t bytes = 0;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
        const TensorId t = n.inputs[k];
        if (t == kNoTensor) continue;
        const uint64_t count = g.info(t).shape.num_elements();
        bytes += count * (g.tensor(t).is_constant() && k >= 2 ? 4 : e);
    }
    for (const TensorId t : n.outputs)
        if (t != kNoTensor) bytes += g.info(t).shape.num_elements() * e;
    return bytes;
}

// 1. Layers: every NPU node through its unit (npu_op.h), with the activation / Pad fused into it.
void CompiledSegment::prepare_layers(const Placement& p, const Segment& seg) {
    const Graph& g = graph_;
    for (uint32_t i : seg.nodes) {
        if (p.nodes[i].device != Placed::Npu) continue;
        const Node& n = g.nodes[i];
        FusedNodes f;
        f.node = &n;
        for (uint32_t j : seg.nodes)
            if (p.nodes[j].device == Placed::Fused && p.nodes[j].fused_into == int(i))
                (g.nodes[j].op == OpKind::Pad ? f.pad : j < i ? f.gate : f.activation) = &g.nodes[j];
        const NpuOpUnit* unit = npu_op_unit(n.op);
        if (unit == nullptr) fail(ErrorKind::Unsupported, n.describe() + ": cannot be lowered to the NPU: no NPU lowering");
        Layer layer;
        const Refusal r = unit->prepare(g, f, seg.domain, &layer.op);
        if (r.refused()) fail(ErrorKind::Unsupported, n.describe() + ": cannot be lowered to the NPU: " + r.reason());
        if (layer.op->is_view()) layer.op->add_views(&aliases_);
        NpuLayerStats st;
        st.node = i;
        st.name = n.name.empty() ? n.describe() : n.name;
        st.type = to_string(n.op);
        if (!layer.op->is_view()) {
            const Node* act = f.activation;
            st.type = std::string(f.pad ? "Pad+" : "") + (f.gate ? "SiLU:Sigmoid+" : "") + to_string(n.op) +
                      (act ? "+" + std::string(to_string(act->attr<ActivationAttrs>().function)) : "");
        }
        st.macs = layer.op->macs();
        // A SiLU's ideal is its gate's (x in once, a map of x's size out once): the sigmoid map is never stored.
        st.ideal_dma_bytes = ideal_dma_bytes(g, f.gate ? *f.gate : n, seg.domain);
        layers_.push_back(st);
        ops_.push_back(std::move(layer));
    }
}

// 1a. Window packing (window_packing.h): a layer reading a segment input, which the CPU converts at the
// edge anyway, may have it written as its packed input windows instead, when no other layer of the segment
// reads that tensor (they need the tensor itself) and the layer's op takes it.
void CompiledSegment::pack_first_windows(const Segment& seg) {
    for (Layer& l : ops_) {
        NpuOp& op = *l.op;
        if (op.is_view() || std::find(seg.inputs.begin(), seg.inputs.end(), op.input) == seg.inputs.end()) continue;
        const bool shared = std::any_of(ops_.begin(), ops_.end(), [&](const Layer& o) {
            const std::vector<TensorId> v = o.op->view_tensors();
            return o.op.get() != &op && (o.op->input == op.input || o.op->operand == op.input ||
                                         std::find(v.begin(), v.end(), op.input) != v.end());
        });
        std::string why;
        if (shared || op.operand == op.input) continue;
        if (const WindowPacking* w = op.pack_input_windows(&why)) packed_inputs_[op.input] = *w;
    }
}

// 1b. Multi-core. The lanes of one job run in parallel with no barrier between them (rknpu commits every
// selected core at once; the fake kernel refuses lanes that touch each other's data), so a layer spread over
// cores gets a job of its own: its lanes write disjoint parts of its output (output rows or K, conv_tiling.h)
// and read only what earlier jobs finished. The layers between spread layers share a one-lane job; views
// (no task) join whichever job is open. Only convolutions (and the depthwise / fully connected layers lowered
// as one) split. Forced (--npu-cores N) every layer that can splits; auto splits a layer when it is large
// enough to pay for the extra jobs (kAutoMultiCoreMacs for a segment of one layer, which needs no extra job).
void CompiledSegment::spread_over_cores(unsigned cores) {
    const unsigned avail = std::max(1u, std::min(3u, npu_.device.info().cores));
    const uint64_t auto_macs = ops_.size() == 1 ? kAutoMultiCoreMacs : kAutoMultiCoreMacsInSegment;
    phases_.clear();
    bool open_has_task = false;  // whether the last phase holds a layer that computes (a job needs a task)
    // What the open phase's lanes wrote, for a spread layer that may join it: per tensor, the rows each lane
    // wrote (every channel of them; empty when some lane's writes are not whole rows). No view joins a spread
    // phase (a view would let two names reach one region), so the map names everything the phase wrote.
    std::map<TensorId, std::vector<NpuOp::Rows>> written;
    bool open_has_view = false;
    for (size_t i = 0; i < ops_.size(); ++i) {
        NpuOp& op = *ops_[i].op;
        if (phases_.empty()) phases_.push_back(Phase{i, i, 1, {}, 0});
        if (op.is_view()) {
            phases_.back().end_op = i + 1;
            open_has_view = true;
            continue;
        }
        const unsigned want = cores != 0 ? std::min(cores, avail) : (op.macs() >= auto_macs ? avail : 1u);
        uint32_t lanes = want > 1 ? op.spread_over_lanes(want) : 1u;
        bool join = false;
        if (open_has_task && lanes > 1 && phases_.back().lanes == lanes && !open_has_view) {
            join = joins_spread_phase(op, lanes, written);
            if (!join && op.operand == kNoTensor && written.count(op.input)) {
                // Split by rows instead, so that each lane reads only the rows its own lane wrote, when what that
                // costs (a K split fetches the input once per lane, a row split the weights) is below the job
                // round trip it saves.
                const uint64_t own = op.slowest_lane_cycles();
                if (op.spread_over_lanes(want, /*rows_only=*/true) == lanes && joins_spread_phase(op, lanes, written) &&
                    op.slowest_lane_cycles() <= own + kJobRoundTripCycles)
                    join = true;
                else
                    lanes = op.spread_over_lanes(want);  // back to the layer's own choice
            }
        }
        if (open_has_task && !join && (lanes > 1 || phases_.back().lanes > 1)) {
            phases_.push_back(Phase{i, i, 1, {}, 0});
            written.clear();
            open_has_view = false;
        }
        phases_.back().end_op = i + 1;
        phases_.back().lanes = std::max(phases_.back().lanes, lanes);  // a phase of views alone was 1 lane
        open_has_task = true;
        std::vector<NpuOp::Rows> rows(lanes);
        for (uint32_t l = 0; l < lanes; ++l) {
            NpuOp::Rows reads;
            if (!op.lane_rows(l, &reads, &rows[l])) {
                rows.clear();
                break;
            }
        }
        written[op.output] = lanes > 1 ? rows : std::vector<NpuOp::Rows>{};
    }
}

// Whether spread `op` can run in the open phase's job: every tensor it reads that the phase wrote, each lane
// reads only within the rows the same lane wrote; and it writes nothing the phase touched. The lanes of a job
// have no ordering between them, so this is what makes sharing the job safe (the fake kernel's lane-race
// check verifies it on every simulated run).
bool CompiledSegment::joins_spread_phase(const NpuOp& op, uint32_t lanes,
                                         const std::map<TensorId, std::vector<NpuOp::Rows>>& written) {
    if (written.count(op.output)) return false;
    if (op.operand != kNoTensor && written.count(op.operand)) return false;
    const auto in = written.find(op.input);
    if (in == written.end()) return true;  // reads only what earlier jobs wrote
    if (in->second.size() != lanes) return false;
    for (uint32_t l = 0; l < lanes; ++l) {
        NpuOp::Rows reads, writes;
        if (!op.lane_rows(l, &reads, &writes)) return false;
        if (reads.begin < in->second[l].begin || reads.end > in->second[l].end) return false;
    }
    return true;
}

uint32_t CompiledSegment::lane_count() const {
    uint32_t n = 1;
    for (const Phase& ph : phases_) n = std::max(n, ph.lanes);
    return n;
}

uint32_t CompiledSegment::core_mask() const {
    const Phase* widest = nullptr;
    for (const Phase& ph : phases_)
        if (widest == nullptr || ph.lanes > widest->lanes) widest = &ph;
    return widest ? widest->core_mask : 0u;
}

// 2. Feature buffer: one region per tensor the segment touches, NC1HWC2 in the segment's domain; a view
// (Reshape output, Concat input) lies inside the region of the tensor that owns its storage, at its channel
// planes. A region spans everything its members write (a producer writes whole atoms).
uint64_t CompiledSegment::plan_regions(const Placement& p, uint32_t segment) {
    const Graph& g = graph_;
    const Segment& seg = p.segments.at(segment);
    for (const Layer& l : ops_) {
        const std::vector<TensorId> v = l.op->view_tensors();
        touched_.insert(touched_.end(), v.begin(), v.end());
    }
    for (const Layer& l : ops_) {
        touched_.push_back(l.op->input);
        if (l.op->operand != kNoTensor) touched_.push_back(l.op->operand);
        touched_.push_back(l.op->output);
    }
    touched_.insert(touched_.end(), seg.inputs.begin(), seg.inputs.end());
    touched_.insert(touched_.end(), seg.outputs.begin(), seg.outputs.end());
    std::map<TensorId, FeatureGeometry> geoms;
    for (TensorId t : touched_) {
        if (geoms.count(t)) continue;
        FeatureGeometry geom;
        std::string why;
        if (!feature_geometry(g.info(t), domain_, &geom, &why)) fail(ErrorKind::Unsupported, "NPU segment tensor '" + g.tensor(t).name + "': " + why);
        const auto packed = packed_inputs_.find(t);
        geoms[t] = packed == packed_inputs_.end() ? geom : packed->second.packed();
    }
    std::map<TensorId, uint64_t> root_extent;
    for (const auto& [t, geom] : geoms) {
        uint32_t ch = 0;
        const TensorId root = alias_root(aliases_, t, &ch);
        if (!geoms.count(root)) fail(ErrorKind::Internal, "NPU buffer view of '" + g.tensor(t).name + "' has no owner in the segment");
        const uint64_t extent = uint64_t{ch / geom.c2()} * geom.plane_bytes() + geom.alloc_bytes();
        root_extent[root] = std::max(root_extent[root], extent);
    }
    std::vector<TensorId> roots;  // in first-use order, so the layout does not depend on tensor ids
    for (TensorId t : touched_) {
        uint32_t ch = 0;
        const TensorId root = alias_root(aliases_, t, &ch);
        if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
    }
    plan_native_edges(p, segment, geoms, root_extent);
    std::map<TensorId, uint64_t> root_offset;
    uint64_t feature_bytes = 0;
    for (TensorId r : roots) {
        if (edge_index_.count(r)) {
            root_offset[r] = 0;  // at the start of its own buffer
            continue;
        }
        root_offset[r] = feature_bytes;
        feature_bytes = align_up(feature_bytes + root_extent[r]);
    }
    // Regions an op keeps for itself (between its own tasks), after every tensor's.
    for (Layer& l : ops_) {
        if (l.op->scratch_bytes() == 0) continue;
        l.scratch_offset = feature_bytes;
        feature_bytes = align_up(feature_bytes + l.op->scratch_bytes());
    }
    for (const auto& [t, geom] : geoms) {
        uint32_t ch = 0;
        const TensorId root = alias_root(aliases_, t, &ch);
        root_of_[t] = root;
        regions_[t] = {root_offset[root] + uint64_t{ch / geom.c2()} * geom.plane_bytes(), geom};
    }
    return feature_bytes;
}

// 2b. Model inputs read only by this segment, and model outputs only it produces and only the user reads, get
// a buffer of their own (zero-copy binding, see the header); every other root lives in the feature buffer.
void CompiledSegment::plan_native_edges(const Placement& p, uint32_t segment, const std::map<TensorId, FeatureGeometry>& geoms,
                                        const std::map<TensorId, uint64_t>& root_extent) {
    const Graph& g = graph_;
    const Segment& seg = p.segments.at(segment);
    auto is_binding = [](const std::vector<Binding>& bs, TensorId t) {
        return std::any_of(bs.begin(), bs.end(), [&](const Binding& b) { return b.tensor == t; });
    };
    auto add_edge = [&](TensorId t, bool output) {
        std::string why;
        uint32_t ch = 0;
        if (!is_binding(output ? g.outputs : g.inputs, t)) why = output ? "it is not a model output" : "it is not a model input";
        else if (is_binding(output ? g.inputs : g.outputs, t)) why = "it is both a model input and a model output";
        else if (alias_root(aliases_, t, &ch) != t)
            why = "it is a view into another tensor's NPU buffer (Concat input, Slice / Splitter output)";
        else if (packed_inputs_.count(t)) why = "its NPU buffer holds the first convolution's input windows packed on the host, not the tensor";
        for (size_t i = 0; i < g.nodes.size() && why.empty(); ++i) {
            const Node& n = g.nodes[i];
            if (n.op == OpKind::Output || std::find(n.inputs.begin(), n.inputs.end(), t) == n.inputs.end()) continue;
            if (p.nodes[i].segment != int(segment) || p.nodes[i].device == Placed::Cpu)
                why = "it is also read by " + n.describe() + (p.nodes[i].device == Placed::Cpu ? " on the CPU" : " in another NPU segment") +
                      ", which needs it in NHWC";
        }
        for (const auto& [u, geom] : geoms) {
            uint32_t c = 0;
            if (why.empty() && u != t && alias_root(aliases_, u, &c) == t)
                why = "a view (Reshape/Concat/Slice/Splitter) shares its NPU buffer";
        }
        for (const Layer& l : ops_)
            if (why.empty() && l.op->output_written_at_load() && l.op->output == t)
                why = "it is a Pad output, whose border is written once at load into the session's buffer";
        if (!why.empty()) {
            edge_refusals_[t] = why;
            return;
        }
        auto e = std::make_unique<NativeEdge>();
        e->tensor = t;
        e->output = output;
        e->geom = geoms.at(t);
        e->bytes = root_extent.at(t);
        edge_index_[t] = int(edges_.size());
        edges_.push_back(std::move(e));
    };
    for (TensorId t : seg.inputs) add_edge(t, false);
    for (TensorId t : seg.outputs) add_edge(t, true);
}

// 2c. Constants: one 64-byte aligned block per layer, in layer order.
uint64_t CompiledSegment::plan_constants() {
    uint64_t bytes = 0;
    for (Layer& l : ops_) {
        l.constants_offset = bytes;
        bytes = align_up(bytes + l.op->constant_bytes());
    }
    return bytes;
}

// 3. Buffers (zeroed: padding channels of the feature maps start as 0 and stay finite); every layer's
// constants packed into its block, once.
void CompiledSegment::allocate_buffers(uint64_t feature_bytes, uint64_t constant_bytes) {
    features_ = npu_.device.create_buffer(std::max<uint64_t>(feature_bytes, kAlign), npudrv::kBufferZeroed);
    for (auto& e : edges_) {
        e->own = npu_.device.create_buffer(std::max<uint64_t>(e->bytes, kAlign), npudrv::kBufferZeroed);
        e->own.map();
        e->active = &e->own;
    }
    constants_ = npu_.device.create_buffer(std::max<uint64_t>(constant_bytes, kAlign), npudrv::kBufferZeroed);
    uint8_t* cmap = constants_.map();
    for (const Layer& l : ops_)
        if (l.op->constant_bytes() != 0) l.op->write_constants(cmap + l.constants_offset);
    uint8_t* fmap = features_.map();
    // Pad borders: constant, written once here; the pad tasks only write the interior. This relies on nothing
    // else writing the Pad output's region (regions are not reused across tensors).
    for (const Layer& l : ops_) l.op->write_output_at_load(fmap + region(l.op->output).first);
}

const CompiledSegment::Region& CompiledSegment::region(TensorId t) const {
    auto it = regions_.find(t);
    if (it == regions_.end()) fail(ErrorKind::Internal, "NPU segment tensor '" + graph_.tensor(t).name + "' has no region");
    return it->second;
}

uint32_t CompiledSegment::address(TensorId t) const {
    const auto e = edge_index_.find(root_of_.at(t));
    const npudrv::Buffer& b = e == edge_index_.end() ? features_ : *edges_[size_t(e->second)]->active;
    return static_cast<uint32_t>(b.dma_addr() + regions_.at(t).first);
}

// 4. The chained regcmd of the whole segment: one chain per lane of each job (a single lane unless a layer was
// spread over cores), the chains back to back in one buffer in job order, each ending with a zero tail. Task
// numbers count in that order, which is also the order the simulator records them (jobs run one after the
// other, a job's lanes in core order). A function of the buffers' addresses: binding a model input/output to
// the user's dma-buf re-emits it (same tasks, same size) with that buffer's address.
npudrv::regcmd::RegcmdBuffer CompiledSegment::emit_commands(uint64_t base) {
    std::vector<std::vector<npudrv::regcmd::RegcmdWriter>> writers;
    size_t tasks_before = 0;  // tasks of the earlier jobs
    for (const Phase& ph : phases_) {
        std::vector<npudrv::regcmd::RegcmdWriter>& w = writers.emplace_back(ph.lanes);
        for (size_t l = ph.first_op; l < ph.end_op; ++l) {
            const NpuOp& op = *ops_[l].op;
            layers_[l].first_task = static_cast<uint32_t>(tasks_before + w[0].task_count());
            layers_[l].tasks = 0;
            if (op.is_view()) continue;  // no task: producers and consumers address the shared buffer
            OpAddresses a;
            a.input = address(op.input);
            a.output = address(op.output);
            if (op.operand != kNoTensor) a.operand = address(op.operand);
            a.constants = static_cast<uint32_t>(constants_.dma_addr() + ops_[l].constants_offset);
            if (op.scratch_bytes() != 0)
                a.scratch = static_cast<uint32_t>(features_.dma_addr() + ops_[l].scratch_offset);
            layers_[l].tasks = op.emit(w, a);
        }
        for (const auto& lane : w) tasks_before += lane.task_count();
    }
    std::vector<std::vector<uint64_t>> lane_bytes;
    uint64_t regcmd_bytes = 0;
    for (const auto& w : writers) {
        std::vector<uint64_t>& at = lane_bytes.emplace_back();
        for (const auto& lane : w) {
            at.push_back(regcmd_bytes);
            regcmd_bytes = align_up(regcmd_bytes + lane.finish(0).size_bytes());
        }
    }
    npudrv::regcmd::RegcmdBuffer all;
    all.base_addr = base;
    all.qwords.assign(regcmd_bytes / 8, 0);
    for (size_t p = 0; p < writers.size(); ++p) {
        phases_[p].lane_tasks.clear();  // [first, end) in all.tasks
        for (size_t i = 0; i < writers[p].size(); ++i) {
            const uint64_t off = lane_bytes[p][i];
            const npudrv::regcmd::RegcmdBuffer b = writers[p][i].finish(base + off);
            std::copy(b.qwords.begin(), b.qwords.end(), all.qwords.begin() + static_cast<std::ptrdiff_t>(off / 8));
            phases_[p].lane_tasks.push_back({all.tasks.size(), all.tasks.size() + b.tasks.size()});
            for (npudrv::regcmd::LaidOutTask t : b.tasks) {
                t.offset += static_cast<uint32_t>(off);
                all.tasks.push_back(t);
            }
        }
    }
    return all;
}

// 5. One driver job per phase: one lane of tasks per core, one task record per list (as the vendor runtime
// submits chains). rknpu pins a job's lanes to cores 0+1 (mask 3) or 0+1+2 (mask 7); rocket takes mask 0 and
// its scheduler spreads the lanes (= rocket jobs) over the cores. Every job lists the feature buffer both ways:
// on rknpu the session's buffers are not cacheable, so that costs no cache maintenance (each job still syncs
// its own task array: one MEM_SYNC each way per job, npu-bench counts them); on rocket (cacheable
// BOs) each job pays a PREP_BO/FINI_BO pair, and its lanes, which share the feature BO, are serialised by
// the kernel's implicit sync (correct, not parallel: rocket_backend.cpp).
void CompiledSegment::make_jobs() {
    jobs_.clear();
    for (Phase& ph : phases_) {
        npudrv::JobSpec spec;
        for (const auto& [first, end] : ph.lane_tasks) {
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
        if (ph.lanes > 1 && npu_.device.info().driver == npudrv::DriverKind::Rknpu) spec.core_mask = ph.lanes == 2 ? 3u : 7u;
        ph.core_mask = spec.core_mask;
        spec.inputs = {&features_};
        spec.outputs = {&features_};
        for (const auto& e : edges_) (e->output ? spec.outputs : spec.inputs).push_back(e->active);
        jobs_.push_back(npu_.device.create_job(spec));
    }
    timing_.jobs.resize(jobs_.size());  // run() fills it without allocating
}

// 6. Boundary tensors and their CPU storage.
void CompiledSegment::bind_boundaries(const Segment& seg, const std::function<void*(TensorId)>& host) {
    auto boundary = [&](TensorId t, const char* role) {
        const Region& r = region(t);
        void* h = host(t);
        if (h == nullptr) fail(ErrorKind::Internal, std::string("NPU segment ") + role + " '" + graph_.tensor(t).name + "' has no CPU storage");
        const auto e = edge_index_.find(t);
        const auto w = packed_inputs_.find(t);
        return Boundary{t, h, r.second, r.first, e == edge_index_.end() ? -1 : e->second, w == packed_inputs_.end() ? nullptr : &w->second};
    };
    for (TensorId t : seg.inputs) inputs_.push_back(boundary(t, "input"));
    for (TensorId t : seg.outputs) outputs_.push_back(boundary(t, "output"));
}

void CompiledSegment::run() {
    using Clock = std::chrono::steady_clock;
    uint8_t* fmap = features_.data();
    timing_.conversions.clear();  // keeps its capacity: no allocation after the first run
    for (const Boundary& b : inputs_) {
        const auto t0 = Clock::now();
        if (b.windows != nullptr) {
            pack_windows(graph_.info(b.tensor), b.host, *b.windows, fmap + b.offset);  // never its own buffer
        } else if (b.edge < 0) {
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
    try {
        for (size_t j = 0; j < jobs_.size(); ++j) {  // each job finished before the next starts: the barrier
            RunTiming::JobTiming& jt = timing_.jobs[j];
            jt.submit_begin = Clock::now();
            jobs_[j].submit();
            jt.submit_end = Clock::now();
            jobs_[j].wait();
            jt.wait_end = Clock::now();
        }
    } catch (const npudrv::DriverError& e) {
        // A vanished device stays a Device error: the session can no longer use the NPU (a timeout or a
        // hardware error is a Runtime error: the next run may succeed).
        fail(e.kind() == npudrv::ErrorKind::Device ? ErrorKind::Device : ErrorKind::Runtime, std::string("NPU job failed: ") + e.what());
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
            l.cost = npudrv::sim::cost::TaskCost{};
            for (uint32_t t = 0; t < l.tasks; ++t) {
                const size_t i = size_t{l.first_task} + t;
                if (i >= rec.size()) break;
                l.dma_read_bytes += rec[i].counters.dma_read_bytes;
                l.dma_write_bytes += rec[i].counters.dma_write_bytes;
                l.sim_macs += rec[i].counters.macs;
                l.cost += rec[i].cost;
            }
        }
        core_cycles_.fill(0);
        critical_path_cycles_ = 0;
        for (const Phase& ph : phases_) {
            uint64_t slowest = 0;
            for (const auto& [first, end] : ph.lane_tasks) {
                uint64_t lane = 0;
                for (size_t i = first; i < end && i < rec.size(); ++i) {
                    lane += rec[i].cost.cycles();
                    if (rec[i].core < core_cycles_.size()) core_cycles_[rec[i].core] += rec[i].cost.cycles();
                }
                slowest = std::max(slowest, lane);
            }
            critical_path_cycles_ += slowest;
        }
    }
}


JobStatsView CompiledSegment::job_stats_view() const {
    JobStatsView v;
    for (const npudrv::Job& j : jobs_) v.hw_elapse_time_ns += j.stats().hw_elapse_time_ns;
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

Refusal CompiledSegment::native_refusal(TensorId t) const {
    for (const auto& e : edges_)
        if (e->tensor == t) return {};
    const auto r = edge_refusals_.find(t);
    return Refusal::because(r != edge_refusals_.end() ? r->second : "it is not an input or output of this NPU segment");
}

CompiledSegment::NativeEdge& CompiledSegment::edge_of(TensorId t) {
    for (auto& e : edges_)
        if (e->tensor == t) return *e;
    fail(ErrorKind::BadInput, "tensor '" + graph_.tensor(t).name + "' cannot be bound to a dma-buf: " + native_refusal(t).reason());
}

const FeatureGeometry& CompiledSegment::native_geometry(TensorId t) const {
    for (const auto& e : edges_)
        if (e->tensor == t) return e->geom;
    fail(ErrorKind::BadInput, "tensor '" + graph_.tensor(t).name + "' cannot be bound to a dma-buf: " + native_refusal(t).reason());
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
    const size_t bytes = regcmd_.size_bytes(), tasks = regcmd_.tasks.size();  // unchanged: the same tasks at other addresses
    const npudrv::regcmd::RegcmdBuffer fresh = emit_commands(commands_.dma_addr());
    if (fresh.size_bytes() != bytes || fresh.tasks.size() != tasks)
        fail(ErrorKind::Internal, "NPU regcmd changed size when re-emitted for new buffer addresses");
    jobs_.clear();
    regcmd_ = fresh;
    std::memcpy(commands_.data(), regcmd_.qwords.data(), regcmd_.size_bytes());
    if (commands_.flags() & npudrv::kBufferCacheable) commands_.sync_to_device();
    make_jobs();
}

}  // namespace npurun::npu

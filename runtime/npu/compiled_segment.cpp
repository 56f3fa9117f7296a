#include "runtime/npu/compiled_segment.h"

#include <algorithm>
#include <cstring>

#include "drv/sim/npu_simulator.h"
#include "runtime/graph/error.h"
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
    std::map<TensorId, std::pair<uint64_t, FeatureGeometry>> regions;
    std::map<TensorId, uint64_t> root_offset;
    uint64_t feature_bytes = 0;
    for (TensorId r : roots) {
        root_offset[r] = feature_bytes;
        feature_bytes = align_up(feature_bytes + root_extent[r]);
    }
    for (const auto& [t, geom] : geoms) {
        uint32_t ch = 0;
        const TensorId root = alias_root(aliases, t, &ch);
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
        // spread over cores), the chains back to back in one buffer, each ending with a zero tail.
        lanes_ = prepared.size() == 1 ? std::max(1u, prepared[0].tiling.lanes) : 1u;
        std::vector<npudrv::regcmd::RegcmdWriter> writers(lanes_);
        for (size_t l = 0; l < prepared.size(); ++l) {
            const Prepared& pr = prepared[l];
            npudrv::regcmd::RegcmdWriter& w = writers[0];
            layers_[l].first_task = static_cast<uint32_t>(w.task_count());
            if (pr.is_view) continue;  // no task: producers and consumers address the shared buffer
            if (pr.is_eltwise) {
                const uint64_t operand = pr.in2 != kNoTensor ? features_.dma_addr() + regions[pr.in2].first
                                                             : constants_.dma_addr() + pr.operand_off;
                layers_[l].tasks = emit_eltwise_tasks(w, pr.eltwise, static_cast<uint32_t>(features_.dma_addr() + regions[pr.in].first),
                                                      static_cast<uint32_t>(operand),
                                                      static_cast<uint32_t>(features_.dma_addr() + regions[pr.out].first));
                continue;
            }
            if (pr.is_pad) {
                layers_[l].tasks = emit_pad_tasks(w, pr.pad, static_cast<uint32_t>(features_.dma_addr() + regions[pr.in].first),
                                                  static_cast<uint32_t>(features_.dma_addr() + regions[pr.out].first));
                continue;
            }
            if (pr.is_pool) {
                emit_pool_task(w, pr.pool, static_cast<uint32_t>(features_.dma_addr() + regions[pr.in].first),
                               static_cast<uint32_t>(features_.dma_addr() + regions[pr.out].first));
                layers_[l].tasks = 1;
                continue;
            }
            ConvAddresses a;
            a.input = static_cast<uint32_t>(features_.dma_addr() + regions[pr.in].first);
            a.output = static_cast<uint32_t>(features_.dma_addr() + regions[pr.out].first);
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
        commands_ = npu_.device.create_buffer(regcmd_bytes, 0);
        regcmd_.base_addr = commands_.dma_addr();
        regcmd_.qwords.assign(regcmd_bytes / 8, 0);
        std::vector<std::pair<size_t, size_t>> lane_tasks;  // [first, end) in regcmd_.tasks
        for (size_t i = 0; i < writers.size(); ++i) {
            const npudrv::regcmd::RegcmdBuffer b = writers[i].finish(commands_.dma_addr() + lane_bytes[i]);
            std::copy(b.qwords.begin(), b.qwords.end(), regcmd_.qwords.begin() + static_cast<std::ptrdiff_t>(lane_bytes[i] / 8));
            lane_tasks.push_back({regcmd_.tasks.size(), regcmd_.tasks.size() + b.tasks.size()});
            for (npudrv::regcmd::LaidOutTask t : b.tasks) {
                t.offset += static_cast<uint32_t>(lane_bytes[i]);
                regcmd_.tasks.push_back(t);
            }
        }
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
        job_ = std::make_unique<npudrv::Job>(npu_.device.create_job(spec));
    } catch (const npudrv::DriverError& e) {
        fail(ErrorKind::Device, std::string("NPU segment ") + std::to_string(segment) + ": " + e.what());
    }

    // 6. Boundary tensors and their CPU storage.
    for (TensorId t : seg.inputs) {
        auto r = region(t);
        void* h = host(t);
        if (h == nullptr) fail(ErrorKind::Internal, "NPU segment input '" + g.tensor(t).name + "' has no CPU storage");
        inputs_.push_back({t, h, r.second, r.first});
    }
    for (TensorId t : seg.outputs) {
        auto r = region(t);
        void* h = host(t);
        if (h == nullptr) fail(ErrorKind::Internal, "NPU segment output '" + g.tensor(t).name + "' has no CPU storage");
        outputs_.push_back({t, h, r.second, r.first});
    }
}

void CompiledSegment::run() {
    uint8_t* fmap = features_.data();
    for (const Boundary& b : inputs_) pack_feature(graph_.info(b.tensor), b.host, b.geom, fmap + b.offset);
    // The simulator keeps a record per task; forget earlier ones so memory does not grow per inference.
    if (npu_.simulator) npu_.simulator->clear_records();
    const size_t before = 0;
    try {
        job_->run();
    } catch (const npudrv::DriverError& e) {
        fail(ErrorKind::Runtime, std::string("NPU job failed: ") + e.what());
    }
    for (const Boundary& b : outputs_) unpack_feature(graph_.info(b.tensor), b.geom, fmap + b.offset, b.host);
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

}  // namespace npurun::npu

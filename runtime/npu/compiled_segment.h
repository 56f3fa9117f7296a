// One NPU segment compiled at load: its layers lowered to one chained regcmd buffer, every DMA buffer
// allocated (feature maps, constants, regcmd), the driver Job created. run() only converts the segment's
// inputs in (NHWC -> NC1HWC2, model dtype -> NPU domain), submits the one job, waits, and converts the
// outputs back.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "drv/device.h"
#include "drv/regcmd/regcmd_writer.h"
#include "drv/sim/cost_model.h"
#include "ir/graph.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_regcmd.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/npu_context.h"
#include "runtime/npu/npu_op.h"
#include "runtime/passes/placement.h"

namespace npurun::npu {

// What the driver reported about the last job (a copy of npudrv::JobStats, for timelines).
struct JobStatsView {
    int64_t hw_elapse_time_ns = 0;
};

// What --profile shows per NPU layer.
struct NpuLayerStats {
    uint32_t node = 0;          // graph node index of the layer (the conv; a fused activation is part of it)
    std::string name, type;
    uint64_t macs = 0;          // from the layer geometry
    uint32_t first_task = 0, tasks = 0;
    // Simulator counters of the last run (0 on a board): bytes read + written by the layer's tasks.
    uint64_t dma_read_bytes = 0, dma_write_bytes = 0;
    uint64_t sim_macs = 0;
    // Cost model (drv/sim/cost_model.h) summed over the layer's tasks of the last simulated run, and the
    // layer's ideal DMA: its input(s), weights and output once each, unpadded, at the NPU's element size.
    npudrv::sim::cost::TaskCost cost;
    uint64_t ideal_dma_bytes = 0;
};

class CompiledSegment {
public:
    // host(t) gives the CPU-side storage of a segment boundary tensor (the executor's arena). cores: how
    // many NPU cores a large convolution may be split over (0 = auto, see kAutoMultiCoreMacs; 1 = never).
    // Compiles in named steps: prepare_layers (each NPU node through its unit, npu_op.h), spread_over_cores,
    // plan_regions (feature regions, native edges), plan_constants, allocate_buffers (constants packed once),
    // emit_commands, make_job, bind_boundaries.
    CompiledSegment(const Graph& g, const Placement& p, uint32_t segment, NpuContext& npu,
                    const std::function<void*(TensorId)>& host, unsigned cores = 0);
    CompiledSegment(const CompiledSegment&) = delete;
    CompiledSegment& operator=(const CompiledSegment&) = delete;
    ~CompiledSegment();  // closes exported dma-buf fds

    void run();

    // Zero-copy edges (README "Native-layout inputs and outputs"): a segment input that is a model input read
    // only by this segment's NPU layers, or a segment output that is a model output only the user reads, has
    // its own DMA buffer (allocated here, at load), so it can be handed to the user as a dma-buf or replaced
    // by the user's dma-buf. Once bound, run() no longer converts it.
    // Whether `t` can be bound, or why not.
    Refusal native_refusal(TensorId t) const;
    const FeatureGeometry& native_geometry(TensorId t) const;  // throws unless bindable
    // Binds `t` to the segment's own buffer; returns a new dma-buf fd of it (owned by the segment, closed
    // with it) and its CPU mapping.
    int export_native(TensorId t, void** data);
    // Binds `t` to the caller's dma-buf (imported now; the fd stays the caller's): the regcmd addresses are
    // rewritten and the job recreated here, never in run(). Error(BadInput) when the buffer is too small.
    void import_native(TensorId t, int dmabuf_fd);
    // Segment inputs converted NHWC -> NC1HWC2 since load (a bound input is not).
    uint64_t input_conversions() const { return input_conversions_; }
    // Segment outputs converted NC1HWC2 -> NHWC since load (a bound output is not).
    uint64_t output_conversions() const { return output_conversions_; }

    // When the phases of the last run() happened (for timelines: npurun --trace).
    struct RunTiming {
        using TimePoint = std::chrono::steady_clock::time_point;
        struct Conversion {
            TensorId tensor;
            bool input;  // NHWC -> NC1HWC2 before the job, else NC1HWC2 -> NHWC after it
            TimePoint begin, end;
        };
        std::vector<Conversion> conversions;
        struct JobTiming {
            TimePoint submit_begin, submit_end, wait_end;
        };
        std::vector<JobTiming> jobs;  // one per phase, in order
    };
    const RunTiming& last_timing() const { return timing_; }
    // The driver's statistics of the last job (rknpu: hardware time; 0 on rocket and the simulator).
    JobStatsView job_stats_view() const;
    // The segment's jobs, in the order run() submits them. A layer spread over cores has a job of its own,
    // one lane per core, the lanes running in parallel, unless it shares the job of the spread layer before it
    // (joins_spread_phase: each lane reads only rows the same lane wrote); the layers between such layers share a
    // one-lane job.
    // run() waits for each job before it submits the next: the job boundary is the only synchronisation
    // between cores npurun relies on (docs/multicore.md: the vendor's own chains never need another), so a
    // lane only reads what earlier jobs wrote and writes what no other lane of its job touches.
    struct Phase {
        size_t first_op = 0, end_op = 0;  // [first, end) in layers()
        uint32_t lanes = 1;
        std::vector<std::pair<size_t, size_t>> lane_tasks;  // each lane's [first, end) in regcmd().tasks
        uint32_t core_mask = 0;  // rknpu core mask of its job (0 = one lane, the kernel picks the core)
    };
    const std::vector<Phase>& phases() const { return phases_; }
    // Estimated cycles of the last simulated run (drv/sim/cost_model.h), per core (index = core), and along
    // the critical path: per job the slowest lane, jobs added. 0 on a board.
    const std::array<uint64_t, 3>& core_cycles() const { return core_cycles_; }
    uint64_t critical_path_cycles() const { return critical_path_cycles_; }

    const std::vector<NpuLayerStats>& layers() const { return layers_; }
    const npudrv::regcmd::RegcmdBuffer& regcmd() const { return regcmd_; }
    uint32_t task_count() const { return static_cast<uint32_t>(regcmd_.tasks.size()); }
    // The most lanes (cores) any of the segment's jobs uses, and that job's rknpu core mask (0 = one lane).
    uint32_t lane_count() const;
    uint32_t core_mask() const;
    size_t job_count() const { return jobs_.size(); }

private:
    struct Boundary {
        TensorId tensor;
        void* host;
        FeatureGeometry geom;
        uint64_t offset;  // in the feature buffer (or in the native edge buffer)
        int edge = -1;    // index into edges_ when the tensor has its own buffer
        const WindowPacking* windows = nullptr;  // written as a layer's packed input windows (window_packing.h)
    };
    // A model input or output with a DMA buffer of its own (bindable to a dma-buf).
    struct NativeEdge {
        TensorId tensor;
        bool output = false;
        FeatureGeometry geom;
        uint64_t bytes = 0;
        npudrv::Buffer own, imported;
        const npudrv::Buffer* active = nullptr;  // &own or &imported: what the regcmd addresses
        bool bound = false;
        int exported_fd = -1;
    };
    // One NPU layer of the segment: its unit's op and where its constants are.
    struct Layer {
        std::unique_ptr<NpuOp> op;
        uint64_t constants_offset = 0;
        uint64_t scratch_offset = 0;  // its own region in the feature buffer (NpuOp::scratch_bytes)
    };
    using Region = std::pair<uint64_t, FeatureGeometry>;  // offset in its buffer, geometry

    void prepare_layers(const Placement& p, const Segment& seg);
    void pack_first_windows(const Segment& seg);
    void spread_over_cores(unsigned cores);
    static bool joins_spread_phase(const NpuOp& op, uint32_t lanes,
                                   const std::map<TensorId, std::vector<NpuOp::Rows>>& written);
    uint64_t plan_regions(const Placement& p, uint32_t segment);  // returns the feature buffer's bytes
    void plan_native_edges(const Placement& p, uint32_t segment, const std::map<TensorId, FeatureGeometry>& geoms,
                           const std::map<TensorId, uint64_t>& root_extent);
    uint64_t plan_constants();  // returns the constants buffer's bytes
    void allocate_buffers(uint64_t feature_bytes, uint64_t constant_bytes);
    // The segment's regcmd at a base address (every job's lanes back to back); fills each layer's task range
    // and each phase's lane_tasks.
    npudrv::regcmd::RegcmdBuffer emit_commands(uint64_t base);
    void make_jobs();  // one driver Job per phase, for the edges' current buffers
    void bind_boundaries(const Segment& seg, const std::function<void*(TensorId)>& host);
    uint32_t address(TensorId t) const;  // DMA address of a tensor's region
    const Region& region(TensorId t) const;

    NativeEdge& edge_of(TensorId t);
    void rebuild_commands();  // re-emits the regcmd for the edges' current buffers and recreates the job
    const Graph& graph_;
    NpuContext& npu_;
    NpuDomain domain_ = NpuDomain::Int8;
    std::vector<Layer> ops_;             // parallel to layers_
    std::vector<NpuLayerStats> layers_;
    AliasMap aliases_;
    std::vector<TensorId> touched_;      // feature maps in first-use order (the region layout follows it)
    std::map<TensorId, Region> regions_;
    std::map<TensorId, WindowPacking> packed_inputs_;  // host inputs written as a layer's packed windows
    std::map<TensorId, TensorId> root_of_;
    std::map<TensorId, int> edge_index_;  // roots with a buffer of their own -> index into edges_
    npudrv::regcmd::RegcmdBuffer regcmd_;
    npudrv::Buffer features_, constants_, commands_;
    std::vector<std::unique_ptr<NativeEdge>> edges_;  // stable addresses: the Job points at their buffers
    std::map<TensorId, std::string> edge_refusals_;   // segment inputs/outputs that could not get their own buffer
    std::vector<Phase> phases_;
    std::vector<npudrv::Job> jobs_;  // parallel to phases_
    std::vector<Boundary> inputs_, outputs_;
    uint64_t input_conversions_ = 0, output_conversions_ = 0;
    RunTiming timing_;
    std::array<uint64_t, 3> core_cycles_{};
    uint64_t critical_path_cycles_ = 0;
};

// What one more job costs a segment: a submit, the interrupt and the wait, assumed <= 30 us (not measured on a
// board) = 30,000 cycles at 1 GHz. A spread layer shares the job of the spread layer before it (reading only the
// rows its own lane wrote) when re-splitting it by rows costs its slowest lane less than that.
constexpr uint64_t kJobRoundTripCycles = 30000;

// Multiply-accumulates above which a convolution is spread over all cores when the session leaves the core
// count to the backend (npurun --npu-cores auto). At 1024 int8 MACs per cycle and core at 1 GHz
// (reference/mnn-format-and-rknn-runtime.md) 32 M MACs is ~30 us of one core, well above the cost of
// committing more cores. Not measured on a board yet.
constexpr uint64_t kAutoMultiCoreMacs = uint64_t{32} << 20;
// The same inside a segment of several layers, where the spread layer needs a job of its own, i.e. up to two
// more submit/interrupt round trips (the jobs before and after it). Assumed <= 30 us each (not measured on a
// board): three cores save 2/3 of the layer's time, which pays for 60 us from ~92 M MACs; 3x the threshold.
constexpr uint64_t kAutoMultiCoreMacsInSegment = 3 * kAutoMultiCoreMacs;

}  // namespace npurun::npu

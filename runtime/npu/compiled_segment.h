// One NPU segment compiled at load: its layers lowered to one chained regcmd buffer, every DMA buffer
// allocated (feature maps, constants, regcmd), the driver Job created. run() only converts the segment's
// inputs in (NHWC -> NC1HWC2, model dtype -> NPU domain), submits the one job, waits, and converts the
// outputs back.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "drv/device.h"
#include "drv/regcmd/regcmd_writer.h"
#include "runtime/graph/graph.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_regcmd.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/npu_context.h"
#include "runtime/passes/placement.h"

namespace npurun::npu {

// What --profile shows per NPU layer.
struct NpuLayerStats {
    uint32_t node = 0;          // graph node index of the layer (the conv; a fused activation is part of it)
    std::string name, type;
    uint64_t macs = 0;          // from the layer geometry
    uint32_t first_task = 0, tasks = 0;
    // Simulator counters of the last run (0 on a board): bytes read + written by the layer's tasks.
    uint64_t dma_read_bytes = 0, dma_write_bytes = 0;
    uint64_t sim_macs = 0;
};

// Why a node cannot be lowered (empty: it can). Used by placement so that nodes the checker accepts but
// this backend does not implement stay on the CPU, with the reason.
std::string lowering_refusal(const Graph& g, const Node& n, NpuDomain d);

class CompiledSegment {
public:
    // host(t) gives the CPU-side storage of a segment boundary tensor (the executor's arena). cores: how
    // many NPU cores a large convolution may be split over (0 = auto, see kAutoMultiCoreMacs; 1 = never).
    CompiledSegment(const Graph& g, const Placement& p, uint32_t segment, NpuContext& npu,
                    const std::function<void*(TensorId)>& host, unsigned cores = 0);
    CompiledSegment(const CompiledSegment&) = delete;
    CompiledSegment& operator=(const CompiledSegment&) = delete;

    void run();

    const std::vector<NpuLayerStats>& layers() const { return layers_; }
    const npudrv::regcmd::RegcmdBuffer& regcmd() const { return regcmd_; }
    uint32_t task_count() const { return static_cast<uint32_t>(regcmd_.tasks.size()); }
    // The job's lanes (one per core) and rknpu core mask (0 = one lane, the kernel picks the core).
    uint32_t lane_count() const { return lanes_; }
    uint32_t core_mask() const { return core_mask_; }

private:
    struct Boundary {
        TensorId tensor;
        void* host;
        FeatureGeometry geom;
        uint64_t offset;  // in the feature buffer
    };
    const Graph& graph_;
    NpuContext& npu_;
    std::vector<NpuLayerStats> layers_;
    npudrv::regcmd::RegcmdBuffer regcmd_;
    npudrv::Buffer features_, constants_, commands_;
    std::unique_ptr<npudrv::Job> job_;
    std::vector<Boundary> inputs_, outputs_;
    uint32_t lanes_ = 1, core_mask_ = 0;
};

// Multiply-accumulates above which a segment's convolution is spread over all cores when the session
// leaves the core count to the backend (npurun --npu-cores auto). At 1024 int8 MACs per cycle and core at
// 1 GHz (reference/mnn-format-and-rknn-runtime.md) 32 M MACs is ~30 us of one core, well above the cost of
// committing more cores. Not measured on a board yet.
constexpr uint64_t kAutoMultiCoreMacs = uint64_t{32} << 20;

}  // namespace npurun::npu

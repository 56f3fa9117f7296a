// One channel repeated across C channels on the NPU: the step that seed 003's channel-broadcasting Expand
// patterns ([b,1,1,w] and [b,1,h,1] -> [b,c,h,w], NCHW) need and that no DMA or DPU_RDMA mode does. NC1HWC2
// keeps 16 (int8) / 8 (fp16) channels of a pixel inside one 16-byte atom, the DMA moves whole atoms, and the
// EW operand is read per pixel or per channel, never one value for all channels; so the repetition is computed:
// a 1x1 convolution of the one-channel map with C kernels whose single weight is 1. int8: weight 1 at weight
// scale 1, no bias, output quantization = input quantization, so the accumulator is x - zx and the requantization
// multiplier is exactly 1 (OUT_CVT 16384 / 2^14): every output channel is the input value, bit for bit. fp16:
// x * 1.0, exact. The convolution is an ordinary prepared ConvLayer (conv_layer.h) of a small graph the
// expansion owns, so its weights, BS stream, tiling and registers are the convolution unit's, not a copy of them.
// Its output is a map [1,H,W,C] in a region the op owns (NpuOp::scratch_bytes); the op then broadcasts that
// map with the patterns that keep the channel count.
#pragma once

#include <cstdint>
#include <memory>

#include "core/refusal.h"
#include "drv/regcmd/regcmd_writer.h"
#include "ir/graph.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_tiling.h"
#include "runtime/npu/feature_layout.h"

namespace npurun::npu {

class ChannelExpansion {
public:
    // `source`: a [1,H,W,1] tensor (NHWC) in domain d; `channels`: C > 1. Refused when the convolution cannot be
    // lowered (cube or CBUF limits), with the convolution's reason.
    static Refusal make(const TensorInfo& source, uint32_t channels, NpuDomain d, ChannelExpansion* out);

    // The expanded map: [1,H,W,C] with the source's type and quantization.
    const TensorInfo& expanded() const { return graph_->info(1); }
    const FeatureGeometry& geometry() const { return geometry_; }
    uint64_t macs() const { return layer_.macs(); }
    uint32_t task_count() const { return tiling_.tasks; }

    // Its constants (weights, then the BS stream at a 64-byte boundary) and the region it writes.
    uint64_t constant_bytes() const;
    void write_constants(uint8_t* block) const;
    uint64_t scratch_bytes() const { return geometry_.alloc_bytes(); }

    // The convolution's tasks: the source map at `input`, the expanded map to `scratch`, constants at `constants`.
    uint32_t emit(npudrv::regcmd::RegcmdWriter& w, uint32_t input, uint32_t scratch, uint32_t constants) const;

private:
    std::shared_ptr<const Graph> graph_;  // tensors 0 x, 1 y, 2 weights; node 0 the 1x1 convolution
    ConvLayer layer_;
    ConvTiling tiling_;
    FeatureGeometry geometry_;
};

}  // namespace npurun::npu

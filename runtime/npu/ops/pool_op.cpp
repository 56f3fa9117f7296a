// The pooling unit: Pooling2d max / average (global too) as one PPU flying task (pool_layer.h); a global pool
// over a plane above 7x7 as several tasks (global_pool_passes) whose intermediate maps live in the op's scratch
// region (NpuOp::scratch_bytes), alternating between two halves: pass i writes half i % 2, which pass i + 1 reads.
// Every map after the first is smaller than it, so both halves are sized by the first two.
#include <algorithm>

#include "core/align.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/layer_unit.h"
#include "runtime/npu/ops/units.h"
#include "runtime/npu/pool_layer.h"

namespace npurun::npu::ops {

namespace {

constexpr uint64_t kHalfAlign = 64;

class PoolOp : public LayerOp<PoolLayer> {
public:
    PoolOp(const Node& node, PoolLayer L) : LayerOp(node, std::move(L)), passes_(global_pool_passes(layer_)) {
        for (size_t i = 0; i + 1 < passes_.size(); ++i) {
            FeatureGeometry mid;
            mid.c = layer_.c, mid.h = passes_[i].ho, mid.w = passes_[i].wo,
            mid.elem_bytes = layer_.domain == NpuDomain::Int8 ? 1 : 2;
            half_[i % 2] = std::max(half_[i % 2], align_up(mid.alloc_bytes(), kHalfAlign));
        }
    }
    uint64_t scratch_bytes() const override { return half_[0] + half_[1]; }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        uint32_t in = a.input;
        for (size_t i = 0; i < passes_.size(); ++i) {
            const bool last = i + 1 == passes_.size();
            const uint32_t out = last ? a.output : a.scratch + static_cast<uint32_t>(i % 2 == 0 ? 0 : half_[0]);
            emit_pool_task(lanes[0], passes_[i], in, out);
            in = out;
        }
        return static_cast<uint32_t>(passes_.size());
    }

private:
    std::vector<PoolLayer> passes_;
    uint64_t half_[2] = {0, 0};
};

}  // namespace

const NpuOpUnit kPooling{OpKind::Pooling2d, check_layer<PoolLayer, prepare_pool_layer>,
    prepare_layer_op<PoolOp, PoolLayer, prepare_pool_layer>};

}  // namespace npurun::npu::ops

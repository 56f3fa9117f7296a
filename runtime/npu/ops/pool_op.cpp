// The pooling unit: Pooling2d max / average (global too) as one PPU flying task (pool_layer.h); a global pool
// over a plane above 7x7 as two tasks (split_global_pool) whose intermediate map lives in the op's constants
// block (scratch: written by the first task of every run before the second reads it; zeroed at load).
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/ops/layer_unit.h"
#include "runtime/npu/ops/units.h"
#include "runtime/npu/pool_layer.h"

namespace npurun::npu::ops {

namespace {

class PoolOp : public LayerOp<PoolLayer> {
public:
    PoolOp(const Node& node, PoolLayer L) : LayerOp(node, std::move(L)) {
        split_ = split_global_pool(layer_, &first_, &second_);
        if (split_) {
            FeatureGeometry mid;
            mid.c = layer_.c, mid.h = first_.ho, mid.w = first_.wo, mid.elem_bytes = layer_.domain == NpuDomain::Int8 ? 1 : 2;
            scratch_bytes_ = mid.alloc_bytes();
        }
    }
    uint64_t constant_bytes() const override { return scratch_bytes_; }
    uint32_t emit(std::vector<npudrv::regcmd::RegcmdWriter>& lanes, const OpAddresses& a) const override {
        if (!split_) {
            emit_pool_task(lanes[0], layer_, a.input, a.output);
            return 1;
        }
        emit_pool_task(lanes[0], first_, a.input, a.constants);
        emit_pool_task(lanes[0], second_, a.constants, a.output);
        return 2;
    }

private:
    PoolLayer first_, second_;
    bool split_ = false;
    uint64_t scratch_bytes_ = 0;
};

}  // namespace

const NpuOpUnit kPooling{OpKind::Pooling2d, check_layer<PoolLayer, prepare_pool_layer>,
    prepare_layer_op<PoolOp, PoolLayer, prepare_pool_layer>};

}  // namespace npurun::npu::ops

// The Pad unit: Pad along H and W (pad_layer.h). A constant border is written into the output region once
// at load; the tasks copy the interior (and, for reflect, the mirrored pixels and rows). No constants.
#include "runtime/npu/ops/layer_unit.h"
#include "runtime/npu/ops/units.h"
#include "runtime/npu/pad_layer.h"

namespace npurun::npu::ops {

namespace {

class PadOp : public OneLaneLayerOp<PadLayer, emit_pad_tasks> {
public:
    using OneLaneLayerOp::OneLaneLayerOp;
    bool output_written_at_load() const override { return true; }
    void write_output_at_load(uint8_t* output_region) const override {
        if (!layer_.reflect) write_pad_border(layer_, output_region);
    }
};

}  // namespace

const NpuOpUnit kPad{OpKind::Pad, check_layer<PadLayer, prepare_pad_layer>,
    prepare_layer_op<PadOp, PadLayer, prepare_pad_layer>};

}  // namespace npurun::npu::ops

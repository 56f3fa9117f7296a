// Layer mapping, Input, Output, Constant.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {
namespace {

// Input and Output carry their binding id in a BindableLayerBase, not in a descriptor.
template <class LayerT, OpKind Op, size_t In, size_t Out> void binding(LayerContext& c, const LayerT* l) {
    expect_io(c.n, In, Out);
    set_op(c.n, Op, BindingAttrs{l->base()->layerBindingId()});
}

}  // namespace

std::vector<LayerMapper> io_layers() {
    return {layer_row<fb::InputLayer, binding<fb::InputLayer, OpKind::Input, 0, 1>>(),
            layer_row<fb::OutputLayer, binding<fb::OutputLayer, OpKind::Output, 1, 0>>(),
            // The output tensor already carries the data (attached when the output slots were read).
            plain_row<fb::Layer::ConstantLayer, OpKind::Constant, 0, 1>()};
}

}  // namespace npurun::armnn::mapping

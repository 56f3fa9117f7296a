// Layer mapping, Input, Output, Constant.
#include "runtime/loaders/armnn/mapping_common.h"

namespace npurun::armnn::mapping {

bool map_io_layer([[maybe_unused]] Graph& g, [[maybe_unused]] const FeatureVersions& fv, const fb::AnyLayer* layer, Node& n) {
    using L = fb::Layer;
    [[maybe_unused]] const void* t = layer->layer();
    switch (layer->layer_type()) {
        case L::InputLayer: {
            expect_io(n, 0, 1);
            n.op = OpKind::Input;
            n.attrs = BindingAttrs{static_cast<const fb::InputLayer*>(t)->base()->layerBindingId()};
            return true;
        }
        case L::OutputLayer: {
            expect_io(n, 1, 0);
            n.op = OpKind::Output;
            n.attrs = BindingAttrs{static_cast<const fb::OutputLayer*>(t)->base()->layerBindingId()};
            return true;
        }
        case L::ConstantLayer:
            // The output tensor already carries the data (attached when the output slots were read).
            plain(n, OpKind::Constant, 0, 1);
            return true;

        default: return false;
    }
}

}  // namespace npurun::armnn::mapping

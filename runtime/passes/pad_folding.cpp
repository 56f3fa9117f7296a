#include "runtime/passes/pad_folding.h"

#include <cmath>

#include "core/quantization.h"

namespace npurun {

namespace {

template <class Attrs>
bool add_padding(const PadAttrs& p, Node* conv, std::string* why) {
    Attrs a = conv->attr<Attrs>();
    if (a.layout != DataLayout::NHWC) {
        *why = "the convolution is not NHWC";
        return false;
    }
    a.pad_top += p.pads[1].first, a.pad_bottom += p.pads[1].second;
    a.pad_left += p.pads[2].first, a.pad_right += p.pads[2].second;
    conv->attrs = a;
    return true;
}

}  // namespace

bool fold_pad_into_conv(const Graph& g, const Node& pad, const Node& conv, Node* folded, std::string* why) {
    if (pad.op != OpKind::Pad || pad.inputs.empty() || pad.outputs.size() != 1) {
        *why = "not a Pad";
        return false;
    }
    if (conv.op != OpKind::Convolution2d && conv.op != OpKind::DepthwiseConvolution2d) {
        *why = "not a convolution";
        return false;
    }
    if (conv.inputs.empty() || conv.inputs[0] != pad.outputs[0]) {
        *why = "the convolution does not read the Pad's output";
        return false;
    }
    const auto& p = pad.attr<PadAttrs>();
    if (p.mode != PaddingMode::Constant) {
        *why = "not a constant Pad";
        return false;
    }
    if (p.pads.size() != 4 || p.pads[0].first || p.pads[0].second || p.pads[3].first || p.pads[3].second) {
        *why = "the Pad pads more than height and width";
        return false;
    }
    const TensorInfo& x = g.info(pad.inputs[0]);
    const TensorInfo& y = g.info(pad.outputs[0]);
    if (x.dtype != y.dtype || x.quant.scales != y.quant.scales || x.quant.offset != y.quant.offset) {
        *why = "the Pad's input and output are typed or quantized differently";
        return false;
    }
    if (is_float(x.dtype)) {
        if (p.value != 0.0f) {
            *why = "the pad value is not 0";
            return false;
        }
    } else {
        // The CPU kernel writes Arm NN's raw value: truncated toward zero, saturated to the type (NaN -> 0).
        double v = std::isnan(p.value) ? 0.0 : std::trunc(double(p.value));
        v = std::fmax(double(quant::type_min(y.dtype)), std::fmin(double(quant::type_max(y.dtype)), v));
        if (static_cast<int32_t>(v) != y.quant.offset) {
            *why = "the pad value is not the input zero point";
            return false;
        }
    }
    for (const Binding& b : g.outputs)
        if (b.tensor == pad.outputs[0]) {
            *why = "the Pad's output is a model output";
            return false;
        }
    for (const Node& n : g.nodes)
        if (&n != &conv)
            for (TensorId t : n.inputs)
                if (t == pad.outputs[0]) {
                    *why = "the Pad's output has another reader";
                    return false;
                }
    Node f = conv;
    f.inputs[0] = pad.inputs[0];
    const bool ok = conv.op == OpKind::Convolution2d ? add_padding<Convolution2dAttrs>(p, &f, why)
                                                     : add_padding<DepthwiseConvolution2dAttrs>(p, &f, why);
    if (!ok) return false;
    *folded = std::move(f);
    return true;
}

}  // namespace npurun

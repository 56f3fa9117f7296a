// A constant Pad in front of a convolution folded into the convolution's own padding (the CNA pads with the
// input zero point, PAD_CON1): the TfLite pattern Pad -> Conv2D/DepthwiseConv2D "VALID". The Pad then costs
// nothing on the NPU: no tasks, no buffer for its output.
//
// Only when the result is the same as running the Pad: constant mode, padding along H and W only, the pad
// value equal to the code the convolution pads with (int8: Arm NN's raw pad value == the input zero point;
// float: 0), the Pad's input and output quantized alike, its output read by this convolution alone (and not a
// model output), an NHWC convolution. Whether the folded convolution still fits the NPU (padding <= 15 on the
// top/left, ...) is for the support checker to say about the node fold_pad_into_conv returns.
#pragma once

#include <string>

#include "ir/graph.h"

namespace npurun {

// folded: `conv` reading the Pad's input with the Pad's rows and columns added to its padding.
bool fold_pad_into_conv(const Graph& g, const Node& pad, const Node& conv, Node* folded, std::string* why);

}  // namespace npurun

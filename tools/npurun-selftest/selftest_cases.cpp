// The self-test's case table: one line per case. It covers every op runtime/npu lowers today
// (compiled_segment.cpp / npu_backend.cpp, placement's lowering_refusal()):
//  * Convolution2d, DepthwiseConvolution2d, FullyConnected in uint8, int8 (per-tensor and per-channel
//    weights) and fp16, with strides, padding (symmetric and SAME-style asymmetric), non-square kernels,
//    no bias, fused ReLu / ReLu6;
//  * Pooling2d max / average (padding counted) / global;
//  * element-wise Add/Sub/Mul/Maximum/Minimum (int8 and fp16) and Div (fp16), same shape, broadcast
//    operands [1,1,1,C], [1,1,W,C], [1,H,1,C] (int8 and fp16), constant operands, fused ReLu (MulRelu);
//  * Pad constant (rows only, rows and columns) and reflect, and a zero-point Pad folded into a convolution
//    and into a depthwise convolution (no task of its own);
//  * Reshape (same C and H*W), channel Concat and channel Slice as buffer views inside small networks;
//  * Gather along H and W by constant indices (copy tasks), alone and between convolutions;
//  * tiling: by output rows, depthwise channel groups, K (more than 8192 output channels);
//  * multi-core (the last field: forced npu_cores): conv uint8 / int8 per-channel / fp16, depthwise and
//    fully connected split over 2 or 3 cores, a row-tiled layer with tiles in every lane, the K-tiled
//    FullyConnected spread over lanes; the job must have that many lanes and 1, 2 and 3 cores must give
//    identical bytes (selftest_runner.cpp core_sweep);
//  * small multi-layer networks (one NPU segment each);
//  * Lstm (fp16) as its parts: gate convolutions, element-wise layers, lookup-table activations.
//
// Not covered, because runtime/npu does not lower them (they run on the CPU, so there is nothing of the NPU
// to test): depth multiplier != 1, NCHW, int8 Div, Pad along channels or symmetric, Concat along H/W or at
// unaligned channel offsets, Reshapes that change C, average pooling that excludes padding. Also not here:
// K tiles inside each lane of a multi-core job (the checker caps channels at 16384, so a lane never gets
// more than 8192 kernels) and input-channel tiling (not implemented).
//
// Adding a case: one line. Names are unique; a case's data is seeded from its name. Keep shapes small: the
// whole table runs in CI under qemu-aarch64 (the CPU reference is the scalar kernels/ref).
#include <set>

#include "core/error.h"
#include "tools/npurun-selftest/selftest_case.h"

namespace npurun::selftest {

const char* to_string(Precision p) {
    switch (p) {
        case Precision::U8: return "uint8";
        case Precision::S8: return "int8";
        case Precision::Fp16: return "fp16";
    }
    return "?";
}

const char* layer_name(LayerKind k) {
    switch (k) {
        case LayerKind::Conv: return "Conv2d";
        case LayerKind::Depthwise: return "DepthwiseConv2d";
        case LayerKind::FullyConnected: return "FullyConnected";
        case LayerKind::MaxPool: return "MaxPool2d";
        case LayerKind::AvgPool: return "AvgPool2d";
        case LayerKind::GlobalAvgPool: return "GlobalAvgPool2d";
        case LayerKind::Pad: return "Pad";
        case LayerKind::Reshape: return "Reshape";
        case LayerKind::Concat: return "Concat";
        case LayerKind::Slice: return "Slice";
        case LayerKind::Gather: return "Gather";
        case LayerKind::Expand: return "Expand";
        case LayerKind::Pow: return "Pow";
        case LayerKind::Lstm: return "Lstm";
        case LayerKind::Add: return "Add";
        case LayerKind::Sub: return "Sub";
        case LayerKind::Mul: return "Mul";
        case LayerKind::Div: return "Div";
        case LayerKind::Max: return "Maximum";
        case LayerKind::Min: return "Minimum";
    }
    return "?";
}

bool is_binary(LayerKind k) { return k >= LayerKind::Add; }

const char* to_string(Broadcast b) {
    switch (b) {
        case Broadcast::None: return "";
        case Broadcast::C: return "[1,1,1,C]";
        case Broadcast::WC: return "[1,1,W,C]";
        case Broadcast::HC: return "[1,H,1,C]";
        case Broadcast::W1: return "[1,1,W,1]";
        case Broadcast::H1: return "[1,H,1,1]";
    }
    return "?";
}

// A layer with a k x k window and nothing else set: depthwise and the pools.
static LayerSpec square_window(LayerKind kind, uint32_t k) {
    LayerSpec s;
    s.kind = kind, s.kh = s.kw = k;
    return s;
}

LayerSpec conv(uint32_t out_c, uint32_t k) { return conv(out_c, k, k); }
LayerSpec conv(uint32_t out_c, uint32_t kh, uint32_t kw) {
    LayerSpec s;
    s.kind = LayerKind::Conv, s.out_c = out_c, s.kh = kh, s.kw = kw;
    return s;
}
LayerSpec dw(uint32_t k) { return square_window(LayerKind::Depthwise, k); }
LayerSpec fc(uint32_t out_c) {
    LayerSpec s;
    s.kind = LayerKind::FullyConnected, s.out_c = out_c;
    return s;
}
LayerSpec maxpool(uint32_t k) { return square_window(LayerKind::MaxPool, k); }
LayerSpec avgpool(uint32_t k) { return square_window(LayerKind::AvgPool, k); }
LayerSpec global_avgpool() {
    LayerSpec s;
    s.kind = LayerKind::GlobalAvgPool;
    return s;
}
LayerSpec eltwise(LayerKind k) {
    LayerSpec s;
    s.kind = k;
    return s;
}
LayerSpec pad_layer(uint32_t top, uint32_t bottom, uint32_t left, uint32_t right) {
    LayerSpec s;
    s.kind = LayerKind::Pad;
    s.pad(top, bottom, left, right);
    return s;
}
LayerSpec reshape(uint32_t h, uint32_t w) {
    LayerSpec s;
    s.kind = LayerKind::Reshape, s.to_h = h, s.to_w = w;
    return s;
}
LayerSpec concat_with(int layer) {
    LayerSpec s;
    s.kind = LayerKind::Concat, s.operand = layer;
    return s;
}
LayerSpec slice_channels(uint32_t begin, uint32_t count) {
    LayerSpec s;
    s.kind = LayerKind::Slice, s.begin_c = begin, s.to_c = count;
    return s;
}
LayerSpec slice_rows_cols(uint32_t h0, uint32_t hs, uint32_t w0, uint32_t ws) {
    LayerSpec s;
    s.kind = LayerKind::Slice, s.begin_h = h0, s.to_h = hs, s.begin_w = w0, s.to_w = ws;
    return s;
}
LayerSpec pow_by(float exponent) {
    LayerSpec s;
    s.kind = LayerKind::Pow, s.exponent = exponent;
    return s;
}

LayerSpec lstm(uint32_t cells) {
    LayerSpec s;
    s.kind = LayerKind::Lstm, s.out_c = cells;
    return s;
}

LayerSpec expand_to(uint32_t h, uint32_t w, uint32_t c) {
    LayerSpec s;
    s.kind = LayerKind::Expand, s.to_h = h, s.to_w = w, s.to_c = c;
    return s;
}

LayerSpec gather(int32_t axis, std::vector<int32_t> indices) {
    LayerSpec s;
    s.kind = LayerKind::Gather, s.axis = axis, s.indices = std::move(indices);
    return s;
}

namespace {

constexpr Precision U8 = Precision::U8, S8 = Precision::S8, F16 = Precision::Fp16;
const LayerSpec add = eltwise(LayerKind::Add), sub = eltwise(LayerKind::Sub), mul = eltwise(LayerKind::Mul),
                div_ = eltwise(LayerKind::Div), max_ = eltwise(LayerKind::Max), min_ = eltwise(LayerKind::Min);
InputShape hwc(uint32_t h, uint32_t w, uint32_t c) { return {h, w, c, false}; }
InputShape flat(uint32_t c) { return {1, 1, c, true}; }
LayerSpec L(LayerSpec s) { return s; }  // a copy to modify: L(add).relu()
constexpr Broadcast BC = Broadcast::C, BWC = Broadcast::WC, BHC = Broadcast::HC;

std::vector<Case> make_cases() {
    return {
        // Convolution2d: uint8 (QAsymmU8 weights), int8 (QAsymmS8 per-tensor, QSymmS8 per-channel), fp16.
        {"conv-u8-k3-p1", U8, hwc(16, 16, 16), {conv(32, 3).pad(1)}, "3x3, padding 1"},
        {"conv-u8-k1", U8, hwc(12, 10, 40), {conv(24, 1)}, "1x1 (pointwise)"},
        {"conv-u8-k3-s2-c3",
         U8,
         hwc(17, 15, 3),
         {conv(8, 3).stride(2).pad(1)},
         "3 input channels, odd sizes, stride 2"},
        {"conv-u8-k5-p2", U8, hwc(9, 9, 16), {conv(48, 5).pad(2)}, "5x5, padding 2"},
        {"conv-u8-k3-s2-same",
         U8,
         hwc(16, 16, 8),
         {conv(16, 3).stride(2).pad(0, 1, 0, 1)},
         "asymmetric (SAME) padding"},
        {"conv-u8-k3x1", U8, hwc(10, 12, 16), {conv(16, 3, 1).pad(1, 1, 0, 0)}, "non-square kernel"},
        // Dilated kernels run with the CONV_CON3 atrous fields (dilation - 1; runtime/npu/conv_layer.h): on a
        // board these cases are what checks that assumption.
        {"conv-u8-dilated2", U8, hwc(12, 12, 16), {conv(16, 3).dilation(2).pad(2)}, "3x3 dilation 2 (atrous)"},
        {"dw-f16-dilated3", F16, hwc(13, 11, 24), {dw(3).dilation(3).pad(3)}, "depthwise 3x3 dilation 3 (atrous)"},
        {"conv-f16-dilated5", F16, hwc(30, 40, 16), {conv(16, 3).dilation(5).pad(5)}, "3x3 dilation 5 (RFB-320's)"},
        {"conv-u8-s2x1", U8, hwc(12, 12, 16), {conv(16, 3).stride(2, 1).pad(1)}, "different strides per axis"},
        {"conv-u8-nobias", U8, hwc(8, 8, 16), {conv(16, 3).pad(1).no_bias()}, "no bias"},
        {"conv-u8-relu", U8, hwc(12, 12, 16), {conv(32, 3).pad(1).relu()}, "fused ReLu"},
        {"conv-u8-relu6", U8, hwc(12, 12, 16), {conv(32, 3).pad(1).relu6()}, "fused ReLu6"},
        {"conv-u8-perch", U8, hwc(9, 9, 16), {conv(48, 5).pad(2).per_ch()}, "uint8 model, per-channel weights"},
        {"conv-s8-k3-p1", S8, hwc(16, 16, 16), {conv(32, 3).pad(1)}, "int8 per-tensor weights"},
        {"conv-s8-k1-c20", S8, hwc(8, 8, 20), {conv(40, 1)}, "int8 1x1, channels not a multiple of 16"},
        {"conv-s8-perch", S8, hwc(12, 12, 24), {conv(33, 3).pad(1).per_ch()}, "int8 per-channel weights"},
        {"conv-s8-perch-relu6",
         S8,
         hwc(16, 16, 16),
         {conv(40, 3).stride(2).pad(1).per_ch().relu6()},
         "per-channel, stride 2, ReLu6"},
        {"conv-s8-k3-s3", S8, hwc(20, 20, 8), {conv(16, 3).stride(3)}, "stride 3, no padding"},
        {"conv-s8-k7-s2-p3", S8, hwc(24, 24, 3), {conv(16, 7).stride(2).pad(3)}, "7x7 stem, stride 2"},
        {"conv-f16-k3-p1", F16, hwc(16, 16, 16), {conv(32, 3).pad(1)}, "fp16"},
        {"conv-f16-s2-relu6",
         F16,
         hwc(17, 10, 5),
         {conv(21, 3).stride(2).pad(1).relu6()},
         "fp16 odd channels, stride 2, ReLu6"},
        {"conv-f16-k1-relu", F16, hwc(8, 8, 64), {conv(32, 1).relu()}, "fp16 1x1, ReLu"},
        {"conv-f16-nobias", F16, hwc(8, 8, 16), {conv(16, 3).pad(1).no_bias()}, "fp16 without bias"},

        // DepthwiseConvolution2d (depth multiplier 1).
        {"dw-u8-k3-p1", U8, hwc(16, 16, 40), {dw(3).pad(1)}, "depthwise 3x3"},
        {"dw-u8-k3-s2-relu6", U8, hwc(15, 15, 32), {dw(3).stride(2).pad(1).relu6()}, "depthwise stride 2, ReLu6"},
        {"dw-u8-k5-p2", U8, hwc(12, 12, 24), {dw(5).pad(2)}, "depthwise 5x5"},
        {"dw-s8-perch", S8, hwc(8, 8, 72), {dw(3).pad(1).per_ch()}, "depthwise int8 per-channel"},
        {"dw-f16-relu", F16, hwc(16, 16, 40), {dw(3).pad(1).relu()}, "depthwise fp16, ReLu"},

        // FullyConnected (a 1x1 convolution over one pixel).
        {"fc-u8", U8, flat(200), {fc(10)}, "fully connected"},
        {"fc-u8-relu6", U8, flat(100), {fc(32).relu6()}, "fully connected, ReLu6"},
        {"fc-s8", S8, flat(256), {fc(64)}, "fully connected int8"},
        {"fc-f16-relu", F16, flat(128), {fc(40).relu()}, "fully connected fp16, ReLu"},

        // Pooling2d: max, average (padding counted), global average.
        {"maxpool-u8-k3-s2-p1", U8, hwc(15, 15, 24), {maxpool(3).stride(2).pad(1)}, "max 3x3 stride 2, padding"},
        {"maxpool-s8-k2-s2", S8, hwc(16, 16, 32), {maxpool(2).stride(2)}, "max 2x2 stride 2"},
        {"avgpool-u8-k2-s2", U8, hwc(8, 8, 20), {avgpool(2).stride(2)}, "average 2x2 stride 2"},
        {"avgpool-u8-k3-p1", U8, hwc(9, 9, 16), {avgpool(3).pad(1)}, "average 3x3, padding counted"},
        {"avgpool-s8-k3-s2", S8, hwc(13, 13, 40), {avgpool(3).stride(2)}, "average int8 stride 2"},
        {"gavgpool-u8", U8, hwc(4, 4, 64), {global_avgpool()}, "global average"},
        {"gavgpool-s8-7x7", S8, hwc(7, 7, 32), {global_avgpool()}, "global average 7x7"},
        {"maxpool-f16-k2-s2", F16, hwc(10, 10, 12), {maxpool(2).stride(2)}, "max fp16"},
        {"avgpool-f16-k5-p2", F16, hwc(10, 10, 12), {avgpool(5).pad(2)}, "average fp16 5x5"},
        {"gavgpool-f16", F16, hwc(7, 7, 48), {global_avgpool()}, "global average fp16"},

        // Element-wise binary ops on two run-time tensors of the same shape.
        {"add-u8", U8, hwc(6, 7, 24), {add}, "two inputs on different quantization grids"},
        {"sub-s8", S8, hwc(6, 7, 24), {sub}, "int8 subtraction"},
        {"max-u8", U8, hwc(6, 7, 24), {max_}, "maximum"},
        {"min-s8", S8, hwc(6, 7, 24), {min_}, "minimum"},
        {"add-u8-relu", U8, hwc(9, 5, 33), {L(add).relu()}, "add with fused ReLu"},
        {"add-f16", F16, hwc(6, 7, 24), {add}, "fp16 add"},
        {"sub-f16", F16, hwc(6, 7, 24), {sub}, "fp16 sub"},
        {"mul-f16-relu", F16, hwc(6, 7, 24), {L(mul).relu()}, "fp16 mul, ReLu"},
        {"div-f16", F16, hwc(6, 7, 24), {div_}, "fp16 div (divisor in [0.5, 1.5))"},
        {"max-f16", F16, hwc(6, 7, 24), {max_}, "fp16 maximum"},
        {"min-f16-relu6", F16, hwc(6, 7, 24), {L(min_).relu6()}, "fp16 minimum, ReLu6"},

        // Element-wise broadcasting (the operand is [1,1,1,C], [1,1,W,C] or [1,H,1,C]), constant operands,
        // int8 Mul and MulRelu.
        {"bc-u8-add-c", U8, hwc(6, 7, 40), {L(add).bcast(BC)}, "add, [1,1,1,C] operand"},
        {"bc-sub-s8-wc", S8, hwc(5, 7, 24), {L(sub).bcast(BWC)}, "sub, [1,1,W,C] operand"},
        {"bc-max-u8-hc", U8, hwc(6, 5, 40), {L(max_).bcast(BHC)}, "maximum, [1,H,1,C] operand"},
        {"bc-mul-s8-c-relu", S8, hwc(6, 7, 24), {L(mul).bcast(BC).relu()}, "int8 MulRelu, [1,1,1,C] operand"},
        {"bc-add-f16-c", F16, hwc(6, 7, 24), {L(add).bcast(BC)}, "fp16 add, [1,1,1,C] operand"},
        {"bc-mul-f16-wc", F16, hwc(5, 6, 20), {L(mul).bcast(BWC)}, "fp16 mul, [1,1,W,C] operand"},
        {"bc-min-f16-hc", F16, hwc(6, 5, 24), {L(min_).bcast(BHC)}, "fp16 minimum, [1,H,1,C] operand"},
        // Across the channels: the one channel repeated by a 1x1 convolution with weights 1, then as above.
        {"bc-u8-add-w1",
         U8,
         hwc(5, 7, 24),
         {L(add).bcast(Broadcast::W1)},
         "add, [1,1,W,1] operand (channel expansion)"},
        {"bc-mul-s8-h1",
         S8,
         hwc(6, 5, 40),
         {L(mul).bcast(Broadcast::H1)},
         "mul, [1,H,1,1] operand (channel expansion)"},
        {"bc-sub-f16-w1",
         F16,
         hwc(5, 6, 20),
         {L(sub).bcast(Broadcast::W1)},
         "fp16 sub, [1,1,W,1] operand (channel expansion)"},
        {"mul-u8", U8, hwc(6, 7, 24), {mul}, "uint8 mul"},
        {"mul-s8-relu", S8, hwc(6, 7, 40), {L(mul).relu()}, "int8 MulRelu"},
        {"const-u8-add", U8, hwc(6, 7, 24), {L(add).constant()}, "add of a constant tensor"},
        {"const-mul-s8-c", S8, hwc(6, 7, 24), {L(mul).constant().bcast(BC)}, "int8 mul by a [1,1,1,C] constant"},
        {"const-div-f16-c", F16, hwc(6, 7, 24), {L(div_).constant().bcast(BC)}, "fp16 div by a [1,1,1,C] constant"},

        // Pad along H and W: constant (border written at load) and reflect; a zero-point Pad folded into a conv.
        {"pad-u8-const", U8, hwc(6, 7, 24), {pad_layer(1, 2, 3, 1)}, "constant pad, raw value 37"},
        {"pad-s8-rows", S8, hwc(6, 7, 24), {pad_layer(2, 1, 0, 0)}, "constant pad of rows only"},
        {"pad-f16-const", F16, hwc(5, 6, 20), {pad_layer(1, 1, 2, 2)}, "fp16 constant pad"},
        {"pad-u8-reflect", U8, hwc(6, 7, 24), {L(pad_layer(1, 2, 2, 1)).reflect()}, "reflect pad"},
        {"pad-f16-reflect", F16, hwc(5, 6, 20), {L(pad_layer(2, 1, 1, 2)).reflect()}, "fp16 reflect pad"},
        {"padfold-u8-conv",
         U8,
         hwc(10, 10, 16),
         {L(pad_layer(1, 1, 1, 1)).zero_point(), conv(24, 3)},
         "zero-point pad folded into a conv"},
        {"padfold-f16-dw",
         F16,
         hwc(10, 10, 24),
         {L(pad_layer(1, 2, 1, 2)).zero_point(), dw(3).stride(2)},
         "zero pad folded into an fp16 depthwise conv"},

        // Gather by constant indices along H or W (DPU flying copies, one per run of consecutive indices).
        {"gather-u8-rows", U8, hwc(6, 7, 24), {gather(1, {5, 0, 1, 2, 2})}, "gather rows (axis H)"},
        {"gather-s8-cols", S8, hwc(5, 7, 40), {gather(2, {6, 1, 2, 0})}, "gather columns (axis W)"},
        // Expand (seed 003; a Tile of size-1 axes): doubling copies along W in each row, then along H.
        {"expand-u8-rows", U8, hwc(1, 7, 24), {expand_to(6, 7)}, "expand a row down ([b,c,1,w] -> [b,c,h,w])"},
        {"expand-s8-cols", S8, hwc(5, 1, 40), {expand_to(5, 9)}, "expand a column across ([b,c,h,1] -> [b,c,h,w])"},
        {"expand-f16-pixel-conv",
         F16,
         hwc(1, 1, 16),
         {expand_to(6, 6), conv(8, 3).pad(1)},
         "expand a pixel > conv, one segment"},
        {"expand-u8-channels-rows",
         U8,
         hwc(1, 7, 1),
         {expand_to(6, 7, 24)},
         "expand across channels and down ([b,1,1,w] -> [b,c,h,w])"},
        {"expand-f16-channels-cols",
         F16,
         hwc(5, 1, 1),
         {expand_to(5, 9, 20), conv(8, 3).pad(1)},
         "expand across channels and columns > conv"},
        {"gather-f16-rows-conv",
         F16,
         hwc(8, 6, 16),
         {conv(16, 3).pad(1), gather(1, {7, 6, 0, 3}), conv(8, 1)},
         "conv > gather rows > conv, one segment"},

        // Buffer views: Reshape (same C and H*W) and channel Concat written in place by its producers.
        {"net-u8-concat",
         U8,
         hwc(10, 10, 16),
         {conv(32, 3).pad(1), L(conv(16, 3).pad(1)).from_input(), concat_with(0), conv(16, 1)},
         "two convs concatenated, then a conv"},
        {"net-f16-concat",
         F16,
         hwc(8, 8, 16),
         {conv(16, 1).relu(), L(conv(16, 1).relu()).from_input(), concat_with(0), conv(8, 3).pad(1)},
         "fp16 channel concat, then a conv"},
        // Slice along channels as a view of its input (on the 16 int8 / 8 fp16 channel atom; the last view may end
        // inside it at the input's last channel).
        {"net-u8-slice",
         U8,
         hwc(8, 9, 16),
         {conv(48, 3).pad(1), slice_channels(16, 16), conv(16, 1)},
         "conv > slice channels [16, 32) > conv"},
        {"net-f16-slice",
         F16,
         hwc(7, 8, 16),
         {conv(20, 1).relu(), slice_channels(8, 12), conv(8, 3).pad(1)},
         "fp16 conv > slice channels [8, 20) of 20 > conv"},
        // Rows / columns: DPU flying copies (runtime/npu/ops/slice_op.cpp).
        {"net-u8-slice-rows",
         U8,
         hwc(12, 10, 16),
         {conv(32, 3).pad(1), slice_rows_cols(2, 8, 0, 10), conv(16, 1)},
         "conv > slice rows [2, 10) (one copy task) > conv"},
        {"net-f16-slice-cols",
         F16,
         hwc(9, 12, 8),
         {conv(24, 3).pad(1), slice_rows_cols(1, 6, 3, 7), conv(8, 3).pad(1)},
         "fp16 conv > slice rows [1, 7) x columns [3, 10) (a copy per row) > conv"},
        {"net-s8-reshape",
         S8,
         hwc(8, 6, 16),
         {conv(32, 3).pad(1), reshape(12, 4), conv(16, 3).pad(1)},
         "conv > reshape 8x6 -> 12x4 > conv"},

        // Row tiling: inputs larger than the 11 CBUF data banks (352 KiB) are split into tasks by output rows;
        // depthwise layers first into channel groups.
        {"tile-conv-u8-rows",
         U8,
         hwc(72, 80, 64),
         {conv(8, 3).pad(1).relu6().must_tile()},
         "row tiling (360 KiB input)"},
        {"tile-conv-s8-rows-s2",
         S8,
         hwc(75, 80, 64),
         {conv(16, 3).stride(2).pad(1).must_tile()},
         "row tiling, stride 2"},
        {"tile-conv-f16-rows", F16, hwc(48, 64, 64), {conv(8, 3).pad(1).must_tile()}, "fp16 row tiling"},
        {"tile-dw-u8-channels", U8, hwc(48, 48, 224), {dw(3).pad(1).relu6().must_tile()}, "depthwise channel tiling"},
        {"tile-dw-f16-rows",
         F16,
         hwc(96, 96, 40),
         {dw(3).stride(2).pad(1).must_tile()},
         "depthwise fp16 channel and row tiling"},

        // Large convolutions: weights larger than the CBUF (streamed), many output channels; the backend's
        // own core choice (auto: one core below kAutoMultiCoreMacs). Forced splits are the mc-* cases.
        {"large-conv-u8-w576k", U8, hwc(7, 7, 256), {conv(256, 3).pad(1)}, "576 KiB of weights"},
        {"large-conv-s8-perch",
         S8,
         hwc(10, 10, 128),
         {conv(256, 3).pad(1).per_ch().relu()},
         "288 KiB of weights, 256 outputs"},
        {"large-conv-f16-k1", F16, hwc(14, 14, 256), {conv(256, 1)}, "fp16 1x1, 256 -> 256"},
        {"large-conv-u8-rows-w",
         U8,
         hwc(48, 80, 96),
         {conv(8, 3).pad(1).must_tile()},
         "row tiling of a 96-channel input"},

        // K tiling: more than 8192 output channels (the DPU/WDMA channel fields hold 13 bits).
        {"ktile-fc-s8-8200", S8, flat(32), {fc(8200).must_tile()}, "fully connected 32 -> 8200, K tiles"},
        {"ktile-conv-f16-k1", F16, hwc(2, 2, 16), {conv(8208, 1).must_tile()}, "fp16 1x1 16 -> 8208 on 2x2, K tiles"},

        // Multi-core: one-convolution segments forced onto 2 or 3 cores (split by K or by output rows); the job
        // must have that many lanes and 1, 2 and 3 cores must give the same bytes.
        {"mc-conv-u8-3cores", U8, hwc(20, 20, 32), {conv(32, 3).pad(1)}, "rows split over 3 cores", 3},
        {"mc-conv-s8-perch-2cores",
         S8,
         hwc(10, 10, 32),
         {conv(48, 3).pad(1).per_ch().relu()},
         "int8 per-channel over 2 cores",
         2},
        {"mc-conv-f16-3cores", F16, hwc(10, 10, 32), {conv(32, 3).pad(1)}, "fp16 over 3 cores", 3},
        {"mc-dw-u8-2cores", U8, hwc(20, 20, 48), {dw(3).pad(1).relu6()}, "depthwise rows over 2 cores", 2},
        {"mc-u8-fc-3cores", U8, flat(1024), {fc(200)}, "fully connected K split over 3 cores", 3},
        {"mc-tile-conv-u8-3cores",
         U8,
         hwc(136, 128, 64),
         {conv(8, 1).must_tile()},
         "row tiles in each of 3 lanes (1088 KiB input)",
         3},
        // Multi-core segments of several layers: each layer spread over the cores in a job of its own (the job
        // boundary is the barrier, CompiledSegment::Phase), a depthwise and a 1x1 between them.
        {"mc-chain-u8-3cores",
         U8,
         hwc(20, 20, 32),
         {conv(32, 3).pad(1).relu(), dw(3).pad(1).relu6(), conv(48, 1)},
         "conv, depthwise, 1x1 conv: 3 jobs of 3 lanes",
         3},
        {"mc-chain-f16-2cores",
         F16,
         hwc(12, 12, 16),
         {conv(32, 3).pad(1), conv(16, 1)},
         "fp16 conv, 1x1 conv: 2 jobs of 2 lanes",
         2},
        {"mc-s8-fc8200-2cores",
         S8,
         flat(32),
         {fc(8200)},
         "K-tiled on 1 core (8192 + 8), 4100 kernels per lane on 2",
         2},

        // Small networks: every layer in one NPU segment, intermediates stay in the NPU layout.
        {"net-u8-mobilenet-block",
         U8,
         hwc(16, 16, 8),
         {conv(24, 3).stride(2).pad(1).relu6(), dw(3).pad(1).relu6(), conv(12, 1)},
         "conv > depthwise > pointwise"},
        {"net-s8-residual",
         S8,
         hwc(12, 12, 16),
         {conv(16, 3).pad(1).relu(), conv(16, 3).pad(1), L(add).with(0).relu()},
         "residual block"},
        {"net-u8-classifier",
         U8,
         hwc(14, 14, 8),
         {conv(32, 3).stride(2).pad(1).relu6(), dw(3).pad(1).relu6(), global_avgpool(), fc(10)},
         "conv > depthwise > global pool > fully connected"},
        {"net-f16-pools",
         F16,
         hwc(16, 16, 8),
         {conv(16, 3).pad(1).relu(), maxpool(2).stride(2), conv(32, 3).pad(1).relu6(), avgpool(2).stride(2)},
         "fp16 conv/pool stack"},
        {"net-f16-gated",
         F16,
         hwc(10, 10, 16),
         {conv(16, 1).relu(), conv(16, 3).pad(1), L(mul).with(0)},
         "fp16 product of two branches"},

        // Standalone fp16 activations without a lookup table (runtime/npu/ops/activation_op.cpp), one DPU task
        // each, between convolutions in one segment: LeakyReLu (BS PReLU multiplier), Square (Pow exponent 2).
        {"act-leakyrelu-f16",
         F16,
         hwc(9, 10, 16),
         {conv(16, 3).pad(1).leaky_relu(), conv(8, 1)},
         "conv > LeakyReLu 0.1 > conv, one segment"},
        {"pow-square-f16",
         F16,
         hwc(8, 7, 24),
         {conv(24, 1).square(), dw(3).pad(1)},
         "conv > Square (Pow 2) > depthwise"},
        // Pow by a constant exponent (seed 003; ElementwiseBinary Power): an activation of its base on the NPU.
        {"pow-cube-f16",
         F16,
         hwc(8, 7, 24),
         {conv(24, 1), pow_by(3.0f), dw(3).pad(1)},
         "conv > Pow 3 (square, then times x) > depthwise"},
        {"pow-cube-u8",
         U8,
         hwc(8, 7, 24),
         {conv(24, 1), pow_by(3.0f), conv(8, 1)},
         "conv > Pow 3 (DPU LUT, one entry per code) > conv"},
        {"pow-zero-f16",
         F16,
         hwc(9, 7, 24),
         {conv(24, 1), pow_by(0.0f), conv(8, 1)},
         "conv > Pow 0 (a map of ones written without reading x) > conv"},
        {"pow-sqrt-s8",
         S8,
         hwc(6, 6, 32),
         {conv(32, 1).relu(), pow_by(0.5f), conv(16, 1)},
         "conv > Pow 0.5 (DPU LUT, one entry per code) > conv"},
        // Lstm (seed 003) as its parts: gate products as 1x1 convolutions, element-wise ops, lookup-table sigmoid and
        // tanh (runtime/passes/lstm_lowering.h); the states are two more model inputs.
        {"lstm-f16", F16, flat(24), {L(lstm(32)).with_peephole()}, "Lstm step, peepholes, 32 cells"},
        {"lstm-f16-cifg-proj",
         F16,
         flat(16),
         {fc(24), L(lstm(32)).with_cifg().projection(16), fc(8)},
         "fc > Lstm (CIFG, projection) > fc"},
        // The curves through the DPU lookup table (activation_lut.h), two DPU tasks each, in the segment.
        {"act-sigmoid-f16",
         F16,
         hwc(9, 10, 16),
         {conv(16, 3).pad(1).sigmoid(), conv(8, 1)},
         "conv > Sigmoid (DPU LUT) > conv, one segment"},
        {"act-tanh-f16", F16, hwc(8, 7, 24), {conv(24, 1).tanh(), dw(3).pad(1)}, "conv > TanH (DPU LUT) > depthwise"},
        {"act-gelu-f16",
         F16,
         hwc(9, 10, 16),
         {conv(16, 3).pad(1).gelu(), conv(8, 1)},
         "conv > Gelu (x * DPU LUT normal cdf) > conv"},
        // Curves that grow like x: relu(x) + the bounded remainder from the table, three DPU tasks.
        {"act-elu-f16",
         F16,
         hwc(8, 7, 24),
         {conv(24, 1).elu(), dw(3).pad(1)},
         "conv > Elu 1.0 (relu + DPU LUT remainder) > depthwise"},
        {"act-softrelu-f16",
         F16,
         hwc(9, 10, 16),
         {conv(16, 3).pad(1).soft_relu(), conv(8, 1)},
         "conv > SoftReLu (relu + DPU LUT remainder) > conv"},
        // Abs = max(-x, x): one DPU task, BS negation and the EW max with the same map.
        {"act-abs-f16", F16, hwc(6, 6, 32), {conv(32, 1).abs(), conv(16, 1)}, "conv > Abs (EW max of x and -x) > conv"},
        // Linear a x + b = (x + b / a) * a: one DPU task, the BS stage's ALU and multiplier.
        {"act-linear-f16",
         F16,
         hwc(7, 6, 24),
         {conv(24, 3).pad(1).linear(), conv(16, 1)},
         "conv > Linear 0.75 x - 0.5 (BS add, multiply) > conv"},
        // int8: every function through the lookup table, one entry per input code (bit-exact with the CPU).
        {"act-sigmoid-u8",
         U8,
         hwc(9, 10, 16),
         {conv(16, 3).pad(1).sigmoid(), conv(8, 1)},
         "conv > Sigmoid (DPU LUT, one entry per code) > conv"},
        {"act-tanh-s8",
         S8,
         hwc(8, 7, 24),
         {conv(24, 1).tanh(), dw(3).pad(1)},
         "conv > TanH (DPU LUT, one entry per code) > depthwise"},
        {"act-linear-u8",
         U8,
         hwc(6, 6, 16),
         {conv(16, 1).linear(), conv(8, 1)},
         "conv > Linear 0.75 x - 0.5 (DPU LUT) > conv"},
        {"act-leakyrelu-s8",
         S8,
         hwc(6, 6, 32),
         {conv(32, 1).leaky_relu(), conv(16, 1)},
         "conv > LeakyReLu (DPU LUT) > conv"},
        {"act-elu-u8",
         U8,
         hwc(8, 7, 24),
         {conv(24, 1).elu(), conv(8, 1)},
         "conv > Elu (DPU LUT, one entry per code) > conv"},
        {"act-gelu-s8",
         S8,
         hwc(9, 10, 16),
         {conv(16, 1).gelu(), conv(8, 1)},
         "conv > Gelu (DPU LUT, one entry per code) > conv"},
    };
}

}  // namespace

const std::vector<Case>& all_cases() {
    static const std::vector<Case> cases = [] {
        std::vector<Case> c = make_cases();
        validate_cases(c);
        return c;
    }();
    return cases;
}

void validate_cases(const std::vector<Case>& cases) {
    std::set<std::string> names;
    for (const Case& c : cases) {
        if (c.name.empty() || !names.insert(c.name).second)
            fail(ErrorKind::Internal, "self-test case name '" + c.name + "' is empty or used twice");
        if (c.layers.empty()) fail(ErrorKind::Internal, "self-test case '" + c.name + "' has no layer");
        // Names are LAVA test case names (no whitespace), CSV fields (no comma) and expectation-list
        // entries (no ':', '#' or glob characters): lower-case letters, digits and '-' only.
        if (c.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
            fail(ErrorKind::Internal, "self-test case name '" + c.name + "' has a character other than a-z, 0-9 and '-'");
    }
}

}  // namespace npurun::selftest

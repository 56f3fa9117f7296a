// The bring-up self-test's cases: small models described by a chain of layers, each written as a real
// .armnn file by the model writer (tools/modelwriter) and loaded like any user model.
//
// A case is one line of the table in selftest_cases.cpp, e.g.
//   {"conv-u8-k3-s2", U8, {17, 15, 8}, {conv(24, 3).stride(2).pad(1)}, "odd sizes, stride 2"},
// Layer i reads the output of layer i-1 (layer 0 reads model input 0), or of layer k (.from(k)), or model
// input 0 (.from_input()); a binary element-wise layer's second operand is a second model input of the same
// shape or of a broadcast shape (.bcast()), a constant (.constant()), or the output of an earlier layer
// (.with(k)); a Concat's second input is the output of an earlier layer (.with(k)), after its main input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurun::selftest {

// The arithmetic a case runs in. U8 / S8: QAsymmU8 / QAsymmS8 activations (the NPU computes int8).
// Fp16: a Float32 model run with float16 allowed on the NPU (npurun --fp16); the CPU reference stays fp32.
enum class Precision { U8, S8, Fp16 };
const char* to_string(Precision p);

// LeakyRelu (alpha 0.1), Square (Pow 2), Sigmoid, Tanh (1 * tanh(1 * x)) and Linear (0.75 x - 0.5) stay
// standalone layers on the NPU, not fused: fp16 through the BS/EW stages or the DPU lookup table, 8-bit through
// the lookup table.
enum class Act { None, Relu, Relu6, LeakyRelu, Square, Sigmoid, Tanh, Elu, SoftRelu, Gelu, Abs, Linear };

enum class LayerKind { Conv, Depthwise, FullyConnected, MaxPool, AvgPool, GlobalAvgPool, Pad, Reshape, Concat, Slice,
                       Gather, Expand, Pow, Lstm, Add, Sub, Mul, Div, Max, Min };
// Short name for the case lines ("Conv2d", "MaxPool2d", "Add", ...).
const char* layer_name(LayerKind k);
bool is_binary(LayerKind k);

// Shape of a binary op's second operand (NHWC) against the first, [1,H,W,C]: the Expand patterns the NPU lowers.
// W1 and H1 broadcast across the channels too (seed 003 [b,1,1,w], [b,1,h,1]): the NPU repeats the channel first.
enum class Broadcast {
    None,
    C /* [1,1,1,C] */,
    WC /* [1,1,W,C] */,
    HC /* [1,H,1,C] */,
    W1 /* [1,1,W,1] */,
    H1 /* [1,H,1,1] */
};
const char* to_string(Broadcast b);

enum class PadMode { Constant, Reflect };

// Layer sources (LayerSpec::source): the previous layer's output, or model input 0.
constexpr int kPrevious = -1, kModelInput = -2;

struct LayerSpec {
    LayerKind kind = LayerKind::Conv;
    uint32_t out_c = 0;  // Conv / FullyConnected: output channels
    uint32_t kh = 1, kw = 1, sy = 1, sx = 1;
    uint32_t dil = 1;          // Conv / Depthwise: dilation (both axes)
    uint32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    bool per_channel = false;  // int8 weights QSymmS8 with one scale per output channel
    bool bias = true;
    Act act = Act::None;       // an Activation layer after this one (the NPU fuses it)
    int operand = -1;          // binary ops: -1 = the next model input, k >= 0 = output of layer k
    int source = kPrevious;    // the main input: kPrevious, kModelInput or layer k >= 0
    bool tiled = false;        // the layer must be split into more than one NPU task (checked)
    Broadcast broadcast = Broadcast::None;  // binary ops: the second operand's shape
    bool const_operand = false;             // binary ops: the second operand is a Constant layer
    PadMode pad_mode = PadMode::Constant;   // Pad: mode; amounts in pad_top/bottom/left/right
    bool pad_zero_point = false;            // Pad constant: the value is the input's zero point (folds into a conv)
    uint32_t to_h = 0, to_w = 0;            // Reshape: the new H and W (same C, same H*W); Expand: the target H and W;
                                            // Slice: the rows / columns taken (0: all)
    uint32_t to_c = 0;                      // Expand: the target C of a one-channel input (0: keep C)
    uint32_t begin_c = 0;                   // Slice: the first channel taken (to_c channels from it)
    uint32_t begin_h = 0, begin_w = 0;      // Slice: rows [begin_h, begin_h + to_h), columns [begin_w, begin_w + to_w)
    int32_t axis = 1;                       // Gather: the NHWC axis
    std::vector<int32_t> indices;           // Gather: the constant Signed32 indices (rank 1)
    float exponent = 2.0f;                  // Pow: the constant exponent (shape [1])
    // Lstm (out_c cells, TanH cell activation): peepholes, CIFG (no input gate), a projection to proj_out units.
    bool peephole = false, cifg = false;
    uint32_t proj_out = 0;

    LayerSpec& stride(uint32_t s) { sy = sx = s; return *this; }
    LayerSpec& dilation(uint32_t d) { dil = d; return *this; }
    LayerSpec& stride(uint32_t y, uint32_t x) { sy = y, sx = x; return *this; }
    LayerSpec& pad(uint32_t p) { pad_top = pad_bottom = pad_left = pad_right = p; return *this; }
    LayerSpec& pad(uint32_t top, uint32_t bottom, uint32_t left, uint32_t right) {
        pad_top = top, pad_bottom = bottom, pad_left = left, pad_right = right;
        return *this;
    }
    LayerSpec& relu() { act = Act::Relu; return *this; }
    LayerSpec& relu6() { act = Act::Relu6; return *this; }
    LayerSpec& leaky_relu() { act = Act::LeakyRelu; return *this; }
    LayerSpec& square() { act = Act::Square; return *this; }
    LayerSpec& sigmoid() { act = Act::Sigmoid; return *this; }
    LayerSpec& tanh() { act = Act::Tanh; return *this; }
    LayerSpec& elu() { act = Act::Elu; return *this; }
    LayerSpec& soft_relu() { act = Act::SoftRelu; return *this; }
    LayerSpec& gelu() { act = Act::Gelu; return *this; }
    LayerSpec& abs() { act = Act::Abs; return *this; }
    LayerSpec& linear() { act = Act::Linear; return *this; }
    LayerSpec& per_ch() { per_channel = true; return *this; }
    LayerSpec& no_bias() { bias = false; return *this; }
    LayerSpec& with(int layer) { operand = layer; return *this; }
    LayerSpec& must_tile() { tiled = true; return *this; }
    LayerSpec& from(int layer) { source = layer; return *this; }
    LayerSpec& from_input() { source = kModelInput; return *this; }
    LayerSpec& bcast(Broadcast b) { broadcast = b; return *this; }
    LayerSpec& constant() { const_operand = true; return *this; }
    LayerSpec& reflect() { pad_mode = PadMode::Reflect; return *this; }
    LayerSpec& zero_point() { pad_zero_point = true; return *this; }
    LayerSpec& with_peephole() { peephole = true; return *this; }
    LayerSpec& with_cifg() { cifg = true; return *this; }
    LayerSpec& projection(uint32_t units) { proj_out = units; return *this; }
};

LayerSpec conv(uint32_t out_c, uint32_t k);
LayerSpec conv(uint32_t out_c, uint32_t kh, uint32_t kw);
LayerSpec dw(uint32_t k);
LayerSpec fc(uint32_t out_c);
LayerSpec maxpool(uint32_t k);
LayerSpec avgpool(uint32_t k);
LayerSpec global_avgpool();
LayerSpec eltwise(LayerKind k);
LayerSpec pad_layer(uint32_t top, uint32_t bottom, uint32_t left, uint32_t right);
LayerSpec reshape(uint32_t h, uint32_t w);
LayerSpec concat_with(int layer);
LayerSpec slice_channels(uint32_t begin, uint32_t count);  // Slice: channels [begin, begin + count), all H and W
// Slice: rows [h0, h0 + hs) and columns [w0, w0 + ws) of every channel.
LayerSpec slice_rows_cols(uint32_t h0, uint32_t hs, uint32_t w0, uint32_t ws);
LayerSpec pow_by(float exponent);
// An Lstm of `cells` cells over a [1, I] input (one time step); its states are two more model inputs, [1, out]
// and [1, cells]; the chain continues with its output. Float only (run with --fp16).
LayerSpec lstm(uint32_t cells);  // ElementwiseBinary Power by a constant exponent of shape [1]
// Expand (an Arm NN Tile of size-1 axes) to H x W, and across C channels of a one-channel input when c != 0.
LayerSpec expand_to(uint32_t h, uint32_t w, uint32_t c = 0);
LayerSpec gather(int32_t axis, std::vector<int32_t> indices);  // Gather by a constant index list  // Concat along channels: [previous output, output of `layer`]

struct InputShape {
    uint32_t h = 1, w = 1, c = 1;
    bool flat = false;  // [1, C] instead of [1, H, W, C] (fully connected models)
};

struct Case {
    std::string name;
    Precision precision = Precision::U8;
    InputShape input;
    std::vector<LayerSpec> layers;
    std::string note;    // what the case covers, for --list
    // NPU cores the case's sim/npu sessions are given (SessionOptions::npu_cores); 0 = the backend's
    // choice (auto). With 2 or 3 the job must have that many lanes (checked), and the simulator also runs the
    // model on 1, 2 and 3 cores: the outputs must be identical byte for byte.
    unsigned cores = 0;
};

// Every case, in table order. Names are unique (checked once at startup by validate_cases()).
const std::vector<Case>& all_cases();

// Throws npurun::Error(Internal) naming the first duplicate name or impossible geometry.
void validate_cases(const std::vector<Case>& cases);

}  // namespace npurun::selftest

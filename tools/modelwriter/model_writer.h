// A small writer of Arm NN serialized graphs (.armnn) over the flatc-generated builders.
//
// Tests use it to build any layer of the current schema, in the current encoding or in the legacy ones a
// loader must still read (embedded vs input weights, depthwise [M,I,H,W] vs [1,H,W,I*M], featureVersions
// absent/{1}/{1,1,1}, 2019 data-type numbers, with or without the "ARMN" identifier, layers shuffled,
// LayerBase.index differing from the vector position). It also writes deliberately broken files for the
// loader's negative tests: it checks nothing itself.
//
// Layers are identified by the id add_* returns (creation order). Connections are resolved when the file
// is written, so an input may name a layer added later (that is how cycles are made).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ArmnnSchema_generated.h"

namespace npurun::modelwriter {

namespace fb = armnnSerializer;

// A TensorInfo as stored in the file. dtype takes any schema number, including the 2019 ones
// (fb::DataType::QuantisedAsymm8 = 2, QuantisedSymm16 = 5), or values beyond the schema via static_cast.
struct TensorDesc {
    std::vector<uint32_t> dims;
    fb::DataType dtype = fb::DataType::Float32;
    float scale = 0.0f;            // Arm NN writes 0 for float tensors
    int32_t offset = 0;
    std::vector<float> scales;     // per-axis quantization when non-empty (written with quantizationDim)
    uint32_t axis = 0;
    uint32_t dimensionality = 1;   // 1 = specified, 2 = scalar, 0 = unknown rank
    std::vector<bool> specificity; // dimensionSpecificity, written when non-empty
};

TensorDesc tensor(std::vector<uint32_t> dims, fb::DataType dtype = fb::DataType::Float32, float scale = 0.0f,
                  int32_t offset = 0);

// A ConstTensor: info plus the raw little-endian bytes of its elements. `storage` selects the data union
// member; by default the one Arm NN uses for the data type (IntData for Float32/Signed32, ShortData for
// 16-bit types, ByteData for 8-bit types and Boolean, LongData for Signed64). Set it to NONE (or another
// member) to write a broken constant.
struct ConstDesc {
    TensorDesc info;
    std::vector<uint8_t> bytes;
    std::optional<fb::ConstTensorData> storage;
    std::optional<size_t> element_count;  // overrides the number of elements written (default bytes/width)
};

ConstDesc const_f32(std::vector<uint32_t> dims, const std::vector<float>& values);
ConstDesc const_i32(std::vector<uint32_t> dims, const std::vector<int32_t>& values, float scale = 0.0f);
ConstDesc const_u8(std::vector<uint32_t> dims, const std::vector<uint8_t>& values, float scale, int32_t offset,
                   fb::DataType dtype = fb::DataType::QAsymmU8);
ConstDesc const_i8(std::vector<uint32_t> dims, const std::vector<int8_t>& values, float scale, int32_t offset,
                   fb::DataType dtype = fb::DataType::QAsymmS8);

// Depthwise weights [1, H, W, I*M] (current layout) rewritten in the legacy [M, I, H, W] layout; per-axis
// scales on axis 3 (one per output channel i*M+m) move to axis 0 as Arm NN 20.08's TfLite parser wrote them.
ConstDesc depthwise_weights_to_legacy(const ConstDesc& current, uint32_t depth_multiplier);

// An output slot of a layer. `raw` makes `layer` a file LayerBase.index written verbatim (for broken files).
struct Port {
    uint32_t layer = 0;
    uint32_t slot = 0;
    bool raw = false;
    Port() = default;
    Port(uint32_t l, uint32_t s = 0) : layer(l), slot(s) {}
    static Port file_index(uint32_t index, uint32_t slot) {
        Port p(index, slot);
        p.raw = true;
        return p;
    }
};

enum class Features {
    Absent,       // no featureVersions table (files before 20.02): binding scheme 0, legacy layouts
    BindingOnly,  // {bindingIdsScheme 1}: Arm NN 20.02 .. 21.05 (Debian's 20.08)
    Current,      // {1, 1, 1}: Arm NN 21.08 and later
};

// Where Conv2d / DepthwiseConv2d / FullyConnected / TransposeConv2d weights go.
enum class WeightsPlacement {
    Embedded,        // inside the layer table, one input slot (files before 22.08)
    ConstantLayers,  // separate Constant layers wired to input slots 1 (weights) and 2 (bias)
};

struct WriteOptions {
    bool identifier = false;  // write the "ARMN" file identifier (real Arm NN files have none)
    Features features = Features::Current;
    std::optional<std::array<uint32_t, 3>> custom_features;  // overrides `features` (any values)
    bool shuffle = false;     // permute the layers vector (deterministically, from `seed`)
    uint32_t seed = 1;
    std::optional<std::vector<uint32_t>> order;  // explicit layer ids in vector order (overrides shuffle)
    uint32_t index_base = 0;  // LayerBase.index = index_base + index_stride * id
    uint32_t index_stride = 1;
    // Override inputIds / outputIds as written (default: derived from the Input/Output layers in creation
    // order, as layer indices when the binding scheme is 0, as binding ids otherwise).
    std::optional<std::vector<int32_t>> input_ids, output_ids;
};

// Builds a layer's table from its already-built LayerBase; everything else it needs (descriptor, constant
// tensors) it creates in `b` before starting the table.
using TableFn = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder& b,
                                                        flatbuffers::Offset<fb::LayerBase> base)>;

struct Conv2dParams {
    uint32_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
    uint32_t stride_x = 1, stride_y = 1, dilation_x = 1, dilation_y = 1;
    fb::DataLayout layout = fb::DataLayout::NHWC;
};

// An Lstm's descriptor and parameters (LstmInputParams); an absent parameter is not written.
struct LstmParams {
    std::optional<ConstDesc> input_to_input, input_to_forget, input_to_cell, input_to_output;
    std::optional<ConstDesc> recurrent_to_input, recurrent_to_forget, recurrent_to_cell, recurrent_to_output;
    std::optional<ConstDesc> cell_to_input, cell_to_forget, cell_to_output;  // peepholes
    std::optional<ConstDesc> input_gate_bias, forget_gate_bias, cell_bias, output_gate_bias;
    std::optional<ConstDesc> projection_weights, projection_bias;
    std::optional<ConstDesc> input_layer_norm, forget_layer_norm, cell_layer_norm, output_layer_norm;
    uint32_t activation = 4;  // Android NN codes: 0 none, 1 ReLu, 3 ReLu6, 4 TanH, 6 Sigmoid
    float clip_cell = 0.0f, clip_proj = 0.0f;
    bool cifg = false, peephole = false, projection = false, layer_norm = false;
    bool time_major = false;  // UnidirectionalSequenceLstm only
};

class ModelWriter {
public:
    struct LayerRecord {
        fb::Layer union_type;
        fb::LayerType layer_type;
        std::string name;
        std::vector<Port> inputs;
        std::vector<TensorDesc> outputs;
        TableFn make;
        std::vector<uint32_t> input_slot_index;   // written InputSlot.index per slot (default 0..n-1)
        std::vector<uint32_t> output_slot_index;  // written OutputSlot.index per slot (default 0..n-1)
        bool is_input = false, is_output = false;
        int32_t binding_id = 0;
        std::optional<uint32_t> index_override;   // written LayerBase.index
        std::optional<TensorDesc> overridden_input;  // every InputSlot written with isOverridden and this info
    };

    // Any layer of the schema (or, with a raw union_type, beyond it).
    uint32_t add_layer(fb::Layer union_type, fb::LayerType layer_type, const std::string& name,
                       std::vector<Port> inputs, std::vector<TensorDesc> outputs, TableFn make);
    // A layer whose table is just {base} (Addition, Floor, Prelu, Abs, Rsqrt, Equal, ...).
    uint32_t add_plain(fb::Layer union_type, fb::LayerType layer_type, const std::string& name,
                       std::vector<Port> inputs, std::vector<TensorDesc> outputs);

    uint32_t add_input(const std::string& name, const TensorDesc& t, int32_t binding_id);
    uint32_t add_output(const std::string& name, Port from, int32_t binding_id);
    uint32_t add_constant(const std::string& name, const ConstDesc& c);

    uint32_t add_activation(const std::string& name, Port in, const TensorDesc& out, fb::ActivationFunction f,
                            float a = 0.0f, float b = 0.0f);
    // Arm NN 23.05+: one layer for Add/Sub/Mul/Div/Maximum/Minimum (the descriptor is always written).
    uint32_t add_elementwise_binary(const std::string& name, Port a, Port b, const TensorDesc& out, fb::BinaryOperation op);
    uint32_t add_elementwise_unary(const std::string& name, Port in, const TensorDesc& out, fb::UnaryOperation op);
    // Inputs x, outputStateIn, cellStateIn (lstm_layers.cpp). Lstm outputs: scratch, outputStateOut, cellStateOut,
    // output; UnidirectionalSequenceLstm: output, or outputStateOut, cellStateOut, output (22.05+).
    uint32_t add_lstm(const std::string& name, Port x, Port h, Port c, std::vector<TensorDesc> outputs,
                      const LstmParams& p);
    uint32_t add_unidirectional_sequence_lstm(const std::string& name, Port x, Port h, Port c,
                                              std::vector<TensorDesc> outputs, const LstmParams& p);
    // Layer types 70..72 (indexing_layers.cpp). ReverseV2's axes are a tensor input (usually a constant).
    uint32_t add_reverse_v2(const std::string& name, Port in, Port axes, const TensorDesc& out);
    uint32_t add_tile(const std::string& name, Port in, const TensorDesc& out, const std::vector<uint32_t>& multiples);
    uint32_t add_scatter_nd(const std::string& name, Port data_or_shape, Port indices, Port updates, const TensorDesc& out,
                            fb::ScatterNdFunction f, bool input_enabled = true, bool axis_enabled = false, int32_t axis = 0);
    uint32_t add_convolution2d(const std::string& name, Port in, const TensorDesc& out, const Conv2dParams& p,
                               const ConstDesc& weights, const std::optional<ConstDesc>& bias,
                               WeightsPlacement placement = WeightsPlacement::Embedded);
    uint32_t add_depthwise_convolution2d(const std::string& name, Port in, const TensorDesc& out,
                                         const Conv2dParams& p, const ConstDesc& weights,
                                         const std::optional<ConstDesc>& bias,
                                         WeightsPlacement placement = WeightsPlacement::Embedded);
    uint32_t add_fully_connected(const std::string& name, Port in, const TensorDesc& out, const ConstDesc& weights,
                                 const std::optional<ConstDesc>& bias, bool transpose_weights,
                                 WeightsPlacement placement = WeightsPlacement::Embedded);

    // Direct access for broken files (slot indices, names, index overrides).
    LayerRecord& layer(uint32_t id) { return layers_.at(id); }
    size_t num_layers() const { return layers_.size(); }

    std::vector<uint8_t> finish(const WriteOptions& options = {}) const;

    static flatbuffers::Offset<fb::TensorInfo> write_tensor_info(flatbuffers::FlatBufferBuilder& b, const TensorDesc& t);
    static flatbuffers::Offset<fb::ConstTensor> write_const_tensor(flatbuffers::FlatBufferBuilder& b, const ConstDesc& c);

private:
    std::vector<LayerRecord> layers_;
};

// Writes `bytes` to `path`; throws std::runtime_error naming the path on failure.
void write_file(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace npurun::modelwriter

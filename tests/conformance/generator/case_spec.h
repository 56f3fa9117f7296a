// What one conformance case is: a small Arm NN network plus how to feed and judge it.
//
// A case builder receives a `Net` and adds layers through the Arm NN INetwork API. `Net` names inputs
// and outputs ("input0", "output0", ...), remembers the value range each input should be drawn from,
// and owns the constant data handed to Arm NN. The runner (armnn_runner.h) serializes the network,
// reads it back with Arm NN's own deserializer and runs that on CpuRef.
#pragma once

#include <armnn/ArmNN.hpp>

#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "tests/conformance/generator/prng.h"

namespace conformance {

// How the harness judges npurun's output against CpuRef's.
enum class Compare {
    Float,      // |a-b| <= tol * max(1, |b|)
    Quantized,  // |a-b| <= tol in the integer value
    Top1,       // same top-1 (ties allowed) and |a-b| <= tol in the integer value
};

// Range of the real values an input is drawn from. For quantized inputs it is mapped through the
// input's scale/offset and clamped to the type; NaN bounds mean "the whole integer range" there and
// [-1, 1] for float inputs.
struct ValueRange {
    float lo = std::numeric_limits<float>::quiet_NaN();
    float hi = std::numeric_limits<float>::quiet_NaN();
};

class Net {
public:
    explicit Net(Prng& prng) : net_(armnn::INetwork::Create()), prng_(prng) {}

    armnn::INetwork& net() { return *net_; }
    armnn::INetworkPtr take() { return std::move(net_); }
    Prng& prng() { return prng_; }
    const std::vector<ValueRange>& input_ranges() const { return ranges_; }

    // Adds Input layer `inputN` (binding id N) and returns its output slot.
    armnn::IOutputSlot& input(const armnn::TensorInfo& info, ValueRange range = {}) {
        const int id = static_cast<int>(ranges_.size());
        const std::string name = "input" + std::to_string(id);
        armnn::IConnectableLayer* layer = net_->AddInputLayer(id, name.c_str());
        layer->GetOutputSlot(0).SetTensorInfo(info);
        ranges_.push_back(range);
        return layer->GetOutputSlot(0);
    }

    // Adds Input layer `inputN` whose data are exactly `values` (encoded as `info` says) instead of random,
    // for cases whose oracle needs controlled inputs (e.g. pairwise distinct scores).
    armnn::IOutputSlot& input_values(const armnn::TensorInfo& info, std::vector<float> values) {
        armnn::IOutputSlot& slot = input(info);
        presets_.resize(ranges_.size());
        presets_.back() = std::move(values);
        return slot;
    }
    // Preset values of input N (empty: random from input_ranges()[N]).
    std::vector<float> preset(size_t n) const { return n < presets_.size() ? presets_[n] : std::vector<float>{}; }

    // Adds Output layer `outputN` (binding id N) fed by `slot`.
    void output(armnn::IOutputSlot& slot) {
        const std::string name = "output" + std::to_string(num_outputs_);
        armnn::IConnectableLayer* layer = net_->AddOutputLayer(num_outputs_, name.c_str());
        ++num_outputs_;
        slot.Connect(layer->GetInputSlot(0));
    }

    // Connects `inputs` to `layer`'s input slots in order, sets the info of output slot 0, returns it.
    armnn::IOutputSlot& wire(armnn::IConnectableLayer* layer, std::initializer_list<armnn::IOutputSlot*> inputs,
                             const armnn::TensorInfo& out) {
        unsigned i = 0;
        for (armnn::IOutputSlot* s : inputs) s->Connect(layer->GetInputSlot(i++));
        layer->GetOutputSlot(0).SetTensorInfo(out);
        return layer->GetOutputSlot(0);
    }

    // Random constant tensors; the bytes are owned here and outlive the network build.
    // Unset bounds mean [-1, 1] for float and the whole integer range for quantized types.
    armnn::ConstTensor random_const(const armnn::TensorInfo& info, float lo = std::numeric_limits<float>::quiet_NaN(),
                                    float hi = std::numeric_limits<float>::quiet_NaN());
    armnn::ConstTensor const_from(const armnn::TensorInfo& info, const std::vector<float>& values);

private:
    armnn::INetworkPtr net_;
    Prng& prng_;
    std::vector<ValueRange> ranges_;
    std::vector<std::vector<float>> presets_;
    int num_outputs_ = 0;
    std::deque<std::vector<uint8_t>> storage_;
};

struct CaseSpec {
    std::string name;   // unique, a valid gtest name: [A-Za-z0-9_]
    std::string layer;  // layer family under test, e.g. "Convolution2d"
    std::string dtype;  // data type the case exercises, e.g. "QAsymmU8"
    Compare compare = Compare::Float;
    float tolerance = 1e-4f;
    bool cli = false;   // also run through the npurun binary
    // Run CpuRef on the network as built instead of the one read back from the file, for the few
    // encodings Arm NN 20.08 writes correctly but its own deserializer cannot read (`note` says why).
    bool oracle_from_built = false;
    std::string note;
    std::function<void(Net&)> build;
    // The enum value this case exercises, as Arm NN names it ("Activation/SoftReLu", "Binary/Maximum",
    // "Unary/Neg", "Comparison/Less"): main.cpp fails the generation when a value of an enum Arm NN 20.08
    // defines has no generated case (a skipped case is no coverage).
    std::string covers;
    // Applied to the serialized file before anything reads it, for encodings the 20.08 writer gets wrong
    // (file_patch.h); the file CpuRef and npurun read is the patched one.
    std::function<void(std::vector<uint8_t>&)> patch_file;
    // Optional oracle other than "the network in the file", for cases where CpuRef 20.08 has a
    // documented bug (reference/armnn-format.md §2) and npurun follows the corrected behaviour; `note`
    // must say why. `oracle_build`: CpuRef runs this network instead (same bindings; it gets a fresh
    // Prng::for_case(name), so it must draw its constants in the same order as `build`), e.g. the same
    // computation composed from layers CpuRef gets right. `hand_expected`: the expected outputs are
    // computed by the case itself from the inputs (CpuRef still runs, and the manifest notes whether
    // 20.08 agreed).
    std::function<void(Net&)> oracle_build;
    // With `oracle_build`: CpuRef also runs the file itself so the manifest can say whether 20.08 agrees,
    // unless that run would take the generator down (e.g. 20.08's Stack copying every type as 4-byte
    // floats corrupts the heap): then set this and only the substitute runs.
    bool skip_file_run_on_cpuref = false;
    std::function<std::vector<std::vector<uint8_t>>(const std::vector<std::vector<uint8_t>>& inputs)> hand_expected;
};

// Data type names as npurun spells them (core/types.h), which the harness compares against.
// Arm NN's own GetDataTypeName says "QSymm16" for QSymmS16, hence this table.
inline const char* dtype_name(armnn::DataType t) {
    switch (t) {
        case armnn::DataType::Float16: return "Float16";
        case armnn::DataType::Float32: return "Float32";
        case armnn::DataType::QAsymmU8: return "QAsymmU8";
        case armnn::DataType::QAsymmS8: return "QAsymmS8";
        case armnn::DataType::QSymmS8: return "QSymmS8";
        case armnn::DataType::QSymmS16: return "QSymmS16";
        case armnn::DataType::Signed32: return "Signed32";
        case armnn::DataType::Boolean: return "Boolean";
        default: return "Unsupported";
    }
}

// Convenience constructors for tensor infos.
inline armnn::TensorInfo float_info(const armnn::TensorShape& shape) {
    return armnn::TensorInfo(shape, armnn::DataType::Float32);
}
inline armnn::TensorInfo quant_info(const armnn::TensorShape& shape, armnn::DataType type, float scale,
                                    int32_t offset) {
    return armnn::TensorInfo(shape, type, scale, offset);
}

// The type-dependent part of a case, so one builder can make Float32 and quantized variants.
// `scale`/`offset` are used only by quantized types.
struct TypeVariant {
    armnn::DataType type;
    const char* tag;  // "f32", "u8", "s8", "s16": part of case names
    armnn::TensorInfo info(const armnn::TensorShape& shape, float scale, int32_t offset) const {
        if (type == armnn::DataType::Float32 || type == armnn::DataType::Float16)
            return armnn::TensorInfo(shape, type);
        if (type == armnn::DataType::QSymmS16) offset = 0;  // symmetric
        return armnn::TensorInfo(shape, type, scale, offset);
    }
    bool quantized() const { return type != armnn::DataType::Float32 && type != armnn::DataType::Float16; }
    const char* name() const { return dtype_name(type); }
};

// The padding and stride fields that Arm NN's convolution descriptors (Convolution2d, DepthwiseConvolution2d,
// TransposeConvolution2d) name alike.
template <class Desc>
void set_pads_strides(Desc& d, unsigned left, unsigned right, unsigned top, unsigned bottom, unsigned stride_x,
                      unsigned stride_y) {
    std::tie(d.m_PadLeft, d.m_PadRight, d.m_PadTop, d.m_PadBottom, d.m_StrideX, d.m_StrideY) =
        std::tie(left, right, top, bottom, stride_x, stride_y);
}

// ResizeDescriptor and the deprecated ResizeBilinearDescriptor share these fields (Resize adds m_Method).
template <class Desc>
Desc resize_descriptor(unsigned out_h, unsigned out_w, armnn::DataLayout layout, bool align_corners,
                       bool half_pixel_centers) {
    Desc d;
    std::tie(d.m_TargetHeight, d.m_TargetWidth, d.m_DataLayout, d.m_AlignCorners, d.m_HalfPixelCenters) =
        std::tie(out_h, out_w, layout, align_corners, half_pixel_centers);
    return d;
}

inline constexpr TypeVariant kF32{armnn::DataType::Float32, "f32"};
inline constexpr TypeVariant kF16{armnn::DataType::Float16, "f16"};
inline constexpr TypeVariant kU8{armnn::DataType::QAsymmU8, "u8"};
inline constexpr TypeVariant kS8{armnn::DataType::QAsymmS8, "s8"};
inline constexpr TypeVariant kS16{armnn::DataType::QSymmS16, "s16"};

// A case for `variant`: Float32 cases compare with 1e-4 (relative above 1, absolute below), Float16
// with 1e-3 (one fp16 ulp near 1: CpuRef computes in float and rounds each result to half, so one
// rounding decision may differ), quantized ones with 1 in the integer.
inline CaseSpec make_case(const std::string& name, const std::string& layer, const TypeVariant& v,
                          std::function<void(Net&)> build) {
    CaseSpec c;
    c.name = name;
    c.layer = layer;
    c.dtype = v.name();
    c.compare = v.quantized() ? Compare::Quantized : Compare::Float;
    c.tolerance = v.quantized() ? 1.0f : v.type == armnn::DataType::Float16 ? 1e-3f : 1e-4f;
    c.build = std::move(build);
    return c;
}

// Case registries, one per layer family (cases_*.cpp).
void add_conv_cases(std::vector<CaseSpec>& out);
void add_pooling_cases(std::vector<CaseSpec>& out);
void add_activation_cases(std::vector<CaseSpec>& out);
void add_elementwise_cases(std::vector<CaseSpec>& out);
void add_shape_cases(std::vector<CaseSpec>& out);
void add_norm_quant_cases(std::vector<CaseSpec>& out);
void add_normalization_cases(std::vector<CaseSpec>& out);
void add_prelu_logsoftmax_cases(std::vector<CaseSpec>& out);
void add_transpose_conv_cases(std::vector<CaseSpec>& out);
void add_detection_cases(std::vector<CaseSpec>& out);
void add_recurrent_cases(std::vector<CaseSpec>& out);
void add_indexing_cases(std::vector<CaseSpec>& out);
void add_logic_cases(std::vector<CaseSpec>& out);
void add_deprecated_api_cases(std::vector<CaseSpec>& out);

}  // namespace conformance

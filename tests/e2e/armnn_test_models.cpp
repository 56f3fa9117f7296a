#include "tests/e2e/armnn_test_models.h"

#include <fstream>
#include <stdexcept>

#include "ArmnnSchema_generated.h"

namespace npurun::e2e {

namespace fb = flatbuffers;
namespace as = armnnSerializer;

uint32_t ArmnnModel::input(const std::string& name, int32_t binding_id, const TensorSpec& t) {
    layers_.push_back({Kind::Input, name, binding_id, {}, t, true});
    return uint32_t(layers_.size() - 1);
}

uint32_t ArmnnModel::relu(const std::string& name, uint32_t source, const TensorSpec& t) {
    layers_.push_back({Kind::Relu, name, 0, {source}, t, true});
    return uint32_t(layers_.size() - 1);
}

uint32_t ArmnnModel::addition(const std::string& name, uint32_t a, uint32_t b, const TensorSpec& t) {
    layers_.push_back({Kind::Addition, name, 0, {a, b}, t, true});
    return uint32_t(layers_.size() - 1);
}

uint32_t ArmnnModel::output(const std::string& name, int32_t binding_id, uint32_t source) {
    layers_.push_back({Kind::Output, name, binding_id, {source}, {}, false});
    return uint32_t(layers_.size() - 1);
}

std::vector<uint8_t> ArmnnModel::serialize() const {
    fb::FlatBufferBuilder b;
    std::vector<fb::Offset<as::AnyLayer>> any;
    std::vector<int32_t> input_ids, output_ids;
    for (uint32_t i = 0; i < layers_.size(); ++i) {
        const Layer& l = layers_[i];
        std::vector<fb::Offset<as::InputSlot>> in;
        for (uint32_t s = 0; s < l.sources.size(); ++s) {
            const as::Connection c(l.sources[s], 0);
            in.push_back(as::CreateInputSlot(b, s, &c));
        }
        std::vector<fb::Offset<as::OutputSlot>> out;
        if (l.has_output) {
            auto info = as::CreateTensorInfo(b, b.CreateVector(l.out.dims), as::DataType(l.out.dtype), l.out.scale,
                                             l.out.offset, 0, 0, l.out.dims.empty() ? 2 : 1);
            out.push_back(as::CreateOutputSlot(b, 0, info));
        }
        as::LayerType type = as::LayerType::Input;
        switch (l.kind) {
            case Kind::Input: type = as::LayerType::Input; break;
            case Kind::Output: type = as::LayerType::Output; break;
            case Kind::Relu: type = as::LayerType::Activation; break;
            case Kind::Addition: type = as::LayerType::Addition; break;
        }
        auto base = as::CreateLayerBase(b, i, b.CreateString(l.name), type, b.CreateVector(in), b.CreateVector(out));
        switch (l.kind) {
            case Kind::Input:
                any.push_back(as::CreateAnyLayer(b, as::Layer::InputLayer,
                                                 as::CreateInputLayer(b, as::CreateBindableLayerBase(b, base, l.binding_id)).Union()));
                input_ids.push_back(l.binding_id);
                break;
            case Kind::Output:
                any.push_back(as::CreateAnyLayer(b, as::Layer::OutputLayer,
                                                 as::CreateOutputLayer(b, as::CreateBindableLayerBase(b, base, l.binding_id)).Union()));
                output_ids.push_back(l.binding_id);
                break;
            case Kind::Relu: {
                auto desc = as::CreateActivationDescriptor(b, as::ActivationFunction::ReLu, 0.0f, 0.0f);
                any.push_back(as::CreateAnyLayer(b, as::Layer::ActivationLayer, as::CreateActivationLayer(b, base, desc).Union()));
                break;
            }
            case Kind::Addition:
                any.push_back(as::CreateAnyLayer(b, as::Layer::AdditionLayer, as::CreateAdditionLayer(b, base).Union()));
                break;
        }
    }
    auto versions = as::CreateFeatureCompatibilityVersions(b, 1, 1, 1);
    auto graph = as::CreateSerializedGraph(b, b.CreateVector(any), b.CreateVector(input_ids), b.CreateVector(output_ids),
                                           versions);
    b.Finish(graph, as::SerializedGraphIdentifier());
    return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

void ArmnnModel::write(const std::string& path) const {
    const std::vector<uint8_t> bytes = serialize();
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!f) throw std::runtime_error("cannot write test model " + path);
}

}  // namespace npurun::e2e

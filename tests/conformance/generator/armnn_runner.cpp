#include "tests/conformance/generator/armnn_runner.h"

#include <armnn/LayerVisitorBase.hpp>
#include <armnnDeserializer/IDeserializer.hpp>
#include <armnnSerializer/ISerializer.hpp>

#include <algorithm>
#include <sstream>

namespace conformance {

Bytes serialize(const armnn::INetwork& net) {
    auto serializer = armnnSerializer::ISerializer::Create();
    try {
        serializer->Serialize(net);
    } catch (const armnn::Exception& e) {
        throw CaseSkipped(std::string("20.08 serializer: ") + e.what());
    }
    std::ostringstream stream;
    if (!serializer->SaveSerializedToStream(stream)) throw CaseSkipped("20.08 serializer: SaveSerializedToStream failed");
    const std::string s = stream.str();
    return Bytes(s.begin(), s.end());
}

armnn::INetworkPtr deserialize(const Bytes& file) {
    auto deserializer = armnnDeserializer::IDeserializer::Create();
    try {
        return deserializer->CreateNetworkFromBinary(file);
    } catch (const armnn::Exception& e) {
        throw CaseSkipped(std::string("20.08 deserializer: ") + e.what());
    }
}

namespace {

// Collects Input and Output layers; every other layer is ignored (no-throw policy).
class BindingCollector : public armnn::LayerVisitorBase<armnn::VisitorNoThrowPolicy> {
public:
    Bindings bindings;

    void VisitInputLayer(const armnn::IConnectableLayer* layer, armnn::LayerBindingId id, const char* name) override {
        bindings.inputs.push_back({name ? name : "", id, layer->GetOutputSlot(0).GetTensorInfo()});
    }
    void VisitOutputLayer(const armnn::IConnectableLayer* layer, armnn::LayerBindingId id, const char* name) override {
        const armnn::IOutputSlot* source = layer->GetInputSlot(0).GetConnection();
        if (!source) throw CaseSkipped("output layer without a connection");
        bindings.outputs.push_back({name ? name : "", id, source->GetTensorInfo()});
    }
};

}  // namespace

Bindings bindings_of(const armnn::INetwork& net) {
    BindingCollector collector;
    net.Accept(collector);
    auto by_id = [](const Binding& a, const Binding& b) { return a.id < b.id; };
    std::sort(collector.bindings.inputs.begin(), collector.bindings.inputs.end(), by_id);
    std::sort(collector.bindings.outputs.begin(), collector.bindings.outputs.end(), by_id);
    return collector.bindings;
}

namespace {

armnn::IRuntime::CreationOptions runtime_options(const std::string& backend_path) {
    armnn::IRuntime::CreationOptions options;
    options.m_DynamicBackendsPath = backend_path;
    return options;
}

}  // namespace

CpuRefRunner::CpuRefRunner(const std::string& backend_path)
    : runtime_(armnn::IRuntime::Create(runtime_options(backend_path))) {
    const armnn::BackendIdSet& backends = runtime_->GetDeviceSpec().GetSupportedBackends();
    if (backends.count(armnn::Compute::CpuRef) == 0)
        throw std::runtime_error("Arm NN CpuRef backend not found (backend path '" + backend_path +
                                 "'; Debian package libarmnn-cpuref-backend22)");
}

std::vector<Bytes> CpuRefRunner::run(const armnn::INetwork& net, const Bindings& bindings,
                                     const std::vector<Bytes>& inputs) {
    std::vector<std::string> messages;
    armnn::IOptimizedNetworkPtr optimized(nullptr, nullptr);
    try {
        optimized = armnn::Optimize(net, {armnn::Compute::CpuRef}, runtime_->GetDeviceSpec(),
                                    armnn::OptimizerOptions(),
                                    armnn::Optional<std::vector<std::string>&>(messages));
    } catch (const armnn::Exception& e) {
        std::string why = std::string("CpuRef rejects it: ") + e.what();
        for (const auto& m : messages) why += " | " + m;
        throw CaseSkipped(why);
    }
    if (!optimized) {
        std::string why = "CpuRef rejects it";
        for (const auto& m : messages) why += " | " + m;
        throw CaseSkipped(why);
    }

    armnn::NetworkId id = 0;
    std::string error;
    try {
        if (runtime_->LoadNetwork(id, std::move(optimized), error) != armnn::Status::Success)
            throw CaseSkipped("CpuRef LoadNetwork failed: " + error);
    } catch (const armnn::Exception& e) {
        throw CaseSkipped(std::string("CpuRef LoadNetwork: ") + e.what());
    }

    std::vector<Bytes> outputs;
    try {
        armnn::InputTensors in;
        for (size_t i = 0; i < bindings.inputs.size(); ++i) {
            const armnn::TensorInfo info = runtime_->GetInputTensorInfo(id, bindings.inputs[i].id);
            if (inputs[i].size() != info.GetNumBytes()) throw CaseSkipped("internal: input size mismatch");
            in.emplace_back(bindings.inputs[i].id, armnn::ConstTensor(info, inputs[i].data()));
        }
        armnn::OutputTensors out;
        outputs.resize(bindings.outputs.size());
        for (size_t i = 0; i < bindings.outputs.size(); ++i) {
            const armnn::TensorInfo info = runtime_->GetOutputTensorInfo(id, bindings.outputs[i].id);
            outputs[i].assign(info.GetNumBytes(), 0);
            out.emplace_back(bindings.outputs[i].id, armnn::Tensor(info, outputs[i].data()));
        }
        if (runtime_->EnqueueWorkload(id, in, out) != armnn::Status::Success)
            throw CaseSkipped("CpuRef EnqueueWorkload failed");
    } catch (const armnn::Exception& e) {
        runtime_->UnloadNetwork(id);
        throw CaseSkipped(std::string("CpuRef run: ") + e.what());
    } catch (...) {
        runtime_->UnloadNetwork(id);
        throw;
    }
    runtime_->UnloadNetwork(id);
    return outputs;
}

}  // namespace conformance

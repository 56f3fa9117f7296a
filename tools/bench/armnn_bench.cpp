// Arm NN 20.08 side of the whole-model benchmark: loads an .armnn file with Arm NN's own deserializer
// (in libarmnnSerializer), optimizes it for ONE backend (CpuRef, CpuAcc; no fallback, so a layer the
// backend cannot take makes the run fail instead of silently timing another backend), and runs it N
// times. Prints the median latency and the output's top-1 index and checksum, so the same run doubles as
// a check that Arm NN and npurun computed the same thing.
//
// Built natively (x86: CpuRef) and cross-compiled for aarch64 against Debian's arm64 Arm NN (CpuAcc =
// Arm Compute Library NEON kernels), where it runs under qemu-aarch64 for instruction counting.
// A separate program from npurun: both contain FlatBuffers code in namespace armnnSerializer.
//
// Usage: armnn-bench MODEL.armnn INPUT.bin ITERATIONS [BACKEND [BACKEND_DIR]]
//   BACKEND_DIR: where the dynamic backends are (default: Debian's <libdir>/armnn22; libarmnn's built-in
//   search path says armnn20, so it is always given explicitly).
#include <armnn/ArmNN.hpp>
#include <armnn/LayerVisitorBase.hpp>
#include <armnnDeserializer/IDeserializer.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

#if defined(__aarch64__)
constexpr const char* kDefaultBackendDir = "/usr/lib/aarch64-linux-gnu/armnn22";
#elif defined(__x86_64__)
constexpr const char* kDefaultBackendDir = "/usr/lib/x86_64-linux-gnu/armnn22";
#else
#error "armnn-bench: unknown Debian multiarch directory for this target"
#endif

struct Binding {
    armnn::LayerBindingId id = 0;
    armnn::TensorInfo info;
};

// The network's Input and Output layers (the deserializer's binding-info calls need the layer names,
// which the file does not promise; the layers themselves carry id and tensor info).
class BindingCollector : public armnn::LayerVisitorBase<armnn::VisitorNoThrowPolicy> {
public:
    std::vector<Binding> inputs, outputs;

    void VisitInputLayer(const armnn::IConnectableLayer* layer, armnn::LayerBindingId id, const char*) override {
        inputs.push_back({id, layer->GetOutputSlot(0).GetTensorInfo()});
    }
    void VisitOutputLayer(const armnn::IConnectableLayer* layer, armnn::LayerBindingId id, const char*) override {
        const armnn::IOutputSlot* source = layer->GetInputSlot(0).GetConnection();
        if (source == nullptr) throw armnn::Exception("output layer without a connection");
        outputs.push_back({id, source->GetTensorInfo()});
    }
};

std::vector<uint8_t> read_file(const char* path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw armnn::Exception(std::string("cannot open ") + path);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Index of the largest output element, read in the output's own data type.
size_t top1(const armnn::TensorInfo& info, const std::vector<uint8_t>& bytes) {
    const size_t n = info.GetNumElements();
    auto value = [&](size_t i) -> double {
        switch (info.GetDataType()) {
            case armnn::DataType::Float32: {
                float v;
                std::copy_n(bytes.data() + 4 * i, 4, reinterpret_cast<uint8_t*>(&v));
                return v;
            }
            case armnn::DataType::QAsymmS8:
            case armnn::DataType::QSymmS8: return static_cast<int8_t>(bytes[i]);
            default: return bytes[i];
        }
    };
    size_t best = 0;
    for (size_t i = 1; i < n; ++i)
        if (value(i) > value(best)) best = i;
    return best;
}

// FNV-1a of the output bytes: equal checksums = bit-identical outputs.
uint64_t checksum(const std::vector<uint8_t>& bytes) {
    uint64_t h = 1469598103934665603ull;
    for (uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
    return h;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s MODEL.armnn INPUT.bin ITERATIONS [BACKEND [BACKEND_DIR]]\n", argv[0]);
        return 2;
    }
    const int iterations = std::atoi(argv[3]);
    if (iterations < 1) {
        std::fprintf(stderr, "armnn-bench: ITERATIONS must be at least 1, got '%s'\n", argv[3]);
        return 2;
    }
    const std::string backend = argc > 4 ? argv[4] : "CpuRef";
    try {
        auto deserializer = armnnDeserializer::IDeserializer::Create();
        armnn::INetworkPtr net = deserializer->CreateNetworkFromBinary(read_file(argv[1]));
        BindingCollector bindings;
        net->Accept(bindings);
        if (bindings.inputs.size() != 1 || bindings.outputs.size() != 1) {
            std::fprintf(stderr, "armnn-bench: need exactly one input and one output, the model has %zu and %zu\n",
                         bindings.inputs.size(), bindings.outputs.size());
            return 2;
        }
        const Binding& in = bindings.inputs[0];
        const Binding& out = bindings.outputs[0];

        armnn::IRuntime::CreationOptions options;
        options.m_DynamicBackendsPath = argc > 5 ? argv[5] : kDefaultBackendDir;
        armnn::IRuntimePtr runtime = armnn::IRuntime::Create(options);
        if (runtime->GetDeviceSpec().GetSupportedBackends().count(armnn::BackendId(backend)) == 0) {
            std::fprintf(stderr, "armnn-bench: backend %s not available (looked in %s)\n", backend.c_str(),
                         options.m_DynamicBackendsPath.c_str());
            return 1;
        }
        std::vector<std::string> messages;
        armnn::IOptimizedNetworkPtr opt = armnn::Optimize(*net, {armnn::BackendId(backend)},
                                                          runtime->GetDeviceSpec(), armnn::OptimizerOptions(),
                                                          armnn::Optional<std::vector<std::string>&>(messages));
        if (!opt) {
            std::fprintf(stderr, "armnn-bench: Optimize for %s failed\n", backend.c_str());
            for (const auto& m : messages) std::fprintf(stderr, "  %s\n", m.c_str());
            return 1;
        }
        armnn::NetworkId id;
        std::string error;
        if (runtime->LoadNetwork(id, std::move(opt), error) != armnn::Status::Success) {
            std::fprintf(stderr, "armnn-bench: LoadNetwork on %s failed: %s\n", backend.c_str(), error.c_str());
            return 1;
        }

        std::vector<uint8_t> input = read_file(argv[2]);
        if (input.size() != in.info.GetNumBytes()) {
            std::fprintf(stderr, "armnn-bench: input: expected %u bytes, got %zu\n", in.info.GetNumBytes(), input.size());
            return 2;
        }
        std::vector<uint8_t> output(out.info.GetNumBytes());
        armnn::InputTensors ins{{in.id, armnn::ConstTensor(in.info, input.data())}};
        armnn::OutputTensors outs{{out.id, armnn::Tensor(out.info, output.data())}};
        std::vector<double> ms;
        for (int i = 0; i < iterations; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            if (runtime->EnqueueWorkload(id, ins, outs) != armnn::Status::Success) {
                std::fprintf(stderr, "armnn-bench: EnqueueWorkload failed\n");
                return 1;
            }
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("armnn %s: %zu runs, median %.3f ms, top-1 index %zu, output fnv1a %016llx\n", backend.c_str(),
                    ms.size(), ms[ms.size() / 2], top1(out.info, output),
                    static_cast<unsigned long long>(checksum(output)));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "armnn-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}

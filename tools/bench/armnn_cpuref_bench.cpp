// Arm NN 20.08 side of the whole-model benchmark: runs a model on an Arm NN backend (CpuRef by
// default) N times and prints the median latency, or, with N = 0, runs once (for instruction counting
// under qemu). A separate program from npurun because both contain FlatBuffers code in namespace
// armnnSerializer. Debian ships no .armnn deserializer for Arm NN 20.08 (only the serializer and the
// TfLite parser), so the model is read from its .tflite source, which the .armnn file was made from.
//
// Usage: armnn-cpuref-bench MODEL.tflite INPUT.bin ITERATIONS [BACKEND]
#include <algorithm>
#include <armnn/ArmNN.hpp>
#include <armnnTfLiteParser/ITfLiteParser.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s MODEL.tflite INPUT.bin ITERATIONS [BACKEND]\n", argv[0]);
        return 2;
    }
    const int iterations = std::atoi(argv[3]);
    const std::string backend = argc > 4 ? argv[4] : "CpuRef";
    try {
        auto parser = armnnTfLiteParser::ITfLiteParser::Create();
        armnn::INetworkPtr net = parser->CreateNetworkFromBinaryFile(argv[1]);
        armnn::IRuntime::CreationOptions options;
        armnn::IRuntimePtr runtime = armnn::IRuntime::Create(options);
        armnn::IOptimizedNetworkPtr opt = armnn::Optimize(*net, {armnn::BackendId(backend)}, runtime->GetDeviceSpec());
        armnn::NetworkId id;
        if (runtime->LoadNetwork(id, std::move(opt)) != armnn::Status::Success) {
            std::fprintf(stderr, "LoadNetwork failed on %s\n", backend.c_str());
            return 1;
        }
        const auto in_names = parser->GetSubgraphInputTensorNames(0);
        const auto out_names = parser->GetSubgraphOutputTensorNames(0);
        const auto in_b = parser->GetNetworkInputBindingInfo(0, in_names.at(0));
        const auto out_b = parser->GetNetworkOutputBindingInfo(0, out_names.at(0));
        std::ifstream f(argv[2], std::ios::binary);
        std::vector<uint8_t> input((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        if (input.size() != in_b.second.GetNumBytes()) {
            std::fprintf(stderr, "input: expected %u bytes, got %zu\n", in_b.second.GetNumBytes(), input.size());
            return 2;
        }
        std::vector<uint8_t> output(out_b.second.GetNumBytes());
        armnn::InputTensors ins{{in_b.first, armnn::ConstTensor(in_b.second, input.data())}};
        armnn::OutputTensors outs{{out_b.first, armnn::Tensor(out_b.second, output.data())}};
        std::vector<double> ms;
        for (int i = 0; i < std::max(iterations, 1); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            if (runtime->EnqueueWorkload(id, ins, outs) != armnn::Status::Success) {
                std::fprintf(stderr, "EnqueueWorkload failed\n");
                return 1;
            }
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        size_t top = 0;
        for (size_t i = 1; i < output.size(); ++i)
            if (output[i] > output[top]) top = i;
        std::printf("armnn %s: %zu runs, median %.3f ms, top-1 index %zu\n", backend.c_str(), ms.size(), ms[ms.size() / 2], top);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "armnn: %s\n", e.what());
        return 1;
    }
    return 0;
}

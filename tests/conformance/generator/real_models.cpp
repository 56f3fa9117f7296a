#include "tests/conformance/generator/real_models.h"

#include <armnnTfLiteParser/ITfLiteParser.hpp>
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "tests/conformance/generator/random_tensor.h"

namespace conformance {
namespace {

constexpr float kClassifierBound = 10;  // see the MobileNet cases below

bool exists(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

Bytes read_required(const std::string& path) {
    if (!exists(path)) throw CaseSkipped("shared model absent: " + path);
    return read_file(path);
}

// Data of a .npy file (format 1.x/2.x, little-endian, C order); checks dtype and byte count.
Bytes npy_data(const std::string& path, const std::string& descr, size_t expected_bytes) {
    const Bytes f = read_required(path);
    if (f.size() < 10 || std::memcmp(f.data(), "\x93NUMPY", 6) != 0) throw CaseSkipped(path + ": not a .npy file");
    size_t header_len = 0, start = 0;
    if (f[6] == 1) {
        header_len = f[8] | (f[9] << 8);
        start = 10;
    } else {
        if (f.size() < 12) throw CaseSkipped(path + ": truncated .npy header");
        header_len = f[8] | (f[9] << 8) | (static_cast<size_t>(f[10]) << 16) | (static_cast<size_t>(f[11]) << 24);
        start = 12;
    }
    if (start + header_len > f.size()) throw CaseSkipped(path + ": truncated .npy header");
    const std::string header(f.begin() + static_cast<long>(start), f.begin() + static_cast<long>(start + header_len));
    if (header.find("'descr': '" + descr + "'") == std::string::npos) throw CaseSkipped(path + ": dtype is not " + descr);
    if (header.find("'fortran_order': False") == std::string::npos) throw CaseSkipped(path + ": Fortran order");
    Bytes data(f.begin() + static_cast<long>(start + header_len), f.end());
    if (data.size() != expected_bytes)
        throw CaseSkipped(path + ": " + std::to_string(data.size()) + " bytes, model wants " + std::to_string(expected_bytes));
    return data;
}

struct Loaded {
    CaseRecord rec;
    armnn::INetworkPtr net{nullptr, nullptr};
};

// Reads an .armnn file with Arm NN's deserializer and fills bindings.
Loaded load_armnn(const std::string& path) {
    Loaded l;
    l.rec.model = read_required(path);
    l.net = deserialize(l.rec.model);
    l.rec.bindings = bindings_of(*l.net);
    return l;
}

// A smooth, deterministic test picture: colour gradients with a bright disc, so classifier outputs
// have a clear winner instead of noise-level scores.
Bytes synthetic_image(unsigned h, unsigned w) {
    Bytes img(static_cast<size_t>(h) * w * 3);
    for (unsigned y = 0; y < h; ++y) {
        for (unsigned x = 0; x < w; ++x) {
            const float dy = static_cast<float>(y) - 0.4f * h, dx = static_cast<float>(x) - 0.6f * w;
            const bool disc = dx * dx + dy * dy < 0.05f * h * w;
            uint8_t* px = &img[(static_cast<size_t>(y) * w + x) * 3];
            px[0] = static_cast<uint8_t>(disc ? 230 : (255 * x) / w);
            px[1] = static_cast<uint8_t>(disc ? 200 : (255 * y) / h);
            px[2] = static_cast<uint8_t>(disc ? 40 : (128 + 64 * std::sin(0.3f * static_cast<float>(x + y))));
        }
    }
    return img;
}

std::vector<std::string> tflite_files(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > 7 && n.compare(n.size() - 7, 7, ".tflite") == 0) names.push_back(n);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string identifier(const std::string& s) {
    std::string out;
    for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return out;
}

}  // namespace

std::vector<RealCase> real_model_cases(const std::string& shared_dir) {
    const std::string models = shared_dir + "/models";
    std::vector<RealCase> cases;

    cases.push_back({"real_mnist_uint8", "Model", "QAsymmU8", [models](CpuRefRunner& runner) {
        Loaded l = load_armnn(models + "/armnn/mnist_uint8.armnn");
        if (l.rec.bindings.inputs.size() != 1 || l.rec.bindings.outputs.size() != 1)
            throw CaseSkipped("mnist: expected 1 input and 1 output");
        const std::string golden = models + "/armnn/mnist_uint8.golden.npy";
        l.rec.inputs.push_back(npy_data(models + "/armnn/mnist_uint8.input.npy", "|u1",
                                        l.rec.bindings.inputs[0].info.GetNumBytes()));
        l.rec.expected = runner.run(*l.net, l.rec.bindings, l.rec.inputs);
        const Bytes want = npy_data(golden, "|u1", l.rec.bindings.outputs[0].info.GetNumBytes());
        if (want != l.rec.expected[0]) throw CaseSkipped("CpuRef 20.08 does not reproduce the MNIST golden output");
        l.rec.name = "real_mnist_uint8";
        l.rec.layer = "Model";
        l.rec.dtype = "QAsymmU8";
        l.rec.compare = Compare::Quantized;
        l.rec.tolerance = 0;
        l.rec.cli = true;
        l.rec.golden_npy = golden;
        l.rec.notes.push_back("pyarmnn golden output; CpuRef reproduces it exactly, npurun must too");
        return l.rec;
    }});

    // MobileNet v1 0.25 (uint8): same top-1 as CpuRef and at most kClassifierBound apart on the output.
    // Why 10 (units of the output scale 1/256): npurun's reference kernels implement CpuRef's arithmetic
    // (dequantize, float math, round half away from zero), so what can remain is a rounding decision
    // flipped by float summation order, i.e. 1 in some integer. In the last Conv (the logits, scale
    // 0.1308) one such flip moves a softmax output by up to s(1-s) * 0.1308 <= 0.0327, which is 8.4
    // output units, plus 1 for the output rounding: 10 (rounded up). That is also why Arm NN's own
    // CpuAcc and CpuRef differ by up to 8. Single-layer cases still must agree within 1. Measured
    // against npurun's reference kernels: max 1 (synthetic), 2 (noise), 6 (tflite_* noise input).
    for (const char* input_kind : {"synthetic", "noise"}) {
        const std::string name = std::string("real_mobilenet_v1_025_128_quant_") + input_kind;
        const bool synthetic = std::string(input_kind) == "synthetic";
        cases.push_back({name, "Model", "QAsymmU8", [models, name, synthetic](CpuRefRunner& runner) {
            Loaded l = load_armnn(models + "/armnn/mobilenet_v1_0.25_128_quant.armnn");
            if (l.rec.bindings.inputs.size() != 1) throw CaseSkipped("mobilenet: expected 1 input");
            const armnn::TensorInfo& in = l.rec.bindings.inputs[0].info;
            if (synthetic) {
                l.rec.inputs.push_back(synthetic_image(in.GetShape()[1], in.GetShape()[2]));
            } else {
                Prng prng = Prng::for_case(name);
                l.rec.inputs.push_back(random_tensor(in, {}, prng));
            }
            if (l.rec.inputs[0].size() != in.GetNumBytes()) throw CaseSkipped("mobilenet: unexpected input shape");
            l.rec.expected = runner.run(*l.net, l.rec.bindings, l.rec.inputs);
            l.rec.name = name;
            l.rec.layer = "Model";
            l.rec.dtype = "QAsymmU8";
            l.rec.compare = Compare::Top1;
            l.rec.tolerance = kClassifierBound;
            l.rec.cli = synthetic;
            l.rec.notes.push_back("same top-1 as CpuRef, max |diff| <= bound (see real_models.cpp)");
            return l.rec;
        }});
    }

    for (float x : {0.0f, 0.5f, 1.5707964f, 3.0f, 4.75f, 6.2f}) {
        const std::string name = "real_hello_world_float_x" + identifier(std::to_string(x));
        cases.push_back({name, "Model", "Float32", [models, name, x](CpuRefRunner& runner) {
            Loaded l = load_armnn(models + "/armnn/hello_world_float.armnn");
            if (l.rec.bindings.inputs.size() != 1 || l.rec.bindings.inputs[0].info.GetNumElements() != 1)
                throw CaseSkipped("hello_world: expected one scalar-like input");
            l.rec.inputs.push_back(encode_tensor(l.rec.bindings.inputs[0].info, {x}));
            l.rec.expected = runner.run(*l.net, l.rec.bindings, l.rec.inputs);
            l.rec.name = name;
            l.rec.layer = "Model";
            l.rec.dtype = "Float32";
            l.rec.cli = x == 0.5f;
            return l.rec;
        }});
    }

    // Old-format files (no featureVersions, deprecated layer types) that are in the foundation's layer
    // set: Merger -> Concat, Pad without padValue, ResizeBilinear -> Resize.
    for (const char* legacy : {"Merger", "Pad", "ResizeBilinear"}) {
        const std::string name = std::string("legacy_") + legacy;
        const std::string file = models + "/armnn/legacy/Ensure" + legacy + (std::string(legacy) == "Merger" ? "Layer" : "") +
                                 "BackwardCompatibility.armnn";
        cases.push_back({name, legacy, "Float32", [file, name, legacy](CpuRefRunner& runner) {
            Loaded l = load_armnn(file);
            Prng prng = Prng::for_case(name);
            for (const Binding& b : l.rec.bindings.inputs) l.rec.inputs.push_back(random_tensor(b.info, {}, prng));
            l.rec.expected = runner.run(*l.net, l.rec.bindings, l.rec.inputs);
            l.rec.name = name;
            l.rec.layer = legacy;
            l.rec.dtype = "Float32";
            l.rec.notes.push_back("2019-format file, random inputs");
            return l.rec;
        }});
    }

    // Every .tflite in ../shared/models/tflite, converted with Arm NN 20.08's TfLite parser.
    for (const std::string& file : tflite_files(models + "/tflite")) {
        const std::string name = "tflite_" + identifier(file.substr(0, file.size() - 7));
        const std::string path = models + "/tflite/" + file;
        cases.push_back({name, "Model", "from-tflite", [path, name](CpuRefRunner& runner) {
            armnn::INetworkPtr parsed(nullptr, nullptr);
            try {
                auto parser = armnnTfLiteParser::ITfLiteParser::Create();
                parsed = parser->CreateNetworkFromBinaryFile(path.c_str());
            } catch (const armnn::Exception& e) {
                throw CaseSkipped(std::string("20.08 TfLite parser: ") + e.what());
            }
            CaseRecord rec;
            rec.model = serialize(*parsed);
            armnn::INetworkPtr net = deserialize(rec.model);
            rec.bindings = bindings_of(*net);
            Prng prng = Prng::for_case(name);
            bool quantized = false;
            for (const Binding& b : rec.bindings.inputs) {
                rec.inputs.push_back(random_tensor(b.info, {}, prng));
                quantized |= b.info.IsQuantized();
            }
            rec.expected = runner.run(*net, rec.bindings, rec.inputs);
            rec.name = name;
            rec.layer = "Model";
            rec.dtype = dtype_name(rec.bindings.outputs.at(0).info.GetDataType());
            // The quantized models here are softmax classifiers: judged like MobileNet (top-1 and the
            // bound above), since one rounding flip in the logits moves the output by several units.
            rec.compare = quantized ? Compare::Top1 : Compare::Float;
            rec.tolerance = quantized ? kClassifierBound : 1e-4f;
            rec.notes.push_back("converted from " + path + " by Arm NN 20.08's TfLite parser");
            return rec;
        }});
    }
    return cases;
}

}  // namespace conformance

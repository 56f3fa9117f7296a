#include "runtime/loaders/load_model.h"

#include <cstring>
#include <memory>

#include "core/error.h"
#include "runtime/loaders/armnn/armnn_loader.h"
#include "runtime/util/mapped_file.h"

namespace npurun {

namespace {

bool has_identifier(const uint8_t* data, size_t size, const char* id) {
    return size >= 8 && std::memcmp(data + 4, id, 4) == 0;
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Graph load_detected(const uint8_t* data, size_t size, const std::string& origin,
                    std::shared_ptr<ConstantStorage> keepalive) {
    try {
        if (!data || size == 0) fail(ErrorKind::BadModel, "the model is empty");
        switch (detect_model_format(data, size, origin)) {
            case ModelFormat::Mnn:
                fail(ErrorKind::Unsupported, "MNN models (.mnn) are not supported yet; use an Arm NN .armnn model");
            case ModelFormat::TfLite:
                fail(ErrorKind::Unsupported,
                     "TensorFlow Lite models are not supported; convert them to .armnn with Arm NN's TfLite parser");
            case ModelFormat::Armnn:
            case ModelFormat::Unknown:
                return load_armnn(data, size, std::move(keepalive));
        }
    } catch (const Error& e) {
        throw Error(e.kind(), origin + ": " + e.what());
    }
    fail(ErrorKind::Internal, origin + ": unhandled model format");
}

}  // namespace

const char* to_string(ModelFormat f) {
    switch (f) {
        case ModelFormat::Armnn: return "armnn";
        case ModelFormat::Mnn: return "mnn";
        case ModelFormat::TfLite: return "tflite";
        case ModelFormat::Unknown: return "unknown";
    }
    return "?";
}

ModelFormat detect_model_format(const uint8_t* data, size_t size, const std::string& name) {
    if (has_identifier(data, size, "ARMN")) return ModelFormat::Armnn;
    if (has_identifier(data, size, "TFL3")) return ModelFormat::TfLite;
    if (ends_with(name, ".mnn")) return ModelFormat::Mnn;
    if (ends_with(name, ".tflite")) return ModelFormat::TfLite;
    if (ends_with(name, ".armnn")) return ModelFormat::Armnn;
    return ModelFormat::Unknown;
}

Graph load_model_file(const std::string& path) {
    // MappedFile's errors already name the path.
    auto file = std::make_shared<MappedFile>(path);
    return load_detected(file->data(), file->size(), path, file);
}

Graph load_model_memory(const void* data, size_t size, const std::string& origin) {
    return load_detected(static_cast<const uint8_t*>(data), size, origin, nullptr);
}

}  // namespace npurun

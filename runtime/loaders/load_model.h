// Entry point for every model format: maps the file, detects the format from its content, dispatches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ir/graph.h"

namespace npurun {

enum class ModelFormat { Armnn, Mnn, TfLite, Unknown };
const char* to_string(ModelFormat f);

// Guesses the format from the first bytes (FlatBuffers identifiers "ARMN", "TFL3", MNN's layout) and,
// when the content is not conclusive, from the file name's extension. Real .armnn files carry no
// identifier, so Unknown content is treated as Arm NN by the loaders below.
ModelFormat detect_model_format(const uint8_t* data, size_t size, const std::string& name);

// Memory-maps `path` and loads it; constants stay views into the mapping (kept alive by Graph::file).
// Errors: BadInput for an unreadable/missing/empty file, BadModel for a malformed model, Unsupported for a
// format this build cannot load yet (.mnn, .tflite). Every message starts with the path.
Graph load_model_file(const std::string& path);

// Same from bytes in memory; `origin` names the source in messages. Constants are copied into the graph,
// so `data` may be freed after the call.
Graph load_model_memory(const void* data, size_t size, const std::string& origin);

}  // namespace npurun

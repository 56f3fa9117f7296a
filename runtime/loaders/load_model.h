// Entry point for every model format: maps the file, detects the format from its content, dispatches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ir/graph.h"
#include "runtime/loaders/load_options.h"

namespace npurun {

enum class ModelFormat { Armnn, Mnn, TfLite, Unknown };
const char* to_string(ModelFormat f);

// Guesses the format from the content (FlatBuffers identifiers "ARMN", "TFL3"; a buffer that verifies as an
// MNN Net) and,
// when the content is not conclusive, from the file name's extension. Real .armnn files carry no
// identifier, so Unknown content is treated as Arm NN by the loaders below.
ModelFormat detect_model_format(const uint8_t* data, size_t size, const std::string& name);

// Memory-maps `path` and loads it; constants stay views into the mapping (kept alive by Graph::file).
// Errors: BadInput for an unreadable/missing/empty file, BadModel for a malformed model, Unsupported for a
// format this build cannot load (.tflite). Every message starts with the path.
Graph load_model_file(const std::string& path, const LoadOptions& options = {});

// Same from bytes in memory; `origin` names the source in messages. Constants are copied into the graph,
// so `data` may be freed after the call.
Graph load_model_memory(const void* data, size_t size, const std::string& origin, const LoadOptions& options = {});

}  // namespace npurun

// npurun --trace FILE.json: the last inference as a Chrome trace (the "traceEvents" JSON that Perfetto and
// chrome://tracing open): one complete event ("ph": "X") per span, one thread row per track, named by
// metadata events.
#pragma once

#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"

namespace npurun::cli {

// The JSON text. `title` names the process row (the model and the device).
std::string chrome_trace_json(const std::vector<TraceSpan>& spans, const std::string& title);

// JSON string literal contents: quotes, backslashes and control characters escaped; bytes >= 0x80 are
// passed through (model names are UTF-8 or at least opaque bytes; invalid UTF-8 becomes U+FFFD).
std::string json_escape(const std::string& s);

}  // namespace npurun::cli

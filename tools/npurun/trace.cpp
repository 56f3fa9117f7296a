#include "tools/npurun/trace.h"

#include <cstdio>
#include <map>

namespace npurun::cli {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
size_t utf8_length(const std::string& s, size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    return n;
}

std::string number(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", v);
    return b;
}

}  // namespace

std::string json_escape(const std::string& s) {
    std::string o;
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            o += '\\';
            o += char(c);
        } else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else if (c < 0x80) {
            o += char(c);
        } else if (const size_t n = utf8_length(s, i)) {
            o.append(s, i, n);
            i += n - 1;
        } else {
            o += "\xEF\xBF\xBD";
        }
    }
    return o;
}

std::string chrome_trace_json(const std::vector<TraceSpan>& spans, const std::string& title) {
    std::map<std::string, int> tids;  // track -> thread id, in order of first appearance
    std::vector<std::string> order;
    for (const TraceSpan& s : spans)
        if (tids.emplace(s.track, int(tids.size()) + 1).second) order.push_back(s.track);
    std::string j = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"npurun --trace\",\"note\":\"one inference; "
                    "times from the start of Session::run() in microseconds; CPU layers run on the calling thread (the NEON "
                    "kernels' worker threads are not shown separately); NPU task times are estimates (see each task's args)\"},"
                    "\"traceEvents\":[\n";
    j += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"" + json_escape(title) + "\"}}";
    for (size_t i = 0; i < order.size(); ++i) {
        j += ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(i + 1) + ",\"args\":{\"name\":\"" +
             json_escape(order[i]) + "\"}}";
        j += ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(i + 1) +
             ",\"args\":{\"sort_index\":" + std::to_string(i + 1) + "}}";
    }
    for (const TraceSpan& s : spans) {
        j += ",\n{\"name\":\"" + json_escape(s.name) + "\",\"cat\":\"" + json_escape(s.category) +
             "\",\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(tids[s.track]) + ",\"ts\":" + number(s.start_us) +
             ",\"dur\":" + number(s.duration_us < 0 ? 0 : s.duration_us) + ",\"args\":{";
        for (size_t k = 0; k < s.args.size(); ++k)
            j += (k ? ",\"" : "\"") + json_escape(s.args[k].first) + "\":\"" + json_escape(s.args[k].second) + "\"";
        j += "}}";
    }
    j += "\n]}\n";
    return j;
}

}  // namespace npurun::cli

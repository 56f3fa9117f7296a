#include "kernels/neon/cpu_topology.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace npurun::kernels::neon {
namespace {

// Reasonable upper bound on CPU numbers: a corrupt list such as "0-4294967295" must not allocate GBs.
constexpr unsigned long kMaxCpu = 4096;

bool read_first_line(const std::string& path, std::string& line) {
    std::ifstream f(path);
    return static_cast<bool>(std::getline(f, line));
}

// A non-negative decimal number filling the whole (trimmed) line.
bool read_number(const std::string& path, unsigned long& value) {
    std::string line;
    if (!read_first_line(path, line)) return false;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.empty() || line.size() > 18) return false;
    value = 0;
    for (char c : line) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + static_cast<unsigned long>(c - '0');
    }
    return true;
}

bool parse_cpu_number(const std::string& s, unsigned long& v) {
    if (s.empty() || s.size() > 5) return false;
    v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<unsigned long>(c - '0');
    }
    return v < kMaxCpu;
}

}  // namespace

std::vector<unsigned> parse_cpu_list(const std::string& text) {
    std::string t = text;
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    std::vector<unsigned> cpus;
    if (t.empty()) return cpus;
    std::stringstream items(t);
    std::string item;
    while (std::getline(items, item, ',')) {
        const size_t dash = item.find('-');
        unsigned long first = 0, last = 0;
        if (dash == std::string::npos) {
            if (!parse_cpu_number(item, first)) return {};
            last = first;
        } else if (!parse_cpu_number(item.substr(0, dash), first) || !parse_cpu_number(item.substr(dash + 1), last) ||
                   last < first) {
            return {};
        }
        for (unsigned long c = first; c <= last; ++c) cpus.push_back(static_cast<unsigned>(c));
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

unsigned count_big_cores(const std::string& cpu_dir, unsigned fallback) {
    std::string online_text;
    if (!read_first_line(cpu_dir + "/online", online_text)) return fallback;
    const std::vector<unsigned> online = parse_cpu_list(online_text);
    if (online.empty()) return fallback;
    const unsigned all = static_cast<unsigned>(online.size());

    // cpu_capacity first: it is what the scheduler itself uses and also separates cores of equal maximum
    // frequency but different micro-architecture. Frequencies only when no CPU has a capacity.
    for (const char* attribute : {"/cpu_capacity", "/cpufreq/cpuinfo_max_freq"}) {
        std::vector<unsigned long> values;
        for (unsigned cpu : online) {
            unsigned long v = 0;
            if (!read_number(cpu_dir + "/cpu" + std::to_string(cpu) + attribute, v)) break;
            values.push_back(v);
        }
        if (values.size() != online.size()) continue;  // this attribute is missing for some CPU
        const unsigned long top = *std::max_element(values.begin(), values.end());
        return static_cast<unsigned>(std::count(values.begin(), values.end(), top));
    }
    return all;
}

}  // namespace npurun::kernels::neon

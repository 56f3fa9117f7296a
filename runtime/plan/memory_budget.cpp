#include "runtime/plan/memory_budget.h"

#include <unistd.h>

#include <cstdio>

#include "core/error.h"

namespace npurun::plan {

uint64_t physical_memory_bytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page_size = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return 0;
    const uint64_t p = uint64_t(pages), s = uint64_t(page_size);
    if (p > UINT64_MAX / s) return UINT64_MAX;
    return p * s;
}

uint64_t default_memory_limit() {
    const uint64_t phys = physical_memory_bytes();
    return phys == 0 ? (uint64_t{1} << 30) : phys / kDefaultMemoryDivisor;
}

std::string format_bytes(uint64_t bytes) {
    static const char* const units[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
    if (bytes < 1000) return std::to_string(bytes) + " bytes";
    double v = double(bytes);
    int u = -1;
    while (v >= 1000.0 && u < 5) {
        v /= 1000.0;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

bool parse_memory_size(const std::string& text, uint64_t* bytes) {
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits > 20) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < digits; ++i) {
        const uint64_t d = uint64_t(text[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    const std::string suffix = text.substr(digits);
    unsigned shift = 0;
    if (suffix.empty() || suffix == "B") shift = 0;
    else if (suffix == "K" || suffix == "k" || suffix == "KiB") shift = 10;
    else if (suffix == "M" || suffix == "m" || suffix == "MiB") shift = 20;
    else if (suffix == "G" || suffix == "g" || suffix == "GiB") shift = 30;
    else if (suffix == "T" || suffix == "t" || suffix == "TiB") shift = 40;
    else return false;
    if (v == 0 || v > (UINT64_MAX >> shift)) return false;
    *bytes = v << shift;
    return true;
}

MemoryBudget::MemoryBudget(uint64_t limit_bytes)
    : limit_(limit_bytes == 0 ? default_memory_limit() : limit_bytes), default_(limit_bytes == 0) {}

void MemoryBudget::reserve(uint64_t bytes, const std::string& what) {
    if (bytes <= limit_ && used_ <= limit_ - bytes) {
        used_ += bytes;
        return;
    }
    std::string msg = "the model needs " + format_bytes(bytes) + " (" + std::to_string(bytes) + " bytes) for " + what;
    if (used_ != 0) msg += " on top of " + format_bytes(used_) + " already reserved";
    msg += ", above the session's memory limit of " + format_bytes(limit_);
    msg += default_ ? " (half of physical memory; raise it with --max-memory or SessionOptions::max_memory_bytes)"
                    : " (--max-memory / SessionOptions::max_memory_bytes)";
    fail(ErrorKind::Unsupported, msg);
}

void MemoryBudget::release(uint64_t bytes) { used_ = bytes > used_ ? 0 : used_ - bytes; }

}  // namespace npurun::plan

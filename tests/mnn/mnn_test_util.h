// Helpers for the MNN tests: paths into ../shared (NPURUN_SHARED), raw float files, max differences.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"

namespace npurun::mnn_testing {

inline std::string shared_path(const std::string& rel) {
    const char* s = std::getenv("NPURUN_SHARED");
    return s ? std::string(s) + "/" + rel : std::string();
}

inline bool file_exists(const std::string& p) {
    if (p.empty()) return false;
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) return false;
    std::fclose(f);
    return true;
}

inline std::vector<uint8_t> read_bytes(const std::string& p) {
    std::vector<uint8_t> v;
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) return v;
    uint8_t buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + n);
    std::fclose(f);
    return v;
}

inline std::vector<float> read_floats(const std::string& p) {
    const std::vector<uint8_t> b = read_bytes(p);
    std::vector<float> v(b.size() / 4);
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * 4);
    return v;
}

inline double max_abs_diff(const float* a, const std::vector<float>& b) {
    double m = 0;
    for (size_t i = 0; i < b.size(); ++i) m = std::max(m, std::fabs(double(a[i]) - double(b[i])));
    return m;
}

#define NPURUN_REQUIRE_SHARED(path)                                                                           \
    do {                                                                                                    \
        if (!::npurun::mnn_testing::file_exists(path))                                                      \
            GTEST_SKIP() << "../shared not found (set NPURUN_SHARED to the shared folder): " << (path);     \
    } while (0)

}  // namespace npurun::mnn_testing

// The files around a test: reading and writing whole files, whether a path exists, a scratch folder of the
// test's own, and where the shared inputs (models, captures, references) are.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace npurun::testing {

// The file's bytes; empty when it cannot be read.
inline std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Writes `bytes` as the whole of `path`; a failed write fails the test.
inline void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    EXPECT_TRUE(bool(f)) << "cannot write " << path;
}

inline bool path_exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// The shared inputs: NPURUN_SHARED, or ../shared (beside the checkout) when it is not set.
inline std::string shared_inputs_dir() {
    const char* s = std::getenv("NPURUN_SHARED");
    return s ? s : "../shared";
}

// A new empty folder `parent`/`prefix`XXXXXX; empty (and a failed test) when it cannot be made.
inline std::string make_temp_dir(const std::string& parent, const std::string& prefix) {
    const std::string tmpl = parent + "/" + prefix + "XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) {
        ADD_FAILURE() << "cannot make a folder like " << tmpl;
        return {};
    }
    return buf.data();
}

// Removes the folder `dir` and everything in it (nothing when `dir` is empty); a failure fails the test.
inline void remove_tree(const std::string& dir) {
    if (!dir.empty() && std::system(("rm -rf '" + dir + "'").c_str()) != 0) ADD_FAILURE() << "cannot remove " << dir;
}

}  // namespace npurun::testing

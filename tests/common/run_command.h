// Running a tool from a test: the command line through the shell with stderr merged into stdout, its exit
// status and everything it printed; and reading a whole file back.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace npurun::testing {

struct CommandResult {
    int status = -1;  // the exit status; -1 when the command could not start or did not exit normally
    std::string out;  // stdout and stderr, interleaved as written
};

inline CommandResult run_command(const std::string& command) {
    CommandResult r;
    std::FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

// The file's bytes; empty when it cannot be read.
inline std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace npurun::testing

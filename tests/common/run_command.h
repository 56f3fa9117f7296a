// Running a tool from a test: the command line through the shell with stderr merged into stdout, its exit
// status and everything it printed; or the binary itself without a shell, stdout and stderr apart.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tests/common/test_files.h"

extern char** environ;

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

// npurun (the NPURUN_BIN the meson test definition sets) with `args`; status -1 when NPURUN_BIN is not set.
inline CommandResult run_npurun(const std::string& args) {
    const char* bin = std::getenv("NPURUN_BIN");
    if (!bin) return {};
    return run_command(std::string(bin) + " " + args);
}

// A tool run without a shell (arguments passed as they are), stdout and stderr kept apart.
struct SpawnResult {
    int exit_code = -1;  // the exit status, 128 + the signal when killed; -1 when the binary could not start
    std::string out, err;
    std::string start_error;  // why it could not start, when exit_code is -1
};

// Runs `bin` with `args`, its output captured through two files in `scratch_dir` that are removed after.
inline SpawnResult spawn_captured(const std::string& bin, const std::vector<std::string>& args,
                                  const std::string& scratch_dir) {
    SpawnResult r;
    const std::string out_path = scratch_dir + "/.stdout", err_path = scratch_dir + "/.stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> all = {bin};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        r.start_error = std::strerror(rc);
        return r;
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_file(out_path);
    r.err = read_file(err_path);
    ::unlink(out_path.c_str());
    ::unlink(err_path.c_str());
    return r;
}

}  // namespace npurun::testing

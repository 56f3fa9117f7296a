// The npurun-selftest command line (also `npurun --selftest ...`): options, usage, and the whole run.
#pragma once

#include <string>
#include <vector>

#include "tools/npurun-selftest/selftest_runner.h"

namespace npurun::selftest {

struct Options {
    DeviceSelection device = DeviceSelection::All;
    std::vector<std::string> filters;  // empty: every case
    bool list = false;
    std::string json;                  // "" none, "-" stdout, else a file
    bool require_npu = false;
    bool help = false, version = false;
    std::string corrupt_device;        // hidden, test-only: --test-corrupt cpu|sim|npu
};

// Throws npurun::Error(BadInput) with a one-line message for an unknown flag or a bad value.
Options parse_options(const std::vector<std::string>& args);

const char* usage();

// Whether case `name` is selected by the --filter patterns: a pattern with * ? or [ is a shell glob on the
// whole name, any other pattern a substring.
bool matches(const std::string& name, const std::vector<std::string>& filters);

// Runs the tool: `prog` names it in messages ("npurun-selftest" or "npurun --selftest"). Returns the exit
// code: 0 every case passed; 1 a case failed or a selected device is present but unusable; 2 bad command
// line (or --device sim in a build without the simulator).
int selftest_main(const std::vector<std::string>& args, const char* prog);

}  // namespace npurun::selftest

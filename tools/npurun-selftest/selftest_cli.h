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
    std::string html;                  // "" none, else a file (the report a person reads)
    std::string csv;                   // "" none, else a file (one line per case, for farm result parsers)
    std::string expectations;          // "" none, else the prefix of the three lists (PREFIX-fails.txt, ...)
    bool require_npu = false;
    bool help = false, version = false;
    // Hidden, test-only fault injection: --test-corrupt DEVICE[:CASE] (repeatable) changes one output value
    // of CASE (the first selected case without :CASE) after DEVICE (cpu, sim or npu) ran it.
    struct Corruption {
        std::string device, case_name;
    };
    std::vector<Corruption> corrupt;
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

// What the self-test prints: one line per case, a summary line, and the --json report for CI farms.
#pragma once

#include <string>
#include <vector>

#include "tools/npurun-selftest/selftest_runner.h"

namespace npurun::selftest {

// One line (no newline): name, ops, shapes, devices, max difference and tolerance, PASS/FAIL/SKIP, time;
// a failure ends with ": <reason>". SKIP: no device was available to compare with the CPU reference.
std::string case_line(const CaseResult& r, const Environment& env);

struct Summary {
    size_t cases = 0, passed = 0, failed = 0;
    size_t skipped = 0;         // no device ran the case (no NPU, no simulator): nothing compared
    double seconds = 0.0;
    bool device_error = false;  // a selected device exists but cannot be used
    bool ok() const { return failed == 0 && !device_error; }
};
Summary summarize(const std::vector<CaseResult>& results, const Environment& env, double seconds);
std::string summary_line(const Summary& s, const Environment& env);

// "present: rknpu 0.9.8 on /dev/dri/renderD129", "not present", "not built", "error: ...".
std::string device_text(const DeviceStatus& d);

// The machine-readable report (JSON object, newline-terminated): tool, environment (kernel, machine, each
// device with driver name/version/description/date, node, hardware version, IOMMU), every case with every
// device run, and the summary.
std::string json_report(const std::vector<CaseResult>& results, const Environment& env, const Summary& s);

// JSON string literal of `s` (quotes included; control characters and non-ASCII bytes escaped).
std::string json_string(const std::string& s);

}  // namespace npurun::selftest

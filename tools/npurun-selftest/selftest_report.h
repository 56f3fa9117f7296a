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
    size_t cases = 0, passed = 0;
    size_t failed = 0;          // failures the expectation lists do not name (all failures without them)
    size_t skipped = 0;         // no device ran the case (no NPU, no simulator), or the lists skip it
    size_t expected_failures = 0, unexpected_passes = 0, flakes = 0;  // Outcome::ExpectedFail, ...
    std::string expectations;   // the --expectations prefix ("" without)
    double seconds = 0.0;
    bool device_error = false;  // a selected device exists but cannot be used
    bool ok() const { return failed == 0 && unexpected_passes == 0 && !device_error; }
};
Summary summarize(const std::vector<CaseResult>& results, const Environment& env, double seconds,
                  const std::string& expectations = {});
std::string summary_line(const Summary& s, const Environment& env);

// A difference or tolerance as the reports print it: an integer (codes) for int8 cases, 3 significant
// digits for fp16; "inf" for an infinite one.
std::string diff_text(double d, Precision p);

// "present: rknpu 0.9.8 on /dev/dri/renderD129", "not present", "not built", "error: ...".
std::string device_text(const DeviceStatus& d);

// The machine-readable report (JSON object, newline-terminated): tool, environment (kernel, machine, each
// device with driver name/version/description/date, node, hardware version, IOMMU), every case with every
// device run, and the summary.
std::string json_report(const std::vector<CaseResult>& results, const Environment& env, const Summary& s);

// One line per case for farms' result parsers (board/lava/selftest-to-lava.sh): a header line
// "name,result,outcome,ms", then NAME,RESULT,OUTCOME,MS with RESULT the case's own pass/fail/skip, OUTCOME
// its judgement against the expectation lists (outcome_id()) and MS the case's total time. The tool
// writes it line by line as the cases finish (csv_header, csv_line), so that a crash keeps the cases before it.
std::string csv_header();
std::string csv_line(const CaseResult& r);
std::string csv_report(const std::vector<CaseResult>& results);  // header + every line

// Why a case did not pass, in one line: the case's error, the first failing device's, npu != sim, the core
// sweep (empty for a passing case).
std::string failure_reason(const CaseResult& r);

// "NAME: reason" of the case's expectation as the reports show it: "expected failure (board/ci/rk3588-fails.txt:3:
// reason)", "unexpected pass: listed in ... : remove the entry", ...; empty without one.
std::string expectation_note(const CaseResult& r);

// JSON string literal of `s` (quotes included; control characters and non-ASCII bytes escaped).
std::string json_string(const std::string& s);

}  // namespace npurun::selftest

// The self-test report a person reads (npurun-selftest --html FILE): one self-contained HTML page (inline
// CSS, no script, no network access) with the environment, the summary, the cases that did not simply
// pass (with the first output element that differed), and one table row per case: devices, max difference
// against the tolerance, time, result and what the expectation lists say.
#pragma once

#include <string>
#include <vector>

#include "tools/npurun-selftest/selftest_report.h"
#include "tools/npurun-selftest/selftest_runner.h"

namespace npurun::selftest {

std::string html_report(const std::vector<CaseResult>& results, const Environment& env, const Summary& s);

// `s` with & < > " ' replaced by character references (every text and attribute value of the page).
std::string html_escape(const std::string& s);

}  // namespace npurun::selftest

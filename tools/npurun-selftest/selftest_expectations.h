// Expectation lists, kept per board and driver as Mesa's CI keeps them (ci/*-fails.txt, -flakes.txt,
// -skips.txt): `npurun-selftest --expectations PREFIX` reads PREFIX-fails.txt (cases known to fail),
// PREFIX-flakes.txt (cases that may pass or fail) and PREFIX-skips.txt (cases not to run), e.g.
// board/ci/rk3588-fails.txt for the prefix board/ci/rk3588. A farm then fails only on a change: a case
// that fails and is not listed, or a listed failure that now passes ("unexpected pass": the list must be
// updated, so that it stays true).
//
// File format, one entry a line:
//   NAME                 a case name (see --list), or a glob (*, ?, [...]) on the whole name
//   NAME: reason         the same, with why (shown in every report)
//   # comment            anything from '#' to the end of the line is ignored; blank lines too
// Every entry must match at least one case of the table (a renamed or removed case is an error, not a
// silently dead line), and no case may be matched by entries of two different files.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace npurun::selftest {

enum class Expected { None, Fail, Flake, Skip };
// "fail", "flake", "skip" (the file suffix), "none".
const char* to_string(Expected e);

struct ExpectationEntry {
    Expected kind = Expected::None;
    std::string pattern;
    std::string reason;   // text after ':' (may be empty)
    std::string where;    // "board/ci/rk3588-fails.txt:12"
};

// What the lists say about one case.
struct Expectation {
    Expected kind = Expected::None;
    std::string reason;
    std::string where;
};

struct ExpectationLists {
    std::string prefix;                   // as given to --expectations
    std::vector<std::string> files_read;  // the files that exist (a missing one is an empty list)
    std::vector<ExpectationEntry> entries;
    size_t count(Expected kind) const;
};

// Parses the text of one list file (`file` names it in messages). Throws npurun::Error(BadInput)
// "FILE:LINE: ..." for an entry with whitespace in its name or an empty name.
std::vector<ExpectationEntry> parse_expectation_list(const std::string& text, Expected kind, const std::string& file);

// Reads PREFIX-fails.txt, PREFIX-flakes.txt and PREFIX-skips.txt. Throws npurun::Error(BadInput) when
// PREFIX is a directory (the option takes a prefix, e.g. board/ci/rk3588), when none of the three files
// exists, or when one cannot be read or parsed.
ExpectationLists load_expectations(const std::string& prefix);

// Throws npurun::Error(BadInput) naming the first entry that matches no case in `case_names`, or the
// first case matched by entries of two different files.
void validate_expectations(const ExpectationLists& lists, const std::vector<std::string>& case_names);

// The first entry matching `case_name` (none: Expected::None).
Expectation lookup(const ExpectationLists& lists, const std::string& case_name);

// A case's result judged against its expectation.
enum class Outcome {
    Pass,            // passed (also a listed flake that passed)
    Fail,            // failed, not listed: fails the run
    Skip,            // not compared (no device) or not run (listed in skips)
    ExpectedFail,    // failed, listed in fails
    UnexpectedPass,  // passed, listed in fails: fails the run until the entry is removed
    Flake,           // failed, listed in flakes
};
Outcome judge(bool passed, bool skipped, Expected expected);
// How an outcome is named in each report.
struct OutcomeNames {
    const char* word;   // text line: PASS, FAIL, SKIP, XFAIL, XPASS, FLAKE
    const char* id;     // JSON and CSV: pass, fail, skip, expected-fail, unexpected-pass, flake
    const char* css;    // the HTML class (its colour in the page): pass, fail, skip, xfail, xpass, flake
    const char* label;  // the HTML badge: PASS, FAIL, SKIP, FAIL (expected), PASS (unexpected), FAIL (flaky)
};
const OutcomeNames& outcome_names(Outcome o);
// "PASS", "FAIL", "SKIP", "XFAIL", "XPASS", "FLAKE": the word of the text line and the HTML report.
const char* outcome_word(Outcome o);
// "pass", "fail", "skip", "expected-fail", "unexpected-pass", "flake": JSON and CSV.
const char* outcome_id(Outcome o);
// Whether the outcome lets the run pass.
bool acceptable(Outcome o);

}  // namespace npurun::selftest

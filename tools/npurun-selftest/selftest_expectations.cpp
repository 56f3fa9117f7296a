#include "tools/npurun-selftest/selftest_expectations.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace npurun::selftest {

const char* to_string(Expected e) {
    switch (e) {
        case Expected::None: return "none";
        case Expected::Fail: return "fail";
        case Expected::Flake: return "flake";
        case Expected::Skip: return "skip";
    }
    return "?";
}

size_t ExpectationLists::count(Expected kind) const {
    size_t n = 0;
    for (const ExpectationEntry& e : entries) n += e.kind == kind;
    return n;
}

namespace {

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// An entry is the exact case name, or a glob on the whole name. Unlike --filter there is no substring
// match: an entry must say which cases it means.
bool entry_matches(const std::string& pattern, const std::string& name) {
    if (pattern.find_first_of("*?[") != std::string::npos) return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
    return pattern == name;
}

}  // namespace

std::vector<ExpectationEntry> parse_expectation_list(const std::string& text, Expected kind, const std::string& file) {
    std::vector<ExpectationEntry> out;
    std::istringstream in(text);
    std::string raw;
    for (unsigned line = 1; std::getline(in, raw); ++line) {
        const std::string where = file + ":" + std::to_string(line);
        const size_t hash = raw.find('#');
        const std::string l = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
        if (l.empty()) continue;
        const size_t colon = l.find(':');
        ExpectationEntry e;
        e.kind = kind;
        e.where = where;
        e.pattern = trim(colon == std::string::npos ? l : l.substr(0, colon));
        if (colon != std::string::npos) e.reason = trim(l.substr(colon + 1));
        if (e.pattern.empty()) fail(ErrorKind::BadInput, where + ": an entry needs a case name before ':'");
        if (e.pattern.find_first_of(" \t") != std::string::npos)
            fail(ErrorKind::BadInput, where + ": '" + e.pattern + "' is not a case name (names have no spaces; a reason goes after ':')");
        out.push_back(std::move(e));
    }
    return out;
}

ExpectationLists load_expectations(const std::string& prefix) {
    ExpectationLists lists;
    lists.prefix = prefix;
    struct stat st {};
    if (prefix.empty() || prefix.back() == '/' || (::stat(prefix.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
        fail(ErrorKind::BadInput, "--expectations takes a prefix such as board/ci/rk3588 (read as PREFIX-fails.txt, "
                                  "PREFIX-flakes.txt, PREFIX-skips.txt), not the directory '" + prefix + "'");
    for (Expected kind : {Expected::Fail, Expected::Flake, Expected::Skip}) {
        const std::string path = prefix + "-" + to_string(kind) + "s.txt";
        struct stat fs {};
        if (::stat(path.c_str(), &fs) != 0) {
            if (errno == ENOENT) continue;  // a missing list is an empty one
            fail(ErrorKind::BadInput, "cannot read expectation list '" + path + "': " + std::strerror(errno));
        }
        std::ifstream f(path, std::ios::binary);
        if (!f || !S_ISREG(fs.st_mode)) fail(ErrorKind::BadInput, "cannot read expectation list '" + path + "'");
        std::ostringstream text;
        text << f.rdbuf();
        if (f.bad()) fail(ErrorKind::BadInput, "cannot read expectation list '" + path + "'");
        for (ExpectationEntry& e : parse_expectation_list(text.str(), kind, path)) lists.entries.push_back(std::move(e));
        lists.files_read.push_back(path);
    }
    if (lists.files_read.empty())
        fail(ErrorKind::BadInput, "--expectations " + prefix + ": none of " + prefix + "-fails.txt, " + prefix +
                                      "-flakes.txt, " + prefix + "-skips.txt exists");
    return lists;
}

void validate_expectations(const ExpectationLists& lists, const std::vector<std::string>& case_names) {
    for (const ExpectationEntry& e : lists.entries) {
        bool any = false;
        for (const std::string& n : case_names) any = any || entry_matches(e.pattern, n);
        if (!any)
            fail(ErrorKind::BadInput, e.where + ": '" + e.pattern + "' matches no case (renamed or removed? see --list)");
    }
    for (const std::string& n : case_names) {
        const ExpectationEntry* first = nullptr;
        for (const ExpectationEntry& e : lists.entries) {
            if (!entry_matches(e.pattern, n)) continue;
            if (first && first->kind != e.kind)
                fail(ErrorKind::BadInput, "case '" + n + "' is listed both as " + to_string(first->kind) + " (" + first->where +
                                              ") and as " + to_string(e.kind) + " (" + e.where + ")");
            if (!first) first = &e;
        }
    }
}

Expectation lookup(const ExpectationLists& lists, const std::string& case_name) {
    for (const ExpectationEntry& e : lists.entries)
        if (entry_matches(e.pattern, case_name)) return {e.kind, e.reason, e.where};
    return {};
}

Outcome judge(bool passed, bool skipped, Expected expected) {
    if (skipped || expected == Expected::Skip) return Outcome::Skip;
    switch (expected) {
        case Expected::Fail: return passed ? Outcome::UnexpectedPass : Outcome::ExpectedFail;
        case Expected::Flake: return passed ? Outcome::Pass : Outcome::Flake;
        default: return passed ? Outcome::Pass : Outcome::Fail;
    }
}

const OutcomeNames& outcome_names(Outcome o) {
    // One row per Outcome, in the enum's order: the report's word, the JSON/CSV id, the HTML class and badge.
    static const OutcomeNames kNames[] = {
        {"PASS", "pass", "pass", "PASS"},
        {"FAIL", "fail", "fail", "FAIL"},
        {"SKIP", "skip", "skip", "SKIP"},
        {"XFAIL", "expected-fail", "xfail", "FAIL (expected)"},
        {"XPASS", "unexpected-pass", "xpass", "PASS (unexpected)"},
        {"FLAKE", "flake", "flake", "FAIL (flaky)"},
    };
    static const OutcomeNames kUnknown = {"?", "?", "", ""};
    const auto i = static_cast<size_t>(o);
    return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : kUnknown;
}

const char* outcome_word(Outcome o) { return outcome_names(o).word; }
const char* outcome_id(Outcome o) { return outcome_names(o).id; }

bool acceptable(Outcome o) { return o != Outcome::Fail && o != Outcome::UnexpectedPass; }

}  // namespace npurun::selftest

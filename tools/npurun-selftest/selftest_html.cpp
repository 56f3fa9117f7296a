#include "tools/npurun-selftest/selftest_html.h"

#include <cstdio>

namespace npurun::selftest {

std::string html_escape(const std::string& s) {
    std::string o;
    o.reserve(s.size());
    for (char ch : s) {
        switch (ch) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            case '\'': o += "&#39;"; break;
            default: o += ch;
        }
    }
    return o;
}

namespace {

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// Element values as the comparison saw them: integer codes for uint8/int8, values for fp16 cases.
std::string value_text(double v, Precision p) { return p == Precision::Fp16 ? fmt("%.6g", v) : fmt("%.0f", v); }

// The CSS class of an outcome (its colour in the page) and the badge a person reads next to it.
const char* outcome_class(Outcome o) { return outcome_names(o).css; }
const char* outcome_label(Outcome o) { return outcome_names(o).label; }

std::string tag(const char* name, const std::string& text, const std::string& cls = {}) {
    return std::string("<") + name + (cls.empty() ? "" : " class=\"" + cls + "\"") + ">" + text + "</" + name + ">";
}

// "sim, output 0 element 17: expected 12, got 76" (escaped).
std::string diff_html(const std::string& who, const ElementDiff& d, Precision p, const char* expected_name) {
    return tag("div", html_escape(who + ": output " + std::to_string(d.output) + " element " + std::to_string(d.index) + ": " +
                                  expected_name + " " + value_text(d.expected, p) + ", got " + value_text(d.got, p)),
               "first-diff");
}

// Every first differing element the case has: per device against the CPU reference, NPU against simulator.
std::string first_diffs(const CaseResult& r) {
    const Precision p = r.spec->precision;
    std::string o;
    for (const DeviceRun& d : r.runs)
        if (d.first_diff.found) o += diff_html(d.device + " vs cpu", d.first_diff, p, "expected");
    if (r.npu_sim_first.found) o += diff_html("npu vs sim", r.npu_sim_first, p, "sim");
    return o;
}

std::string detail_cell(const CaseResult& r) {
    std::string o;
    const std::string note = expectation_note(r);
    if (!note.empty()) o += tag("div", html_escape(note), "note");
    const std::string reason = failure_reason(r);
    if (!reason.empty()) o += tag("div", html_escape(reason), "reason");
    return o + first_diffs(r);
}

std::string devices_cell(const CaseResult& r) {
    if (r.expectation.kind == Expected::Skip) return "not run";
    std::string o = tag("div", "cpu " + fmt("%.1f", r.cpu_ms) + " ms");
    for (const DeviceRun& d : r.runs) {
        std::string t = d.device;
        if (d.tasks) t += ", " + std::to_string(d.tasks) + " task" + (d.tasks > 1 ? "s" : "");
        if (d.cores_used) t += ", " + std::to_string(d.cores_used) + " core" + (d.cores_used > 1 ? "s" : "");
        if (d.ran) t += ", " + fmt("%.1f", d.ms) + " ms";
        o += tag("div", html_escape(t));
    }
    return o;
}

std::string diff_cell(const CaseResult& r) {
    const Precision p = r.spec->precision;
    std::string o;
    for (const DeviceRun& d : r.runs) {
        if (!d.ran) continue;
        const bool over = d.max_diff > d.tolerance;
        o += tag("div", html_escape(d.device + " " + diff_text(d.max_diff, p) + " / " + diff_text(d.tolerance, p)),
                 over ? "over" : "");
    }
    if (r.npu_vs_sim) o += tag("div", r.npu_sim_identical ? "npu == sim" : "npu != sim", r.npu_sim_identical ? "" : "over");
    if (r.core_sweep) o += tag("div", r.core_sweep_identical ? "1c == 2c == 3c" : "1c != 2c != 3c", r.core_sweep_identical ? "" : "over");
    return o.empty() ? "-" : o;
}

std::string case_row(const CaseResult& r) {
    const Outcome oc = outcome(r);
    const std::string& name = r.spec->name;
    const std::string shapes = r.built.input_shape.empty() ? "-" : r.built.input_shape + " \u2192 " + r.built.output_shape;
    std::string o = "<tr id=\"case-" + html_escape(name) + "\" class=\"" + outcome_class(oc) + "\" data-outcome=\"" +
                    outcome_id(oc) + "\">";
    o += tag("td", html_escape(name), "name");
    o += tag("td", to_string(r.spec->precision));
    o += tag("td", html_escape(r.built.ops.empty() ? "-" : r.built.ops), "ops");
    o += tag("td", html_escape(shapes), "shape");
    o += tag("td", devices_cell(r), "devices");
    o += tag("td", diff_cell(r), "diff");
    o += tag("td", fmt("%.1f", r.total_ms) + " ms", "time");
    o += tag("td", tag("span", outcome_label(oc), "badge " + std::string(outcome_class(oc))), "result");
    o += "</tr>\n";
    // Reasons and differing elements are long: a row of their own under the case, the table's full width.
    const std::string detail = detail_cell(r);
    if (!detail.empty())
        o += "<tr class=\"detail-row " + std::string(outcome_class(oc)) + "\" data-case=\"" + html_escape(name) +
             "\"><td></td><td colspan=\"7\" class=\"detail\">" + detail + "</td></tr>\n";
    return o;
}

const char* kStyle =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:24px;color:#1d2329;"
    "background:#fff}\n"
    "h1{font-size:22px;margin:0 0 12px}h2{font-size:17px;margin:24px 0 8px}\n"
    "table{border-collapse:collapse}td,th{padding:4px 8px;vertical-align:top;text-align:left}\n"
    ".env td:first-child{color:#5b6670;padding-left:0}\n"
    ".cases th{position:sticky;top:0;background:#eef1f4;border-bottom:2px solid #c9d0d6}\n"
    ".cases td{border-bottom:1px solid #e3e7eb}.cases tr:has(+ tr.detail-row) td{border-bottom:none}.cases tr.fail td,.cases tr.xpass td{background:#fff3f3}\n"
    ".cases tr.xfail td,.cases tr.flake td{background:#fffaf0}\n"
    ".name,.devices,.diff{white-space:nowrap}.detail{min-width:26em}.name,.ops,.shape,.diff,.first-diff{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12.5px}\n"
    ".time{text-align:right;white-space:nowrap}.over{color:#b3261e;font-weight:600}\n"
    ".badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px;white-space:nowrap;"
    "color:#fff}\n"
    ".badge.pass{background:#2e7d32}.badge.fail{background:#c62828}.badge.skip{background:#78909c}\n"
    ".badge.xfail{background:#ef8f00}.badge.xpass{background:#7b1fa2}.badge.flake{background:#f4b400;color:#222}\n"
    ".verdict{font-size:15px;vertical-align:middle;margin-left:8px}\n"
    ".counts span{margin-right:6px}.note{color:#6d4c00}.reason{color:#b3261e}\n"
    ".first-diff{background:#f6f8fa;border-left:3px solid #c62828;padding:1px 6px;margin-top:2px}\n"
    ".problems li{margin-bottom:6px}footer{margin-top:24px;color:#8a949c;font-size:12px}\n";

// "1 expected failure", "2 expected failures".
std::string count_badge(size_t n, const char* one, const char* many, const char* cls) {
    return tag("span", std::to_string(n) + " " + (n == 1 ? one : many), std::string("badge ") + cls);
}

}  // namespace

std::string html_report(const std::vector<CaseResult>& results, const Environment& env, const Summary& s) {
    const char* verdict = s.ok() ? "PASS" : "FAIL";
    std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    o += "<title>npurun-selftest " + std::string(verdict) + ": " + std::to_string(s.cases) + " cases</title>\n";
    o += "<style>\n" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
    o += "<h1>npurun-selftest report" + tag("span", verdict, std::string("badge verdict ") + (s.ok() ? "pass" : "fail")) + "</h1>\n";

    o += "<table class=\"env\">\n";
    auto env_row = [&](const std::string& k, const std::string& v) {
        o += "<tr>" + tag("td", html_escape(k)) + tag("td", html_escape(v)) + "</tr>\n";
    };
    env_row("version", env.tool_version);
    env_row("kernel", env.kernel + " (" + env.machine + ")");
    if (env.sim.selected) env_row("sim", device_text(env.sim));
    if (env.npu.selected) env_row("npu", device_text(env.npu));
    env_row("expectations", s.expectations.empty() ? "none" : s.expectations);
    env_row("time", fmt("%.1f s", s.seconds));
    o += "</table>\n";

    o += "<p class=\"counts\">" + count_badge(s.cases, "case", "cases", "skip") +
         count_badge(s.passed, "passed", "passed", "pass") + count_badge(s.failed, "failed", "failed", "fail");
    if (!s.expectations.empty())
        o += count_badge(s.expected_failures, "expected failure", "expected failures", "xfail") +
             count_badge(s.flakes, "flaky failure", "flaky failures", "flake") +
             count_badge(s.unexpected_passes, "unexpected pass", "unexpected passes", "xpass");
    o += count_badge(s.skipped, "skipped", "skipped", "skip");
    if (s.device_error) o += count_badge(1, "device error", "device errors", "fail");
    o += "</p>\n";

    // What needs a look first: every case that did not plainly pass or skip.
    std::string problems;
    for (const CaseResult& r : results) {
        const Outcome oc = outcome(r);
        if (oc == Outcome::Pass || oc == Outcome::Skip) continue;
        problems += "<li>" + tag("span", outcome_label(oc), std::string("badge ") + outcome_class(oc)) + " " +
                    "<a href=\"#case-" + html_escape(r.spec->name) + "\">" + tag("span", html_escape(r.spec->name), "name") +
                    "</a>" + detail_cell(r) + "</li>\n";
    }
    if (!problems.empty()) o += "<h2>Needs a look</h2>\n<ul class=\"problems\">\n" + problems + "</ul>\n";

    o += "<h2>Cases</h2>\n<table class=\"cases\">\n<thead><tr><th>case</th><th>precision</th><th>layers</th>"
         "<th>input \u2192 output</th><th>devices</th><th>max diff / tolerance</th><th>time</th><th>result</th>"
         "</tr></thead>\n<tbody>\n";
    for (const CaseResult& r : results) o += case_row(r);
    o += "</tbody>\n</table>\n";
    o += "<footer>" + html_escape(summary_line(s, env)) + "</footer>\n</body>\n</html>\n";
    return o;
}

}  // namespace npurun::selftest

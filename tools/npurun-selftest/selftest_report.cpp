#include "tools/npurun-selftest/selftest_report.h"

#include <cmath>
#include <cstdio>

namespace npurun::selftest {

namespace {

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}


std::string pad(std::string s, size_t n) {
    if (s.size() < n) s.append(n - s.size(), ' ');
    return s;
}

// "1 expected failure", "2 expected failures".
std::string counted(size_t n, const char* noun, const char* plural = "s") {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : plural);
}

const char* bool_text(bool b) { return b ? "true" : "false"; }

const char* result_id(const CaseResult& r) { return skipped(r) ? "skip" : r.pass ? "pass" : "fail"; }

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    return fmt("%.9g", v);
}

}  // namespace

std::string diff_text(double d, Precision p) {
    if (std::isinf(d)) return "inf";
    return p == Precision::Fp16 ? fmt("%.3g", d) : fmt("%.0f", d);
}

std::string device_text(const DeviceStatus& d) {
    if (d.state == "ok") {
        std::string s = d.info.driver_name + " " + d.info.version.text() + " on " + d.info.node;
        if (d.info.fake_kernel) s += " (fake kernel + simulator)";
        return s;
    }
    if (d.state == "error") return "error: " + d.message;
    return d.state;
}

std::string failure_reason(const CaseResult& r) {
    if (r.pass) return {};
    if (!r.error.empty()) return r.error;
    for (const DeviceRun& d : r.runs)
        if (!d.pass) return d.device + ": " + d.error;
    if (r.npu_vs_sim && !r.npu_sim_identical) return r.npu_sim_detail;
    if (r.core_sweep && !r.core_sweep_identical) return r.core_sweep_detail;
    return {};
}

std::string expectation_note(const CaseResult& r) {
    const Expectation& e = r.expectation;
    if (e.kind == Expected::None) return {};
    const std::string why = e.where + (e.reason.empty() ? "" : ": " + e.reason);
    switch (outcome(r)) {
        case Outcome::ExpectedFail: return "expected failure (" + why + ")";
        case Outcome::UnexpectedPass: return "unexpected pass: listed as failing (" + why + "); remove the entry";
        case Outcome::Flake: return "flaky (" + why + ")";
        case Outcome::Skip: return e.kind == Expected::Skip ? "not run, listed in skips (" + why + ")" : "listed (" + why + ")";
        default: return e.kind == Expected::Flake ? "flaky, passed this time (" + why + ")" : "";
    }
}

std::string case_line(const CaseResult& r, const Environment& env) {
    const Case& c = *r.spec;
    const bool not_run = r.expectation.kind == Expected::Skip;
    std::string devices = not_run ? "-" : "cpu";
    std::string diffs;
    for (const DeviceRun& d : r.runs) {
        std::string detail;
        if (d.tasks) detail = std::to_string(d.tasks) + " task" + (d.tasks > 1 ? "s" : "");
        if (d.cores_used) detail += (detail.empty() ? "" : ", ") + std::to_string(d.cores_used) + " core" + (d.cores_used > 1 ? "s" : "");
        devices += " " + d.device + (detail.empty() ? "" : "(" + detail + ")");
        if (d.ran) {
            diffs += (diffs.empty() ? "" : " ") + d.device + " " + diff_text(d.max_diff, c.precision) + "/" +
                     diff_text(d.tolerance, c.precision);
        }
    }
    if (r.npu_vs_sim) diffs += r.npu_sim_identical ? " npu==sim" : " npu!=sim";
    if (r.core_sweep) diffs += r.core_sweep_identical ? " 1c==2c==3c" : " 1c!=2c!=3c";
    if (env.sim.selected && !env.sim.available && !not_run) devices += ", sim: " + env.sim.state;
    if (env.npu.selected && !env.npu.available && !not_run) devices += ", npu: " + env.npu.state;
    const std::string shape = r.built.input_shape.empty() ? "-" : r.built.input_shape + " -> " + r.built.output_shape;
    std::string line = pad(c.name, 26) + " " + pad(r.built.ops.empty() ? "-" : r.built.ops, 30) + " " + pad(shape, 28) + " " +
                       pad(devices, 34) + " " + pad("maxdiff " + (diffs.empty() ? std::string("-") : diffs), 22) + " " +
                       pad(outcome_word(outcome(r)), 5) + " " + fmt("%8.1f ms", r.total_ms);
    // A failure ends with its reason; a case the lists name, with what they say.
    std::string tail = expectation_note(r);
    const std::string reason = failure_reason(r);
    if (!reason.empty()) tail += (tail.empty() ? "" : ": ") + reason;
    if (!tail.empty()) line += ": " + tail;
    return line;
}

Summary summarize(const std::vector<CaseResult>& results, const Environment& env, double seconds,
                  const std::string& expectations) {
    Summary s;
    s.cases = results.size();
    s.expectations = expectations;
    for (const CaseResult& r : results) {
        switch (outcome(r)) {
            case Outcome::Pass: ++s.passed; break;
            case Outcome::Fail: ++s.failed; break;
            case Outcome::Skip: ++s.skipped; break;
            case Outcome::ExpectedFail: ++s.expected_failures; break;
            case Outcome::UnexpectedPass: ++s.unexpected_passes; break;
            case Outcome::Flake: ++s.flakes; break;
        }
    }
    s.seconds = seconds;
    s.device_error = (env.sim.selected && env.sim.state == "error") || (env.npu.selected && env.npu.state == "error");
    return s;
}

std::string summary_line(const Summary& s, const Environment& env) {
    std::string line = "summary: " + std::to_string(s.cases) + " cases, " + std::to_string(s.passed) + " passed, " +
                       std::to_string(s.failed) + " failed";
    if (!s.expectations.empty()) {
        line += ", " + counted(s.expected_failures, "expected failure") + ", " + counted(s.flakes, "flaky failure") + ", " +
                counted(s.unexpected_passes, "unexpected pass", "es") + ", " + std::to_string(s.skipped) +
                " skipped (expectations " + s.expectations + ")";
    } else if (s.skipped) {
        line += ", " + std::to_string(s.skipped) + " skipped (no device to compare with)";
    }
    if (env.sim.selected) line += "; sim: " + device_text(env.sim);
    if (env.npu.selected) line += "; npu: " + device_text(env.npu);
    line += fmt("; %.1f s", s.seconds);
    line += s.ok() ? " -> PASS" : " -> FAIL";
    return line;
}

std::string json_string(const std::string& s) {
    std::string o = "\"";
    for (unsigned char ch : s) {
        switch (ch) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if (ch < 0x20 || ch >= 0x7f) {
                    char b[8];
                    std::snprintf(b, sizeof b, "\\u%04x", ch);
                    o += b;
                } else {
                    o += static_cast<char>(ch);
                }
        }
    }
    return o + "\"";
}

namespace {

std::string diff_json(const ElementDiff& d) {
    if (!d.found) return "null";
    return "{\"output\": " + std::to_string(d.output) + ", \"index\": " + std::to_string(d.index) + ", \"expected\": " +
           json_number(d.expected) + ", \"got\": " + json_number(d.got) + "}";
}

std::string expectation_json(const Expectation& e) {
    if (e.kind == Expected::None) return "null";
    return "{\"kind\": " + json_string(to_string(e.kind)) + ", \"reason\": " + json_string(e.reason) +
           ", \"where\": " + json_string(e.where) + "}";
}

std::string device_json(const DeviceStatus& d) {
    std::string o = "{\"selected\": " + std::string(bool_text(d.selected)) + ", \"state\": " + json_string(d.state);
    if (!d.message.empty()) o += ", \"message\": " + json_string(d.message);
    if (d.available) {
        const npudrv::DeviceInfo& i = d.info;
        o += ", \"node\": " + json_string(i.node) + ", \"driver\": " + json_string(i.driver_name) +
             ", \"driver_version\": " + json_string(i.version.text()) + ", \"driver_desc\": " + json_string(i.driver_desc) +
             ", \"driver_date\": " + json_string(i.driver_date) + ", \"hw_version\": " +
             (i.hw_version ? std::to_string(*i.hw_version) : std::string("null")) + ", \"cores\": " + std::to_string(i.cores) +
             ", \"iommu\": " + (i.iommu ? std::string(bool_text(*i.iommu)) : std::string("null")) +
             ", \"address_space\": " + json_string(i.address_space) + ", \"fake_kernel\": " + bool_text(i.fake_kernel);
    }
    return o + "}";
}

}  // namespace

std::string json_report(const std::vector<CaseResult>& results, const Environment& env, const Summary& s) {
    std::string o = "{\n  \"tool\": \"npurun-selftest\",\n  \"version\": " + json_string(env.tool_version) + ",\n";
    o += "  \"environment\": {\"kernel\": " + json_string(env.kernel) + ", \"machine\": " + json_string(env.machine) +
         ",\n    \"sim\": " + device_json(env.sim) + ",\n    \"npu\": " + device_json(env.npu) + "},\n";
    o += "  \"cases\": [";
    for (size_t k = 0; k < results.size(); ++k) {
        const CaseResult& r = results[k];
        const Case& c = *r.spec;
        o += k ? ",\n    " : "\n    ";
        o += "{\"name\": " + json_string(c.name) + ", \"precision\": " + json_string(to_string(c.precision)) +
             ", \"ops\": " + json_string(r.built.ops) + ", \"input_shape\": " + json_string(r.built.input_shape) +
             ", \"output_shape\": " + json_string(r.built.output_shape) + ", \"macs\": " + std::to_string(r.built.macs) +
             ", \"result\": " + json_string(result_id(r)) + ", \"outcome\": " + json_string(outcome_id(outcome(r))) +
             ", \"expectation\": " + expectation_json(r.expectation) + ", \"error\": " +
             (r.error.empty() ? std::string("null") : json_string(r.error)) + ", \"cpu_ms\": " + json_number(r.cpu_ms) +
             ", \"total_ms\": " + json_number(r.total_ms) + ", \"runs\": [";
        for (size_t i = 0; i < r.runs.size(); ++i) {
            const DeviceRun& d = r.runs[i];
            o += (i ? ", " : "") + std::string("{\"device\": ") + json_string(d.device) + ", \"ran\": " + bool_text(d.ran) +
                 ", \"pass\": " + bool_text(d.pass) + ", \"max_diff\": " + json_number(d.max_diff) +
                 ", \"tolerance\": " + json_number(d.tolerance) + ", \"tasks\": " + std::to_string(d.tasks) +
                 ", \"cores_requested\": " + std::to_string(d.cores_requested) + ", \"cores_used\": " + std::to_string(d.cores_used) +
                 ", \"ms\": " + json_number(d.ms) + ", \"error\": " + (d.error.empty() ? std::string("null") : json_string(d.error)) +
                 ", \"first_diff\": " + diff_json(d.first_diff) + "}";
        }
        o += "], \"npu_vs_sim\": ";
        o += r.npu_vs_sim ? (r.npu_sim_identical ? "\"identical\"" : "\"different\"") : "null";
        o += ", \"npu_vs_sim_first_diff\": " + diff_json(r.npu_sim_first);
        o += ", \"cores\": " + std::to_string(c.cores) + ", \"core_sweep\": ";
        if (r.core_sweep) {
            o += "{\"devices\": [";
            for (size_t i = 0; i < r.core_sweep_devices.size(); ++i) o += (i ? ", " : "") + json_string(r.core_sweep_devices[i]);
            o += "], \"identical\": " + std::string(bool_text(r.core_sweep_identical)) + ", \"lanes\": [";
            for (size_t i = 0; i < r.core_sweep_lanes.size(); ++i) o += (i ? ", " : "") + std::to_string(r.core_sweep_lanes[i]);
            o += "]}";
        } else {
            o += "null";
        }
        o += "}";
    }
    o += "\n  ],\n";
    o += "  \"summary\": {\"cases\": " + std::to_string(s.cases) + ", \"passed\": " + std::to_string(s.passed) +
         ", \"failed\": " + std::to_string(s.failed) + ", \"skipped\": " + std::to_string(s.skipped) +
         ", \"expected_failures\": " + std::to_string(s.expected_failures) + ", \"flakes\": " + std::to_string(s.flakes) +
         ", \"unexpected_passes\": " + std::to_string(s.unexpected_passes) + ", \"expectations\": " +
         (s.expectations.empty() ? std::string("null") : json_string(s.expectations)) + ", \"device_error\": " + bool_text(s.device_error) +
         ", \"seconds\": " + json_number(s.seconds) + ", \"result\": " + json_string(s.ok() ? "pass" : "fail") + "}\n}\n";
    return o;
}

std::string csv_header() { return "name,result,outcome,ms\n"; }

std::string csv_line(const CaseResult& r) {
    return r.spec->name + "," + result_id(r) + "," + outcome_id(outcome(r)) + "," + fmt("%.1f", r.total_ms) + "\n";
}

std::string csv_report(const std::vector<CaseResult>& results) {
    std::string o = csv_header();
    for (const CaseResult& r : results) o += csv_line(r);
    return o;
}

}  // namespace npurun::selftest

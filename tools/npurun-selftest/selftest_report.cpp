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

// Differences print as integers for int8 cases and with 4 significant digits for fp16.
std::string diff_text(double d, Precision p) {
    if (std::isinf(d)) return "inf";
    return p == Precision::Fp16 ? fmt("%.3g", d) : fmt("%.0f", d);
}

std::string pad(std::string s, size_t n) {
    if (s.size() < n) s.append(n - s.size(), ' ');
    return s;
}

const char* bool_text(bool b) { return b ? "true" : "false"; }

// SKIP: the case is fine but no device ran it (no NPU and no simulator): nothing was compared.
bool skipped(const CaseResult& r) { return r.pass && r.runs.empty(); }
const char* result_word(const CaseResult& r) { return skipped(r) ? "SKIP" : r.pass ? "PASS" : "FAIL"; }

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    return fmt("%.9g", v);
}

}  // namespace

std::string device_text(const DeviceStatus& d) {
    if (d.state == "ok") {
        std::string s = d.info.driver_name + " " + d.info.version.text() + " on " + d.info.node;
        if (d.info.fake_kernel) s += " (fake kernel + simulator)";
        return s;
    }
    if (d.state == "error") return "error: " + d.message;
    return d.state;
}

std::string case_line(const CaseResult& r, const Environment& env) {
    const Case& c = *r.spec;
    std::string devices = "cpu";
    std::string diffs;
    std::string reason = r.error;
    for (const DeviceRun& d : r.runs) {
        std::string detail;
        if (d.tasks) detail = std::to_string(d.tasks) + " task" + (d.tasks > 1 ? "s" : "");
        if (d.cores_used) detail += (detail.empty() ? "" : ", ") + std::to_string(d.cores_used) + " core" + (d.cores_used > 1 ? "s" : "");
        devices += " " + d.device + (detail.empty() ? "" : "(" + detail + ")");
        if (d.ran) {
            diffs += (diffs.empty() ? "" : " ") + d.device + " " + diff_text(d.max_diff, c.precision) + "/" +
                     diff_text(d.tolerance, c.precision);
        }
        if (!d.pass && reason.empty()) reason = d.device + ": " + d.error;
    }
    if (r.npu_vs_sim) diffs += r.npu_sim_identical ? " npu==sim" : " npu!=sim";
    if (r.npu_vs_sim && !r.npu_sim_identical && reason.empty()) reason = r.npu_sim_detail;
    if (r.core_sweep) diffs += r.core_sweep_identical ? " 1c==2c==3c" : " 1c!=2c!=3c";
    if (r.core_sweep && !r.core_sweep_identical && reason.empty()) reason = r.core_sweep_detail;
    if (env.sim.selected && !env.sim.available) devices += ", sim: " + env.sim.state;
    if (env.npu.selected && !env.npu.available) devices += ", npu: " + env.npu.state;
    const std::string shape = r.built.input_shape.empty() ? "-" : r.built.input_shape + " -> " + r.built.output_shape;
    std::string line = pad(c.name, 26) + " " + pad(r.built.ops.empty() ? "-" : r.built.ops, 30) + " " + pad(shape, 28) + " " +
                       pad(devices, 34) + " " + pad("maxdiff " + (diffs.empty() ? std::string("-") : diffs), 22) + " " +
                       result_word(r) + " " + fmt("%8.1f ms", r.total_ms);
    if (!r.pass && !reason.empty()) line += ": " + reason;
    return line;
}

Summary summarize(const std::vector<CaseResult>& results, const Environment& env, double seconds) {
    Summary s;
    s.cases = results.size();
    for (const CaseResult& r : results) (skipped(r) ? s.skipped : r.pass ? s.passed : s.failed) += 1;
    s.seconds = seconds;
    s.device_error = (env.sim.selected && env.sim.state == "error") || (env.npu.selected && env.npu.state == "error");
    return s;
}

std::string summary_line(const Summary& s, const Environment& env) {
    std::string line = "summary: " + std::to_string(s.cases) + " cases, " + std::to_string(s.passed) + " passed, " +
                       std::to_string(s.failed) + " failed";
    if (s.skipped) line += ", " + std::to_string(s.skipped) + " skipped (no device to compare with)";
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
             ", \"result\": " + json_string(skipped(r) ? "skip" : r.pass ? "pass" : "fail") + ", \"error\": " +
             (r.error.empty() ? std::string("null") : json_string(r.error)) + ", \"cpu_ms\": " + json_number(r.cpu_ms) +
             ", \"total_ms\": " + json_number(r.total_ms) + ", \"runs\": [";
        for (size_t i = 0; i < r.runs.size(); ++i) {
            const DeviceRun& d = r.runs[i];
            o += (i ? ", " : "") + std::string("{\"device\": ") + json_string(d.device) + ", \"ran\": " + bool_text(d.ran) +
                 ", \"pass\": " + bool_text(d.pass) + ", \"max_diff\": " + json_number(d.max_diff) +
                 ", \"tolerance\": " + json_number(d.tolerance) + ", \"tasks\": " + std::to_string(d.tasks) +
                 ", \"cores_requested\": " + std::to_string(d.cores_requested) + ", \"cores_used\": " + std::to_string(d.cores_used) +
                 ", \"ms\": " + json_number(d.ms) + ", \"error\": " + (d.error.empty() ? std::string("null") : json_string(d.error)) + "}";
        }
        o += "], \"npu_vs_sim\": ";
        o += r.npu_vs_sim ? (r.npu_sim_identical ? "\"identical\"" : "\"different\"") : "null";
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
         ", \"failed\": " + std::to_string(s.failed) + ", \"skipped\": " + std::to_string(s.skipped) + ", \"device_error\": " + bool_text(s.device_error) +
         ", \"seconds\": " + json_number(s.seconds) + ", \"result\": " + json_string(s.ok() ? "pass" : "fail") + "}\n}\n";
    return o;
}

}  // namespace npurun::selftest

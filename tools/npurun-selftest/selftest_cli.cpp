#include "tools/npurun-selftest/selftest_cli.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/error.h"
#include "runtime/npurun_version.h"
#include "tools/common/switch_flags.h"
#include "tools/npurun-selftest/selftest_expectations.h"
#include "tools/npurun-selftest/selftest_html.h"
#include "tools/npurun-selftest/selftest_report.h"

namespace npurun::selftest {

const char* usage() {
    return "usage: npurun-selftest [--device sim|npu|all] [--filter PATTERN]... [--json FILE|-] [--require-npu]\n"
           "                       [--expectations PREFIX] [--html FILE] [--csv FILE]\n"
           "       npurun-selftest --list [--filter PATTERN]...\n"
           "       (also: npurun --selftest [options])\n"
           "\n"
           "Bring-up self-test of the RK3588 NPU stack: runs a fixed set of small models generated in code\n"
           "(every op the NPU backend lowers: Convolution2d, DepthwiseConvolution2d, FullyConnected, Pooling2d\n"
           "max/average/global, element-wise Add/Sub/Mul/Maximum/Minimum and fp16 Div with broadcast and\n"
           "constant operands, fused ReLu/ReLu6 (MulRelu), Pad constant/reflect and folded into a convolution,\n"
           "Reshape, channel Concat and Slice/Splitter as buffer views, Gather along H/W by constant indices,\n"
           "Expand, standalone fp16 LeakyReLu, Square (Pow 2), Abs, Linear, and Sigmoid, TanH, Gelu, Elu, SoftReLu\n"
           "through the DPU lookup table, Pow by a constant exponent (fp16 0, 1, 2, 3; 8-bit every exponent of\n"
           "seed 003 through the table), 8-bit activations of every function through it, fp16 Lstm as its parts;\n"
           "in uint8, int8 with per-tensor and per-channel weights, and fp16; row-, channel- and K-tiled layers,\n"
           "layers split over 2 and 3 NPU cores, small multi-layer networks) on the CPU reference kernels, the\n"
           "simulator and the NPU, and compares them. fp16 cases are Float32 models run as npurun --fp16 runs\n"
           "them. Each model is a real .armnn file loaded like a user's; inputs come from a fixed PRNG seeded by\n"
           "the case name, so every run computes the same bytes.\n"
           "\n"
           "Judgement per case: the simulator and the NPU against the CPU reference (uint8/int8: at most 1 code\n"
           "per rounding layer on the path, i.e. 1 for single-layer cases; fp16: 2^-8 * max(1, max|reference|)\n"
           "per rounding layer), every layer must have run on the device (not fallen back to the CPU), cases\n"
           "marked as tiled must have been split into several tasks, and the NPU must equal the simulator byte\n"
           "for byte. Multi-core cases (mc-*) force the NPU core count (SessionOptions::npu_cores): the job\n"
           "must have one lane per core, and each device's outputs with 1, 2 and 3 cores must be identical\n"
           "byte for byte (\"1c==2c==3c\").\n"
           "\n"
           "options:\n"
           "  --device sim|npu|all  devices to test against the CPU reference (default all):\n"
           "                        sim  the fake kernel with the functional NPU simulator\n"
           "                        npu  the board's NPU (rknpu or rocket driver, found like npu-info does)\n"
           "                        all  both; a missing NPU or a build without the simulator is reported,\n"
           "                             not a failure\n"
           "                        Without an NPU, every case reports \"npu: not present\" and does not fail.\n"
           "  --require-npu         a missing NPU is a failure (board farms: a board that lost its NPU fails)\n"
           "  --filter PATTERN      run only cases whose name matches: a glob (*, ?, [...]) on the whole name,\n"
           "                        otherwise a substring; may be repeated (a case matching any runs)\n"
           "  --list                list the cases (name, precision, ops, input -> output shape, what it covers)\n"
           "                        and exit\n"
           "  --json FILE|-         also write a JSON report (environment: kernel, machine, each device's node,\n"
           "                        driver name, version, description and date, hardware version, IOMMU; per\n"
           "                        case: ops, shapes, result, outcome and expectation, per device max\n"
           "                        difference, tolerance, tasks, time, first element beyond the tolerance;\n"
           "                        summary). \"-\" writes it to stdout and moves the text lines to\n"
           "                        stderr. The file is replaced atomically.\n"
           "  --html FILE           also write a report to read: one self-contained HTML page (inline CSS, no\n"
           "                        network) with per case the devices, max difference vs tolerance, time and\n"
           "                        result, and for failures the first differing output element (index,\n"
           "                        expected, got)\n"
           "  --csv FILE            also write one line per case, NAME,RESULT,OUTCOME,MS (after a header line),\n"
           "                        for farm result parsers (board/lava); written as the cases finish, so a\n"
           "                        run that crashes keeps the cases before the crash\n"
           "  --expectations PREFIX judge the cases against the expectation lists PREFIX-fails.txt (cases known\n"
           "                        to fail), PREFIX-flakes.txt (may pass or fail) and PREFIX-skips.txt (not\n"
           "                        run), e.g. board/ci/rk3588; a missing file is an empty list. One entry a\n"
           "                        line: a case name or a glob on the whole name, optionally \": reason\";\n"
           "                        '#' starts a comment. An entry matching no case, or a case in two lists,\n"
           "                        is an error. A listed failure is XFAIL and a failing flake FLAKE (neither\n"
           "                        fails the run); an unlisted failure is FAIL; a listed failure that\n"
           "                        passes is XPASS and fails the run, so that the list stays true.\n"
           "  -h, --help            this text\n"
           "  --version             print the version\n"
           "\n"
           "output: one line per case:\n"
           "  NAME  OPS  INPUT -> OUTPUT  DEVICES  maxdiff DEV DIFF/TOLERANCE... [npu==sim] [1c==2c==3c]  RESULT  "
           "TIME\n"
           "DEVICES lists cpu and each device that ran, with its NPU task count and the cores (job lanes) it\n"
           "used. RESULT is PASS, FAIL (the line ends with the reason) or SKIP (no device to compare with: no\n"
           "NPU and no simulator; or listed in the skips; not a failure); with --expectations also XFAIL\n"
           "(listed failure), FLAKE (listed flake that failed) and XPASS (listed failure that passed).\n"
           "Then one summary line: cases, passed, failed (with --expectations: expected failures, flaky\n"
           "failures, unexpected passes), skipped, each device's driver and node, time, verdict.\n"
           "\n"
           "exit status: 0 every case passed (or failed as the expectation lists say); 1 a case failed, a\n"
           "listed failure passed, or a selected device is present but unusable (permission denied,\n"
           "unsupported driver version), or --require-npu found no NPU; 2 bad command line or expectation\n"
           "list, or --device sim in a build without the simulator.\n"
           "\n"
           "first steps on a new board: npu-info (node, driver, IOMMU, buffers), then npurun-selftest; if it\n"
           "fails, rerun the failing case alone with --filter NAME and keep the --json report.\n";
}

namespace {

[[noreturn]] void bad(const std::string& m) { fail(ErrorKind::BadInput, m); }

// The flags that take no value and only switch an option on.
const tools::SwitchFlag<Options> kSwitchFlags[] = {
    {"-h", &Options::help}, {"--help", &Options::help}, {"--version", &Options::version},
    {"--list", &Options::list}, {"--require-npu", &Options::require_npu},
};

}  // namespace

Options parse_options(const std::vector<std::string>& args) {
    Options o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string name = a, value;
        bool has_inline = false;
        if (a.compare(0, 2, "--") == 0) {
            const size_t eq = a.find('=');
            if (eq != std::string::npos) name = a.substr(0, eq), value = a.substr(eq + 1), has_inline = true;
        }
        auto take = [&]() -> std::string {
            if (has_inline) return value;
            if (i + 1 >= args.size()) bad(name + " needs a value");
            return args[++i];
        };
        auto no_value = [&] {
            if (has_inline) bad(name + " takes no value");
        };
        if (bool Options::*field = tools::switched_field(kSwitchFlags, name)) {
            no_value();
            o.*field = true;
            continue;
        }
        if (name == "--device") {
            const std::string v = take();
            if (v == "sim") o.device = DeviceSelection::Sim;
            else if (v == "npu") o.device = DeviceSelection::Npu;
            else if (v == "all") o.device = DeviceSelection::All;
            else bad("unknown device '" + v + "' for --device (use sim, npu or all)");
        } else if (name == "--filter") {
            const std::string v = take();
            if (v.empty()) bad("--filter needs a non-empty pattern");
            o.filters.push_back(v);
        } else if (name == "--json") {
            o.json = take();
            if (o.json.empty()) bad("--json needs a file name or -");
        } else if (name == "--html" || name == "--csv") {
            std::string& dst = name == "--html" ? o.html : o.csv;
            dst = take();
            if (dst.empty() || dst == "-") bad(name + " needs a file name");
        } else if (name == "--expectations") {
            o.expectations = take();
            if (o.expectations.empty()) bad("--expectations needs a prefix (e.g. board/ci/rk3588)");
        } else if (name == "--test-corrupt") {
            // Test-only (not in --help): corrupts one output value of one case on this device, so that
            // tests can show that a mismatch fails the case and that the expectation lists judge it.
            const std::string v = take();
            const size_t colon = v.find(':');
            Options::Corruption c{v.substr(0, colon), colon == std::string::npos ? std::string() : v.substr(colon + 1)};
            if (c.device != "cpu" && c.device != "sim" && c.device != "npu")
                bad("unknown device '" + c.device + "' for --test-corrupt (use cpu, sim or npu, optionally :CASE)");
            if (colon != std::string::npos && c.case_name.empty()) bad("--test-corrupt " + v + ": no case name after ':'");
            o.corrupt.push_back(c);
        } else if (a.size() > 1 && a[0] == '-') {
            bad("unknown option '" + a + "'");
        } else {
            bad("unexpected argument '" + a + "' (npurun-selftest takes no file; see --help)");
        }
    }
    if (o.require_npu && o.device == DeviceSelection::Sim) bad("--require-npu cannot be used with --device sim");
    return o;
}

bool matches(const std::string& name, const std::vector<std::string>& filters) {
    if (filters.empty()) return true;
    for (const std::string& f : filters) {
        const bool glob = f.find_first_of("*?[") != std::string::npos;
        if (glob ? ::fnmatch(f.c_str(), name.c_str(), 0) == 0 : name.find(f) != std::string::npos) return true;
    }
    return false;
}

namespace {

// Writes a report to `path` through a temporary file in the same directory, then rename(): a reader sees
// the old file or the complete new one. `flag` names the option in messages.
[[noreturn]] void cannot_write(const char* flag, const std::string& path, int err) {
    fail(ErrorKind::BadInput, std::string("cannot write ") + flag + " file '" + path + "': " + std::strerror(err));
}

// The temporary file a report at `path` goes through: same directory, so that rename() is atomic.
std::string temp_path(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

void write_atomically(const std::string& path, const std::string& text, const char* flag) {
    const std::string tmp = temp_path(path);
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) cannot_write(flag, path, errno);
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool closed = std::fclose(f) == 0;
    if (!ok || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        std::remove(tmp.c_str());
        cannot_write(flag, path, e);
    }
}

// A report path that cannot be written is a command-line error before anything runs, not after minutes of
// cases: the temporary file the report will go through is created and removed once.
void check_writable(const std::string& path, const char* flag) {
    if (path.empty() || path == "-") return;
    const std::string tmp = temp_path(path);
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) cannot_write(flag, path, errno);
    std::fclose(f);
    std::remove(tmp.c_str());
}

// The device whose output of case `name` a --test-corrupt option corrupts ("" none).
std::string corruption_for(const Options& o, const std::string& name, bool first_case) {
    for (const Options::Corruption& c : o.corrupt)
        if (c.case_name == name || (c.case_name.empty() && first_case)) return c.device;
    return {};
}

int list_cases(const Options& o, const char* prog) {
    size_t n = 0;
    for (const Case& c : all_cases()) {
        if (!matches(c.name, o.filters)) continue;
        const BuiltCase b = build_case(c);
        std::printf("%-26s %-5s %-60s %s -> %s  (%s)\n", c.name.c_str(), to_string(c.precision), b.ops.c_str(),
                    b.input_shape.c_str(), b.output_shape.c_str(), c.note.c_str());
        ++n;
    }
    if (n == 0) {
        std::fprintf(stderr, "%s: error: no case matches the --filter patterns (see --list)\n", prog);
        return 2;
    }
    return 0;
}

}  // namespace

int selftest_main(const std::vector<std::string>& args, const char* prog) {
    Options o;
    try {
        o = parse_options(args);
    } catch (const Error& e) {
        std::fprintf(stderr, "%s: error: %s (see --help)\n", prog, e.what());
        return 2;
    }
    if (o.help) {
        std::fputs(usage(), stdout);
        return 0;
    }
    if (o.version) {
        std::printf("npurun-selftest %s\n", NPURUN_VERSION);
        return 0;
    }
    try {
        if (o.list) return list_cases(o, prog);

        std::vector<const Case*> selected;
        std::vector<std::string> names;
        for (const Case& c : all_cases()) {
            names.push_back(c.name);
            if (matches(c.name, o.filters)) selected.push_back(&c);
        }
        if (selected.empty()) fail(ErrorKind::BadInput, "no case matches the --filter patterns (see --list)");
        for (const Options::Corruption& c : o.corrupt)
            if (!c.case_name.empty() && std::find(names.begin(), names.end(), c.case_name) == names.end())
                fail(ErrorKind::BadInput, "--test-corrupt: no case '" + c.case_name + "'");
        // The lists are checked against the whole table, not the --filter selection: a stale entry is an
        // error whichever cases run.
        ExpectationLists lists;
        if (!o.expectations.empty()) {
            lists = load_expectations(o.expectations);
            validate_expectations(lists, names);
        }
        check_writable(o.json, "--json");
        check_writable(o.html, "--html");
        // The CSV grows as the cases finish (a run that crashes keeps the lines before the crash): not
        // replaced atomically like the other reports.
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> csv(nullptr, std::fclose);
        if (!o.csv.empty()) {
            csv.reset(std::fopen(o.csv.c_str(), "w"));
            if (!csv) fail(ErrorKind::BadInput, "cannot write --csv file '" + o.csv + "': " + std::strerror(errno));
        }
        bool csv_ok = true;
        auto csv_write = [&](const std::string& line) {
            if (!csv) return;
            csv_ok = csv_ok && std::fputs(line.c_str(), csv.get()) >= 0 && std::fflush(csv.get()) == 0;
        };
        csv_write(csv_header());

        const auto t0 = std::chrono::steady_clock::now();
        const Environment env = probe_environment(o.device);
        if (o.device == DeviceSelection::Sim && env.sim.state == "not built")
            fail(ErrorKind::Unsupported, "--device sim: this build has no simulator (built with -Dsimulator=false)");
        // With the JSON on stdout, the human-readable lines go to stderr.
        std::FILE* text = o.json == "-" ? stderr : stdout;
        std::fprintf(text, "npurun-selftest %s: %zu cases; kernel %s (%s)\n", NPURUN_VERSION, selected.size(),
                     env.kernel.c_str(), env.machine.c_str());
        if (env.sim.selected) std::fprintf(text, "sim: %s\n", device_text(env.sim).c_str());
        if (env.npu.selected) std::fprintf(text, "npu: %s\n", device_text(env.npu).c_str());
        if (!o.expectations.empty()) {
            std::string files;
            for (const std::string& f : lists.files_read) files += (files.empty() ? "" : ", ") + f;
            std::fprintf(text, "expectations: %zu fails, %zu flakes, %zu skips (%s)\n", lists.count(Expected::Fail),
                         lists.count(Expected::Flake), lists.count(Expected::Skip), files.c_str());
        }
        std::fflush(text);

        RunOptions ro;
        std::vector<CaseResult> results;
        for (const Case* c : selected) {
            const Expectation e = lookup(lists, c->name);
            if (e.kind == Expected::Skip) {
                // Listed in skips: not run at all (a case that hangs or crashes a board must not take the
                // rest of the run with it).
                CaseResult r;
                r.spec = c;
                r.pass = true;
                r.expectation = e;
                results.push_back(std::move(r));
            } else {
                ro.corrupt_device = corruption_for(o, c->name, results.empty());
                results.push_back(run_case(*c, env, ro));
                results.back().expectation = e;
            }
            std::fprintf(text, "%s\n", case_line(results.back(), env).c_str());
            std::fflush(text);
            csv_write(csv_line(results.back()));
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        Summary s = summarize(results, env, seconds, o.expectations);
        if (o.require_npu && !env.npu.available) s.device_error = true;
        std::fprintf(text, "%s\n", summary_line(s, env).c_str());
        if (o.require_npu && !env.npu.available)
            std::fprintf(text, "%s: --require-npu: npu %s\n", prog, device_text(env.npu).c_str());
        if (!o.json.empty()) {
            const std::string report = json_report(results, env, s);
            if (o.json == "-") {
                std::fputs(report.c_str(), stdout);
                std::fflush(stdout);
            } else {
                write_atomically(o.json, report, "--json");
            }
        }
        if (!o.html.empty()) write_atomically(o.html, html_report(results, env, s), "--html");
        if (csv) {
            csv_ok = std::fclose(csv.release()) == 0 && csv_ok;
            if (!csv_ok) fail(ErrorKind::BadInput, "cannot write --csv file '" + o.csv + "'");
        }
        return s.ok() ? 0 : 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s: error: %s\n", prog, e.what());
        return exit_code(e.kind());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: internal error: %s\n", prog, e.what());
        return 1;
    }
}

}  // namespace npurun::selftest

// Running one self-test case: the CPU reference (kernels/ref only), then the simulator and the NPU when
// selected and available, each compared with the reference; NPU against simulator byte for byte.
#pragma once

#include <string>
#include <vector>

#include "drv/device.h"
#include "tools/npurun-selftest/selftest_case.h"
#include "tools/npurun-selftest/selftest_compare.h"
#include "tools/npurun-selftest/selftest_expectations.h"
#include "tools/npurun-selftest/selftest_model.h"

namespace npurun::selftest {

enum class DeviceSelection { Sim, Npu, All };

// What one device of the environment is.
struct DeviceStatus {
    bool selected = false;
    bool available = false;
    // "ok", "not selected", "not built" (sim in a -Dsimulator=false build), "not present" (no NPU node),
    // "error" (present but unusable: permission denied, unsupported driver version, ...)
    std::string state = "not selected";
    std::string message;       // the driver's one-line error for "not built" / "not present" / "error"
    npudrv::DeviceInfo info;   // when available
};

struct Environment {
    std::string tool_version;
    std::string kernel;        // uname: sysname release version
    std::string machine;       // uname: machine
    DeviceStatus sim, npu;
};

// Opens each selected device once through drv (discovery for `npu`, the fake kernel for `sim`) and
// records what it reports. Never throws for a missing or broken device: the status says so.
Environment probe_environment(DeviceSelection selection);

struct DeviceRun {
    std::string device;        // "sim" / "npu"
    bool ran = false;
    bool pass = false;
    double max_diff = 0.0, tolerance = 0.0;
    double ms = 0.0;           // Session::run() wall time
    uint32_t tasks = 0;        // NPU tasks of all layers (from the profile)
    unsigned cores_requested = 0;  // SessionOptions::npu_cores given (0 = auto)
    uint32_t cores_used = 0;   // most lanes (= cores) of any of the session's NPU jobs
    std::string error;         // why it failed (mismatch, layer not on the NPU, run-time error)
    ElementDiff first_diff;    // a mismatch: the first output element beyond the tolerance
};

struct CaseResult {
    const Case* spec = nullptr;
    BuiltCase built;
    bool pass = false;
    std::string error;         // first reason for a failure that is not one device's (build, load, CPU run)
    double cpu_ms = 0.0;
    std::vector<DeviceRun> runs;
    bool npu_vs_sim = false;   // both ran: compared byte for byte
    bool npu_sim_identical = false;
    std::string npu_sim_detail;
    ElementDiff npu_sim_first;  // npu != sim: the first differing element (expected = sim, got = npu)
    // Cases with a forced core count of 2 or 3: each device's outputs with 1, 2 and 3 cores, compared with
    // each other byte for byte (lanes: the cores each of the first device's jobs used; every device's must
    // be 1, 2, 3).
    bool core_sweep = false;
    std::vector<std::string> core_sweep_devices;
    bool core_sweep_identical = false;
    std::vector<uint32_t> core_sweep_lanes;
    std::string core_sweep_detail;
    double total_ms = 0.0;     // the whole case: model build, load, every session
    // What the --expectations lists say about the case (Expected::None without them). A case listed in
    // skips is not run at all: pass stays true and runs stays empty.
    Expectation expectation;
};

// Nothing was compared: no device ran the case (no NPU and no simulator), or the lists skip it.
inline bool skipped(const CaseResult& r) { return r.pass && r.runs.empty(); }
inline Outcome outcome(const CaseResult& r) { return judge(r.pass, skipped(r), r.expectation.kind); }

struct RunOptions {
    // Test-only fault injection (hidden flag --test-corrupt): after this device's run, one output value of
    // the case is changed, to show that the comparison fails. Empty: none.
    std::string corrupt_device;
};

CaseResult run_case(const Case& c, const Environment& env, const RunOptions& options);

}  // namespace npurun::selftest

// npu-info run as a user runs it: against the fake kernel, and its command-line errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/common/run_command.h"

namespace {

using npurun::testing::CommandResult;

CommandResult run(const std::string& args) {
    const char* exe = std::getenv("NPU_INFO");
    if (!exe) return {};
    return npurun::testing::run_command(std::string(exe) + " " + args);
}

void expect_has(const std::string& out, const std::string& text) {
    EXPECT_NE(out.find(text), std::string::npos) << "missing '" << text << "' in:\n" << out;
}

// npu-info `args` succeeds and its report holds every one of `lines`.
void expect_report(const std::string& args, const std::vector<std::string>& lines) {
    CommandResult r = run(args);
    ASSERT_EQ(r.status, 0) << r.out;
    for (const auto& line : lines) expect_has(r.out, line);
}

TEST(NpuInfo, SimRknpu) {
    expect_report("--device sim",
                  {"device:        /dev/dri/renderD129 (fake kernel of drv/sim",
                   "driver:        rknpu 0.9.8 (RKNPU driver, date 20240828)", "hardware:      0x", "cores:         3",
                   "iommu:         enabled", "smoke test:    ok (65536-byte buffer"});
}

TEST(NpuInfo, SimRocket) {
    expect_report("--device=sim:rocket", {"device:        /dev/accel/accel0", "driver:        rocket 0.0.0",
                                          "hardware:      not reported", "NPU address 0x0:"});
}

TEST(NpuInfo, CommandLineErrorsExitWith2) {
    CommandResult r = run("--device sim:rknn");
    EXPECT_EQ(r.status, 2);
    expect_has(r.out, "npu-info: unknown simulated driver 'rknn'");
    r = run("--frobnicate");
    EXPECT_EQ(r.status, 2);
    expect_has(r.out, "unknown argument '--frobnicate'");
    r = run("--device-path");
    EXPECT_EQ(r.status, 2);
    r = run("--device sim --device-path /dev/dri/renderD129");
    EXPECT_EQ(r.status, 2);
}

TEST(NpuInfo, DeviceErrorsExitWith1) {
    CommandResult r = run("--device-path /nonexistent/renderD129");
    EXPECT_EQ(r.status, 1);
    expect_has(r.out, "npu-info: no such device node /nonexistent/renderD129");
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
}

TEST(NpuInfo, Help) {
    CommandResult r = run("--help");
    EXPECT_EQ(r.status, 0);
    expect_has(r.out, "usage: npu-info");
}

}  // namespace

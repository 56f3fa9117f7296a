// npu-info run as a user runs it: against the fake kernel, and its command-line errors.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct ToolRun {
    int status = -1;
    std::string out;
};

ToolRun run(const std::string& args) {
    const char* exe = std::getenv("NPU_INFO");
    ToolRun r;
    if (!exe) return r;
    FILE* p = popen((std::string(exe) + " " + args + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buf[512];
    while (size_t n = fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
    int s = pclose(p);
    r.status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    return r;
}

void expect_has(const std::string& out, const std::string& text) {
    EXPECT_NE(out.find(text), std::string::npos) << "missing '" << text << "' in:\n" << out;
}

TEST(NpuInfo, SimRknpu) {
    ToolRun r = run("--device sim");
    ASSERT_EQ(r.status, 0) << r.out;
    expect_has(r.out, "device:        /dev/dri/renderD129 (fake kernel of drv/sim");
    expect_has(r.out, "driver:        rknpu 0.9.8 (RKNPU driver, date 20240828)");
    expect_has(r.out, "hardware:      0x");
    expect_has(r.out, "cores:         3");
    expect_has(r.out, "iommu:         enabled");
    expect_has(r.out, "smoke test:    ok (65536-byte buffer");
}

TEST(NpuInfo, SimRocket) {
    ToolRun r = run("--device=sim:rocket");
    ASSERT_EQ(r.status, 0) << r.out;
    expect_has(r.out, "device:        /dev/accel/accel0");
    expect_has(r.out, "driver:        rocket 0.0.0");
    expect_has(r.out, "hardware:      not reported");
    expect_has(r.out, "NPU address 0x0:");
}

TEST(NpuInfo, CommandLineErrorsExitWith2) {
    ToolRun r = run("--device sim:rknn");
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
    ToolRun r = run("--device-path /nonexistent/renderD129");
    EXPECT_EQ(r.status, 1);
    expect_has(r.out, "npu-info: no such device node /nonexistent/renderD129");
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
}

TEST(NpuInfo, Help) {
    ToolRun r = run("--help");
    EXPECT_EQ(r.status, 0);
    expect_has(r.out, "usage: npu-info");
}

}  // namespace

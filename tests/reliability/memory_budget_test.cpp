// The memory budget (runtime/plan/memory_budget.h): every model-sized allocation of a session is checked
// against a limit before it is made, and a model needing more is refused with one line naming the size.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "huge_models.h"
#include "include/npurun/npurun.h"
#include "include/npurun/npurun.hpp"
#include "core/error.h"
#include "runtime/plan/memory_budget.h"
#include "tests/npu/npu_graphs.h"

namespace npurun {
namespace {

using plan::MemoryBudget;

std::string refusal(const std::shared_ptr<const Model>& m, const SessionOptions& o) {
    try {
        Session s(m, o);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "the session was created";
    return {};
}

TEST(MemorySize, ParsesSuffixes) {
    uint64_t v = 0;
    ASSERT_TRUE(plan::parse_memory_size("123", &v));
    EXPECT_EQ(v, 123u);
    ASSERT_TRUE(plan::parse_memory_size("64K", &v));
    EXPECT_EQ(v, 64u << 10);
    ASSERT_TRUE(plan::parse_memory_size("512M", &v));
    EXPECT_EQ(v, 512u << 20);
    ASSERT_TRUE(plan::parse_memory_size("2G", &v));
    EXPECT_EQ(v, uint64_t{2} << 30);
    ASSERT_TRUE(plan::parse_memory_size("3GiB", &v));
    EXPECT_EQ(v, uint64_t{3} << 30);
    for (const char* bad : {"", "0", "0M", "-1", "1.5G", "G", "12X", "1 G", "99999999999999999999", "17179869184G"})
        EXPECT_FALSE(plan::parse_memory_size(bad, &v)) << bad;
}

TEST(MemorySize, FormatsForMessages) {
    EXPECT_EQ(plan::format_bytes(999), "999 bytes");
    EXPECT_EQ(plan::format_bytes(23759540736ull), "23.8 GB");
    EXPECT_EQ(plan::format_bytes(1500000), "1.5 MB");
}

TEST(MemoryBudget, DefaultIsHalfOfPhysicalMemory) {
    const uint64_t phys = plan::physical_memory_bytes();
    ASSERT_GT(phys, 0u);
    EXPECT_EQ(plan::default_memory_limit(), phys / 2);
    EXPECT_EQ(MemoryBudget().limit(), phys / 2);
    EXPECT_TRUE(MemoryBudget().is_default());
    EXPECT_EQ(MemoryBudget(1000).limit(), 1000u);
}

TEST(MemoryBudget, ReservesUpToTheLimitAndNoMore) {
    MemoryBudget b(1000);
    b.reserve(600, "a");
    b.reserve(400, "b");
    EXPECT_EQ(b.used(), 1000u);
    try {
        b.reserve(1, "the straw");
        FAIL() << "no refusal";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        const std::string m = e.what();
        EXPECT_NE(m.find("the straw"), std::string::npos) << m;
        EXPECT_NE(m.find("1.0 kB already reserved"), std::string::npos) << m;
        EXPECT_NE(m.find("limit of 1.0 kB"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    EXPECT_EQ(b.used(), 1000u);  // the refused reservation took nothing
    b.release(500);
    EXPECT_THROW(b.reserve(UINT64_MAX - 10, "overflowing"), Error);
    EXPECT_EQ(b.used(), 500u);
}

// The fuzz finding: 544 bytes of file asking for a 23.7 GB arena. Refused before anything is allocated,
// with the default limit (this machine has far less than 47 GB).
TEST(MemoryBudget, HugeResizeInputIsRefusedBeforeAllocating) {
    const std::vector<uint8_t> bytes = reliability_test::huge_resize_model();
    EXPECT_LT(bytes.size(), 1024u);
    auto model = Model::load_from_memory(bytes.data(), bytes.size(), "huge-resize");
    if (plan::default_memory_limit() > 24000000000ull) GTEST_SKIP() << "this machine has more than 48 GB of memory";
    for (DeviceKind d : {DeviceKind::Cpu, DeviceKind::Sim}) {
        SessionOptions o;
        o.device = d;
        const std::string m = refusal(model, o);
        EXPECT_NE(m.find("23.8 GB"), std::string::npos) << m;
        EXPECT_NE(m.find("activation arena"), std::string::npos) << m;
        EXPECT_NE(m.find("half of physical memory"), std::string::npos) << m;
    }
}

TEST(MemoryBudget, OptionLimitsTheArena) {
    const std::vector<uint8_t> bytes = reliability_test::abs_model(1000);  // arena 8000 bytes + alignment
    auto model = Model::load_from_memory(bytes.data(), bytes.size(), "abs");
    SessionOptions o;
    o.device = DeviceKind::Cpu;
    o.max_memory_bytes = 4096;
    const std::string m = refusal(model, o);
    EXPECT_NE(m.find("limit of 4.1 kB"), std::string::npos) << m;
    o.max_memory_bytes = 1 << 20;
    Session ok(model, o);
    ok.run();
}

// On the NPU the arena may fit while the segment's DMA buffers do not: the second reservation is refused.
TEST(MemoryBudget, NpuBuffersCountAgainstTheSameLimit) {
    npu_test::ConvSpec s;
    s.h = s.w = 32;
    s.c = s.k = 64;
    auto model = npu_test::conv_model(s);
    SessionOptions cpu;
    cpu.device = DeviceKind::Cpu;
    const size_t arena = Session(model, cpu).memory_stats().arena_bytes;
    SessionOptions o;
    o.device = DeviceKind::Sim;
    o.max_memory_bytes = arena + 1024;
    const std::string m = refusal(model, o);
    EXPECT_NE(m.find("NPU buffers of segment 0"), std::string::npos) << m;
    o.max_memory_bytes = 64u << 20;
    Session ok(model, o);
    npu_test::fill_input(ok, 3);
    ok.run();
}

TEST(MemoryBudget, CApiField) {
    const std::vector<uint8_t> bytes = reliability_test::abs_model(1000);
    npurun_model* m = nullptr;
    ASSERT_EQ(npurun_model_load_memory(bytes.data(), bytes.size(), &m), NPURUN_OK);
    npurun_session_options o;
    npurun_session_options_init(&o);
    EXPECT_EQ(o.max_memory_bytes, 0u);
    o.device = NPURUN_DEVICE_CPU;
    o.max_memory_bytes = 100;
    npurun_session* s = nullptr;
    EXPECT_EQ(npurun_session_create(m, &o, &s), NPURUN_ERROR_UNSUPPORTED);
    EXPECT_EQ(s, nullptr);
    EXPECT_NE(std::string(npurun_last_error()).find("memory limit of 100 bytes"), std::string::npos) << npurun_last_error();
    o.max_memory_bytes = 0;
    ASSERT_EQ(npurun_session_create(m, &o, &s), NPURUN_OK);
    npurun_session_destroy(s);
    npurun_model_release(m);
}

// npurun --max-memory, and the exit status 2 + one line for a model that needs too much.
struct CliResult {
    int status = -1;
    std::string err;
};

CliResult run_npurun(const std::string& args) {
    const char* bin = std::getenv("NPURUN_BIN");
    CliResult r;
    if (bin == nullptr) return r;
    const std::string err_path = ::testing::TempDir() + "/budget_cli.err";
    const int rc = std::system((std::string(bin) + " " + args + " > /dev/null 2> " + err_path).c_str());
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    std::ifstream in(err_path);
    std::getline(in, r.err, '\0');
    return r;
}

TEST(MemoryBudgetCli, TooLargeModelExits2WithOneLine) {
    if (std::getenv("NPURUN_BIN") == nullptr) GTEST_SKIP() << "NPURUN_BIN not set (npurun not built)";
    const std::string dir = ::testing::TempDir();
    modelwriter::write_file(dir + "/abs1000.armnn", reliability_test::abs_model(1000));
    modelwriter::write_file(dir + "/huge.armnn", reliability_test::huge_resize_model());
    std::vector<uint8_t> input(4000, 0);
    modelwriter::write_file(dir + "/abs1000.in", input);

    CliResult r = run_npurun("--device cpu --max-memory 4K " + dir + "/abs1000.armnn " + dir + "/abs1000.in");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.rfind("npurun: error: the model needs", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("limit of 4.1 kB"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

    r = run_npurun("--device cpu --max-memory 1M " + dir + "/abs1000.armnn " + dir + "/abs1000.in");
    EXPECT_EQ(r.status, 0) << r.err;

    r = run_npurun("--max-memory 12X " + dir + "/abs1000.armnn " + dir + "/abs1000.in");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--max-memory expects a positive size"), std::string::npos) << r.err;

    if (plan::default_memory_limit() <= 24000000000ull) {
        // Running it would need a 23.7 GB input file; --info builds the session too, and reports the
        // plan instead of allocating it.
        r = run_npurun("--device cpu --info " + dir + "/huge.armnn");
        EXPECT_EQ(r.status, 0) << r.err;
    }
}

}  // namespace
}  // namespace npurun

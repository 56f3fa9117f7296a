// Big-core detection for the default thread count, on fake sysfs trees written by the test.
#include "kernels/neon/cpu_topology.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using npurun::kernels::neon::count_big_cores;
using npurun::kernels::neon::parse_cpu_list;

namespace {

class FakeSysfs : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        root_ = fs::temp_directory_path() /
                ("npurun-cpu-topology-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
        fs::remove_all(root_);
        fs::create_directories(root_);
    }
    void TearDown() override { fs::remove_all(root_); }

    void write(const std::string& rel, const std::string& text) {
        const fs::path p = root_ / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
    }
    // RK3588: cpu0-3 Cortex-A55 (capacity 530, 1.8 GHz), cpu4-7 Cortex-A76 (1024, 2.4 GHz).
    void write_rk3588(bool capacity, bool cpufreq) {
        for (int cpu = 0; cpu < 8; ++cpu) {
            const std::string dir = "cpu" + std::to_string(cpu);
            if (capacity) write(dir + "/cpu_capacity", cpu < 4 ? "530\n" : "1024\n");
            if (cpufreq) write(dir + "/cpufreq/cpuinfo_max_freq", cpu < 4 ? "1800000\n" : "2400000\n");
        }
    }
    std::string dir() const { return root_.string(); }

    fs::path root_;
};

TEST(CpuList, ParsesRangesAndSingles) {
    EXPECT_EQ(parse_cpu_list("0-7\n"), (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(parse_cpu_list("0,2-3,6"), (std::vector<unsigned>{0, 2, 3, 6}));
    EXPECT_EQ(parse_cpu_list("5"), (std::vector<unsigned>{5}));
}

TEST(CpuList, RejectsMalformedText) {
    for (const char* bad : {"", "\n", "a", "3-1", "1-", "-1", "0,,1", "0-4294967295", "99999"})
        EXPECT_TRUE(parse_cpu_list(bad).empty()) << "'" << bad << "'";
}

// RK3588 trees: the four A76 by capacity, by maximum frequency without capacity, and only the online ones
// when two A76 are offline (their sysfs entries stay, as on a real system).
TEST_F(FakeSysfs, Rk3588CountsTheOnlineA76ByCapacityElseFrequency) {
    struct Case { const char* online; bool capacity; unsigned want; };
    for (const Case& c : {Case{"0-7\n", true, 4}, Case{"0-7\n", false, 4}, Case{"0-5\n", true, 2}}) {
        fs::remove_all(root_);  // a fresh tree per case
        write("online", c.online);
        write_rk3588(c.capacity, true);
        EXPECT_EQ(count_big_cores(dir(), 99), c.want) << c.online << " capacity " << c.capacity;
    }
}

TEST_F(FakeSysfs, CapacityWinsOverFrequency) {
    // Equal maximum frequencies but different cores: only cpu_capacity tells them apart.
    write("online", "0-3\n");
    for (int cpu = 0; cpu < 4; ++cpu) {
        write("cpu" + std::to_string(cpu) + "/cpu_capacity", cpu == 3 ? "1024" : "800");
        write("cpu" + std::to_string(cpu) + "/cpufreq/cpuinfo_max_freq", "2000000");
    }
    EXPECT_EQ(count_big_cores(dir(), 99), 1u);
}

TEST_F(FakeSysfs, NoCapacityNorFrequencyMeansAllOnlineCpus) {
    write("online", "0-5\n");
    EXPECT_EQ(count_big_cores(dir(), 99), 6u);
}

TEST_F(FakeSysfs, PartialInformationMeansAllOnlineCpus) {
    write("online", "0-7\n");
    write_rk3588(true, false);
    fs::remove(root_ / "cpu6" / "cpu_capacity");
    EXPECT_EQ(count_big_cores(dir(), 99), 8u);
}

TEST_F(FakeSysfs, GarbageValuesAreIgnored) {
    write("online", "0-1\n");
    write("cpu0/cpu_capacity", "fast\n");
    write("cpu1/cpu_capacity", "1024\n");
    EXPECT_EQ(count_big_cores(dir(), 99), 2u);
}

TEST_F(FakeSysfs, UnreadableOnlineListGivesTheFallback) {
    EXPECT_EQ(count_big_cores(dir(), 3), 3u);
    write("online", "nonsense\n");
    EXPECT_EQ(count_big_cores(dir(), 3), 3u);
}

}  // namespace

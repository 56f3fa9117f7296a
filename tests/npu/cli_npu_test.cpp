// The npurun binary with the NPU backend, as a user runs it: --device sim, --explain, --profile,
// --dump-regcmd, --fp16, on the real mobilenet model from ../shared (skipped when absent).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tests/common/run_command.h"

namespace {

std::string model() { return npurun::testing::shared_inputs_dir() + "/models/armnn/mobilenet_v1_0.25_128_quant.armnn"; }

using Result = npurun::testing::CommandResult;
using npurun::testing::read_file;

Result run(const std::string& args) { return npurun::testing::run_npurun(args); }

class NpuCli : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::getenv("NPURUN_BIN")) GTEST_SKIP() << "NPURUN_BIN not set";
        if (!npurun::testing::path_exists(model())) GTEST_SKIP() << model() << " absent (../shared not available)";
        dir_ = npurun::testing::make_temp_dir("/tmp", "npurun-npu-cli-");
        std::string pixels(128 * 128 * 3, '\0');
        for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = char((i * 131 + 17) % 251);
        std::ofstream(dir_ + "/x.bin", std::ios::binary) << pixels;
    }
    void TearDown() override { npurun::testing::remove_tree(dir_); }
    std::string dir_;
};

}  // namespace

TEST_F(NpuCli, ExplainListsEveryLayerWithDeviceAndReason) {
    const Result r = run("--explain --device sim " + model());
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("Softmax"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NPU s0"), std::string::npos) << r.out;
    // Every convolution (with its fused ReLU6), the average pool and the final [1,1,1,1001] -> [1,1001]
    // Reshape (a view of the last convolution's buffer) on the NPU in one segment; softmax on the CPU,
    // with its reason.
    EXPECT_NE(r.out.find("57 of 58 layers on the NPU in 1 segment(s)\nNPU share of MACs: 100.0%\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Softmax is not an NPU operation"), std::string::npos) << r.out;
    // The first convolution reads the host's image: its windows are packed (runtime/npu/window_packing.h).
    EXPECT_NE(r.out.find("input windows packed on the host: 3x3x3 -> 32 channels of a 1x1 conv"), std::string::npos) << r.out;
}

TEST_F(NpuCli, SimRunMatchesTheCpuTop1AndProfiles) {
    const Result cpu = run("--device cpu " + model() + " " + dir_ + "/x.bin -o " + dir_ + "/cpu.bin");
    ASSERT_EQ(cpu.status, 0) << cpu.out;
    const Result sim = run("--device sim --profile " + model() + " " + dir_ + "/x.bin -o " + dir_ + "/sim.bin");
    ASSERT_EQ(sim.status, 0) << sim.out;
    std::printf("%s", sim.out.c_str());
    EXPECT_NE(sim.out.find("MACs"), std::string::npos);
    EXPECT_NE(sim.out.find("DMA bytes"), std::string::npos);
    EXPECT_NE(sim.out.find(" sim "), std::string::npos);
    // Cost model columns: the first conv (3 -> 8 channels, 3x3/2, 64x64 out) reads its 3x3x3 windows packed
    // on the host as 27 channels of a 1x1 convolution (runtime/npu/window_packing.h): 64*64 x 32 channels x
    // 32 kernels of slots for its 884,736 useful MACs (unpacked it issued 64*64*9 x 32 x 32 = 37,748,736).
    EXPECT_NE(sim.out.find("884736       4194304    0.21"), std::string::npos) << sim.out;
    EXPECT_NE(sim.out.find("DMA/ideal"), std::string::npos);
    const std::string a = read_file(dir_ + "/cpu.bin"), b = read_file(dir_ + "/sim.bin");
    ASSERT_EQ(a.size(), 1001u);
    ASSERT_EQ(b.size(), 1001u);
    EXPECT_EQ(std::max_element(a.begin(), a.end(), [](char x, char y) { return uint8_t(x) < uint8_t(y); }) - a.begin(),
              std::max_element(b.begin(), b.end(), [](char x, char y) { return uint8_t(x) < uint8_t(y); }) - b.begin());
}

TEST_F(NpuCli, DumpRegcmdWritesEverySegment) {
    const Result r = run("--device sim --dump-regcmd " + dir_ + "/dump " + model() + " " + dir_ + "/x.bin");
    ASSERT_EQ(r.status, 0) << r.out;
    const std::string raw = read_file(dir_ + "/dump/seg0.regcmd");
    const std::string txt = read_file(dir_ + "/dump/seg0.txt");
    EXPECT_GT(raw.size(), 1000u);
    EXPECT_EQ(raw.size() % 8, 0u);
    EXPECT_NE(txt.find("conv 3x3"), std::string::npos) << txt;
    EXPECT_NE(txt.find("op_en 0x60"), std::string::npos) << "the average pool is a PPU task";
}

TEST_F(NpuCli, DumpRegcmdOnTheCpuIsAnError) {
    const Result r = run("--device cpu --dump-regcmd " + dir_ + "/d " + model() + " " + dir_ + "/x.bin");
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("--dump-regcmd"), std::string::npos) << r.out;
}

TEST_F(NpuCli, NpuWithoutABoardFailsWithOneLine) {
    const Result r = run("--device npu " + model() + " " + dir_ + "/x.bin");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("'npu' is not available"), std::string::npos) << r.out;
}

TEST_F(NpuCli, NpuCoresFlag) {
    // mobilenet is one segment of many layers: lanes cannot hold it, so 3 cores give the 1-core bytes.
    const Result one = run("--device sim --npu-cores 1 " + model() + " " + dir_ + "/x.bin -o " + dir_ + "/one.bin");
    ASSERT_EQ(one.status, 0) << one.out;
    const Result three = run("--device sim --npu-cores 3 " + model() + " " + dir_ + "/x.bin -o " + dir_ + "/three.bin");
    ASSERT_EQ(three.status, 0) << three.out;
    EXPECT_EQ(read_file(dir_ + "/one.bin"), read_file(dir_ + "/three.bin"));
    const Result bad = run("--device sim --npu-cores 4 " + model() + " " + dir_ + "/x.bin");
    EXPECT_EQ(bad.status, 2) << bad.out;
    EXPECT_NE(bad.out.find("--npu-cores must be between 1 and 3"), std::string::npos) << bad.out;
    const Result word = run("--device sim --npu-cores many " + model() + " " + dir_ + "/x.bin");
    EXPECT_EQ(word.status, 2) << word.out;
}

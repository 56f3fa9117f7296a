// npurun as a user runs it on a model with a broadcast Multiplication + ReLU (MulRelu), a Pad and an Addition
// whose operand is broadcast across the channels (repeated across them on the NPU first): --explain names device
// and reason per layer, and --device sim gives the CPU's outputs within 1.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/common/run_command.h"
#include "tools/modelwriter/model_writer.h"

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;

namespace {

using Result = npurun::testing::CommandResult;
using npurun::testing::read_file;

Result run_cli(const std::string& args) { return npurun::testing::run_npurun(args); }

void write_bytes(const std::string& p, size_t n, unsigned seed) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = char((i * 131 + seed * 17 + 5) % 251);
    std::ofstream(p, std::ios::binary) << s;
}

// x [1,5,6,16] * s [1,1,1,16] -> ReLU -> Pad (1 row / column each side) -> + z [1,1,8,1].
std::vector<uint8_t> model_bytes() {
    const auto u8 = [](std::vector<uint32_t> d, float scale, int32_t zp) {
        return mw::tensor(std::move(d), fb::DataType::QAsymmU8, scale, zp);
    };
    mw::ModelWriter w;
    const uint32_t x = w.add_input("x", u8({1, 5, 6, 16}, 0.05f, 118), 0);
    const uint32_t s = w.add_input("s", u8({1, 1, 1, 16}, 0.03f, 100), 1);
    const uint32_t z = w.add_input("z", u8({1, 1, 8, 1}, 0.05f, 118), 2);
    const uint32_t mul = w.add_plain(fb::Layer::MultiplicationLayer, fb::LayerType::Multiplication, "scale", {x, s},
                                     {u8({1, 5, 6, 16}, 0.1f, 128)});
    const uint32_t relu = w.add_activation("scale_relu", mul, u8({1, 5, 6, 16}, 0.1f, 0), fb::ActivationFunction::ReLu);
    const uint32_t pad = w.add_layer(fb::Layer::PadLayer, fb::LayerType::Pad, "pad", {relu}, {u8({1, 7, 8, 16}, 0.1f, 0)},
                                     [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                         auto pads = b.CreateVector(std::vector<uint32_t>{0, 0, 1, 1, 1, 1, 0, 0});
                                         return fb::CreatePadLayer(b, base, fb::CreatePadDescriptor(b, pads, 0.0f)).Union();
                                     });
    const uint32_t add = w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "bias_add", {pad, z},
                                     {u8({1, 7, 8, 16}, 0.1f, 60)});
    w.add_output("y", add, 0);
    return w.finish();
}

class NpuCliEltwisePad : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::getenv("NPURUN_BIN")) GTEST_SKIP() << "NPURUN_BIN not set";
        dir_ = npurun::testing::make_temp_dir("/tmp", "npurun-npu-ew-");
        mw::write_file(dir_ + "/m.armnn", model_bytes());
        write_bytes(dir_ + "/x.bin", 5 * 6 * 16, 1);
        write_bytes(dir_ + "/s.bin", 16, 2);
        write_bytes(dir_ + "/z.bin", 8, 3);
    }
    void TearDown() override { npurun::testing::remove_tree(dir_); }
    std::string inputs() const { return dir_ + "/m.armnn " + dir_ + "/x.bin " + dir_ + "/s.bin " + dir_ + "/z.bin"; }
    std::string dir_;
};

}  // namespace

TEST_F(NpuCliEltwisePad, ExplainShowsMulReluPadAndTheAddAcrossChannelsOnTheNpu) {
    const Result r = run_cli("--explain --device sim " + dir_ + "/m.armnn");
    ASSERT_EQ(r.status, 0) << r.out;
    std::printf("%s", r.out.c_str());
    auto line = [&](const std::string& name) {
        const size_t at = r.out.find(" " + name + " ");
        return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find('\n', at) - at);
    };
    EXPECT_NE(line("scale").find("NPU s0"), std::string::npos) << r.out;
    EXPECT_NE(line("scale_relu").find("NPU (fused)"), std::string::npos) << r.out;
    EXPECT_NE(line("pad").find("NPU s0"), std::string::npos) << r.out;
    // Its [b,1,1,w] operand is repeated across the 16 channels on the NPU first (channel_expansion.h).
    EXPECT_NE(line("bias_add").find("NPU s0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("4 of 4 layers on the NPU in 1 segment(s)"), std::string::npos) << r.out;
}

TEST_F(NpuCliEltwisePad, SimMatchesTheCpuWithinOne) {
    const Result cpu = run_cli("--device cpu " + inputs() + " -o " + dir_ + "/cpu.bin");
    ASSERT_EQ(cpu.status, 0) << cpu.out;
    const Result sim = run_cli("--device sim --profile " + inputs() + " -o " + dir_ + "/sim.bin");
    ASSERT_EQ(sim.status, 0) << sim.out;
    std::printf("%s", sim.out.c_str());
    const std::string a = read_file(dir_ + "/cpu.bin"), b = read_file(dir_ + "/sim.bin");
    ASSERT_EQ(a.size(), 7u * 8 * 16);
    ASSERT_EQ(b.size(), a.size());
    int worst = 0;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(int(uint8_t(a[i])) - int(uint8_t(b[i]))));
    EXPECT_LE(worst, 1);
    // The profile lists the fused MulRelu and the Pad's per-row copy tasks.
    EXPECT_NE(sim.out.find("ElementwiseBinary+ReLu"), std::string::npos) << sim.out;
}

TEST_F(NpuCliEltwisePad, DumpRegcmdListsTheDpuFlyingTasks) {
    const Result r = run_cli("--device sim --dump-regcmd " + dir_ + "/dump " + inputs());
    ASSERT_EQ(r.status, 0) << r.out;
    const std::string txt = read_file(dir_ + "/dump/seg0.txt");
    std::printf("%s", txt.c_str());
    // MulRelu: 1 task; Pad with left/right padding: one task per input row (5); the Add: its [1,1,8,1] operand
    // repeated across the 16 channels by a 1x1 convolution (1 task), then one task per output row (7).
    EXPECT_NE(txt.find("14 tasks"), std::string::npos) << txt;
    size_t flying = 0;
    for (size_t at = txt.find("op_en 0x18"); at != std::string::npos; at = txt.find("op_en 0x18", at + 1)) ++flying;
    EXPECT_EQ(flying, 13u) << txt;
    EXPECT_NE(txt.find("conv 1x1 s1 p0, in 16x1x8 int8 NC1HWC2, out 16x1x8 int8, 16 kernels"), std::string::npos)
        << txt;
    EXPECT_NE(txt.find("dpu ew add tensor, 16x1x8 int8 -> int8"), std::string::npos) << txt;
    EXPECT_NE(txt.find("dpu ew mul per-channel tensor, 16x5x6 int8 -> int8"), std::string::npos) << txt;
    EXPECT_NE(txt.find("dpu copy, 16x1x6 int8 -> int8"), std::string::npos) << txt;
}

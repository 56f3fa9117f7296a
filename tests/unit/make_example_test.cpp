// npurun-make-example: the model it writes is the documented Sobel network, the image is sane, and
// --show handles present, missing and wrong-size outputs, and (when the CLI is built) npurun computes the
// edge map. The expected edge map is computed here by a direct loop over the image (independent of any
// npurun kernel).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "tests/common/run_command.h"
#include "tests/unit/armnn_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

CommandResult run(const std::string& cmd) { return run_command(cmd); }

std::vector<float> read_floats(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::vector<char> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<float> v(b.size() / 4);
    std::memcpy(v.data(), b.data(), v.size() * 4);
    return v;
}

void write_floats(const std::string& path, const std::vector<float>& v) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * 4));
}

// The edge map the network computes, by a direct loop: clamp(|sobel_x| + |sobel_y|, 0, 1), zero padding.
std::vector<float> expected_edges(const std::vector<float>& img) {
    auto px = [&](int y, int x) { return (y < 0 || x < 0 || y >= 64 || x >= 64) ? 0.0f : img[size_t(y) * 64 + size_t(x)]; };
    std::vector<float> edges(64 * 64);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) {
            const float gx = -px(y - 1, x - 1) + px(y - 1, x + 1) - 2 * px(y, x - 1) + 2 * px(y, x + 1) - px(y + 1, x - 1) + px(y + 1, x + 1);
            const float gy = -px(y - 1, x - 1) - 2 * px(y - 1, x) - px(y - 1, x + 1) + px(y + 1, x - 1) + 2 * px(y + 1, x) + px(y + 1, x + 1);
            edges[size_t(y) * 64 + size_t(x)] = std::fmin(std::fabs(gx) + std::fabs(gy), 1.0f);
        }
    return edges;
}

class MakeExample : public ::testing::Test {
protected:
    void SetUp() override {
        const char* exe = std::getenv("NPURUN_MAKE_EXAMPLE");
        if (!exe) GTEST_SKIP() << "NPURUN_MAKE_EXAMPLE not set (run through meson test)";
        exe_ = exe;
        char tmpl[] = "/tmp/npurun-example-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        const CommandResult r = run(exe_ + " " + dir_);
        ASSERT_EQ(r.status, 0) << r.out;
    }
    std::string exe_, dir_;
};

}  // namespace

TEST_F(MakeExample, WritesTheSobelNetwork) {
    const Graph g = load_model_file(dir_ + "/edges.armnn");
    std::vector<OpKind> ops;
    for (const Node& n : g.nodes) ops.push_back(n.op);
    EXPECT_EQ(ops, (std::vector<OpKind>{OpKind::Input, OpKind::Convolution2d, OpKind::ElementwiseUnary,
                                        OpKind::Convolution2d, OpKind::Activation, OpKind::Output}));
    EXPECT_EQ(g.info(g.inputs.at(0).tensor).shape, (Shape{1, 64, 64, 1}));
    EXPECT_EQ(g.info(g.outputs.at(0).tensor).shape, (Shape{1, 64, 64, 1}));
    const Node& sobel = g.nodes[1];
    const auto& a = sobel.attr<Convolution2dAttrs>();
    EXPECT_EQ(a.layout, DataLayout::NHWC);
    EXPECT_EQ(a.pad_left + a.pad_right + a.pad_top + a.pad_bottom, 4u);
    EXPECT_EQ(a.stride_x, 1u);
    EXPECT_EQ(g.info(sobel.inputs[1]).shape, (Shape{2, 3, 3, 1}));
    EXPECT_EQ(values<float>(g, sobel.inputs[1]),
              (std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1, -1, -2, -1, 0, 0, 0, 1, 2, 1}));
    EXPECT_EQ(g.nodes[2].attr<ElementwiseUnaryAttrs>().op, UnaryOp::Abs);
    EXPECT_EQ(values<float>(g, g.nodes[3].inputs[1]), (std::vector<float>{1, 1}));
    const auto& act = g.nodes[4].attr<ActivationAttrs>();
    EXPECT_EQ(act.function, ActivationFunction::BoundedReLu);
    EXPECT_EQ(act.a, 1.0f);
    EXPECT_EQ(act.b, 0.0f);

    const auto img = read_floats(dir_ + "/image.bin");
    ASSERT_EQ(img.size(), 64u * 64u);
    float lo = 1, hi = 0;
    for (float v : img) lo = std::fmin(lo, v), hi = std::fmax(hi, v);
    EXPECT_EQ(lo, 0.0f);
    EXPECT_GT(hi, 0.5f);
    EXPECT_LE(hi, 1.0f);
}

TEST_F(MakeExample, ShowDisplaysAnEdgeMapAndRejectsBadOutputs) {
    const std::string out = dir_ + "/edges.out.bin";
    CommandResult r = run(exe_ + " --show " + dir_);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("edges.out.bin"), std::string::npos) << r.out;

    write_floats(out, std::vector<float>(10, 0.0f));
    r = run(exe_ + " --show " + dir_);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("has 40 bytes, expected 16384"), std::string::npos) << r.out;

    const std::vector<float> edges = expected_edges(read_floats(dir_ + "/image.bin"));
    size_t strong = 0;
    for (float v : edges) strong += v > 0.5f;
    write_floats(out, edges);
    r = run(exe_ + " --show " + dir_);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find(std::to_string(strong) + " of 4096 pixels are edges"), std::string::npos) << r.out;
    // Edges are a thin outline: a clear minority of pixels, but present.
    EXPECT_GT(strong, 100u);
    EXPECT_LT(strong, 1000u);
    EXPECT_NE(r.out.find('@'), std::string::npos);
}

TEST_F(MakeExample, NpurunComputesTheEdgeMap) {
    // `make run`: npurun-make-example DIR; npurun DIR/edges.armnn DIR/image.bin -o DIR/edges.out.bin.
    const char* npurun = std::getenv("NPURUN_EXE");
    if (!npurun) GTEST_SKIP() << "NPURUN_EXE not set (the npurun CLI is not part of this build)";
    const std::string out = dir_ + "/edges.out.bin";
    const CommandResult r = run(std::string(npurun) + " " + dir_ + "/edges.armnn " + dir_ + "/image.bin -o " + out);
    ASSERT_EQ(r.status, 0) << r.out;
    const std::vector<float> got = read_floats(out);
    const std::vector<float> want = expected_edges(read_floats(dir_ + "/image.bin"));
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-5f) << "pixel " << i;
    EXPECT_EQ(run(exe_ + " --show " + dir_).status, 0);
}

TEST_F(MakeExample, UsageErrorsExitTwo) {
    EXPECT_EQ(run(exe_).status, 2);
    EXPECT_EQ(run(exe_ + " --bogus x y").status, 2);
    EXPECT_EQ(run(exe_ + " /nonexistent/dir/for/sure").status, 1);
}

// End-to-end tests of the `npurun` binary, run as a user runs it: arguments in, exit status, stdout,
// stderr and files out. The binary's path comes from the build (NPURUN_BIN); models are built in code
// (armnn_test_models.h) or by npurun-make-example when that tool is part of the build.
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/common/npurun_binary_test.h"
#include "tests/common/run_command.h"
#include "tests/e2e/armnn_test_models.h"

extern char** environ;

namespace {

using npurun::e2e::ArmnnModel;
using npurun::e2e::TensorSpec;

using Result = npurun::testing::SpawnResult;
using npurun::testing::path_exists;
using npurun::testing::read_file;
using npurun::testing::write_file;

std::vector<std::string> list_dir(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d)) {
            const std::string n = e->d_name;
            if (n != "." && n != "..") names.push_back(n);
        }
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string floats(const std::vector<float>& v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4); }

std::vector<float> as_floats(const std::string& bytes) {
    std::vector<float> v(bytes.size() / 4);
    std::memcpy(v.data(), bytes.data(), v.size() * 4);
    return v;
}

// A minimal .npy v1.0 file, written here independently of npurun's own writer.
std::string npy(const std::string& descr, const std::string& shape, const std::string& payload,
                const char* fortran = "False") {
    std::string d = "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
    while ((10 + d.size() + 1) % 64) d += ' ';
    d += '\n';
    return std::string("\x93NUMPY\x01\x00", 8) + char(d.size() & 0xff) + char(d.size() >> 8) + d + payload;
}

// The scratch folders' parent: TMPDIR, /tmp when it is not set.
std::string temp_parent() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

class Cli : public npurun::testing::NpurunBinaryTest {
protected:
    Cli() : NpurunBinaryTest(temp_parent(), "npurun-e2e-") {}
    void SetUp() override {
        NpurunBinaryTest::SetUp();
        if (HasFatalFailure()) return;

        // pixels (QAsymmU8 1x6, scale 0.5, zero point 10) -> output "pixels out": no computing layer.
        ArmnnModel identity;
        identity.output("pixels out", 0, identity.input("pixels", 0, {{1, 6}, 6, 0.5f, 10}));
        identity.write(path("identity.armnn"));

        // x (Float32 1x5) -> ReLu -> "scores"
        ArmnnModel relu;
        relu.output("scores", 0, relu.relu("relu", relu.input("x", 0, {{1, 5}}), {{1, 5}}));
        relu.write(path("relu.armnn"));

        // a, b (Float32 1x2x2x1) -> a+b -> "sum/out"; relu(a+b) -> "relu"
        ArmnnModel two;
        const uint32_t a = two.input("a", 0, {{1, 2, 2, 1}});
        const uint32_t b = two.input("b", 1, {{1, 2, 2, 1}});
        const uint32_t sum = two.addition("add", a, b, {{1, 2, 2, 1}});
        two.output("sum/out", 0, sum);
        two.output("relu", 1, two.relu("act", sum, {{1, 2, 2, 1}}));
        two.write(path("two.armnn"));

        write_file(path("pixels.bin"), std::string("\x0a\x0c\x0e\x14\x1e\x28", 6));
    }

    // The error contract: the given exit code, nothing on stdout, exactly one "npurun: error: " line
    // on stderr that mentions every one of `mentions`.
    void expect_error(const Result& r, int code, const std::vector<std::string>& mentions) {
        EXPECT_EQ(r.exit_code, code) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err.rfind("npurun: error: ", 0), 0u) << r.err;
        ASSERT_FALSE(r.err.empty());
        EXPECT_EQ(r.err.back(), '\n');
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
        for (const auto& m : mentions) EXPECT_NE(r.err.find(m), std::string::npos) << "'" << m << "' not in: " << r.err;
    }

    // No file but the ones the test made: no output, no leftover temporary.
    void expect_no_new_files(const std::vector<std::string>& before) { EXPECT_EQ(list_dir(dir_), before); }
};

// ---- flags ----

TEST_F(Cli, HelpAndVersion) {
    Result h = run({"--help"});
    EXPECT_EQ(h.exit_code, 0);
    EXPECT_NE(h.out.find("usage: npurun [options] MODEL INPUT... [-o OUT]"), std::string::npos);
    EXPECT_EQ(h.err, "");
    Result v = run({"--version"});
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_EQ(v.out.rfind("npurun ", 0), 0u);
}

TEST_F(Cli, ListLayers) {
    Result r = run({"--list-layers"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    auto row = [&](const std::string& prefix) {
        const size_t p = r.out.find("\n" + prefix);
        return p == std::string::npos ? std::string() : r.out.substr(p + 1, r.out.find('\n', p + 1) - p - 1);
    };
    // columns: layer type, data type, cpu, npu ("-" for now), reason
    EXPECT_NE(row("Lstm                        Float32   yes  -").find("yes"), std::string::npos) << r.out;
    EXPECT_NE(row("QLstm                       QAsymmS8  yes  -").find("yes"), std::string::npos);
    EXPECT_NE(row("StandIn                     Float32   no   -").find("placeholder"), std::string::npos);
    EXPECT_NE(row("LogicalBinary               Float32   no   -").find("does not accept"), std::string::npos);
    EXPECT_NE(r.out.find("Merger as\nConcat"), std::string::npos);
    // the mnn column, and the MNN op types with what each becomes or why it is refused
    EXPECT_NE(row("Convolution2d               Float32   yes  fp16 yes").find("yes"), std::string::npos) << r.out;
    EXPECT_NE(row("QLstm                       QAsymmS8  yes  -    -").find("yes"), std::string::npos) << r.out;
    EXPECT_NE(row("ConvInt8 ").find("Convolution2d"), std::string::npos) << r.out;
    EXPECT_NE(row("Extra ").find("refused: custom ops"), std::string::npos) << r.out;
    expect_error(run({"--list-layers", path("identity.armnn")}), 2, {"--list-layers"});
}

TEST_F(Cli, UnknownFlag) { expect_error(run({"--frobnicate", path("identity.armnn")}), 2, {"'--frobnicate'"}); }

TEST_F(Cli, NoModel) { expect_error(run({}), 2, {"no model"}); }

TEST_F(Cli, FlagWithoutValue) { expect_error(run({path("identity.armnn"), path("pixels.bin"), "-o"}), 2, {"-o"}); }

TEST_F(Cli, BadNumbers) {
    expect_error(run({"--iterations", "0", path("identity.armnn"), path("pixels.bin")}), 2, {"--iterations"});
    expect_error(run({"--iterations=ten", path("identity.armnn"), path("pixels.bin")}), 2, {"'ten'"});
    expect_error(run({"--threads", "-3", path("identity.armnn"), path("pixels.bin")}), 2, {"--threads"});
}

TEST_F(Cli, UnknownDevice) {
    expect_error(run({"--device", "gpu", path("identity.armnn"), path("pixels.bin")}), 2, {"'gpu'"});
}

TEST_F(Cli, NpuWithoutABoardIsARuntimeFailure) {
    for (const char* d : {"npu"}) {
        const auto before = list_dir(dir_);
        expect_error(run({"--device", d, path("identity.armnn"), path("pixels.bin"), "-o", path("o.bin")}), 1,
                     {std::string("'") + d + "'", "not available"});
        expect_no_new_files(before);
    }
}

// ---- the model ----

TEST_F(Cli, MissingModel) { expect_error(run({path("nope.armnn"), path("pixels.bin")}), 2, {"nope.armnn"}); }

TEST_F(Cli, CorruptModelWritesNothing) {
    write_file(path("garbage.armnn"), std::string(300, '\x5a'));
    const std::string good = read_file(path("identity.armnn"));
    write_file(path("truncated.armnn"), good.substr(0, good.size() / 2));
    write_file(path("empty.armnn"), "");
    for (const char* m : {"garbage.armnn", "truncated.armnn", "empty.armnn"}) {
        const auto before = list_dir(dir_);
        expect_error(run({path(m), path("pixels.bin"), "-o", path("out.bin")}), 2, {m});
        expect_no_new_files(before);
    }
}

TEST_F(Cli, ModelIsADirectory) { expect_error(run({dir_, path("pixels.bin")}), 2, {dir_}); }

// ---- inputs ----

TEST_F(Cli, MissingInputs) {
    expect_error(run({path("identity.armnn")}), 2, {"1 input", "'pixels'", "0 input files"});
    expect_error(run({path("two.armnn"), path("pixels.bin")}), 2, {"2 inputs", "'a'", "'b'", "1 input file"});
}

TEST_F(Cli, ExtraInputs) {
    expect_error(run({path("identity.armnn"), path("pixels.bin"), path("pixels.bin")}), 2, {"1 input", "2 input files"});
}

TEST_F(Cli, WrongInputSizeStatesBothSizes) {
    write_file(path("short.bin"), "12345");
    const auto before = list_dir(dir_);
    expect_error(run({path("identity.armnn"), path("short.bin"), "-o", path("out.bin")}), 2,
                 {"short.bin", "5 bytes", "expected 6 bytes", "'pixels'"});
    expect_no_new_files(before);
}

TEST_F(Cli, MissingInputFile) {
    expect_error(run({path("identity.armnn"), path("absent.bin")}), 2, {"absent.bin"});
}

TEST_F(Cli, BadNpyInputs) {
    const std::string six(6, '\x01');
    write_file(path("f32.npy"), npy("<f4", "(1, 6)", std::string(24, '\0')));
    write_file(path("shape.npy"), npy("|u1", "(6, 1)", six));
    write_file(path("fortran.npy"), npy("|u1", "(1, 6)", six, "True"));
    write_file(path("short.npy"), npy("|u1", "(1, 6)", "abc"));
    write_file(path("notnpy.npy"), "hello, world");
    const auto before = list_dir(dir_);
    expect_error(run({path("identity.armnn"), path("f32.npy"), "-o", path("o.bin")}), 2, {"'<f4'", "QAsymmU8"});
    expect_error(run({path("identity.armnn"), path("shape.npy"), "-o", path("o.bin")}), 2, {"(6,1)", "1x6"});
    expect_error(run({path("identity.armnn"), path("fortran.npy"), "-o", path("o.bin")}), 2, {"Fortran"});
    expect_error(run({path("identity.armnn"), path("short.npy"), "-o", path("o.bin")}), 2, {"3 bytes", "expected 6 bytes"});
    expect_error(run({path("identity.armnn"), path("notnpy.npy"), "-o", path("o.bin")}), 2, {"notnpy.npy"});
    expect_no_new_files(before);
}

// ---- outputs ----

TEST_F(Cli, UnwritableOutput) {
    const auto before = list_dir(dir_);
    expect_error(run({path("identity.armnn"), path("pixels.bin"), "-o", path("no/such/dir/out.bin")}), 2, {"no/such/dir"});
    expect_error(run({path("identity.armnn"), path("pixels.bin"), "-o", path("pixels.bin/out.bin")}), 2, {"pixels.bin"});
    expect_error(run({path("identity.armnn"), path("pixels.bin"), "-o", path("missing-dir/")}), 2, {"missing-dir/", "does not exist"});
    expect_no_new_files(before);
}

TEST_F(Cli, FailedRunLeavesAnExistingOutputUntouched) {
    write_file(path("out.bin"), "previous result");
    write_file(path("short.bin"), "123");
    expect_error(run({path("identity.armnn"), path("short.bin"), "-o", path("out.bin")}), 2, {"3 bytes"});
    EXPECT_EQ(read_file(path("out.bin")), "previous result");
}

TEST_F(Cli, NpyToOneFileNeedsOneOutput) {
    write_file(path("a.bin"), floats({1, 2, 3, 4}));
    expect_error(run({path("two.armnn"), path("a.bin"), path("a.bin"), "--npy", "-o", path("o.npy")}), 2, {"--npy", "DIR/"});
}

// ---- success paths on the identity model (no computing layer: loader + planner + CLI only) ----

TEST_F(Cli, RawInRawOut) {
    Result r = run({path("identity.armnn"), path("pixels.bin"), "-o", path("out.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(read_file(path("out.bin")), read_file(path("pixels.bin")));
    // Overwriting an existing output works and leaves no temporary behind.
    ASSERT_EQ(run({path("identity.armnn"), path("pixels.bin"), "-o", path("out.bin")}).exit_code, 0);
    for (const auto& n : list_dir(dir_)) EXPECT_EQ(n.find("npurun-"), std::string::npos) << n;
}

TEST_F(Cli, NpyInNpyOut) {
    write_file(path("pixels.npy"), npy("|u1", "(1, 6)", read_file(path("pixels.bin"))));
    Result r = run({path("identity.armnn"), path("pixels.npy"), "--npy", "-o", path("out.npy")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string f = read_file(path("out.npy"));
    ASSERT_GE(f.size(), 16u);
    EXPECT_EQ(f.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    EXPECT_NE(f.find("'descr': '|u1'"), std::string::npos) << f;
    EXPECT_NE(f.find("'shape': (1, 6)"), std::string::npos) << f;
    const size_t header = 10 + size_t(uint8_t(f[8])) + (size_t(uint8_t(f[9])) << 8);
    EXPECT_EQ(header % 64, 0u);
    EXPECT_EQ(f.substr(header), read_file(path("pixels.bin")));
}

TEST_F(Cli, OutputDirectoryGetsOneFilePerBindingNamedAfterIt) {
    ASSERT_EQ(::mkdir(path("outdir").c_str(), 0755), 0);
    Result r = run({path("identity.armnn"), path("pixels.bin"), "-o", path("outdir") + "/"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(list_dir(path("outdir")), std::vector<std::string>{"pixels_out.bin"});
    EXPECT_EQ(read_file(path("outdir/pixels_out.bin")), read_file(path("pixels.bin")));
    // An existing directory without the trailing slash is a directory too; --npy names the files .npy.
    r = run({path("identity.armnn"), path("pixels.bin"), "--npy", "-o", path("outdir")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(list_dir(path("outdir")), (std::vector<std::string>{"pixels_out.bin", "pixels_out.npy"}));
}

TEST_F(Cli, SummaryShowsShapeTypeStatisticsAndTopFive) {
    Result r = run({path("identity.armnn"), path("pixels.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Raw 10,12,14,20,30,40 with scale 0.5 and zero point 10 are 0,1,2,5,10,15.
    EXPECT_NE(r.out.find("output 0 'pixels out': 1x6 QAsymmU8"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("min 0  max 15  mean 5.5"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("top-5: 5 (15), 4 (10), 3 (5), 2 (2), 1 (1)"), std::string::npos) << r.out;
}

TEST_F(Cli, InfoNeedsNoInputs) {
    Result r = run({"--info", path("two.armnn")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("inputs: 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("'sum/out'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ElementwiseBinary"), std::string::npos) << r.out;  // layers by type (Addition maps here)
    EXPECT_NE(r.out.find("memory: arena"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("naive sum"), std::string::npos) << r.out;
}

TEST_F(Cli, IterationsPrintMedianAndP90) {
    Result r = run({"--iterations", "5", path("identity.armnn"), path("pixels.bin"), "-o", path("o.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("5 iterations: median"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("p90"), std::string::npos) << r.out;
}

// ---- success paths that run kernels ----

TEST_F(Cli, ReluModelComputes) {
    write_file(path("x.bin"), floats({-1, 2, -3, 4, 0.5f}));
    Result r = run({"--device", "cpu", path("relu.armnn"), path("x.bin"), "-o", path("y.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(as_floats(read_file(path("y.bin"))), (std::vector<float>{0, 2, 0, 4, 0.5f}));
    Result s = run({path("relu.armnn"), path("x.bin")});
    ASSERT_EQ(s.exit_code, 0) << s.err;
    EXPECT_NE(s.out.find("top-5: 3 (4), 1 (2), 4 (0.5), 0 (0), 2 (0)"), std::string::npos) << s.out;
}

TEST_F(Cli, TwoOutputsConcatenatedInBindingOrderAndDeterministic) {
    write_file(path("a.bin"), floats({1, -2, 3, -4}));
    write_file(path("b.bin"), floats({0.5f, 0.5f, -5, 1}));
    Result r = run({path("two.armnn"), path("a.bin"), path("b.bin"), "-o", path("out.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(as_floats(read_file(path("out.bin"))), (std::vector<float>{1.5f, -1.5f, -2, -3, 1.5f, 0, 0, 0}));
    const std::string first = read_file(path("out.bin"));
    ASSERT_EQ(run({path("two.armnn"), path("a.bin"), path("b.bin"), "-o", path("out.bin")}).exit_code, 0);
    EXPECT_EQ(read_file(path("out.bin")), first);

    ASSERT_EQ(::mkdir(path("d").c_str(), 0755), 0);
    r = run({path("two.armnn"), path("a.bin"), path("b.bin"), "--npy", "-o", path("d/")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(list_dir(path("d")), (std::vector<std::string>{"relu.npy", "sum_out.npy"}));
}

TEST_F(Cli, ProfileTableHasOneRowPerLayer) {
    write_file(path("a.bin"), floats({1, -2, 3, -4}));
    Result r = run({"--profile", path("two.armnn"), path("a.bin"), path("a.bin"), "-o", path("o.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("layer"), std::string::npos);
    EXPECT_NE(r.out.find("device"), std::string::npos);
    EXPECT_NE(r.out.find("add "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("act "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1x2x2x1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("cpu"), std::string::npos) << r.out;
}

// ---- the bundled example ----

TEST_F(Cli, BundledEdgeDetectionExample) {
    const char* maker = std::getenv("NPURUN_MAKE_EXAMPLE");
    if (maker == nullptr || !*maker) GTEST_SKIP() << "npurun-make-example is not part of this build yet";
    const std::string cmd = std::string(maker) + " '" + dir_ + "' > /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    ASSERT_TRUE(path_exists(path("edges.armnn")));
    Result r = run({path("edges.armnn"), path("image.bin"), "-o", path("edges.out.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(read_file(path("edges.out.bin")).size(), 0u);
    Result again = run({path("edges.armnn"), path("image.bin"), "-o", path("edges.again.bin")});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(read_file(path("edges.again.bin")), read_file(path("edges.out.bin")));
    Result info = run({"--info", path("edges.armnn")});
    EXPECT_EQ(info.exit_code, 0) << info.err;
}

}  // namespace

namespace {

// ---- a real model from ../shared: MNIST's golden output, through the binary ----

size_t npy_payload_offset(const std::string& f) {
    if (f.size() < 10 || f.compare(0, 6, "\x93NUMPY") != 0) return std::string::npos;
    return 10 + size_t(uint8_t(f[8])) + (size_t(uint8_t(f[9])) << 8);
}

TEST_F(Cli, MnistGoldenOutputIsExact) {
    const char* shared = std::getenv("NPURUN_SHARED");
    const std::string m = std::string(shared ? shared : "") + "/models/armnn/";
    if (!shared || !path_exists(m + "mnist_uint8.armnn") || !path_exists(m + "mnist_uint8.input.npy") ||
        !path_exists(m + "mnist_uint8.golden.npy"))
        GTEST_SKIP() << "../shared/models/armnn/mnist_uint8.* not present";
    Result r = run({m + "mnist_uint8.armnn", m + "mnist_uint8.input.npy", "--npy", "-o", path("mnist.npy")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string got = read_file(path("mnist.npy")), want = read_file(m + "mnist_uint8.golden.npy");
    const size_t go = npy_payload_offset(got), wo = npy_payload_offset(want);
    ASSERT_NE(go, std::string::npos);
    ASSERT_NE(wo, std::string::npos);
    EXPECT_EQ(got.substr(go), want.substr(wo));
    // The raw input (the .npy payload) gives the same answer.
    const std::string input = read_file(m + "mnist_uint8.input.npy");
    write_file(path("mnist.bin"), input.substr(npy_payload_offset(input)));
    r = run({m + "mnist_uint8.armnn", path("mnist.bin"), "-o", path("mnist.out")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path("mnist.out")), want.substr(wo));
}

// ---- --cpu-fp16 on a real float model (TFLite's hello_world: FullyConnected layers) ----

// Whether this machine has FEAT_FP16 (HWCAP_ASIMDHP), decided here independently of npurun's own detection.
bool cpu_has_fp16_arithmetic() {
#if defined(__aarch64__) && defined(__linux__)
    return (getauxval(AT_HWCAP) & (1ul << 10)) != 0;
#else
    return false;
#endif
}

TEST_F(Cli, CpuFp16RunsWhereTheCpuHasItAndIsRefusedElsewhere) {
    const char* shared = std::getenv("NPURUN_SHARED");
    const std::string model = std::string(shared ? shared : "") + "/models/armnn/hello_world_float.armnn";
    if (!shared || !path_exists(model)) GTEST_SKIP() << "../shared/models/armnn/hello_world_float.armnn not present";
    write_file(path("x.bin"), floats({1.25f}));
    Result r = run({"--device", "cpu", model, path("x.bin"), "-o", path("f32.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (!cpu_has_fp16_arithmetic()) {
        const auto before = list_dir(dir_);
        expect_error(run({"--device", "cpu", "--cpu-fp16", model, path("x.bin"), "-o", path("f16.bin")}), 2,
                     {"FEAT_FP16"});
        expect_no_new_files(before);
        return;
    }
    r = run({"--device", "cpu", "--cpu-fp16", model, path("x.bin"), "-o", path("f16.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<float> f32 = as_floats(read_file(path("f32.bin"))), f16 = as_floats(read_file(path("f16.bin")));
    ASSERT_EQ(f16.size(), f32.size());
    for (size_t i = 0; i < f32.size(); ++i)
        EXPECT_NEAR(f16[i], f32[i], 0.02) << i;  // sin(1.25) ~ 0.95; fp16 keeps ~3 digits
    // The same bits for any thread count.
    r = run({"--device", "cpu", "--cpu-fp16", "--threads", "3", model, path("x.bin"), "-o", path("f16t3.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(path("f16t3.bin")), read_file(path("f16.bin")));
}

}  // namespace

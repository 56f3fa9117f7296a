// `npurun` and the C API on a real .mnn file, as a user runs them: -o DIR/ writes scores.bin and
// boxes.bin named after the output tensors, --info / --explain / --profile / --npy / --device sim work,
// a broken .mnn is one error line with exit 2. Skipped when ../shared is absent.
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "include/npurun/npurun.h"
#include "tests/mnn/mnn_test_util.h"

using namespace npurun::mnn_testing;

namespace {

std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

class MnnCli : public ::testing::Test {
protected:
    void SetUp() override {
        model_ = shared_path("models/mnn/slim-320.mnn");
        input_ = shared_path("models/mnn/reference/ultraface/input_1.bin");
        if (!file_exists(model_)) GTEST_SKIP() << "../shared not found (set NPURUN_SHARED)";
        const char* bin = std::getenv("NPURUN_BIN");
        ASSERT_NE(bin, nullptr);
        bin_ = bin;
        char tmpl[] = "/tmp/npurun-mnn-cli-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override {
        if (!dir_.empty()) (void)std::system(("rm -rf '" + dir_ + "'").c_str());
    }
    // Runs npurun with `args`; returns the exit code, stdout/stderr in out_/err_.
    int run(const std::string& args) {
        const std::string cmd = "'" + bin_ + "' " + args + " >'" + dir_ + "/.out' 2>'" + dir_ + "/.err'";
        const int st = std::system(cmd.c_str());
        out_ = slurp(dir_ + "/.out");
        err_ = slurp(dir_ + "/.err");
        return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    std::string model_, input_, bin_, dir_, out_, err_;
};

}  // namespace

TEST_F(MnnCli, OutputDirectoryGetsScoresAndBoxes) {
    for (const char* dev : {"cpu", "sim"}) {
        const std::string d = dir_ + "/" + dev + "/";
        ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
        ASSERT_EQ(run(std::string("--device ") + dev + " '" + model_ + "' '" + input_ + "' -o '" + d + "'"), 0) << err_;
        const std::string s = slurp(d + "scores.bin"), b = slurp(d + "boxes.bin");
        EXPECT_EQ(s.size(), 4420u * 2 * 4);
        EXPECT_EQ(b.size(), 4420u * 4 * 4);
        const std::vector<float> ref = read_floats(shared_path("models/mnn/reference/ultraface/mnn-runtime/slim-320/scores_1.bin"));
        ASSERT_EQ(ref.size() * 4, s.size());
        EXPECT_LE(max_abs_diff(reinterpret_cast<const float*>(s.data()), ref), 1e-4);
    }
}

TEST_F(MnnCli, InfoExplainProfileNpy) {
    ASSERT_EQ(run("--info '" + model_ + "'"), 0) << err_;
    EXPECT_NE(out_.find("'input'"), std::string::npos) << out_;
    EXPECT_NE(out_.find("1x4420x2"), std::string::npos) << out_;
    ASSERT_EQ(run("--explain --device sim --fp16 '" + model_ + "'"), 0) << err_;
    EXPECT_NE(out_.find("NPU"), std::string::npos) << out_;
    ASSERT_EQ(run("--profile --device sim --fp16 '" + model_ + "' '" + input_ + "' -o '" + dir_ + "/'"), 0) << err_;
    EXPECT_NE(out_.find("Convolution2d"), std::string::npos) << out_;
    ASSERT_EQ(run("--npy '" + model_ + "' '" + input_ + "' -o '" + dir_ + "/'"), 0) << err_;
    EXPECT_EQ(slurp(dir_ + "/scores.npy").compare(0, 6, "\x93NUMPY"), 0);
}

TEST_F(MnnCli, BrokenFileIsOneErrorLine) {
    const std::string bytes = slurp(model_).substr(0, 5000);
    std::ofstream(dir_ + "/broken.mnn", std::ios::binary) << bytes;
    EXPECT_EQ(run("'" + dir_ + "/broken.mnn' '" + input_ + "'"), 2);
    EXPECT_EQ(err_.find('\n'), err_.size() - 1) << err_;
    EXPECT_NE(err_.find("not a valid MNN model"), std::string::npos) << err_;
    EXPECT_TRUE(out_.empty());
}

TEST_F(MnnCli, CApiRunsMnn) {
    npurun_model* m = nullptr;
    ASSERT_EQ(npurun_model_load(model_.c_str(), &m), NPURUN_OK) << npurun_last_error();
    npurun_session_options o;
    npurun_session_options_init(&o);
    o.device = NPURUN_DEVICE_SIM;
    npurun_session* s = nullptr;
    ASSERT_EQ(npurun_session_create(m, &o, &s), NPURUN_OK) << npurun_last_error();
    npurun_tensor in;
    ASSERT_EQ(npurun_session_input(s, 0, &in), NPURUN_OK);
    const std::vector<float> x = read_floats(input_);
    ASSERT_EQ(in.bytes, x.size() * 4);
    std::memcpy(in.data, x.data(), in.bytes);
    ASSERT_EQ(npurun_session_run(s), NPURUN_OK) << npurun_last_error();
    npurun_tensor out;
    ASSERT_EQ(npurun_session_output(s, 1, &out), NPURUN_OK);
    EXPECT_STREQ(out.name, "scores");
    const std::vector<float> ref = read_floats(shared_path("models/mnn/reference/ultraface/mnn-runtime/slim-320/scores_1.bin"));
    ASSERT_EQ(out.bytes, ref.size() * 4);
    EXPECT_LE(max_abs_diff(static_cast<const float*>(out.data), ref), 1e-4);
    npurun_session_destroy(s);
    npurun_model_release(m);
}

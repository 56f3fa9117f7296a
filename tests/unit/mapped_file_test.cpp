#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "core/error.h"
#include "runtime/loaders/load_model.h"
#include "runtime/util/mapped_file.h"
#include "tests/unit/armnn_test_util.h"

using namespace npurun;

namespace {

std::string temp_dir() {
    char tmpl[] = "/tmp/npurun-test-XXXXXX";
    const char* d = mkdtemp(tmpl);
    if (!d) throw std::runtime_error("mkdtemp failed");
    return d;
}

void write(const std::string& path, const std::string& content) {
    std::ofstream f(path, std::ios::binary);
    f << content;
}

void expect_error(const std::function<void()>& f, ErrorKind kind, const std::string& part) {
    try {
        f();
        ADD_FAILURE() << "expected an error containing '" << part << "'";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind) << e.what();
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(MappedFile, MapsContent) {
    const std::string dir = temp_dir();
    write(dir + "/a.bin", "hello");
    MappedFile m(dir + "/a.bin");
    ASSERT_EQ(m.size(), 5u);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(m.data()), 5), "hello");
    EXPECT_EQ(reinterpret_cast<uintptr_t>(m.data()) % 4096, 0u);  // page aligned
}

TEST(MappedFile, ClearErrors) {
    const std::string dir = temp_dir();
    write(dir + "/empty", "");
    expect_error([&] { MappedFile m(dir + "/missing.armnn"); }, ErrorKind::BadInput, "missing.armnn': no such file");
    expect_error([&] { MappedFile m(dir); }, ErrorKind::BadInput, "is a directory");
    expect_error([&] { MappedFile m(dir + "/empty"); }, ErrorKind::BadInput, "the file is empty");
}

TEST(MappedFile, PermissionDenied) {
    if (geteuid() == 0) GTEST_SKIP() << "running as root: file permissions are not enforced";
    const std::string dir = temp_dir();
    write(dir + "/secret", "x");
    ASSERT_EQ(chmod((dir + "/secret").c_str(), 0), 0);
    expect_error([&] { MappedFile m(dir + "/secret"); }, ErrorKind::BadInput, "permission denied");
}

TEST(LoadModel, FileIsMappedAndConstantsAreViews) {
    const std::string dir = temp_dir();
    namespace mw = npurun::modelwriter;
    mw::ModelWriter w;
    const uint32_t k = w.add_constant("k", mw::const_f32({4}, {1, 2, 3, 4}));
    w.add_output("out", k, 0);
    mw::write_file(dir + "/m.armnn", w.finish());
    const Graph g = load_model_file(dir + "/m.armnn");
    ASSERT_NE(g.file, nullptr);
    const auto* mapped = dynamic_cast<const MappedFile*>(g.file.get());
    ASSERT_NE(mapped, nullptr);
    const auto* p = static_cast<const uint8_t*>(g.tensor(g.nodes[0].outputs[0]).data);
    EXPECT_TRUE(p >= mapped->data() && p < mapped->data() + mapped->size());
    EXPECT_EQ(npurun::testing::values<float>(g, g.nodes[0].outputs[0]), (std::vector<float>{1, 2, 3, 4}));
}

TEST(LoadModel, FormatDetectionAndUnsupportedFormats) {
    const std::string dir = temp_dir();
    write(dir + "/face.mnn", std::string(64, '\1'));
    expect_error([&] { (void)load_model_file(dir + "/face.mnn"); }, ErrorKind::Unsupported, "MNN models (.mnn) are not supported yet");
    std::string tfl(64, '\0');
    std::memcpy(&tfl[4], "TFL3", 4);
    write(dir + "/model.bin", tfl);
    expect_error([&] { (void)load_model_file(dir + "/model.bin"); }, ErrorKind::Unsupported, "TensorFlow Lite");
    write(dir + "/junk.armnn", std::string(100, 'x'));
    expect_error([&] { (void)load_model_file(dir + "/junk.armnn"); }, ErrorKind::BadModel, dir + "/junk.armnn: not a valid Arm NN model");
    expect_error([&] { (void)load_model_file(dir + "/nothing.armnn"); }, ErrorKind::BadInput, "no such file");

    expect_error([&] { (void)load_model_memory(nullptr, 100, "null"); }, ErrorKind::BadModel, "null: the model is empty");

    const uint8_t armn[8] = {0, 0, 0, 0, 'A', 'R', 'M', 'N'};
    EXPECT_EQ(detect_model_format(armn, 8, "x.mnn"), ModelFormat::Armnn);  // content wins over the name
    EXPECT_EQ(detect_model_format(armn, 4, "x.tflite"), ModelFormat::TfLite);
    EXPECT_EQ(detect_model_format(armn, 4, "x"), ModelFormat::Unknown);
}

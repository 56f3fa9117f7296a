// Image inputs (tools/common) and the npurun options around them: decoding of every format, including
// broken files; resizing and conversion to the input tensor; --labels, --compare, --info, --trace as a user
// runs them. OpenCV (when the build found it) is the independent peer: it writes the PPM/PGM/BMP/PNG
// files and computes the raw tensor a photograph should become.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#if NPURUN_TEST_OPENCV
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include "core/error.h"
#include "tests/common/npurun_binary_test.h"
#include "tests/common/run_command.h"
#include "tools/common/image.h"
#include "tools/common/image_resize.h"
#include "tools/common/image_tensor.h"
#include "tools/face-detect/face_decode.h"

extern char** environ;

namespace {

using namespace npurun;
using namespace npurun::image;

using npurun::testing::path_exists;
using npurun::testing::read_file;
using npurun::testing::write_file;
Image decode(const std::string& bytes, const std::string& name) {
    return decode_image(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), format_from_name(name), name);
}
std::string decode_error(const std::string& bytes, const std::string& name) {
    try {
        decode(bytes, name);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::BadInput);
        return e.what();
    }
    return "(no error)";
}

// --- decoders --------------------------------------------------------------------------------------

TEST(ImageDecode, PpmAndPgmBinaryAndAscii) {
    const Image p6 = decode(std::string("P6\n# comment\n2 1\n255\n") + std::string("\x01\x02\x03\xfa\xfb\xfc", 6), "a.ppm");
    EXPECT_EQ(p6.width, 2u);
    EXPECT_EQ(p6.channels, 3u);
    EXPECT_EQ(p6.pixels, (std::vector<uint8_t>{1, 2, 3, 250, 251, 252}));
    const Image p2 = decode("P2 2 2 15\n0 15\n# c\n5 10\n", "a.pgm");
    EXPECT_EQ(p2.channels, 1u);
    EXPECT_EQ(p2.pixels, (std::vector<uint8_t>{0, 255, 85, 170}));  // scaled from maxval 15
    const Image p5 = decode(std::string("P5 1 1 65535\n\x80\x00", 15), "a.pgm");  // 16-bit big-endian
    EXPECT_EQ(p5.pixels, (std::vector<uint8_t>{128}));
}

TEST(ImageDecode, BrokenPnmNamesFileAndProblem) {
    EXPECT_NE(decode_error("P6 4 4 255\n" + std::string(10, 'x'), "t.ppm").find("truncated"), std::string::npos);
    EXPECT_NE(decode_error("P6 4", "t.ppm").find("truncated"), std::string::npos);
    EXPECT_NE(decode_error("P6 x 4 255\n", "t.ppm").find("width is not a number"), std::string::npos);
    EXPECT_NE(decode_error("P6 99999999 99999999 255\n", "t.ppm").find("larger than"), std::string::npos);
    EXPECT_NE(decode_error("P2 1 1 10\n11\n", "t.pgm").find("above maxval"), std::string::npos);
    EXPECT_NE(decode_error("P6 0 4 255\n", "t.ppm").find("no pixels"), std::string::npos);
    EXPECT_EQ(decode_error("P4 1 1\n", "t.ppm").rfind("image 't.ppm': ", 0), 0u);  // names the file first
}

std::string le32(uint32_t v) { return std::string{char(v), char(v >> 8), char(v >> 16), char(v >> 24)}; }
std::string le16(uint16_t v) { return std::string{char(v), char(v >> 8)}; }

// A BMP written here byte by byte from the format's documented layout.
std::string bmp(int32_t w, int32_t h, uint16_t bits, uint32_t compression, const std::string& palette, const std::string& pixels) {
    const uint32_t offset = 14 + 40 + uint32_t(palette.size());
    return "BM" + le32(offset + uint32_t(pixels.size())) + le32(0) + le32(offset) + le32(40) + le32(uint32_t(w)) +
           le32(uint32_t(h)) + le16(1) + le16(bits) + le32(compression) + le32(uint32_t(pixels.size())) + le32(2835) +
           le32(2835) + le32(uint32_t(palette.size() / 4)) + le32(0) + palette + pixels;
}

TEST(ImageDecode, Bmp24BottomUpAnd8BitPalette) {
    // 2x2, 24-bit, rows padded to 8 bytes, bottom row first: bottom = (B,G,R) 1,2,3 | 4,5,6; top = 7,8,9 | 10,11,12.
    const std::string rows = std::string("\x01\x02\x03\x04\x05\x06\0\0", 8) + std::string("\x07\x08\x09\x0a\x0b\x0c\0\0", 8);
    const Image img = decode(bmp(2, 2, 24, 0, "", rows), "a.bmp");
    EXPECT_EQ(img.pixels, (std::vector<uint8_t>{9, 8, 7, 12, 11, 10, 3, 2, 1, 6, 5, 4}));
    const Image top = decode(bmp(2, -2, 24, 0, "", rows), "a.bmp");  // negative height: top row first
    EXPECT_EQ(top.pixels[0], 3);
    const std::string palette = std::string("\x00\x00\xff\x00\x00\xff\x00\x00", 8);  // 0 = red, 1 = green
    const Image pal = decode(bmp(2, 1, 8, 0, palette, std::string("\x01\x00\x00\x00", 4)), "a.bmp");
    EXPECT_EQ(pal.pixels, (std::vector<uint8_t>{0, 255, 0, 255, 0, 0}));
}

TEST(ImageDecode, BrokenBmp) {
    const std::string rows(16, '\0');
    EXPECT_NE(decode_error(bmp(2, 2, 24, 0, "", rows).substr(0, 60), "t.bmp").find("truncated"), std::string::npos);
    EXPECT_NE(decode_error(bmp(2, 2, 24, 1, "", rows), "t.bmp").find("RLE"), std::string::npos);
    EXPECT_NE(decode_error(bmp(2, 2, 16, 0, "", rows), "t.bmp").find("16-bit BMP is not supported"), std::string::npos);
    EXPECT_NE(decode_error(bmp(0, 2, 24, 0, "", rows), "t.bmp").find("bad BMP size"), std::string::npos);
    EXPECT_NE(decode_error(bmp(1, 1, 8, 0, std::string(8, '\0'), std::string("\x05\0\0\0", 4)), "t.bmp").find("palette"),
              std::string::npos);
}

TEST(ImageDecode, PngRoundTripAndTruncation) {
    Image img;
    img.width = 3, img.height = 2, img.channels = 3;
    for (int i = 0; i < 18; ++i) img.pixels.push_back(uint8_t(i * 13));
    const std::string dir = ::testing::TempDir();
    write_png(img, dir + "/rt.png");
    const std::string png = read_file(dir + "/rt.png");
    EXPECT_EQ(decode(png, "rt.png").pixels, img.pixels);
    EXPECT_NE(decode_error(png.substr(0, png.size() - 20), "t.png").find("bad PNG"), std::string::npos);
    EXPECT_NE(decode_error(png.substr(0, 30), "t.png").find("bad PNG"), std::string::npos);
}

TEST(ImageDecode, SignatureMustMatchName) {
    EXPECT_NE(decode_error("P6 1 1 255\n\0\0\0", "x.png").find("is not a PNG file (its content is PPM/PGM)"), std::string::npos);
    EXPECT_NE(decode_error("hello", "x.jpg").find("unrecognized signature"), std::string::npos);
    EXPECT_NE(decode_error("", "x.bmp").find("empty"), std::string::npos);
    EXPECT_EQ(format_from_name("a/b.JPEG"), ImageFormat::Jpeg);
    EXPECT_EQ(format_from_name("a.b/c"), ImageFormat::None);
}

TEST(ImageDecode, JpegPhotographAndTruncatedCopy) {
    const std::string path = npurun::testing::shared_inputs_dir() + "/models/mnn/reference/ultraface/1.jpg";
    if (!path_exists(path)) GTEST_SKIP() << path << " is absent (shared models folder not next to the project)";
    const Image img = read_image(path);
    EXPECT_EQ(img.width, 720u);
    EXPECT_EQ(img.height, 478u);
    EXPECT_EQ(img.channels, 3u);
    const std::string bytes = read_file(path);
    for (size_t cut : {bytes.size() / 2, size_t(600), size_t(4)}) {
        const std::string msg = decode_error(bytes.substr(0, cut), "cut.jpg");
        EXPECT_NE(msg.find("image 'cut.jpg': bad JPEG"), std::string::npos) << cut << ": " << msg;
    }
#if NPURUN_TEST_OPENCV
    // libjpeg-turbo decodes the same pixels OpenCV's imread does (same library, same IDCT).
    cv::Mat ref = cv::imread(path, cv::IMREAD_COLOR);
    cv::cvtColor(ref, ref, cv::COLOR_BGR2RGB);
    int maxdiff = 0;
    for (size_t i = 0; i < img.pixels.size(); ++i) maxdiff = std::max(maxdiff, std::abs(int(img.pixels[i]) - int(ref.data[i])));
    EXPECT_LE(maxdiff, 1);
#endif
}

// --- resize and conversion -------------------------------------------------------------------------

TEST(ImageResize, IdentityAndHalfPixelCentres) {
    Image img;
    img.width = 2, img.height = 1, img.channels = 1, img.pixels = {0, 100};
    EXPECT_EQ(resize_bilinear(img, 2, 1, ResizeMode::Stretch), (std::vector<float>{0, 100}));
    // 2 -> 4: samples at -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
    EXPECT_EQ(resize_bilinear(img, 4, 1, ResizeMode::Stretch), (std::vector<float>{0, 25, 75, 100}));
    Image wide;  // 4x1 -> 1x1 crop takes the centre pixel pair
    wide.width = 4, wide.height = 1, wide.channels = 1, wide.pixels = {0, 10, 20, 200};
    EXPECT_EQ(resize_bilinear(wide, 1, 1, ResizeMode::Crop), (std::vector<float>{15}));
}

TEST(ImageTensor, LayoutOrderAndDtypes) {
    Image img;  // 1x1 RGB (10, 20, 30)
    img.width = 1, img.height = 1, img.channels = 3, img.pixels = {10, 20, 30};
    TensorInfo u8;
    u8.dtype = DataType::QAsymmU8;
    u8.shape = Shape{1, 1, 1, 3};
    u8.quant.scales = {0.5f};
    u8.quant.offset = 3;
    Preprocess p;
    InputPlan plan = plan_image_input(u8, DataLayout::NHWC, "test", p);
    EXPECT_EQ(image_to_tensor(img, plan, "x"), (std::vector<uint8_t>{10, 20, 30}));  // q = p
    p.order = ChannelOrder::Bgr;
    plan = plan_image_input(u8, DataLayout::NHWC, "test", p);
    EXPECT_EQ(image_to_tensor(img, plan, "x"), (std::vector<uint8_t>{30, 20, 10}));
    p.order = ChannelOrder::Rgb;
    p.mean = {0.0f};
    p.stddev = {1.0f};  // real = p; q = p / 0.5 + 3, saturated at 255
    plan = plan_image_input(u8, DataLayout::NHWC, "test", p);
    EXPECT_EQ(image_to_tensor(img, plan, "x"), (std::vector<uint8_t>{23, 43, 63}));
    TensorInfo s8 = u8;
    s8.dtype = DataType::QAsymmS8;
    plan = plan_image_input(s8, DataLayout::NHWC, "test", Preprocess{});
    const std::vector<uint8_t> q = image_to_tensor(img, plan, "x");
    EXPECT_EQ(int8_t(q[0]), 10 - 128);
    TensorInfo f32;
    f32.shape = Shape{1, 3, 1, 1};
    Preprocess pm;
    pm.mean = {10.0f, 20.0f, 0.0f};
    pm.stddev = {2.0f};
    plan = plan_image_input(f32, DataLayout::NCHW, "test", pm);
    const std::vector<uint8_t> f = image_to_tensor(img, plan, "x");
    std::vector<float> v(3);
    std::memcpy(v.data(), f.data(), 12);
    EXPECT_EQ(v, (std::vector<float>{0.0f, 0.0f, 15.0f}));
    // Refusals and bad flags.
    TensorInfo i32 = f32;
    i32.dtype = DataType::Signed32;
    EXPECT_NE(plan_image_input(i32, DataLayout::NCHW, "t", Preprocess{}).refusal.find("Signed32"), std::string::npos);
    TensorInfo four = f32;
    four.shape = Shape{1, 4, 2, 2};
    EXPECT_NE(plan_image_input(four, DataLayout::NCHW, "t", Preprocess{}).refusal.find("1 or 3 channels"), std::string::npos);
    Preprocess two_means;
    two_means.mean = {1.0f, 2.0f};
    EXPECT_THROW(plan_image_input(f32, DataLayout::NCHW, "t", two_means), Error);
}

// The face detector's preprocessing of 1.jpg against the reference input_1.bin (OpenCV INTER_LINEAR, NCHW,
// RGB, (x - 127) / 128): OpenCV interpolates in 11-bit fixed point and rounds to uint8 before normalizing,
// this code in float without the intermediate rounding, so values differ by at most about one pixel level.
TEST(ImageTensor, UltrafaceInputMatchesReference) {
    const std::string dir = npurun::testing::shared_inputs_dir() + "/models/mnn/reference/ultraface";
    if (!path_exists(dir + "/input_1.bin")) GTEST_SKIP() << dir << " is absent";
    TensorInfo info;
    info.shape = Shape{1, 3, 240, 320};
    Preprocess p;
    p.mean = {127.0f};
    p.stddev = {128.0f};
    const InputPlan plan = plan_image_input(info, DataLayout::NCHW, "test", p);
    const std::vector<uint8_t> t = image_to_tensor(read_image(dir + "/1.jpg"), plan, "1.jpg");
    const std::string ref = read_file(dir + "/input_1.bin");
    ASSERT_EQ(t.size(), ref.size());
    std::vector<float> a(t.size() / 4), b(t.size() / 4);
    std::memcpy(a.data(), t.data(), t.size());
    std::memcpy(b.data(), ref.data(), ref.size());
    double worst = 0, sum = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, double(std::fabs(a[i] - b[i])));
        sum += std::fabs(a[i] - b[i]);
    }
    std::printf("1.jpg -> 320x240 NCHW vs input_1.bin: max |diff| %.5f (%.2f pixel levels), mean %.6f\n", worst, worst * 128,
                sum / double(a.size()));
    EXPECT_LE(worst * 128, 1.01);
}

TEST(FacePriors, EqualTheReferencePriors) {
    const std::string path =
        npurun::testing::shared_inputs_dir() + "/models/mnn/reference/ultraface/priors_320x240.bin";
    if (!path_exists(path)) GTEST_SKIP() << path << " is absent";
    const std::vector<npurun::face::Prior> priors = npurun::face::make_priors(320, 240);
    const std::string ref = read_file(path);
    ASSERT_EQ(priors.size(), 4420u);
    ASSERT_EQ(ref.size(), priors.size() * 16);
    double worst = 0;
    for (size_t i = 0; i < priors.size(); ++i) {
        float r[4];
        std::memcpy(r, ref.data() + 16 * i, 16);
        worst = std::max({worst, double(std::fabs(r[0] - priors[i].cx)), double(std::fabs(r[1] - priors[i].cy)),
                          double(std::fabs(r[2] - priors[i].w)), double(std::fabs(r[3] - priors[i].h))});
    }
    EXPECT_LE(worst, 1e-6);
}

// --- npurun with image inputs, as a user runs it ----------------------------------------------------

using Result = npurun::testing::SpawnResult;

class ImageCli : public npurun::testing::NpurunBinaryTest {
protected:
    ImageCli() : NpurunBinaryTest(::testing::TempDir(), "npurun-image-") {}
    void SetUp() override {
        NpurunBinaryTest::SetUp();
        models_ = npurun::testing::shared_inputs_dir() + "/models";
    }
    bool have_shared() const { return path_exists(models_ + "/armnn/mobilenet_v1_0.25_128_quant.armnn"); }
    std::string mobilenet() const { return models_ + "/armnn/mobilenet_v1_0.25_128_quant.armnn"; }
    std::string photo() const { return models_ + "/mnn/reference/ultraface/1.jpg"; }
    std::string labels() const { return models_ + "/labels/imagenet_labels.txt"; }

    // A usage error: exit 2, nothing on stdout, one line on stderr containing `needle`.
    void expect_error(const std::vector<std::string>& args, const std::string& needle) {
        const Result r = run(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(needle), std::string::npos) << "expected '" << needle << "' in: " << r.err;
    }
    static std::string top1(const std::string& out) {  // the first index after "top-5:"
        const size_t p = out.find("top-5:");
        if (p == std::string::npos) return "";
        size_t i = out.find_first_of("0123456789", p + 6);
        return i == std::string::npos ? "" : out.substr(i, out.find_first_not_of("0123456789", i) - i);
    }
    std::string models_;
};

TEST_F(ImageCli, PhotographLabelledTop5AndSameTop1AsTheRawTensor) {
    if (!have_shared()) GTEST_SKIP() << models_ << " is absent (shared models folder not next to the project)";
    const Result img = run({"--device", "cpu", mobilenet(), photo(), "--labels", labels()});
    ASSERT_EQ(img.exit_code, 0) << img.err;
    std::printf("npurun mobilenet 1.jpg --labels:\n%s", img.out.c_str());
    EXPECT_NE(img.out.find("top-5:\n"), std::string::npos);
    EXPECT_EQ(std::count(img.out.begin(), img.out.end(), '\n'), 8) << img.out;  // header, min/max, top-5 line, 5 names
#if NPURUN_TEST_OPENCV
    // The raw tensor computed by OpenCV: imread, RGB, INTER_LINEAR to 128x128, uint8 as the quantized level.
    cv::Mat m = cv::imread(photo(), cv::IMREAD_COLOR), rgb, small;
    cv::cvtColor(m, rgb, cv::COLOR_BGR2RGB);
    cv::resize(rgb, small, cv::Size(128, 128), 0, 0, cv::INTER_LINEAR);
    ASSERT_TRUE(small.isContinuous());
    write_file(path("photo.bin"), std::string(reinterpret_cast<const char*>(small.data), 128 * 128 * 3));
    const Result raw = run({"--device", "cpu", mobilenet(), path("photo.bin")});
    ASSERT_EQ(raw.exit_code, 0) << raw.err;
    std::printf("npurun mobilenet on OpenCV's raw tensor:\n%s", raw.out.c_str());
    EXPECT_FALSE(top1(img.out).empty());
    EXPECT_EQ(top1(img.out), top1(raw.out));
#else
    GTEST_SKIP() << "OpenCV (libopencv-dev) not found by the build: the raw-tensor comparison is skipped";
#endif
}

#if NPURUN_TEST_OPENCV
// Lossless formats written by OpenCV at the input size give exactly the bytes of the raw tensor.
TEST_F(ImageCli, PpmPgmBmpPngFromOpenCvEqualRawTensor) {
    if (!have_shared()) GTEST_SKIP() << models_ << " is absent";
    cv::Mat m = cv::imread(photo(), cv::IMREAD_COLOR), small, gray;
    cv::resize(m, small, cv::Size(128, 128), 0, 0, cv::INTER_AREA);
    cv::Mat rgb;
    cv::cvtColor(small, rgb, cv::COLOR_BGR2RGB);
    write_file(path("raw.bin"), std::string(reinterpret_cast<const char*>(rgb.data), 128 * 128 * 3));
    ASSERT_EQ(run({"--device", "cpu", mobilenet(), path("raw.bin"), "-o", path("raw.out")}).exit_code, 0);
    for (const char* ext : {"ppm", "bmp", "png"}) {
        const std::string f = path(std::string("img.") + ext);
        ASSERT_TRUE(cv::imwrite(f, small)) << f;
        const Result r = run({"--device", "cpu", mobilenet(), f, "-o", path(std::string("img.") + ext + ".out")});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(read_file(path(std::string("img.") + ext + ".out")), read_file(path("raw.out"))) << ext;
    }
    // BGR models: --channel-order bgr on the same file equals the raw BGR tensor.
    write_file(path("bgr.bin"), std::string(reinterpret_cast<const char*>(small.data), 128 * 128 * 3));
    ASSERT_EQ(run({"--device", "cpu", mobilenet(), path("bgr.bin"), "-o", path("bgr.out")}).exit_code, 0);
    ASSERT_EQ(run({"--device", "cpu", "--channel-order", "bgr", mobilenet(), path("img.png"), "-o", path("bgr2.out")}).exit_code, 0);
    EXPECT_EQ(read_file(path("bgr2.out")), read_file(path("bgr.out")));
    // Gray: MNIST (1x28x28x1 uint8) from a PGM equals its raw bytes.
    const std::string mnist = models_ + "/armnn/mnist_uint8.armnn";
    cv::cvtColor(small, gray, cv::COLOR_BGR2GRAY);
    cv::Mat g28;
    cv::resize(gray, g28, cv::Size(28, 28), 0, 0, cv::INTER_AREA);
    ASSERT_TRUE(cv::imwrite(path("digit.pgm"), g28));
    write_file(path("digit.bin"), std::string(reinterpret_cast<const char*>(g28.data), 28 * 28));
    ASSERT_EQ(run({"--device", "cpu", mnist, path("digit.bin"), "-o", path("digit.out")}).exit_code, 0);
    ASSERT_EQ(run({"--device", "cpu", mnist, path("digit.pgm"), "-o", path("digit2.out")}).exit_code, 0);
    EXPECT_EQ(read_file(path("digit2.out")), read_file(path("digit.out")));
}
#endif

TEST_F(ImageCli, InfoSaysHowAnImageIsFed) {
    if (!have_shared()) GTEST_SKIP() << models_ << " is absent";
    const Result r = run({"--info", mobilenet()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("image for input 0 'input': an image is resized to 128x128 (bilinear, stretch), RGB, NHWC (from "
                         "Convolution2d"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("QAsymmU8 q = p (scale 0.0078125, zero point 128"), std::string::npos) << r.out;
    const Result crop = run({"--info", "--resize", "crop", "--channel-order", "bgr", "--mean", "1,2,3", "--std", "4", mobilenet()});
    EXPECT_NE(crop.out.find("(bilinear, crop), BGR"), std::string::npos) << crop.out;
    EXPECT_NE(crop.out.find("q = round((p - 1,2,3) / 4 / 0.0078125) + 128, saturated"), std::string::npos) << crop.out;
    const Result hello = run({"--info", models_ + "/armnn/hello_world_float.armnn"});
    EXPECT_NE(hello.out.find("not from an image: an image needs a [1,H,W,C] or [1,C,H,W] input"), std::string::npos) << hello.out;
}

TEST_F(ImageCli, CropAndMeanChangeTheResult) {
    if (!have_shared()) GTEST_SKIP() << models_ << " is absent";
    ASSERT_EQ(run({"--device", "cpu", mobilenet(), photo(), "-o", path("a.out")}).exit_code, 0);
    ASSERT_EQ(run({"--device", "cpu", "--resize", "crop", mobilenet(), photo(), "-o", path("b.out")}).exit_code, 0);
    ASSERT_EQ(run({"--device", "cpu", "--mean", "127.5", "--std", "127.5", mobilenet(), photo(), "-o", path("c.out")}).exit_code, 0);
    EXPECT_NE(read_file(path("a.out")), read_file(path("b.out")));
    // (p - 127.5) / 127.5 quantized at scale 1/128, zero point 128 is q = p or p + 1: a different tensor
    // (the outputs differ) that the network classifies the same.
    EXPECT_NE(read_file(path("a.out")), read_file(path("c.out")));
    const Result a = run({"--device", "cpu", mobilenet(), photo()});
    const Result c = run({"--device", "cpu", "--mean", "127.5", "--std", "127.5", mobilenet(), photo()});
    EXPECT_FALSE(top1(a.out).empty());
    EXPECT_EQ(top1(a.out), top1(c.out));
}

TEST_F(ImageCli, BadImagesAndOptions) {
    if (!have_shared()) GTEST_SKIP() << models_ << " is absent";
    const std::string jpg = read_file(photo());
    write_file(path("cut.jpg"), jpg.substr(0, jpg.size() / 3));
    expect_error({mobilenet(), path("cut.jpg")}, "input 0 'input': image '" + path("cut.jpg") + "': bad JPEG");
    write_file(path("fake.png"), jpg);
    expect_error({mobilenet(), path("fake.png")}, "is not a PNG file (its content is JPEG)");
    write_file(path("empty.bmp"), "");
    expect_error({mobilenet(), path("empty.bmp")}, "the file is empty");
    expect_error({mobilenet(), path("missing.ppm")}, "cannot open");
    expect_error({models_ + "/armnn/hello_world_float.armnn", photo()}, "cannot feed it: an image needs");
    expect_error({"--mean", "1,2", mobilenet(), photo()}, "--mean has 2 values; the model input has 3 channels");
    expect_error({"--std", "0", mobilenet(), photo()}, "--std must not be 0");
    expect_error({"--mean", "abc", mobilenet(), photo()}, "--mean expects numbers");
    expect_error({"--resize", "fit", mobilenet(), photo()}, "--resize expects stretch or crop");
    expect_error({"--channel-order", "rbg", mobilenet(), photo()}, "--channel-order expects rgb or bgr");
    expect_error({"--layout", "chw", mobilenet(), photo()}, "--layout expects nhwc or nchw");
    expect_error({"--layout", "nchw", mobilenet(), photo()}, "an image has 1 or 3 channels, this input has 128");
}

TEST_F(ImageCli, LabelsErrors) {
    if (!have_shared()) GTEST_SKIP() << models_ << " is absent";
    write_file(path("three.txt"), "a\nb\nc\n");
    expect_error({mobilenet(), photo(), "--labels", path("three.txt")}, "has 3 names, but the output has 1001 classes");
    expect_error({mobilenet(), photo(), "--labels", path("none.txt")}, "--labels: cannot open");
    write_file(path("gap.txt"), "a\n\nb\n");
    expect_error({mobilenet(), photo(), "--labels", path("gap.txt")}, "line 2 is empty");
    expect_error({mobilenet(), photo(), "--labels", labels(), "-o", path("x.out")}, "cannot be used with -o");
    write_file(path("x.bin"), std::string(4, '\0'));
    expect_error({models_ + "/armnn/hello_world_float.armnn", path("x.bin"), "--labels", labels()}, "no output of the model is a list of scores");
    EXPECT_FALSE(path_exists(path("x.out")));
    // 1000 names (no background line) on a 1001-class output: index 0 is "background", the rest shift by one.
    const std::string all = read_file(labels());
    write_file(path("1000.txt"), all.substr(all.find('\n') + 1));
    const Result a = run({"--device", "cpu", mobilenet(), photo(), "--labels", labels()});
    const Result b = run({"--device", "cpu", mobilenet(), photo(), "--labels", path("1000.txt")});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(a.out, b.out);
}

TEST_F(ImageCli, CompareCpuReportsTheLargestDifferencePerOutput) {
    if (!have_shared()) GTEST_SKIP() << models_ << " is absent";
    const Result r = run({"--device", "sim", mobilenet(), photo(), "--compare", "cpu"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::printf("%s", r.out.c_str());
    const size_t p = r.out.find("compare sim vs cpu: output 0 'MobilenetV1/Predictions/Reshape_1': max |difference| ");
    ASSERT_NE(p, std::string::npos) << r.out;
    const double diff = std::atof(r.out.c_str() + r.out.find("| ", p + 20) + 2);
    EXPECT_LE(diff, 4 * 0.00390625);  // the NPU's int8 path is within a few quantization steps of the CPU
    const Result cpu = run({"--device", "cpu", mobilenet(), photo(), "--compare", "cpu"});
    EXPECT_NE(cpu.out.find("compare cpu vs cpu: output 0 'MobilenetV1/Predictions/Reshape_1': max |difference| 0; 0 of 1001 elements differ"),
              std::string::npos)
        << cpu.out;
    expect_error({"--compare", "gpu", mobilenet(), photo()}, "--compare expects 'cpu'");
}

}  // namespace

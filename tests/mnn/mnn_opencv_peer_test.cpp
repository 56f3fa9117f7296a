// An independent runtime as peer: OpenCV's dnn module runs the ONNX originals of the UltraFace networks
// (../shared/models/mnn/onnx/) on the same input, one thread, and npurun runs the converted .mnn files;
// the outputs must agree within 1e-4 (float32). Skipped when ../shared is absent. OpenCV is used by this
// test only, never by the runtime.
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <cstring>

#include "tests/mnn/mnn_test_util.h"

using namespace npurun;
using namespace npurun::mnn_testing;

class OpenCvPeer : public ::testing::TestWithParam<const char*> {};

TEST_P(OpenCvPeer, NpurunOnMnnMatchesOpenCvOnOnnx) {
    const std::string name = GetParam();
    const std::string onnx = shared_path("models/mnn/onnx/version-" + name + "_simplified.onnx");
    const std::string mnn = shared_path("models/mnn/" + name + ".mnn");
    const std::string input = shared_path("models/mnn/reference/ultraface/input_1.bin");
    NPURUN_REQUIRE_SHARED(onnx);
    NPURUN_REQUIRE_SHARED(mnn);
    const std::vector<float> x = read_floats(input);
    ASSERT_EQ(x.size(), 3u * 240 * 320);

    cv::setNumThreads(1);
    cv::dnn::Net net = cv::dnn::readNetFromONNX(onnx);
    const int dims[4] = {1, 3, 240, 320};
    cv::Mat blob(4, dims, CV_32F, const_cast<float*>(x.data()));
    net.setInput(blob);
    std::vector<cv::Mat> cv_out;
    const std::vector<std::string> names = {"scores", "boxes"};
    net.forward(cv_out, names);
    ASSERT_EQ(cv_out.size(), 2u);

    SessionOptions o;
    o.device = DeviceKind::Cpu;
    Session s(Model::load(mnn), o);
    std::memcpy(s.input(0).data, x.data(), x.size() * 4);
    s.run();
    for (size_t k = 0; k < 2; ++k) {
        const cv::Mat& ref = cv_out[k];
        ASSERT_TRUE(ref.isContinuous());
        const std::vector<float> r(ref.ptr<float>(), ref.ptr<float>() + ref.total());
        bool found = false;
        for (size_t i = 0; i < s.num_outputs(); ++i) {
            if (s.output(i).name != names[k]) continue;
            found = true;
            ASSERT_EQ(s.output(i).info.shape.num_elements(), r.size()) << names[k];
            EXPECT_LE(max_abs_diff(static_cast<const float*>(s.output(i).data), r), 1e-4) << names[k];
        }
        EXPECT_TRUE(found) << names[k];
    }
}

INSTANTIATE_TEST_SUITE_P(Mnn, OpenCvPeer, ::testing::Values("slim-320", "RFB-320"));

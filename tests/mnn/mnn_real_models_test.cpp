// The real .mnn files of ../shared/models/mnn against the real MNN runtime's outputs (and OpenCV dnn's on
// the ONNX originals, stored beside them): UltraFace slim/RFB float and slim int8, on the CPU and on the
// simulated NPU; the graph-only benchmark files load, infer every shape and run on zero weights.
// Skipped when ../shared is absent.
#include <cstring>

#include "ir/graph.h"
#include "tests/mnn/mnn_test_util.h"

using namespace npurun;
using namespace npurun::mnn_testing;

namespace {

const char* const kFace = "models/mnn/reference/ultraface/";

struct Result {
    std::vector<float> scores, boxes;
    std::vector<LayerProfile> profile;
};

Result run_face(const std::string& model, DeviceKind device, bool fp16) {
    auto m = Model::load(shared_path("models/mnn/" + model + ".mnn"));
    SessionOptions o;
    o.device = device;
    o.fp16 = fp16;
    o.profile = true;
    Session s(m, o);
    EXPECT_EQ(s.num_inputs(), 1u);
    const std::vector<float> in = read_floats(shared_path(std::string(kFace) + "input_1.bin"));
    EXPECT_EQ(s.input(0).info.num_bytes(), in.size() * 4);
    std::memcpy(s.input(0).data, in.data(), in.size() * 4);
    s.run();
    Result r;
    for (size_t i = 0; i < s.num_outputs(); ++i) {
        const TensorBinding& b = s.output(i);
        const float* p = static_cast<const float*>(b.data);
        std::vector<float> v(p, p + b.info.shape.num_elements());
        if (b.name == "scores") r.scores = v;
        if (b.name == "boxes") r.boxes = v;
    }
    r.profile = s.profile();
    return r;
}

void expect_close(const Result& r, const std::string& ref_dir, double tol_scores, double tol_boxes) {
    const std::vector<float> rs = read_floats(shared_path(std::string(kFace) + ref_dir + "/scores_1.bin"));
    const std::vector<float> rb = read_floats(shared_path(std::string(kFace) + ref_dir + "/boxes_1.bin"));
    ASSERT_EQ(r.scores.size(), rs.size());
    ASSERT_EQ(r.boxes.size(), rb.size());
    ASSERT_EQ(rs.size(), 4420u * 2);
    EXPECT_LE(max_abs_diff(r.scores.data(), rs), tol_scores) << ref_dir << " scores";
    EXPECT_LE(max_abs_diff(r.boxes.data(), rb), tol_boxes) << ref_dir << " boxes";
}

// Share of the convolution MACs that ran on the NPU, from the profile (NPU layers report MACs).
size_t npu_conv_layers(const Result& r) {
    size_t n = 0;
    for (const LayerProfile& p : r.profile)
        if ((p.type.rfind("Convolution2d", 0) == 0 || p.type.rfind("DepthwiseConvolution2d", 0) == 0) && p.device == "sim")
            ++n;
    return n;
}

}  // namespace

class UltraFaceFloat : public ::testing::TestWithParam<const char*> {};

// float32 on the CPU: within 1e-4 of the MNN runtime (whose softmax uses an approximate exp) and of OpenCV.
TEST_P(UltraFaceFloat, CpuMatchesMnnRuntimeAndOpenCv) {
    NPURUN_REQUIRE_SHARED(shared_path(std::string("models/mnn/") + GetParam() + ".mnn"));
    const Result r = run_face(GetParam(), DeviceKind::Cpu, false);
    expect_close(r, std::string("mnn-runtime/") + GetParam(), 1e-4, 1e-4);
    expect_close(r, std::string("opencv-onnx/") + GetParam(), 1e-4, 1e-4);
}

// --device sim without --fp16: float layers stay on the CPU, same numbers.
TEST_P(UltraFaceFloat, SimFloat32MatchesMnnRuntime) {
    NPURUN_REQUIRE_SHARED(shared_path(std::string("models/mnn/") + GetParam() + ".mnn"));
    const Result r = run_face(GetParam(), DeviceKind::Sim, false);
    expect_close(r, std::string("mnn-runtime/") + GetParam(), 1e-4, 1e-4);
}

// --device sim --fp16: every convolution on the NPU in float16. fp16 keeps 11 significant bits (relative
// rounding 4.9e-4 per operation) through ~40 layers: measured 2.8e-3 (scores) / 3.5e-2 (boxes, values up to
// ~10), held to 5e-3 / 5e-2.
TEST_P(UltraFaceFloat, SimFp16OnTheNpu) {
    NPURUN_REQUIRE_SHARED(shared_path(std::string("models/mnn/") + GetParam() + ".mnn"));
    const Result r = run_face(GetParam(), DeviceKind::Sim, true);
    expect_close(r, std::string("mnn-runtime/") + GetParam(), 5e-3, 5e-2);
    // Every convolution, also RFB's three dilated ones (the CONV_CON3 atrous fields, conv_layer.h).
    EXPECT_EQ(npu_conv_layers(r), std::string(GetParam()) == "slim-320" ? 42u : 52u);
}

INSTANTIATE_TEST_SUITE_P(Mnn, UltraFaceFloat, ::testing::Values("slim-320", "RFB-320"));

// MNN's int8 arithmetic on the CPU reference kernels: within 0.01 (scores) / 0.05 (boxes) of the MNN
// runtime (measured 4.5e-5 / 0.0386, one output LSB).
TEST(UltraFaceInt8, CpuMatchesMnnRuntime) {
    NPURUN_REQUIRE_SHARED(shared_path("models/mnn/slim-320-quant-ADMM-50.mnn"));
    const Result r = run_face("slim-320-quant-ADMM-50", DeviceKind::Cpu, false);
    expect_close(r, "mnn-runtime/slim-320-quant-ADMM-50", 0.01, 0.05);
}

// On the simulated NPU all 42 int8 convolutions run on the NPU. Each channel's multiplier is the product
// of two 16-bit factors (BS and BN MUL) and OUT_CVT's scale (runtime/npu/requant_per_channel.h), within
// ~2^-26 of MNN's float32 scale: each convolution gives the CPU's bytes (mnn_int8_layers_test.cpp) and the
// outputs equal the CPU's, 4.5e-5 (scores) / 0.0386 (boxes, one output LSB) off the MNN runtime (before:
// 15-bit mantissas, 0.0194 / 0.502).
TEST(UltraFaceInt8, SimRunsEveryConvolutionOnTheNpu) {
    NPURUN_REQUIRE_SHARED(shared_path("models/mnn/slim-320-quant-ADMM-50.mnn"));
    const Result r = run_face("slim-320-quant-ADMM-50", DeviceKind::Sim, false);
    EXPECT_EQ(npu_conv_layers(r), 42u);
    expect_close(r, "mnn-runtime/slim-320-quant-ADMM-50", 0.01, 0.05);
}

TEST(UltraFace, Deterministic) {
    NPURUN_REQUIRE_SHARED(shared_path("models/mnn/slim-320.mnn"));
    const Result a = run_face("slim-320", DeviceKind::Cpu, false);
    const Result b = run_face("slim-320", DeviceKind::Cpu, false);
    EXPECT_EQ(0, std::memcmp(a.scores.data(), b.scores.data(), a.scores.size() * 4));
    EXPECT_EQ(0, std::memcmp(a.boxes.data(), b.boxes.data(), a.boxes.size() * 4));
}

// Outputs are the tensors no op consumes, in the order their ops appear: boxes (a Concat) before scores.
TEST(UltraFace, OutputsNamedAfterTensors) {
    NPURUN_REQUIRE_SHARED(shared_path("models/mnn/slim-320.mnn"));
    auto m = Model::load(shared_path("models/mnn/slim-320.mnn"));
    const Graph& g = m->graph();
    ASSERT_EQ(g.outputs.size(), 2u);
    EXPECT_EQ(g.outputs[0].name, "boxes");
    EXPECT_EQ(g.outputs[1].name, "scores");
    EXPECT_EQ(g.info(g.outputs[0].tensor).shape, (Shape{1, 4420, 4}));
    EXPECT_EQ(g.info(g.outputs[1].tensor).shape, (Shape{1, 4420, 2}));
    ASSERT_EQ(g.inputs.size(), 1u);
    EXPECT_EQ(g.inputs[0].name, "input");
    EXPECT_EQ(g.info(g.inputs[0].tensor).shape, (Shape{1, 3, 240, 320}));
}

struct GraphOnly {
    const char* file;
    Shape input;
    Shape output;
};

class MnnGraphOnly : public ::testing::TestWithParam<GraphOnly> {};

// Weights stripped by MNN's benchmark converter: the graph loads, every shape is inferred, and it runs on
// zero weights (docs/mnn.md): the softmax of zero logits is uniform.
TEST_P(MnnGraphOnly, LoadsInfersAndRunsOnZeroWeights) {
    const std::string p = shared_path(std::string("models/mnn/graph-only/") + GetParam().file);
    NPURUN_REQUIRE_SHARED(p);
    auto m = Model::load(p);
    const Graph& g = m->graph();
    ASSERT_EQ(g.inputs.size(), 1u);
    EXPECT_EQ(g.info(g.inputs[0].tensor).shape, GetParam().input);  // the -1 batch resolved to 1
    ASSERT_GE(g.outputs.size(), 1u);
    EXPECT_EQ(g.info(g.outputs[0].tensor).shape, GetParam().output);
    for (const Tensor& t : g.tensors) EXPECT_GT(t.info.shape.num_elements(), 0u) << t.name;
    SessionOptions o;
    o.device = DeviceKind::Cpu;
    Session s(m, o);
    std::memset(s.input(0).data, 0, s.input(0).info.num_bytes());
    s.run();
    const float* y = static_cast<const float*>(s.output(0).data);
    const size_t n = s.output(0).info.shape.num_elements();
    for (size_t i = 0; i < n; ++i) ASSERT_NEAR(y[i], 1.0f / float(n), 1e-6f);
}

INSTANTIATE_TEST_SUITE_P(Mnn, MnnGraphOnly,
                         ::testing::Values(GraphOnly{"MobileNetV2_224.mnn", Shape{1, 3, 224, 224}, Shape{1, 1001}},
                                           GraphOnly{"mobilenet-v1-1.0.mnn", Shape{1, 3, 224, 224}, Shape{1, 1001}},
                                           GraphOnly{"resnet-v2-50.mnn", Shape{1, 3, 224, 224}, Shape{1, 1001}},
                                           GraphOnly{"SqueezeNetV1.0.mnn", Shape{1, 3, 224, 224}, Shape{1, 1001}},
                                           GraphOnly{"squeezenetv1.1.mnn", Shape{1, 3, 227, 227}, Shape{1, 1000, 1, 1}}));

// --input-shape: an open batch takes the given size; a fixed dimension cannot be changed.
TEST(MnnInputShape, OpenBatchTakesTheGivenSize) {
    const std::string p = shared_path("models/mnn/graph-only/MobileNetV2_224.mnn");
    NPURUN_REQUIRE_SHARED(p);
    LoadOptions o;
    o.input_shapes = {{"input", {2, 3, 224, 224}}};
    auto m = Model::load(p, o);
    EXPECT_EQ(m->graph().info(m->graph().outputs[0].tensor).shape, (Shape{2, 1001}));
    o.input_shapes = {{"input", {1, 3, 225, 224}}};
    EXPECT_THROW(Model::load(p, o), Error);
    o.input_shapes = {{"nope", {1, 3, 224, 224}}};
    EXPECT_THROW(Model::load(p, o), Error);
}

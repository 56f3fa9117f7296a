// The MNN ops of seed 002 (CaffeOp.fbs) that the loader maps beyond the plain CNN set: each on a small
// file built in code, against values computed by hand from MNN's / Caffe's definitions, plus one
// malformed-attribute file per op that must fail with a one-line error naming the op.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "include/npurun/npurun.hpp"
#include "ir/graph.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/mnn/mnn_test_models.h"
#include "tests/mnn/mnn_test_run.h"

using namespace npurun;
using namespace npurun::mnn_testing;

namespace {

// The data of the constant tensor named `name` (a folded op's output).
const float* constant_named(const Model& m, const std::string& name, Shape* shape) {
    for (const auto& t : m.graph().tensors)
        if (t.name == name && t.is_constant()) {
            *shape = t.info.shape;
            return static_cast<const float*>(t.data);
        }
    return nullptr;
}

// A malformed file, the text its one-line error must contain, and what the case is for messages.
struct ErrorCase {
    const char* what;
    std::vector<uint8_t> bytes;
    const char* expect;
};

// Each case fails to load with an error naming the op (op_label, e.g. "'det' (DetectionOutput)") and the defect.
void expect_errors(const std::vector<ErrorCase>& cases, const std::string& op_label) {
    for (const ErrorCase& c : cases) {
        const std::string m = load_error(c.bytes);
        EXPECT_NE(m.find(op_label), std::string::npos) << c.what << ": " << m;
        EXPECT_NE(m.find(c.expect), std::string::npos) << c.what << ": " << m;
    }
}

// Every node of kind `op` is placed on the CPU, refused by the NPU placement with the op's name.
void expect_cpu_only(const std::shared_ptr<const Model>& m, OpKind op) {
    const Graph& g = m->graph();
    const Placement p = place(g, npu::npu_placement_options(false));
    size_t found = 0;
    for (uint32_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].op == op) {
            ++found;
            EXPECT_EQ(p.nodes[i].device, Placed::Cpu);
            const std::string want = std::string(to_string(op)) + " is not an NPU operation";
            EXPECT_NE(p.nodes[i].reason.find(want), std::string::npos) << p.nodes[i].reason;
        }
    EXPECT_GT(found, 0u) << to_string(op);
}

struct PriorBoxSpec {
    std::vector<float> min_sizes{4.0f}, max_sizes{8.0f}, ratios{2.0f}, variances{0.1f, 0.1f, 0.2f, 0.2f};
    bool flip = true, clip = false;
    int32_t image_w = 0, image_h = 0, step_w = 0, step_h = 0;
    float offset = 0.5f;
};

// Feature map x [1,3,2,2] and image [1,3,8,8] -> PriorBox "priors" -> priors + z (z [1,2,n,1]), so that
// the folded constant also flows through a run.
NetSpec prior_box_net(const PriorBoxSpec& p, int32_t n = 64) {
    NetSpec s;
    s.tensors = {"feat", "image", "priors", "z", "sum"};
    s.ops = {input_op(0, {1, 3, 2, 2}, "feat"), input_op(1, {1, 3, 8, 8}, "image"),
             param_op(MNN::OpType::PriorBox, {0, 1}, {2}, "priors", [p](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 return {MNN::OpParameter::PriorBox,
                         MNN::CreatePriorBoxDirect(fb, &p.min_sizes, &p.max_sizes, &p.ratios, &p.variances, p.flip, p.clip,
                                                   p.image_w, p.image_h, p.step_w, p.step_h, p.offset)
                             .Union()};
             }),
             input_op(3, {1, 2, n, 1}, "z"),
             param_op(MNN::OpType::BinaryOp, {2, 3}, {4}, "sum", [](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 return {MNN::OpParameter::BinaryOp, MNN::CreateBinaryOp(fb, 0).Union()};
             })};
    return s;
}

}  // namespace

// Position (0,0) of a 2x2 map on an 8x8 image: step 4, centre (2,2). Ratios {1, 2, 1/2}, one max size:
// P = 1*3 + 1 = 4 boxes per position, in the order min, sqrt(min*max), ratio 2, ratio 1/2.
TEST(MnnPriorBox, FoldsToCaffeBoxes) {
    auto m = load(build(prior_box_net({})));
    Shape shape;
    const float* v = constant_named(*m, "priors", &shape);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(shape, (Shape{1, 2, 64, 1}));
    const double r2 = std::sqrt(2.0), s32 = std::sqrt(32.0);
    const double expect00[16] = {
        0.0, 0.0, 0.5, 0.5,                                                          // min 4: (2 -+ 2) / 8
        (2 - s32 / 2) / 8, (2 - s32 / 2) / 8, (2 + s32 / 2) / 8, (2 + s32 / 2) / 8,  // sqrt(4*8)
        (2 - 2 * r2) / 8, (2 - r2) / 8, (2 + 2 * r2) / 8, (2 + r2) / 8,              // w 4*sqrt2, h 4/sqrt2
        (2 - r2) / 8, (2 - 2 * r2) / 8, (2 + r2) / 8, (2 + 2 * r2) / 8,              // ratio 1/2
    };
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(v[i], expect00[i], 1e-6) << i;
    // Position (0,1): centre (6,2); position (1,0): centre (2,6); position (1,1): centre (6,6).
    const double min01[4] = {0.5, 0.0, 1.0, 0.5}, min10[4] = {0.0, 0.5, 0.5, 1.0}, min11[4] = {0.5, 0.5, 1.0, 1.0};
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(v[16 + i], min01[i], 1e-6);
        EXPECT_NEAR(v[32 + i], min10[i], 1e-6);
        EXPECT_NEAR(v[48 + i], min11[i], 1e-6);
    }
    for (int i = 0; i < 64; ++i) EXPECT_FLOAT_EQ(v[64 + i], i % 4 < 2 ? 0.1f : 0.2f) << i;
    // The constant also runs: priors + z.
    std::vector<float> z(128);
    for (size_t i = 0; i < z.size(); ++i) z[i] = float(i);
    const std::vector<float> got = run_cpu(m, {std::vector<float>(12, 0.0f), std::vector<float>(192, 0.0f), z});
    ASSERT_EQ(got.size(), 128u);
    for (size_t i = 0; i < 128; ++i) EXPECT_FLOAT_EQ(got[i], v[i] + z[i]) << i;
}

// Explicit image size and steps, no flip, clip, offset 0, one shared variance.
TEST(MnnPriorBox, ExplicitStepsClipAndSharedVariance) {
    PriorBoxSpec p;
    p.max_sizes.clear();
    p.ratios = {2.0f, 2.0f};  // the duplicate is dropped: ratios {1, 2}, P = 2
    p.flip = false;
    p.clip = true;
    p.image_w = 16, p.image_h = 8, p.step_w = 5, p.step_h = 3, p.offset = 0.0f;
    p.variances = {0.3f};
    const NetSpec s = prior_box_net(p, 32);
    auto m = load(build(s));
    Shape shape;
    const float* v = constant_named(*m, "priors", &shape);
    ASSERT_NE(v, nullptr);
    ASSERT_EQ(shape, (Shape{1, 2, 32, 1}));  // 2x2 positions x 2 boxes x 4
    const double r2 = std::sqrt(2.0);
    // (0,0): centre (0,0): min box [-2,-2,2,2] / (16,8), clipped; ratio 2: w 4*sqrt2, h 4/sqrt2.
    const double e00[8] = {0.0, 0.0, 2.0 / 16, 2.0 / 8, 0.0, 0.0, 2 * r2 / 16, r2 / 8};
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(v[i], e00[i], 1e-6) << i;
    // (1,1): centre (5,3).
    const double e11[8] = {3.0 / 16, 1.0 / 8, 7.0 / 16, 5.0 / 8, (5 - 2 * r2) / 16, (3 - r2) / 8, (5 + 2 * r2) / 16, (3 + r2) / 8};
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(v[24 + i], e11[i], 1e-6) << i;
    for (int i = 0; i < 32; ++i) EXPECT_FLOAT_EQ(v[32 + i], 0.3f);
}

TEST(MnnPriorBox, MalformedAttributesAreNamed) {
    auto with = [](auto edit) {
        PriorBoxSpec p;
        edit(p);
        return build(prior_box_net(p));
    };
    const std::vector<ErrorCase> cases = {
        {"no min sizes", with([](PriorBoxSpec& p) { p.min_sizes.clear(); p.max_sizes.clear(); }), "has no minSizes"},
        {"negative min size", with([](PriorBoxSpec& p) { p.min_sizes = {-4.0f}; }), "minSizes[0] is -4"},
        {"max count mismatch", with([](PriorBoxSpec& p) { p.max_sizes = {8.0f, 9.0f}; }), "2 maxSizes for 1 minSizes"},
        {"zero ratio", with([](PriorBoxSpec& p) { p.ratios = {0.0f}; }), "aspectRatios[0] is 0"},
        {"nan ratio", with([](PriorBoxSpec& p) { p.ratios = {std::nanf("")}; }), "aspectRatios[0] is nan"},
        {"three variances", with([](PriorBoxSpec& p) { p.variances = {0.1f, 0.1f, 0.2f}; }), "variances has 3 values"},
        {"ratio next to 1", with([](PriorBoxSpec& p) { p.ratios = {1.0000015f}; p.flip = false; }), "so close to 1"},
    };
    expect_errors(cases, "'priors' (PriorBox)");
    // A huge feature map: the value limit, not an allocation.
    NetSpec huge = prior_box_net({});
    huge.ops[0] = input_op(0, {1, 1, 30000, 30000}, "feat");
    expect_errors({{"huge map", build(huge), "exceed npurun's limit"}}, "'priors' (PriorBox)");
}

// ---- Deconvolution / DeconvolutionDepthwise ----

namespace {

struct DeconvSpec {
    MNN::OpType type = MNN::OpType::Deconvolution;
    int32_t ic = 2, oc = 3, h = 2, w = 2, k = 2, stride = 2, dilate = 1, group = 1;
    MNN::PadMode mode = MNN::PadMode::CAFFE;
    int32_t pad = 0;
    std::vector<int32_t> pads, out_pads;
    bool relu = false;
    std::vector<float> weights, bias;  // weights [ic][oc/group][k][k]
};

NetSpec deconv_net(const DeconvSpec& d) {
    NetSpec s;
    s.tensors = {"x", "y"};
    s.ops = {input_op(0, {1, d.ic, d.h, d.w}),
             param_op(d.type, {0}, {1}, "deconv", [d](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 const auto c = MNN::CreateConvolution2DCommonDirect(
                     fb, d.pad, d.pad, d.k, d.k, d.stride, d.stride, d.dilate, d.dilate, d.mode, d.group, d.oc, d.ic, d.relu,
                     false, d.pads.empty() ? nullptr : &d.pads, d.out_pads.empty() ? nullptr : &d.out_pads);
                 return {MNN::OpParameter::Convolution2D, MNN::CreateConvolution2DDirect(fb, c, &d.weights, &d.bias).Union()};
             })};
    return s;
}

// Caffe's deconvolution written out: input (iy, ix) of channel i adds w[i][j][ky][kx] into output channel
// o (j = o, or 0 for depthwise with i = o) at (iy*s + ky*d - top, ix*s + kx*d - left); then the bias.
std::vector<double> deconv_direct(const DeconvSpec& d, const std::vector<float>& x, uint32_t oh, uint32_t ow, int top, int left) {
    const bool dw = d.type == MNN::OpType::DeconvolutionDepthwise;
    const int per = dw ? 1 : d.oc;
    std::vector<double> y(size_t(d.oc) * oh * ow);
    for (int o = 0; o < d.oc; ++o)
        for (size_t p = 0; p < size_t(oh) * ow; ++p) y[o * oh * ow + p] = d.bias[o];
    for (int i = 0; i < d.ic; ++i)
        for (int j = 0; j < per; ++j) {
            const int o = dw ? i : j;
            for (int iy = 0; iy < d.h; ++iy)
                for (int ix = 0; ix < d.w; ++ix)
                    for (int ky = 0; ky < d.k; ++ky)
                        for (int kx = 0; kx < d.k; ++kx) {
                            const int oy = iy * d.stride + ky * d.dilate - top, ox = ix * d.stride + kx * d.dilate - left;
                            if (oy < 0 || ox < 0 || oy >= int(oh) || ox >= int(ow)) continue;
                            y[(size_t(o) * oh + oy) * ow + ox] +=
                                double(x[(size_t(i) * d.h + iy) * d.w + ix]) * d.weights[((size_t(i) * per + j) * d.k + ky) * d.k + kx];
                        }
        }
    if (d.relu)
        for (double& v : y) v = std::max(v, 0.0);
    return y;
}

void expect_deconv(const DeconvSpec& d, const Shape& out, int top, int left) {
    auto m = load(build(deconv_net(d)));
    ASSERT_EQ(m->graph().info(m->graph().outputs[0].tensor).shape, out);
    const std::vector<float> x = ramp(size_t(d.ic) * d.h * d.w, 0.25f, 0.1f);
    const std::vector<double> want = deconv_direct(d, x, out[2], out[3], top, left);
    for (DeviceKind device : {DeviceKind::Cpu, DeviceKind::Sim}) {
        const std::vector<float> got = run_on(device, m, {x});
        ASSERT_EQ(got.size(), want.size()) << to_string(device);
        for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << to_string(device) << " " << i;
    }
}

}  // namespace

// A literal case first: 1 -> 1 channel, 2x2 kernel, stride 2 on a 1x2 input: the kernel is stamped
// at x = 0 and x = 2, scaled by the input values, plus the bias.
TEST(MnnDeconvolution, StampsTheKernel) {
    DeconvSpec d;
    d.ic = 1, d.oc = 1, d.h = 1, d.w = 2;
    d.weights = {1.0f, 2.0f, 3.0f, 4.0f};
    d.bias = {0.5f};
    auto m = load(build(deconv_net(d)));
    ASSERT_EQ(m->graph().info(m->graph().outputs[0].tensor).shape, (Shape{1, 1, 2, 4}));
    const std::vector<float> got = run_cpu(m, std::vector<float>{2.0f, -1.0f});
    const std::vector<float> want = {2.5f, 4.5f, -0.5f, -1.5f, 6.5f, 8.5f, -2.5f, -3.5f};
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
}

// Weights [ic][oc][k][k] (not [oc][ic]): 2 -> 3 channels, overlapping 3x3 windows with stride 2, pad 1.
TEST(MnnDeconvolution, InputMajorWeightsAndPadding) {
    DeconvSpec d;
    d.h = 3, d.w = 2, d.k = 3, d.pad = 1;
    d.weights = ramp(2 * 3 * 9, 0.1f, 0.02f);
    d.bias = {0.1f, -0.2f, 0.3f};
    expect_deconv(d, Shape{1, 3, 5, 3}, 1, 1);  // (3-1)*2+3-2 = 5, (2-1)*2+3-2 = 3
}

// SAME: out = in * stride, leading pad ((in-1)*s + k - out) / 2 = (2*2+3-6)/2 = 0, the rest at the end.
TEST(MnnDeconvolution, SamePadding) {
    DeconvSpec d;
    d.h = 3, d.w = 3, d.k = 3, d.mode = MNN::PadMode::SAME, d.relu = true;
    d.weights = ramp(2 * 3 * 9, 0.1f, -0.03f);
    d.bias = {0.0f, 0.2f, -0.1f};
    expect_deconv(d, Shape{1, 3, 6, 6}, 0, 0);
}

// Depthwise, dilation 2, explicit [top, left, bottom, right] pads and outPads, fused ReLU.
TEST(MnnDeconvolution, DepthwiseDilatedWithPadsAndOutPads) {
    DeconvSpec d;
    d.type = MNN::OpType::DeconvolutionDepthwise;
    d.ic = 2, d.oc = 2, d.group = 2, d.h = 3, d.w = 3, d.k = 2, d.stride = 1, d.dilate = 2, d.relu = true;
    d.pads = {1, 0, 1, 1};
    d.out_pads = {1, 1};
    d.weights = ramp(2 * 4, 0.3f, 0.05f);
    d.bias = {0.1f, -0.1f};
    // full extent (3-1)*1 + 2*(2-1)+1 = 5; h: 5-1-1+1 = 4; w: 5-0-1+1 = 5
    expect_deconv(d, Shape{1, 2, 4, 5}, 1, 0);
}

TEST(MnnDeconvolution, MalformedAttributesAreNamed) {
    auto with = [](auto edit) {
        DeconvSpec d;
        d.weights = ramp(24, 0.1f, 0.0f);
        d.bias = {0.0f, 0.0f, 0.0f};
        edit(d);
        return build(deconv_net(d));
    };
    const std::vector<ErrorCase> cases = {
        {"weight count", with([](DeconvSpec& d) { d.weights.resize(11); }), "has 11 weights, expected 24"},
        {"bias count", with([](DeconvSpec& d) { d.bias.resize(2); }), "2 bias values for 3 output channels"},
        {"stride 0", with([](DeconvSpec& d) { d.stride = 0; }), "size 0 is out of range"},
        {"negative pad", with([](DeconvSpec& d) { d.pad = -1; }), "padY is -1"},
        {"two pads", with([](DeconvSpec& d) { d.pads = {1, 1}; }), "pads has 2 values"},
        {"grouped", with([](DeconvSpec& d) { d.group = 2; }), "grouped deconvolution (group 2"},
        {"past the kernel", with([](DeconvSpec& d) { d.out_pads = {3, 0}; }), "reaches past the kernel"},
        {"padding eats the output", with([](DeconvSpec& d) { d.pad = 3; }), "output height -2 is invalid"},
    };
    expect_errors(cases, "'deconv' (Deconvolution)");
}

// ---- EltwiseInt8 ----

namespace {

Param quant_param(flatbuffers::FlatBufferBuilder& fb, const std::vector<float>& tensor_scale) {
    return {MNN::OpParameter::QuantizedFloatParam,
            MNN::CreateQuantizedFloatParamDirect(fb, nullptr, nullptr, nullptr, &tensor_scale).Union()};
}

OpSpec quant_op(MNN::OpType type, int32_t in, int32_t out, std::string name, std::vector<float> ts) {
    return param_op(type, {in}, {out}, std::move(name),
                    [ts](flatbuffers::FlatBufferBuilder& fb) -> Param { return quant_param(fb, ts); });
}

struct EltwiseInt8Scales {
    std::vector<float> s0, s1, so;
};

OpSpec eltwise_int8_op(std::vector<int32_t> in, int32_t out, std::string name, EltwiseInt8Scales s) {
    return param_op(MNN::OpType::EltwiseInt8, std::move(in), {out}, std::move(name), [s](flatbuffers::FlatBufferBuilder& fb) -> Param {
        auto q = [&](const std::vector<float>& v) {
            return v.empty() ? flatbuffers::Offset<MNN::QuantizedFloatParam>() : MNN::CreateQuantizedFloatParamDirect(fb, nullptr, nullptr, nullptr, &v);
        };
        const auto q0 = q(s.s0), q1 = q(s.s1), qo = q(s.so);
        return {MNN::OpParameter::EltwiseInt8, MNN::CreateEltwiseInt8(fb, MNN::EltwiseType::SUM, q0, q1, qo).Union()};
    });
}

constexpr float kInv0 = 20.0f, kInv1 = 12.0f, kT1 = 0.05f, kT2 = 0.2f;
const EltwiseInt8Scales kE1{{0.5f, 0.25f, 1.5f}, {0.3f, 0.7f, 0.1f}, {2.0f, 1.3f, 0.9f}};
const EltwiseInt8Scales kE2{{0.6f, 0.45f, 0.3f}, {1.1f, 0.2f, 0.35f}, {0.8f, 1.7f, 0.5f}};

// x0, x1 [1,3,2,2] -> FloatToInt8 -> e1 = EltwiseInt8(q0, q1) -> y1 (Int8ToFloat t1)
//                                    e2 = EltwiseInt8(e1, q1) -> y2 (Int8ToFloat t2)
// e1 has an Int8ToFloat reader, so its IR scale is t1: e2 exercises the rescaling of a non-1 input.
NetSpec eltwise_int8_net(EltwiseInt8Scales e1 = kE1) {
    NetSpec s;
    s.tensors = {"x0", "x1", "q0", "q1", "e1", "y1", "e2", "y2"};
    s.ops = {input_op(0, {1, 3, 2, 2}, "x0"),
             input_op(1, {1, 3, 2, 2}, "x1"),
             quant_op(MNN::OpType::FloatToInt8, 0, 2, "q0", std::vector<float>(3, kInv0)),
             quant_op(MNN::OpType::FloatToInt8, 1, 3, "q1", std::vector<float>(3, kInv1)),
             eltwise_int8_op({2, 3}, 4, "e1", e1),
             quant_op(MNN::OpType::Int8ToFloat, 4, 5, "y1", std::vector<float>(3, kT1)),
             eltwise_int8_op({4, 3}, 6, "e2", kE2),
             quant_op(MNN::OpType::Int8ToFloat, 6, 7, "y2", std::vector<float>(3, kT2))};
    return s;
}

float mnn_quantize(float x, float inv) { return std::max(-127.0f, std::min(127.0f, std::round(x * inv))); }

// MNN's CPUEltwiseInt8 in float: products, sum, output product, clamp, truncating cast.
float mnn_eltwise_int8(float q0, float q1, float s0, float s1, float so) {
    const float sum = q0 * s0 + q1 * s1;
    return std::trunc(std::max(std::min(sum * so, 127.0f), -127.0f));
}

}  // namespace

TEST(MnnEltwiseInt8, ReproducesMnnArithmetic) {
    auto m = load(build(eltwise_int8_net()));
    ASSERT_EQ(m->graph().outputs.size(), 2u);
    std::vector<float> x0 = ramp(12, 0.9f, 0.13f), x1 = ramp(12, -1.7f, 0.31f);
    x0[5] = 9.0f;  // saturates FloatToInt8, and e1 then hits the +127 clamp
    for (DeviceKind device : {DeviceKind::Cpu, DeviceKind::Sim}) {
        SCOPED_TRACE(to_string(device));
        const std::vector<float> y1 = run_on(device, m, {x0, x1}, 0), y2 = run_on(device, m, {x0, x1}, 1);
        ASSERT_EQ(y1.size(), 12u);
        ASSERT_EQ(y2.size(), 12u);
        int truncations = 0, clamps = 0;
        for (int c = 0; c < 3; ++c)
            for (int p = 0; p < 4; ++p) {
                const int i = c * 4 + p;
                const float q0 = mnn_quantize(x0[i], kInv0), q1 = mnn_quantize(x1[i], kInv1);
                const float e1 = mnn_eltwise_int8(q0, q1, kE1.s0[c], kE1.s1[c], kE1.so[c]);
                const float e2 = mnn_eltwise_int8(e1, q1, kE2.s0[c], kE2.s1[c], kE2.so[c]);
                const float v = (q0 * kE1.s0[c] + q1 * kE1.s1[c]) * kE1.so[c];
                truncations += std::fabs(v - std::trunc(v)) > 0.5f;  // where rounding would give another integer
                clamps += std::fabs(v) > 127.0f;
                EXPECT_FLOAT_EQ(y1[i], e1 * kT1) << c << "," << p;
                EXPECT_FLOAT_EQ(y2[i], e2 * kT2) << c << "," << p;
            }
        EXPECT_GT(truncations, 0);  // the data tells truncation from rounding
        EXPECT_GT(clamps, 0);
    }
}

TEST(MnnEltwiseInt8, MalformedAttributesAreNamed) {
    NetSpec one_input = eltwise_int8_net();
    one_input.ops[4].inputs = {2};
    NetSpec float_input = eltwise_int8_net();
    float_input.ops[4].inputs = {0, 3};
    const std::vector<ErrorCase> cases = {
        {"scale count", build(eltwise_int8_net({{0.5f, 0.25f}, kE1.s1, kE1.so})), "inputQuan0.tensorScale has 2 values for 3 channels"},
        {"no output scales", build(eltwise_int8_net({kE1.s0, kE1.s1, {}})), "has no outputQuan.tensorScale"},
        {"infinite scale", build(eltwise_int8_net({kE1.s0, {0.3f, INFINITY, 0.1f}, kE1.so})), "inputQuan1.tensorScale[1] is not finite"},
        {"one input", build(one_input), "has 1 inputs"},
        {"float input", build(float_input), "expected int8"},
    };
    expect_errors(cases, "'e1' (EltwiseInt8)");
}

// ---- DetectionOutput ----

namespace {

struct DetectionSpec {
    int32_t classes = 3, keep = 4;
    float nms = 0.5f, confidence = 0.3f;
    int32_t inputs = 3;
};

// loc [1,12], conf [1,9], priors [1,2,12,1] as model inputs -> DetectionOutput "det".
NetSpec detection_net(const DetectionSpec& d) {
    NetSpec s;
    s.tensors = {"loc", "conf", "priors", "det"};
    std::vector<int32_t> in = {0, 1, 2};
    if (d.inputs != 3) in.resize(size_t(d.inputs), 2);
    s.ops = {input_op(0, {1, 12}, "loc"), input_op(1, {1, 9}, "conf"), input_op(2, {1, 2, 12, 1}, "priors"),
             param_op(MNN::OpType::DetectionOutput, in, {3}, "det", [d](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 return {MNN::OpParameter::DetectionOutput,
                         MNN::CreateDetectionOutput(fb, d.classes, d.nms, 100, d.keep, d.confidence, 1, 0, 0, 2).Union()};
             })};
    return s;
}

// Three priors; p0 and p1 overlap (IoU 2/3 once p1 is shifted right by its location), p2 lies apart and
// is widened to twice its width (w = exp(0.2 * 5 ln 2) * 0.2 = 0.4).
const std::vector<float> kPriors = {0.1f, 0.1f, 0.3f, 0.3f, 0.12f, 0.1f, 0.32f, 0.3f, 0.6f, 0.6f, 0.8f, 0.8f,
                                    0.1f, 0.1f, 0.2f, 0.2f, 0.1f, 0.1f, 0.2f, 0.2f, 0.1f, 0.1f, 0.2f, 0.2f};
const std::vector<float> kLoc = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, float(5 * std::log(2.0)), 0};
// [prior][class], class 0 the background
const std::vector<float> kConf = {0.1f, 0.8f, 0.1f, 0.2f, 0.7f, 0.6f, 0.5f, 0.05f, 0.45f};

std::vector<float> detect(const DetectionSpec& d, DeviceKind device = DeviceKind::Cpu) {
    return run_on(device, load(build(detection_net(d))), {kLoc, kConf, kPriors});
}

void expect_row(const std::vector<float>& out, size_t r, float label, float score, std::vector<float> box) {
    SCOPED_TRACE("row " + std::to_string(r));
    ASSERT_GE(out.size(), 6 * r + 6);
    EXPECT_EQ(out[6 * r], label);
    EXPECT_FLOAT_EQ(out[6 * r + 1], score);
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(out[6 * r + 2 + k], box[size_t(k)], 1e-6) << k;
}

const std::vector<float> kBox0 = {0.1f, 0.1f, 0.3f, 0.3f}, kBox1 = {0.14f, 0.1f, 0.34f, 0.3f}, kBox2 = {0.5f, 0.6f, 0.9f, 0.8f};

}  // namespace

// Class 1: p0 (0.8) suppresses p1 (0.7, IoU 2/3 > 0.5); p2 (0.05) is under the threshold. Class 2: p1 (0.6)
// and p2 (0.45) do not overlap. Sorted by score, then a filler row (label -1).
TEST(MnnDetectionOutput, DecodesSuppressesAndSorts) {
    for (DeviceKind device : {DeviceKind::Cpu, DeviceKind::Sim}) {
        SCOPED_TRACE(to_string(device));
        const std::vector<float> out = detect({}, device);
        ASSERT_EQ(out.size(), 24u);
        expect_row(out, 0, 1, 0.8f, kBox0);
        expect_row(out, 1, 2, 0.6f, kBox1);
        expect_row(out, 2, 2, 0.45f, kBox2);
        expect_row(out, 3, -1, 0.0f, {0, 0, 0, 0});
    }
}

// A looser NMS keeps both class-1 boxes; keepTopK 1 limits every class to one box and the output to one row.
TEST(MnnDetectionOutput, ThresholdsAndKeepTopK) {
    DetectionSpec loose;
    loose.nms = 0.7f;
    const std::vector<float> a = detect(loose);
    expect_row(a, 0, 1, 0.8f, kBox0);
    expect_row(a, 1, 1, 0.7f, kBox1);
    expect_row(a, 2, 2, 0.6f, kBox1);
    expect_row(a, 3, 2, 0.45f, kBox2);
    DetectionSpec one;
    one.keep = 1;
    const std::vector<float> b = detect(one);
    ASSERT_EQ(b.size(), 6u);
    expect_row(b, 0, 1, 0.8f, kBox0);
    DetectionSpec strict;
    strict.confidence = 0.65f;  // only class 1's p0 and p1 pass, and p1 is suppressed
    const std::vector<float> c = detect(strict);
    expect_row(c, 0, 1, 0.8f, kBox0);
    expect_row(c, 1, -1, 0.0f, {0, 0, 0, 0});
}

// The NPU placement refuses the op by name: it runs on the CPU in a --device sim session.
TEST(MnnDetectionOutput, PlacementKeepsItOnTheCpu) { expect_cpu_only(load(build(detection_net({}))), OpKind::DetectionOutput); }

// PriorBox (folded to a constant) feeding DetectionOutput: one 4x4 prior centred on a 10x10 image.
TEST(MnnDetectionOutput, TakesFoldedPriors) {
    NetSpec s;
    s.tensors = {"feat", "image", "priors", "loc", "conf", "det"};
    PriorBoxSpec pb;
    pb.max_sizes.clear();
    pb.ratios.clear();
    s.ops = {input_op(0, {1, 1, 1, 1}, "feat"), input_op(1, {1, 3, 10, 10}, "image"),
             param_op(MNN::OpType::PriorBox, {0, 1}, {2}, "priors", [pb](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 return {MNN::OpParameter::PriorBox,
                         MNN::CreatePriorBoxDirect(fb, &pb.min_sizes, nullptr, nullptr, &pb.variances, false, false, 0, 0, 0, 0, 0.5f)
                             .Union()};
             }),
             input_op(3, {1, 4}, "loc"), input_op(4, {1, 2}, "conf"),
             param_op(MNN::OpType::DetectionOutput, {3, 4, 2}, {5}, "det", [](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 return {MNN::OpParameter::DetectionOutput, MNN::CreateDetectionOutput(fb, 2, 0.45f, 100, 2, 0.5f).Union()};
             })};
    const std::vector<float> out =
        run_on(DeviceKind::Cpu, load(build(s)), {{0.0f}, std::vector<float>(300, 0.0f), {0, 0, 0, 0}, {0.2f, 0.8f}});
    ASSERT_EQ(out.size(), 12u);
    expect_row(out, 0, 1, 0.8f, {0.3f, 0.3f, 0.7f, 0.7f});
    expect_row(out, 1, -1, 0.0f, {0, 0, 0, 0});
}

TEST(MnnDetectionOutput, MalformedAttributesAreNamed) {
    struct Row {
        const char* what;
        DetectionSpec d;  // classes, keep, nms, confidence, inputs
        const char* expect;
    };
    const Row rows[] = {
        {"no classes", {0, 4, 0.5f, 0.3f, 3}, "classCount 0 is out of range"},
        {"classes do not fit", {4, 4, 0.5f, 0.3f, 3}, "confidences hold 9 values; 3 priors x 4 classes need 12"},
        {"keepTopK 0", {3, 0, 0.5f, 0.3f, 3}, "keepTopK 0 is out of range"},
        {"huge keepTopK", {3, 100000, 0.5f, 0.3f, 3}, "keepTopK 100000 is out of range"},
        {"nan threshold", {3, 4, std::nanf(""), 0.3f, 3}, "nmsThreshold is not finite"},
        {"two inputs", {3, 4, 0.5f, 0.3f, 2}, "has 2 inputs"},
        {"refinedet", {3, 4, 0.5f, 0.3f, 5}, "RefineDet"},
    };
    std::vector<ErrorCase> cases;
    for (const Row& r : rows) cases.push_back({r.what, build(detection_net(r.d)), r.expect});
    NetSpec short_priors = detection_net({});  // priors that do not match the locations: the IR op's own check
    short_priors.ops[2] = input_op(2, {1, 2, 8, 1}, "priors");
    cases.push_back({"short priors", build(short_priors), "priors hold 16 values; 3 priors need 24"});
    expect_errors(cases, "'det' (DetectionOutput)");
}

// ---- LSTM (Caffe form) ----

namespace {

struct LstmSpec {
    int32_t steps = 3, features = 2, units = 2;
    std::vector<float> wi, wh, bias;  // [4][U][F], [4][U][U], [4][U], gates I, F, O, G
};

Param lstm_param(flatbuffers::FlatBufferBuilder& fb, const LstmSpec& l) {
    auto blob = [&](const std::vector<float>& v) {
        const std::vector<int32_t> dims = {int32_t(v.size())};
        return v.empty() ? flatbuffers::Offset<MNN::Blob>()
                         : MNN::CreateBlobDirect(fb, &dims, MNN::MNN_DATA_FORMAT::NCHW, MNN::DataType::DT_FLOAT, nullptr, nullptr,
                                                 nullptr, nullptr, &v);
    };
    const auto wi = blob(l.wi), wh = blob(l.wh), bias = blob(l.bias);
    return {MNN::OpParameter::LSTM, MNN::CreateLSTM(fb, l.units, int32_t(l.wi.size()), 0.0f, wi, wh, bias).Union()};
}

NetSpec lstm_net(const LstmSpec& l, std::vector<int32_t> input_dims = {}) {
    NetSpec s;
    s.tensors = {"x", "h"};
    if (input_dims.empty()) input_dims = {1, l.steps, 1, l.features};
    s.ops = {input_op(0, input_dims),
             param_op(MNN::OpType::LSTM, {0}, {1}, "lstm", [l](flatbuffers::FlatBufferBuilder& fb) { return lstm_param(fb, l); })};
    return s;
}

LstmSpec small_lstm() {
    LstmSpec l;
    l.wi = ramp(16, 0.15f, 0.02f);
    l.wh = ramp(16, -0.2f, 0.05f);
    l.bias = {0.1f, -0.1f, 0.5f, 1.0f, -0.3f, 0.2f, 0.05f, -0.05f};
    return l;
}

// MNN's CPULSTM written out in double: gates from blocks I, F, O, G, zero initial state.
std::vector<double> lstm_direct(const LstmSpec& l, const std::vector<float>& x) {
    const int U = l.units, F = l.features;
    std::vector<double> h(U, 0.0), c(U, 0.0), out;
    auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    for (int t = 0; t < l.steps; ++t) {
        std::vector<double> hn(U);
        for (int u = 0; u < U; ++u) {
            double g[4];
            for (int k = 0; k < 4; ++k) {
                g[k] = l.bias[k * U + u];
                for (int f = 0; f < F; ++f) g[k] += double(l.wi[(k * U + u) * F + f]) * x[t * F + f];
                for (int v = 0; v < U; ++v) g[k] += double(l.wh[(k * U + u) * U + v]) * h[v];
            }
            const double i = sig(g[0]), fg = sig(g[1]), o = sig(g[2]), gg = std::tanh(g[3]);
            c[u] = fg * c[u] + i * gg;
            hn[u] = o * std::tanh(c[u]);
        }
        h = hn;
        out.insert(out.end(), h.begin(), h.end());
    }
    return out;
}

}  // namespace

TEST(MnnLstm, GateBlocksIfogAndZeroState) {
    const LstmSpec l = small_lstm();
    auto m = load(build(lstm_net(l)));
    ASSERT_EQ(m->graph().info(m->graph().outputs[0].tensor).shape, (Shape{1, 3, 1, 2}));
    const std::vector<float> x = {0.5f, -1.0f, 1.5f, 0.25f, -0.75f, 2.0f};
    const std::vector<double> want = lstm_direct(l, x);
    for (DeviceKind device : {DeviceKind::Cpu, DeviceKind::Sim}) {
        const std::vector<float> got = run_on(device, m, {x});
        ASSERT_EQ(got.size(), want.size()) << to_string(device);
        for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << to_string(device) << " " << i;
    }
    // The order matters: swapping the O and G blocks (the IR's gate order) gives another result.
    LstmSpec swapped = l;
    for (int k = 0; k < 4; ++k) std::swap(swapped.wi[8 + k], swapped.wi[12 + k]);
    EXPECT_GT(std::fabs(lstm_direct(swapped, x)[5] - want[5]), 1e-3);
}

TEST(MnnLstm, MalformedOrUnsupportedFormsAreNamed) {
    LstmSpec short_w = small_lstm();
    short_w.wi.resize(15);
    LstmSpec no_bias = small_lstm();
    no_bias.bias.clear();
    LstmSpec packed = small_lstm();
    packed.wh.clear();
    LstmSpec zero_units = small_lstm();
    zero_units.units = 0;
    NetSpec cont = lstm_net(small_lstm());
    cont.ops[1].inputs = {0, 0};
    const std::vector<ErrorCase> cases = {
        {"weight count", build(lstm_net(short_w)), "weightI has 15 values, expected 16"},
        {"no bias", build(lstm_net(no_bias)), "has no bias"},
        {"packed", build(lstm_net(packed)), "packed form"},
        {"zero units", build(lstm_net(zero_units)), "size 0 is out of range"},
        {"batch 2", build(lstm_net(small_lstm(), {2, 3, 1, 2})), "batch 2"},
        {"not [B,T,1,F]", build(lstm_net(small_lstm(), {1, 3, 2, 2})), "is not [batch, time, 1, features]"},
        {"cont input", build(cont), "sequence-continuation"},
    };
    expect_errors(cases, "'lstm' (LSTM)");
}

// ---- ROIPooling ----

namespace {

// x [1,2,4,4] and rois [R,5] as inputs -> ROIPooling "roi" (pooled ph x pw, spatialScale).
NetSpec roi_pooling_net(int32_t ph, int32_t pw, float scale, int32_t rois = 3, int32_t roi_values = 5) {
    NetSpec s;
    s.tensors = {"x", "rois", "y"};
    s.ops = {input_op(0, {1, 2, 4, 4}, "x"), input_op(1, {rois, roi_values}, "rois"),
             param_op(MNN::OpType::ROIPooling, {0, 1}, {2}, "roi", [=](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 return {MNN::OpParameter::RoiParameters, MNN::CreateRoiParameters(fb, pw, ph, scale).Union()};
             })};
    return s;
}

}  // namespace

// Channel 0 holds 4h + w, channel 1 holds 100 - (4h + w). ROI 0 covers the map (2x2 bins of 2x2), ROI 1
// the centre 2x2 at scale 0.5 (corners 2*0.5 = 1 and round(4.6*0.5) = 2), ROI 2 names batch 1 of a
// 1-image input: zeros.
TEST(MnnRoiPooling, MaxOverBins) {
    std::vector<float> x(32);
    for (int i = 0; i < 16; ++i) x[size_t(i)] = float(i), x[size_t(16 + i)] = 100.0f - float(i);
    const std::vector<float> rois = {0, 0, 0, 6, 6.8f, 0, 2, 2, 4.6f, 4, 1, 0, 0, 3, 3};
    auto m = load(build(roi_pooling_net(2, 2, 0.5f)));
    ASSERT_EQ(m->graph().info(m->graph().outputs[0].tensor).shape, (Shape{3, 2, 2, 2}));
    const std::vector<float> want = {5, 7, 13, 15, 100, 98, 92, 90,   // ROI 0: corners (0,0)-(3,3)
                                     5, 6, 9, 10, 95, 94, 91, 90,     // ROI 1: corners (1,1)-(2,2)
                                     0, 0, 0, 0, 0, 0, 0, 0};         // ROI 2: no such image
    for (DeviceKind device : {DeviceKind::Cpu, DeviceKind::Sim}) {
        const std::vector<float> got = run_on(device, m, {x, rois});
        ASSERT_EQ(got.size(), want.size()) << to_string(device);
        for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << to_string(device) << " " << i;
    }
}

TEST(MnnRoiPooling, PlacementKeepsItOnTheCpu) { expect_cpu_only(load(build(roi_pooling_net(2, 2, 1.0f))), OpKind::RoiPooling); }

TEST(MnnRoiPooling, MalformedAttributesAreNamed) {
    NetSpec one_input = roi_pooling_net(2, 2, 1.0f);
    one_input.ops[2].inputs = {0};
    expect_errors({{"pooled 0", build(roi_pooling_net(0, 2, 1.0f)), "size 0 is out of range"},
                   {"scale 0", build(roi_pooling_net(2, 2, 0.0f)), "spatialScale 0.000000 is not positive"},
                   {"one input", build(one_input), "has 1 inputs"},
                   {"4 values per ROI", build(roi_pooling_net(2, 2, 1.0f, 3, 4)), "do not hold 5 values"}},
                  "'roi' (ROIPooling)");
}

// Proposal is still refused: one line naming the op and why.
TEST(MnnProposal, RefusedWithItsReason) {
    NetSpec s = roi_pooling_net(2, 2, 1.0f);
    s.ops[2] = param_op(MNN::OpType::Proposal, {0, 1}, {2}, "rpn", [](flatbuffers::FlatBufferBuilder& fb) -> Param {
        return {MNN::OpParameter::Proposal, MNN::CreateProposal(fb, 16, 16, 6000, 300, 0.7f, 16).Union()};
    });
    expect_errors({{"proposal", build(s), "proposals (anchor decoding and NMS) have no IR operation yet"}}, "'rpn' (Proposal)");
}

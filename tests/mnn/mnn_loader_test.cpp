// The MNN loader on files built in code: a small network computes what a direct evaluation of MNN's
// semantics gives (NCHW data, [oc][ic][kh][kw] weights, fused ReLU, softmax over channels), MNN's int8
// arithmetic is reproduced exactly, and malformed files (truncations, byte flips, bad indices, huge
// dimensions, no ops, cycles, ...) are each rejected with a one-line error, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "include/npurun/npurun.hpp"
#include "core/error.h"
#include "runtime/loaders/load_model.h"
#include "runtime/loaders/mnn/mnn_ops.h"
#include "tests/mnn/mnn_test_models.h"
#include "tests/mnn/mnn_test_run.h"

using namespace npurun;
using namespace npurun::mnn_testing;

TEST(MnnLoader, SmallConvNetMatchesDirectEvaluation) {
    const NetSpec spec = small_conv_net();
    const std::vector<uint8_t> bytes = build(spec);
    EXPECT_EQ(detect_model_format(bytes.data(), bytes.size(), "no-extension"), ModelFormat::Mnn);
    auto m = load(bytes);
    ASSERT_EQ(m->graph().outputs.size(), 1u);
    EXPECT_EQ(m->graph().outputs[0].name, "prob");
    EXPECT_EQ(m->graph().info(m->graph().outputs[0].tensor).shape, (Shape{1, 4, 5, 6}));
    const uint32_t C = 3, H = 5, W = 6, O = 4;
    const std::vector<float> x = ramp(C * H * W, 0.1f, 0.05f);
    const std::vector<float> w = ramp(O * C * 9, 0.05f, 0.01f);
    const float bias[4] = {0.1f, -0.2f, 0.3f, 0.0f};
    std::vector<float> conv(O * H * W);
    for (uint32_t o = 0; o < O; ++o)
        for (uint32_t y = 0; y < H; ++y)
            for (uint32_t xx = 0; xx < W; ++xx) {
                double s = bias[o];
                for (uint32_t c = 0; c < C; ++c)
                    for (int ky = 0; ky < 3; ++ky)
                        for (int kx = 0; kx < 3; ++kx) {
                            const int iy = int(y) + ky - 1, ix = int(xx) + kx - 1;
                            if (iy < 0 || ix < 0 || iy >= int(H) || ix >= int(W)) continue;
                            s += double(x[(c * H + iy) * W + ix]) * w[((o * C + c) * 3 + ky) * 3 + kx];
                        }
                conv[(o * H + y) * W + xx] = float(std::max(0.0, s));
            }
    const std::vector<float> got = run_cpu(m, x);
    ASSERT_EQ(got.size(), conv.size());
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t xx = 0; xx < W; ++xx) {
            double sum = 0;
            for (uint32_t o = 0; o < O; ++o) sum += std::exp(double(conv[(o * H + y) * W + xx]));
            for (uint32_t o = 0; o < O; ++o)
                EXPECT_NEAR(got[(o * H + y) * W + xx], std::exp(double(conv[(o * H + y) * W + xx])) / sum, 1e-5)
                    << o << "," << y << "," << xx;
        }
}

// Depthwise (group = channels) and a Permute [0,2,3,1] + Reshape head, as in UltraFace.
TEST(MnnLoader, DepthwisePermuteReshapeHead) {
    NetSpec s;
    s.tensors = {"x", "dw", "perm", "shape", "out"};
    OpSpec perm{MNN::OpType::Permute, {1}, {2}, "perm", [](flatbuffers::FlatBufferBuilder& fb) -> Param {
                    const std::vector<int32_t> d = {0, 2, 3, 1};
                    return {MNN::OpParameter::Permute, MNN::CreatePermuteDirect(fb, &d).Union()};
                }};
    OpSpec shape{MNN::OpType::Const, {}, {3}, "shape", [](flatbuffers::FlatBufferBuilder& fb) -> Param {
                     const std::vector<int32_t> dims = {3}, v = {1, -1, 2};
                     return {MNN::OpParameter::Blob,
                             MNN::CreateBlobDirect(fb, &dims, MNN::MNN_DATA_FORMAT::NCHW, MNN::DataType::DT_INT32,
                                                   nullptr, nullptr, &v)
                                 .Union()};
                 }};
    OpSpec reshape{MNN::OpType::Reshape, {2, 3}, {4}, "out", [](flatbuffers::FlatBufferBuilder& fb) -> Param {
                       return {MNN::OpParameter::Reshape,
                               MNN::CreateReshapeDirect(fb, nullptr, MNN::MNN_DATA_FORMAT::NCHW).Union()};
                   }};
    const std::vector<float> w = ramp(2 * 9, 0.1f, 0.0f);
    s.ops = {input_op(0, {1, 2, 3, 4}),
             conv_op(0, 1, 2, 3, 1, 2, false, w, {0.5f, -0.5f}, MNN::OpType::ConvolutionDepthwise), perm, shape, reshape};
    auto m = load(build(s));
    EXPECT_EQ(m->graph().info(m->graph().outputs[0].tensor).shape, (Shape{1, 12, 2}));
    const std::vector<float> x = ramp(2 * 3 * 4, 0.2f, 0.1f);
    const std::vector<float> got = run_cpu(m, x);
    // out[0, y*4 + x, c] = dw[c, y, x]
    for (uint32_t c = 0; c < 2; ++c)
        for (int y = 0; y < 3; ++y)
            for (int xx = 0; xx < 4; ++xx) {
                double acc = c == 0 ? 0.5 : -0.5;
                for (int ky = 0; ky < 3; ++ky)
                    for (int kx = 0; kx < 3; ++kx) {
                        const int iy = y + ky - 1, ix = xx + kx - 1;
                        if (iy < 0 || ix < 0 || iy >= 3 || ix >= 4) continue;
                        acc += double(x[(c * 3 + iy) * 4 + ix]) * w[(c * 3 + ky) * 3 + kx];
                    }
                EXPECT_NEAR(got[(y * 4 + xx) * 2 + c], acc, 1e-5);
            }
}

// FloatToInt8 -> ConvInt8 (1x1) -> Int8ToFloat: q = clamp(round(x * 1/s)), out = clamp(round(acc*scale[o] ...)).
TEST(MnnLoader, Int8ArithmeticIsMnns) {
    const float inv_s = 50.0f;                 // FloatToInt8 stores 1/s
    const std::vector<int8_t> w = {3, -7, 12, 5, 100, -127};  // 2 output channels x 3 inputs
    const std::vector<int32_t> bias = {40, -300};
    const std::vector<float> scale = {0.031f, 0.0047f};
    const float out_s = 0.02f;  // Int8ToFloat tensorScale
    NetSpec s;
    s.tensors = {"q", "c", "y", "x"};
    OpSpec f2i{MNN::OpType::FloatToInt8, {3}, {0}, "f2i", [=](flatbuffers::FlatBufferBuilder& fb) -> Param {
                   const std::vector<float> ts = {inv_s, inv_s, inv_s};
                   return {MNN::OpParameter::QuantizedFloatParam,
                           MNN::CreateQuantizedFloatParamDirect(fb, nullptr, nullptr, nullptr, &ts).Union()};
               }};
    OpSpec conv{MNN::OpType::ConvInt8, {0}, {1}, "conv", [=](flatbuffers::FlatBufferBuilder& fb) -> Param {
                    const auto c =
                        MNN::CreateConvolution2DCommon(fb, 0, 0, 1, 1, 1, 1, 1, 1, MNN::PadMode::CAFFE, 1, 2, 3);
                    const auto q = MNN::CreateQuantizedFloatParamDirect(fb, &w, &bias, &scale);
                    return {MNN::OpParameter::Convolution2D, MNN::CreateConvolution2D(fb, c, 0, 0, 0, q).Union()};
                }};
    OpSpec i2f{MNN::OpType::Int8ToFloat, {1}, {2}, "y", [=](flatbuffers::FlatBufferBuilder& fb) -> Param {
                   const std::vector<float> ts = {out_s, out_s};
                   return {MNN::OpParameter::QuantizedFloatParam,
                           MNN::CreateQuantizedFloatParamDirect(fb, nullptr, nullptr, nullptr, &ts).Union()};
               }};
    s.ops = {input_op(3, {1, 3, 2, 2}), f2i, conv, i2f};
    auto m = load(build(s));
    // -0.21 * 50 is exactly -10.5 in float: MNN's multiply rounds it to -11, a divide by 0.02 would not.
    std::vector<float> x = {-3.0f, -0.7f, 0.33f, 1.1f, 2.9f, -2.55f, 0.01f, 0.5f, -1.0f, 1.7f, -0.21f, 2.2f};
    const std::vector<float> got = run_cpu(m, x);
    ASSERT_EQ(got.size(), 8u);
    auto clamp127 = [](double v) { return std::max(-127.0, std::min(127.0, v)); };
    for (int o = 0; o < 2; ++o)
        for (int p = 0; p < 4; ++p) {
            int64_t acc = bias[o];
            // MNN multiplies in float: x * (1/s), then acc * scale
            for (int c = 0; c < 3; ++c) acc += int64_t(clamp127(std::round(double(x[c * 4 + p] * inv_s)))) * w[o * 3 + c];
            const double q = clamp127(std::round(double(float(acc) * scale[o])));
            EXPECT_NEAR(got[o * 4 + p], q * out_s, 1e-6) << o << "," << p;
        }
}

// ---- malformed files: each a clean one-line error ----

TEST(MnnMalformed, EachDefectIsNamed) {
    auto with = [](std::function<void(NetSpec&)> f) {
        NetSpec s = small_conv_net();
        f(s);
        return build(s);
    };
    struct Case {
        const char* what;
        std::vector<uint8_t> bytes;
        const char* expect;
    };
    std::vector<Case> cases = {
        {"no ops", with([](NetSpec& s) { s.ops.clear(); }), "no ops"},
        {"no tensor names", with([](NetSpec& s) { s.tensors.clear(); }), "no tensors"},
        {"input index out of range", with([](NetSpec& s) { s.ops[1].inputs = {7}; }), "outside the model's 3 tensors"},
        {"negative input index", with([](NetSpec& s) { s.ops[1].inputs = {-1}; }), "tensor -1"},
        {"output index out of range", with([](NetSpec& s) { s.ops[2].outputs = {3}; }), "outside the model's 3 tensors"},
        {"tensor produced twice", with([](NetSpec& s) { s.ops[2].outputs = {1}; }), "also produced by"},
        {"op without outputs", with([](NetSpec& s) { s.ops[2].outputs = {}; }), "has no outputs"},
        {"input nobody produces", with([](NetSpec& s) { s.ops[0].outputs = {2}; s.ops[2].outputs = {0}; }), "cycle"},
        {"cycle", with([](NetSpec& s) { s.ops[1].inputs = {2}; }), "cycle"},
        {"huge dimensions", with([](NetSpec& s) { s.ops[0] = input_op(0, {1, 3, 2000000000, 2000000000}); }), "too large"},
        {"negative dimension", with([](NetSpec& s) { s.ops[0] = input_op(0, {1, 3, -5, 6}); }), "dimension 2 is -5"},
        {"wrong weight count", with([](NetSpec& s) { s.ops[1] = conv_op(0, 1, 4, 3, 1, 1, true, ramp(10, 1, 0), {}); }), "expected 108"},
        {"unknown op type", with([](NetSpec& s) { s.ops[2].type = static_cast<MNN::OpType>(777); }), "type 777"},
        {"unmapped op", with([](NetSpec& s) { s.ops[2].type = MNN::OpType::Extra; }), "'prob' (Extra)"},
        {"grouped convolution", with([](NetSpec& s) {
             s.ops[0] = input_op(0, {1, 4, 5, 6});
             s.ops[1] = conv_op(0, 1, 4, 3, 1, 2, true, ramp(72, 1, 0), {});
         }), "grouped convolution (group 2"},
        {"missing output name", with([](NetSpec& s) { s.output_names = {"nope"}; }), "'nope' is not a tensor"},
        {"kernel stride 0", with([](NetSpec& s) {
             s.ops[1].param = [](flatbuffers::FlatBufferBuilder& fb) -> Param {
                 const auto c = MNN::CreateConvolution2DCommon(fb, 0, 0, 1, 1, 0, 1, 1, 1, MNN::PadMode::CAFFE, 1, 4);
                 const std::vector<float> w(12, 1.0f);
                 return {MNN::OpParameter::Convolution2D, MNN::CreateConvolution2DDirect(fb, c, &w).Union()};
             };
         }), "strideX is 0"},
        {"empty", {}, "empty"},
        {"garbage", std::vector<uint8_t>(64, 0xab), ""},
    };
    for (const Case& c : cases) {
        const std::string m = load_error(c.bytes);
        EXPECT_FALSE(m.empty()) << c.what << ": loaded";
        EXPECT_NE(m.find(c.expect), std::string::npos) << c.what << ": " << m;
    }
}

// Every truncation and every single-byte flip of a valid file either loads or fails with one Error line.
TEST(MnnMalformed, TruncationsAndByteFlips) {
    const std::vector<uint8_t> good = build(small_conv_net());
    ASSERT_TRUE(load_error(good).empty());
    size_t rejected = 0;
    for (size_t n = 0; n < good.size(); ++n) {
        std::vector<uint8_t> t(good.begin(), good.begin() + n);
        if (!load_error(t).empty()) ++rejected;
    }
    EXPECT_EQ(rejected, good.size());  // a truncated FlatBuffer never verifies
    for (size_t i = 0; i < good.size(); ++i)
        for (uint8_t mask : {0x01, 0xff}) {
            std::vector<uint8_t> f = good;
            f[i] ^= mask;
            try {
                auto m = load(f);
                // It loaded: it must also run (a flip in weights changes numbers, nothing else).
                if (m->graph().info(m->graph().inputs.at(0).tensor).num_bytes() < (1u << 20)) {
                    SessionOptions o;
                    o.device = DeviceKind::Cpu;
                    Session s(m, o);
                    std::memset(s.input(0).data, 0, s.input(0).info.num_bytes());
                    s.run();
                }
            } catch (const Error& e) {
                EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
            }
        }
}

// The op table behind map_op and `npurun --list-layers`: one row per type, a mapper or a refusal (never
// both, never neither), and the refusal is what loading such an op reports.
TEST(MnnOpTable, OneRowPerTypeWithAMapperOrAReason) {
    std::set<int32_t> seen;
    for (const mnn::MnnOpRow& r : mnn::mnn_op_table()) {
        ASSERT_FALSE(r.types.empty());
        const std::string name = mnn::op_type_name(int32_t(r.types[0]));
        EXPECT_NE(r.map == nullptr, r.refusal == nullptr) << name;
        for (MNN::OpType t : r.types) {
            EXPECT_TRUE(seen.insert(int32_t(t)).second) << mnn::op_type_name(int32_t(t)) << " listed twice";
            EXPECT_EQ(mnn::find_mnn_op(t), &r);
        }
    }
    EXPECT_EQ(mnn::find_mnn_op(MNN::OpType(9999)), nullptr);
    // Every op type the real face detectors use has a mapper.
    for (MNN::OpType t : {MNN::OpType::Convolution, MNN::OpType::ConvolutionDepthwise, MNN::OpType::ConvInt8,
                          MNN::OpType::DepthwiseConvInt8, MNN::OpType::FloatToInt8, MNN::OpType::Int8ToFloat,
                          MNN::OpType::Softmax, MNN::OpType::Concat, MNN::OpType::Reshape, MNN::OpType::Permute}) {
        const mnn::MnnOpRow* r = mnn::find_mnn_op(t);
        ASSERT_NE(r, nullptr) << mnn::op_type_name(int32_t(t));
        EXPECT_NE(r->map, nullptr) << mnn::op_type_name(int32_t(t));
    }
}

TEST(MnnOpTable, ARefusedRowIsWhatLoadingReports) {
    const mnn::MnnOpRow* row = mnn::find_mnn_op(MNN::OpType::Extra);
    ASSERT_NE(row, nullptr);
    ASSERT_EQ(row->map, nullptr);
    NetSpec spec;
    spec.tensors = {"x", "y"};
    spec.ops.push_back(input_op(0, {1, 4, 2, 2}, "x"));
    OpSpec e;
    e.type = MNN::OpType::Extra;
    e.name = "custom";
    e.inputs = {0};
    e.outputs = {1};
    spec.ops.push_back(e);
    const std::string m = load_error(build(spec));
    EXPECT_NE(m.find(row->refusal), std::string::npos) << m;
    EXPECT_NE(m.find("'custom' (Extra)"), std::string::npos) << m;
}

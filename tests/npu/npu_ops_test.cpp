// NPU lowering on the simulator (through drv and the fake kernel) against the CPU reference path:
// int8 at most 1 in the integer value, fp16 within fp16 rounding of the float result.
#include <gtest/gtest.h>

#include <algorithm>

#include "drv/sim/cost_model.h"
#include "runtime/npu/compiled_segment.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/npu/npu_graphs.h"

using namespace npurun;
using namespace npurun::npu_test;

namespace {

void expect_int8_match(const ConvSpec& s, size_t expected_npu_layers = 1) {
    const Compared r = compare_cpu_sim(conv_model(s));
    EXPECT_EQ(r.npu_layers.size(), expected_npu_layers) << "layers not on the NPU: " << r.cpu_layers.size();
    EXPECT_LE(r.max_diff, 1.0) << "max |npu - cpu| in the integer value";
    std::printf("[ int8 ] %zu outputs, max |npu-cpu| = %.0f\n", r.elements, r.max_diff);
}

void expect_fp16_match(const ConvSpec& s) {
    const Compared r = compare_cpu_sim(conv_model(s), /*fp16=*/true);
    EXPECT_EQ(r.npu_layers.size(), 1u);
    // fp16 inputs and weights (relative 2^-11 each) summed over kh*kw*c terms, fp16 output rounding.
    const double tol = 4e-3 * std::max(1.0, r.max_ref) + 2e-3 * std::sqrt(double(s.kh * s.kw * (s.depthwise ? 1 : s.c)));
    EXPECT_LE(r.max_diff, tol);
    std::printf("[ fp16 ] %zu outputs, max |npu-cpu| = %.5f (max |cpu| %.3f, tolerance %.4f)\n", r.elements, r.max_diff,
                r.max_ref, tol);
}

}  // namespace

TEST(NpuConv, Uint8PerTensor3x3Pad1) { expect_int8_match({}); }

TEST(NpuConv, Uint8OddChannelsStride2) {
    ConvSpec s;
    s.c = 3, s.k = 8, s.h = 13, s.w = 11, s.stride = 2;
    expect_int8_match(s);
}

TEST(NpuConv, Int8PerTensorAsymmetricWeights) {
    ConvSpec s;
    s.dt = DataType::QAsymmS8;
    s.c = 20, s.k = 40, s.kh = 1, s.kw = 1, s.pad = 0;
    expect_int8_match(s);
}

TEST(NpuConv, Int8PerChannelWeights) {
    ConvSpec s;
    s.dt = DataType::QAsymmS8;
    s.per_channel = true;
    s.c = 24, s.k = 33;
    expect_int8_match(s);
}

TEST(NpuConv, Uint8ModelWithPerChannelWeights) {
    ConvSpec s;
    s.per_channel = true;
    s.c = 16, s.k = 48, s.kh = 5, s.kw = 5, s.pad = 2, s.h = 9, s.w = 9;
    expect_int8_match(s);
}

TEST(NpuConv, NoBias) {
    ConvSpec s;
    s.bias = false;
    expect_int8_match(s);
}

TEST(NpuConv, FusedRelu) {
    ConvSpec s;
    s.act = Act::Relu;
    expect_int8_match(s);
}

TEST(NpuConv, FusedRelu6) {
    ConvSpec s;
    s.act = Act::Relu6;
    s.dt = DataType::QAsymmS8;
    expect_int8_match(s);
}

TEST(NpuConv, ActivationAfterACoarserIntermediateIsNotFused) {
    // The CPU rounds to the intermediate's coarse grid before the ReLU6; fusing would skip that rounding
    // (up to half an intermediate step), so the activation stays a CPU layer and the result is exact.
    ConvSpec s;
    s.act = Act::Relu6;
    s.coarse_intermediate = true;
    const Compared r = compare_cpu_sim(conv_model(s));
    EXPECT_EQ(r.npu_layers.size(), 1u);
    EXPECT_EQ(r.cpu_layers.size(), 1u);
    EXPECT_LE(r.max_diff, 1.0);
}

TEST(NpuConv, RowTilingWhenTheInputExceedsTheCbuf) {
    // 72x80x64 int8 = 368640 bytes > 11 data banks: the layer is split by output rows into tasks.
    ConvSpec s;
    s.h = 72, s.w = 80, s.c = 64, s.k = 8, s.act = Act::Relu6;
    const Compared r = compare_cpu_sim(conv_model(s));
    ASSERT_EQ(r.npu_tasks.size(), 1u);
    EXPECT_GT(r.npu_tasks[0], 1u);
    EXPECT_LE(r.max_diff, 1.0);
}

TEST(NpuConv, RowTilingStride2) {
    ConvSpec s;
    s.h = 75, s.w = 80, s.c = 64, s.k = 16, s.stride = 2;
    expect_int8_match(s);
}

TEST(NpuDepthwise, Uint8Stride1) {
    ConvSpec s;
    s.depthwise = true;
    s.c = 40;
    expect_int8_match(s);
}

TEST(NpuDepthwise, Uint8Stride2Relu6) {
    ConvSpec s;
    s.depthwise = true;
    s.c = 32, s.h = 15, s.w = 15, s.stride = 2, s.act = Act::Relu6;
    expect_int8_match(s);
}

TEST(NpuDepthwise, ChannelTilingWhenTheInputExceedsTheCbuf) {
    // 48x48x224 int8 = 516096 bytes > 11 banks: split into channel slices of the most 64-channel groups
    // that fit (the vendor's rule): 128 channels (9 banks), then the other 96.
    ConvSpec s;
    s.depthwise = true;
    s.h = s.w = 48, s.c = 224, s.act = Act::Relu6;
    const Compared r = compare_cpu_sim(conv_model(s));
    ASSERT_EQ(r.npu_tasks.size(), 1u);
    EXPECT_EQ(r.npu_tasks[0], 2u);  // 128 + 96 channels, each resident
    EXPECT_LE(r.max_diff, 1.0);
}

TEST(NpuDepthwise, ChannelAndRowTilingFp16) {
    // 64x64x40 fp16 = 327680 bytes; 32-channel groups; the first group still needs rows split.
    ConvSpec s;
    s.dt = DataType::Float32;
    s.depthwise = true;
    s.h = s.w = 96, s.c = 40, s.stride = 2;
    const Compared r = compare_cpu_sim(conv_model(s), true);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_GT(r.npu_tasks[0], 2u);  // two channel groups, rows split inside them
    EXPECT_LE(r.max_diff, 4e-3 * std::max(1.0, r.max_ref) + 2e-3 * 3);
}

TEST(NpuDepthwise, Int8PerChannel) {
    ConvSpec s;
    s.depthwise = true;
    s.dt = DataType::QAsymmS8;
    s.per_channel = true;
    s.c = 72;
    expect_int8_match(s);
}

TEST(NpuConvFp16, Basic3x3) {
    ConvSpec s;
    s.dt = DataType::Float32;
    expect_fp16_match(s);
}

TEST(NpuConvFp16, Relu6Stride2OddChannels) {
    ConvSpec s;
    s.dt = DataType::Float32;
    s.c = 5, s.k = 21, s.stride = 2, s.h = 17, s.w = 10, s.act = Act::Relu6;
    expect_fp16_match(s);
}

TEST(NpuConvFp16, RowTiling) {
    ConvSpec s;
    s.dt = DataType::Float32;
    s.h = 48, s.w = 64, s.c = 64, s.k = 8;
    expect_fp16_match(s);
}

TEST(NpuConvFp16, Depthwise) {
    ConvSpec s;
    s.dt = DataType::Float32;
    s.depthwise = true;
    s.c = 40, s.act = Act::Relu;
    expect_fp16_match(s);
}

TEST(NpuConvFp16, Float32StaysOnTheCpuWithoutFp16) {
    ConvSpec s;
    s.dt = DataType::Float32;
    const Compared r = compare_cpu_sim(conv_model(s), /*fp16=*/false);
    EXPECT_TRUE(r.npu_layers.empty());
    EXPECT_EQ(r.max_diff, 0.0);
}

TEST(NpuFullyConnected, Uint8AsOneByOneConv) {
    Graph g;
    TensorId x = value(g, "x", Shape{1, 200}, DataType::QAsymmU8, 0.05f, 120);
    std::vector<uint8_t> wv(10 * 200);
    for (size_t i = 0; i < wv.size(); ++i) wv[i] = uint8_t((i * 37 + 11) % 256);
    TensorId w = constant(g, "w", Shape{10, 200}, DataType::QAsymmU8, wv.data(), wv.size(), {0.02f}, 128);
    std::vector<int32_t> bv(10);
    for (int i = 0; i < 10; ++i) bv[i] = (i - 5) * 300;
    TensorId b = constant(g, "b", Shape{10}, DataType::Signed32, bv.data(), 40, {0.05f * 0.02f}, 0);
    TensorId y = value(g, "y", Shape{1, 10}, DataType::QAsymmU8, 1.5f, 128);
    FullyConnectedAttrs a;
    a.bias_enabled = true;
    a.transpose_weights = true;
    node(g, OpKind::FullyConnected, "fc", {x, w, b}, {y}, a);
    io(g, x, y);
    const Compared r = compare_cpu_sim(std::make_shared<const Model>(std::move(g), "fc"));
    EXPECT_EQ(r.npu_layers.size(), 1u);
    EXPECT_LE(r.max_diff, 1.0);
}

TEST(NpuSegment, ChainOfLayersIsOneSegment) {
    // conv+ReLU6 -> depthwise+ReLU6 -> 1x1 conv: one segment, one job, intermediate tensors stay NC1HWC2.
    Graph g;
    TensorId x = value(g, "x", Shape{1, 16, 16, 8}, DataType::QAsymmU8, 0.05f, 118);
    ConvSpec a;
    a.h = a.w = 16, a.c = 8, a.k = 24, a.act = Act::Relu6, a.stride = 2;
    TensorId y1 = add_conv(g, a, x, "c1");
    ConvSpec b;
    b.h = b.w = 8, b.c = 24, b.depthwise = true, b.act = Act::Relu6, b.seed = 2;
    // The depthwise conv reads the ReLU6 output ([0, 6] in 255 codes).
    TensorId y2 = add_conv(g, b, y1, "dw");
    ConvSpec c;
    c.h = c.w = 8, c.c = 24, c.k = 12, c.kh = c.kw = 1, c.pad = 0, c.seed = 3;
    TensorId y3 = add_conv(g, c, y2, "pw");
    io(g, x, y3);
    const Compared r = compare_cpu_sim(std::make_shared<const Model>(std::move(g), "chain"));
    EXPECT_EQ(r.npu_layers.size(), 3u);
    EXPECT_TRUE(r.cpu_layers.empty());
    // Each layer may differ by 1 and the next layer sees it; the chain stays within a few codes.
    EXPECT_LE(r.max_diff, 3.0);
    std::printf("[ chain ] max |npu-cpu| = %.0f\n", r.max_diff);
}

namespace {

std::shared_ptr<const Model> pool_model(DataType dt, PoolingAlgorithm alg, uint32_t h, uint32_t w, uint32_t c, uint32_t k,
                                        uint32_t stride, uint32_t pad, bool global = false) {
    Graph g;
    const bool q = dt != DataType::Float32;
    TensorId x = value(g, "x", Shape{1, h, w, c}, dt, q ? 0.05f : 0.0f, dt == DataType::QAsymmU8 ? 118 : 0);
    Pooling2dAttrs pa;
    pa.algorithm = alg;
    pa.layout = DataLayout::NHWC;
    if (global) {
        pa.pool_width = w, pa.pool_height = h;  // Arm NN global pooling: the plane as kernel, strides 0
    } else {
        pa.pool_width = pa.pool_height = k;
        pa.stride_x = pa.stride_y = stride;
        pa.pad_left = pa.pad_right = pa.pad_top = pa.pad_bottom = pad;
    }
    const uint32_t ho = global ? 1 : (h + 2 * pad - k) / stride + 1, wo = global ? 1 : (w + 2 * pad - k) / stride + 1;
    TensorId y = value(g, "y", Shape{1, ho, wo, c}, dt, q ? 0.05f : 0.0f, dt == DataType::QAsymmU8 ? 118 : 0);
    node(g, OpKind::Pooling2d, "pool", {x}, {y}, pa);
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "pool");
}

void expect_pool(const std::shared_ptr<const Model>& m, bool fp16, double tol) {
    const Compared r = compare_cpu_sim(m, fp16);
    EXPECT_EQ(r.npu_layers.size(), 1u);
    EXPECT_LE(r.max_diff, tol);
    std::printf("[ pool ] %zu outputs, max |npu-cpu| = %.4f\n", r.elements, r.max_diff);
}

}  // namespace

TEST(NpuPooling, MaxUint8Kernel3Stride2Pad1) { expect_pool(pool_model(DataType::QAsymmU8, PoolingAlgorithm::Max, 15, 15, 24, 3, 2, 1), false, 0.0); }
TEST(NpuPooling, AverageUint8Kernel2Stride2) { expect_pool(pool_model(DataType::QAsymmU8, PoolingAlgorithm::Average, 8, 8, 20, 2, 2, 0), false, 1.0); }
TEST(NpuPooling, AverageUint8Kernel3Pad1CountsPadding) { expect_pool(pool_model(DataType::QAsymmU8, PoolingAlgorithm::Average, 9, 9, 16, 3, 1, 1), false, 1.0); }
TEST(NpuPooling, GlobalAverageUint8) { expect_pool(pool_model(DataType::QAsymmU8, PoolingAlgorithm::Average, 4, 4, 64, 0, 0, 0, true), false, 1.0); }
TEST(NpuPooling, MaxFp16) { expect_pool(pool_model(DataType::Float32, PoolingAlgorithm::Max, 10, 10, 12, 2, 2, 0), true, 1e-3); }
TEST(NpuPooling, AverageFp16) { expect_pool(pool_model(DataType::Float32, PoolingAlgorithm::Average, 10, 10, 12, 5, 1, 2), true, 2e-3); }

namespace {

// out = op(relu?(conv_a(x)), conv_b(x)): both operands are run-time tensors with their own quantization.
std::shared_ptr<const Model> eltwise_model(DataType dt, BinaryOp op, Act act = Act::None) {
    Graph g;
    const bool q = dt != DataType::Float32;
    TensorId x = value(g, "x", Shape{1, 6, 7, 16}, dt, q ? 0.05f : 0.0f, dt == DataType::QAsymmU8 ? 118 : 0);
    ConvSpec a;
    a.dt = dt, a.h = 6, a.w = 7, a.c = 16, a.k = 24, a.kh = a.kw = 1, a.pad = 0;
    ConvSpec b = a;
    b.seed = 9;
    TensorId ya = add_conv(g, a, x, "ca");
    TensorId yb = add_conv(g, b, x, "cb");
    // Different operand scales; the output scale covers the sum.
    const float so = q ? 2.0f * g.info(ya).quant.scale() : 0.0f;
    TensorId y = value(g, "y", Shape{1, 6, 7, 24}, dt, so, dt == DataType::QAsymmU8 ? 128 : (q ? 3 : 0));
    ElementwiseBinaryAttrs ea;
    ea.op = op;
    node(g, OpKind::ElementwiseBinary, "ew", {ya, yb}, {y}, ea);
    TensorId out = y;
    if (act != Act::None) {
        ActivationAttrs aa;
        aa.function = act == Act::Relu ? ActivationFunction::ReLu : ActivationFunction::BoundedReLu;
        aa.a = 6.0f;
        out = value(g, "z", Shape{1, 6, 7, 24}, dt, so, dt == DataType::QAsymmU8 ? 0 : (q ? -128 : 0));
        node(g, OpKind::Activation, "relu", {y}, {out}, aa);
    }
    io(g, x, out);
    return std::make_shared<const Model>(std::move(g), "eltwise");
}

void expect_eltwise(DataType dt, BinaryOp op, Act act = Act::None) {
    const bool fp16 = dt == DataType::Float32;
    const Compared r = compare_cpu_sim(eltwise_model(dt, op, act), fp16);
    EXPECT_EQ(r.npu_layers.size(), 3u) << "both convolutions and the element-wise op on the NPU";
    const double tol = fp16 ? 5e-3 * std::max(1.0, r.max_ref) : 1.0;
    EXPECT_LE(r.max_diff, tol);
    std::printf("[ eltwise %s ] max |npu-cpu| = %.4f\n", to_string(op), r.max_diff);
}

}  // namespace

TEST(NpuEltwise, AddUint8) { expect_eltwise(DataType::QAsymmU8, BinaryOp::Add); }
TEST(NpuEltwise, SubInt8) { expect_eltwise(DataType::QAsymmS8, BinaryOp::Sub); }
TEST(NpuEltwise, MaxUint8) { expect_eltwise(DataType::QAsymmU8, BinaryOp::Maximum); }
TEST(NpuEltwise, MinInt8) { expect_eltwise(DataType::QAsymmS8, BinaryOp::Minimum); }
TEST(NpuEltwise, AddReluUint8) { expect_eltwise(DataType::QAsymmU8, BinaryOp::Add, Act::Relu); }
TEST(NpuEltwise, AddFp16) { expect_eltwise(DataType::Float32, BinaryOp::Add); }
TEST(NpuEltwise, SubFp16) { expect_eltwise(DataType::Float32, BinaryOp::Sub); }
TEST(NpuEltwise, MulReluFp16) { expect_eltwise(DataType::Float32, BinaryOp::Mul, Act::Relu); }
TEST(NpuEltwise, MaxFp16) { expect_eltwise(DataType::Float32, BinaryOp::Maximum); }
TEST(NpuEltwise, MinFp16) { expect_eltwise(DataType::Float32, BinaryOp::Minimum); }

TEST(NpuEltwise, MulUint8AfterConvolutions) {
    const Compared r = compare_cpu_sim(eltwise_model(DataType::QAsymmU8, BinaryOp::Mul));
    EXPECT_EQ(r.npu_layers.size(), 3u);
    EXPECT_LE(r.max_diff, 8.0);  // the product of operands that may each be 1 off (tests/npu/npu_eltwise_pad_test.cpp: exact inputs, at most 1)
}

TEST(NpuExplain, NamesDeviceAndReasonPerLayer) {
    // conv (NPU) -> max pool (NPU, same segment) -> softmax (not an NPU operation: CPU, with the reason).
    Graph g;
    TensorId x = value(g, "x", Shape{1, 8, 8, 16}, DataType::QAsymmU8, 0.05f, 118);
    ConvSpec a;
    TensorId y = add_conv(g, a, x, "conv");
    TensorId p = value(g, "pool", Shape{1, 4, 4, 16}, DataType::QAsymmU8, g.info(y).quant.scale(), g.info(y).quant.offset);
    node(g, OpKind::Pooling2d, "maxpool", {y}, {p}, max_pool_attrs(2, 2));
    TensorId z = value(g, "soft", Shape{1, 4, 4, 16}, DataType::QAsymmU8, 1.0f / 256, 0);
    node(g, OpKind::Softmax, "softmax", {p}, {z}, SoftmaxAttrs{});
    io(g, x, z);
    const Placement pl = place(g, npu::npu_placement_options(false));
    const std::string text = explain(g, pl);
    std::printf("%s", text.c_str());
    EXPECT_NE(text.find("NPU s0"), std::string::npos);
    EXPECT_NE(text.find("softmax"), std::string::npos);
    EXPECT_NE(text.find("2 of 3 layers on the NPU in 1 segment(s)"), std::string::npos);
    EXPECT_EQ(pl.nodes[2].device, Placed::Npu);   // maxpool (node 0 is the Input)
    EXPECT_EQ(pl.nodes[3].device, Placed::Cpu);   // softmax
    EXPECT_FALSE(pl.nodes[3].reason.empty());
    const Compared r = compare_cpu_sim(std::make_shared<const Model>(std::move(g), "explain"));
    EXPECT_EQ(r.npu_layers.size(), 2u);
    EXPECT_LE(r.max_diff, 1.0);
}

// Dilated convolutions run their own taps with the CONV_CON3 atrous fields (conv_layer.h): against the CPU's
// dilated convolution in fp16, uint8, int8 per-channel, depthwise, with strides. The cost model sees only the
// model's kh x kw taps issued, not the (k - 1) * d + 1 taps of an inflated kernel.
TEST(NpuDilation, AtrousKernelMatchesTheCpuAndIssuesOnlyItsTaps) {
    struct D {
        DataType dt;
        bool per_channel, depthwise;
        uint32_t d, stride, pad, kh;
    };
    const D cases[] = {{DataType::Float32, false, false, 2, 1, 2, 3}, {DataType::QAsymmU8, false, false, 2, 1, 2, 3},
                       {DataType::QAsymmS8, true, false, 3, 1, 3, 3},  {DataType::QAsymmU8, false, true, 2, 1, 2, 3},
                       {DataType::Float32, false, true, 5, 1, 5, 3},   {DataType::QAsymmU8, false, false, 2, 2, 1, 3},
                       {DataType::Float32, false, false, 4, 1, 0, 2}};
    // Also with 3 input channels: a first convolution whose windows the host packs when not dilated.
    for (uint32_t channels : {24u, 3u})
    for (const D& c : cases) {
        Graph g;
        const bool q = c.dt != DataType::Float32;
        ConvSpec s;
        s.dt = c.dt, s.per_channel = c.per_channel, s.depthwise = c.depthwise;
        s.h = 11, s.w = 13, s.c = channels, s.k = c.depthwise ? channels : 20, s.kh = s.kw = c.kh, s.dilation = c.d, s.stride = c.stride, s.pad = c.pad;
        TensorId x = value(g, "x", Shape{1, s.h, s.w, s.c}, c.dt, q ? 0.05f : 0.0f, q ? 118 : 0);
        io(g, x, add_conv(g, s, x, "conv"));
        const Placement p = place(g, npu::npu_placement_options(!q));
        EXPECT_EQ(p.segments.size(), 1u) << "dilation " << c.d;
        const auto model = std::make_shared<const Model>(std::move(g), "dilated");
        SessionOptions so = sim_options(!q);
        so.profile = true;
        CpuSimRun run(model, so, 7);
        const Compared r = compare_runs(run.cpu, run.sim);
        ASSERT_EQ(r.npu_layers.size(), 1u);
        EXPECT_LE(r.max_diff, q ? 1.0 : 4.0 * std::ldexp(1.0, -11) * std::max(1.0, r.max_ref))
            << to_string(c.dt) << (c.depthwise ? " depthwise" : "") << " dilation " << c.d << " stride " << c.stride;
        // MAC slots of the real taps at the CNA's granularity (docs/cost-model.md); an inflated kernel issues
        // (span / kh)^2 times more (2.8x for 3x3 dilation 2), a host-packed first layer fewer.
        const npu::NpuBackend* b = SessionFactory::npu_backend(run.sim);
        ASSERT_NE(b, nullptr);
        const npu::NpuLayerStats& l = b->segments()[0]->layers()[0];
        const uint32_t ho = out_dim(s.h, (s.kh - 1) * c.d + 1, c.stride, c.pad);
        const uint32_t wo = out_dim(s.w, (s.kw - 1) * c.d + 1, c.stride, c.pad);
        const uint64_t taps_issue =
            npudrv::sim::cost::conv_issue(uint64_t{ho} * wo, c.kh * c.kh, s.c, s.k, !q, c.depthwise).issued_macs;
        EXPECT_LE(l.cost.issued_macs, taps_issue) << "dilation " << c.d << ": zero taps issued?";
        EXPECT_EQ(l.macs, uint64_t{ho} * wo * c.kh * c.kh * (c.depthwise ? 1 : s.c) * s.k);
    }
}

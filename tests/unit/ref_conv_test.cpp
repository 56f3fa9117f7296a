// Convolution2d, DepthwiseConvolution2d, FullyConnected reference kernels vs hand-computed values.
#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

DepthwiseConvolution2dAttrs depthwise_attrs(DataLayout layout, bool bias = false) {
    DepthwiseConvolution2dAttrs a;
    a.layout = layout;
    a.bias_enabled = bias;
    return a;
}

Convolution2dAttrs conv_attrs(DataLayout layout, uint32_t stride = 1, uint32_t pad = 0, uint32_t dilation = 1,
                              bool bias = false) {
    Convolution2dAttrs a;
    a.layout = layout;
    a.stride_x = a.stride_y = stride;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = pad;
    a.dilation_x = a.dilation_y = dilation;
    a.bias_enabled = bias;
    return a;
}

}  // namespace

TEST(RefConv2d, Nhwc2x2OnesWithBias) {
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution2d, conv_attrs(DataLayout::NHWC), {1, 3, 3, 1},
                               {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 2, 1}, {1, 1, 1, 1}, {1, 2, 2, 1}, {1}),
              (std::vector<float>{13, 17, 25, 29}));
}

TEST(RefConv2d, PaddingAndStride) {
    // output 2x2: (3 + 2 - 3) / 2 + 1
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution2d, conv_attrs(DataLayout::NHWC, 2, 1), {1, 3, 3, 1},
                               {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 3, 3, 1}, std::vector<float>(9, 1.0f), {1, 2, 2, 1}),
              (std::vector<float>{12, 16, 24, 28}));
}

TEST(RefConv2d, Dilation) {
    std::vector<float> in(25);
    for (int i = 0; i < 25; ++i) in[i] = float(i);  // v(y, x) = 5y + x
    // v(y,x) + v(y,x+2) + v(y+2,x) + v(y+2,x+2) = 20y + 4x + 24
    std::vector<float> expect;
    for (int yy = 0; yy < 3; ++yy)
        for (int xx = 0; xx < 3; ++xx) expect.push_back(float(20 * yy + 4 * xx + 24));
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution2d, conv_attrs(DataLayout::NHWC, 1, 0, 2), {1, 5, 5, 1}, in,
                               {1, 2, 2, 1}, {1, 1, 1, 1}, {1, 3, 3, 1}),
              expect);
}

TEST(RefConv2d, TwoChannelsNchwAndNhwcAgree) {
    // c0 = [1,2,3,4], c1 = [5,6,7,8]; output 0 = c0 + c1, output 1 = 2*c0 - c1.
    // NCHW weights are [O, I, H, W], NHWC weights [O, H, W, I].
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution2d, conv_attrs(DataLayout::NCHW), {1, 2, 2, 2},
                               {1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 1, 1}, {1, 1, 2, -1}, {1, 2, 2, 2}),
              (std::vector<float>{6, 8, 10, 12, -3, -2, -1, 0}));
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution2d, conv_attrs(DataLayout::NHWC), {1, 2, 2, 2},
                               {1, 5, 2, 6, 3, 7, 4, 8}, {2, 1, 1, 2}, {1, 1, 2, -1}, {1, 2, 2, 2}),
              (std::vector<float>{6, -3, 8, -2, 10, -1, 12, 0}));
}

TEST(RefConv2d, AsymmetricPaddingOddSize) {
    // 1x2x3x1 input, 2x2 kernel [[1,2],[3,4]], pad left 1 / top 0 / right 0 / bottom 1.
    Convolution2dAttrs at = conv_attrs(DataLayout::NHWC);
    at.pad_left = 1;
    at.pad_bottom = 1;
    // row 0: (pad,1,pad,4)->2*1+4*4=18; (1,2,4,5)->1+4+12+20=37; (2,3,5,6)->2+6+15+24=47
    // row 1: (pad,4,pad,pad)->2*4=8; (4,5,-,-)->4+10=14; (5,6)->5+12=17
    EXPECT_EQ(run_weighted_f32(OpKind::Convolution2d, at, {1, 2, 3, 1}, {1, 2, 3, 4, 5, 6}, {1, 2, 2, 1}, {1, 2, 3, 4},
                               {1, 2, 3, 1}),
              (std::vector<float>{18, 37, 47, 8, 14, 17}));
}

TEST(RefConv2d, Float16) {
    EXPECT_EQ(from_f16(run_weighted<uint16_t>(
                  OpKind::Convolution2d, conv_attrs(DataLayout::NHWC), info(DataType::Float16, {1, 3, 3, 1}),
                  to_f16({1, 2, 3, 4, 5, 6, 7, 8, 9}), info(DataType::Float16, {1, 2, 2, 1}), to_f16({1, 1, 1, 0.5f}),
                  info(DataType::Float16, {1, 2, 2, 1}))),
              (std::vector<float>{9.5f, 13, 20, 23.5f}));
}

TEST(RefConv2d, QAsymmU8WithBias) {
    // x real [1,2,3,4] (s 0.5, zp 10); w real 2 (s 0.25, zp 100); bias real 1 (s 0.125 = sx*sw).
    // y = 2x + 1 = [3,5,7,9] -> s 0.5, zp 3 -> [9, 13, 17, 21].
    EXPECT_EQ(
        run_weighted<uint8_t>(OpKind::Convolution2d, conv_attrs(DataLayout::NHWC, 1, 0, 1, true),
                              info(DataType::QAsymmU8, {1, 2, 2, 1}, 0.5f, 10), std::vector<uint8_t>{12, 14, 16, 18},
                              info(DataType::QAsymmU8, {1, 1, 1, 1}, 0.25f, 100), std::vector<uint8_t>{108},
                              info(DataType::QAsymmU8, {1, 2, 2, 1}, 0.5f, 3), info(DataType::Signed32, {1}, 0.125f),
                              std::vector<int32_t>{8}),
        (std::vector<uint8_t>{9, 13, 17, 21}));
}

TEST(RefConv2d, QAsymmS8PaddingIsTheZeroPointAndResultsClamp) {
    // x real [10, 20] (s 1, zp -5), 1x2 kernel of weight real 3 (s 1, zp 0), pad left 1.
    // outputs: [pad*3 + 10*3, 10*3 + 20*3] = [30, 90]; output s 0.5 zp 0 -> [60, 180 -> 127].
    Convolution2dAttrs at = conv_attrs(DataLayout::NHWC);
    at.pad_left = 1;
    EXPECT_EQ(run_weighted<int8_t>(OpKind::Convolution2d, at, info(DataType::QAsymmS8, {1, 1, 2, 1}, 1.0f, -5),
                                   std::vector<int8_t>{5, 15}, info(DataType::QAsymmS8, {1, 1, 2, 1}, 1.0f, 0),
                                   std::vector<int8_t>{3, 3}, info(DataType::QAsymmS8, {1, 1, 2, 1}, 0.5f, 0)),
              (std::vector<int8_t>{60, 127}));
}

TEST(RefConv2d, PerAxisQSymmS8Weights) {
    // Two output channels with weight scales 0.5 and 0.25: w real = [1*... ] per channel.
    // x real [2, 4] (QAsymmU8 s 1 zp 0), w0 q [2, 2] s 0.5 -> real [1, 1]; w1 q [4, -4] s 0.25 -> [1, -1].
    // y0 = 2 + 4 = 6, y1 = 2 - 4 = -2 -> output QAsymmU8 s 1 zp 10 -> [16, 8].
    TensorInfo wi = info(DataType::QSymmS8, {2, 1, 1, 2});
    wi.quant.scales = {0.5f, 0.25f};
    wi.quant.axis = 0;
    EXPECT_EQ(run_weighted<uint8_t>(OpKind::Convolution2d, conv_attrs(DataLayout::NHWC),
                                    info(DataType::QAsymmU8, {1, 1, 1, 2}, 1.0f, 0), std::vector<uint8_t>{2, 4}, wi,
                                    std::vector<int8_t>{2, 2, 4, -4}, info(DataType::QAsymmU8, {1, 1, 1, 2}, 1.0f, 10)),
              (std::vector<uint8_t>{16, 8}));
}

TEST(RefDepthwise, MultiplierChannelOrder) {
    // Output channel c = i*M + m; weights [1,1,1,I*M] = w(i0,m0)=1, w(i0,m1)=2, w(i1,m0)=3, w(i1,m1)=4.
    // NHWC input: pixel 0 (1,10), pixel 1 (2,20).
    EXPECT_EQ(run_weighted_f32(OpKind::DepthwiseConvolution2d, depthwise_attrs(DataLayout::NHWC), {1, 1, 2, 2},
                               {1, 10, 2, 20}, {1, 1, 1, 4}, {1, 2, 3, 4}, {1, 1, 2, 4}),
              (std::vector<float>{1, 2, 30, 40, 2, 4, 60, 80}));
}

TEST(RefDepthwise, NchwDiagonalKernelWithBias) {
    EXPECT_EQ(run_weighted_f32(OpKind::DepthwiseConvolution2d, depthwise_attrs(DataLayout::NCHW), {1, 1, 3, 3},
                               {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 2, 1}, {1, 0, 0, 1}, {1, 1, 2, 2}, {0.5f}),
              (std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f}));
}

TEST(RefDepthwise, StrideAndPaddingNhwcTwoChannels) {
    // 1x3x3x2, 3x3 ones kernel per channel, pad 1, stride 2 -> 2x2x2. Channel 1 = 10 * channel 0.
    std::vector<float> in;
    for (int i = 1; i <= 9; ++i) { in.push_back(float(i)); in.push_back(float(10 * i)); }
    DepthwiseConvolution2dAttrs a = depthwise_attrs(DataLayout::NHWC);
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = 1;
    a.stride_x = a.stride_y = 2;
    EXPECT_EQ(run_weighted_f32(OpKind::DepthwiseConvolution2d, a, {1, 3, 3, 2}, in, {1, 3, 3, 2},
                               std::vector<float>(18, 1.0f), {1, 2, 2, 2}),
              (std::vector<float>{12, 120, 16, 160, 24, 240, 28, 280}));
}

TEST(RefDepthwise, PerAxisInt8WithPerAxisBias) {
    // x real [3, -4]; w q [4, 8] scales [0.5, 0.25] -> real [2, 2]; bias q [2, 4] scales [0.5, 0.25] -> [1, 1].
    TensorInfo wi = info(DataType::QSymmS8, {1, 1, 1, 2});
    wi.quant.scales = {0.5f, 0.25f};
    wi.quant.axis = 3;
    TensorInfo bi = info(DataType::Signed32, {2});
    bi.quant.scales = {0.5f, 0.25f};
    EXPECT_EQ(run_weighted<int8_t>(OpKind::DepthwiseConvolution2d, depthwise_attrs(DataLayout::NHWC, true),
                                   info(DataType::QAsymmS8, {1, 1, 1, 2}, 1.0f, 0), std::vector<int8_t>{3, -4}, wi,
                                   std::vector<int8_t>{4, 8}, info(DataType::QAsymmS8, {1, 1, 1, 2}, 1.0f, 0), bi,
                                   std::vector<int32_t>{2, 4}),
              (std::vector<int8_t>{7, -7}));
}

TEST(RefDepthwise, QSymmS16Input) {
    // x real [300, -2] (s 1); w real [2, 3] (QSymmS8 s 1); y s 2 -> [300, -3] (600/2, -6/2).
    EXPECT_EQ(run_weighted<int16_t>(OpKind::DepthwiseConvolution2d, depthwise_attrs(DataLayout::NHWC),
                                    info(DataType::QSymmS16, {1, 1, 1, 2}, 1.0f, 0), std::vector<int16_t>{300, -2},
                                    info(DataType::QSymmS8, {1, 1, 1, 2}, 1.0f, 0), std::vector<int8_t>{2, 3},
                                    info(DataType::QSymmS16, {1, 1, 1, 2}, 2.0f, 0)),
              (std::vector<int16_t>{300, -3}));
}

// Quantized and Float16 paths of the layer kernels: CpuRef's "decode to float, compute, encode once" rule
// (quantized results are the hand-computed real result re-quantized; Float16 within half precision).
#include <cmath>

#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

// Transpose convolution with stride 2 and padding 1 on every side, with a bias.
TransposeConvolution2dAttrs tconv_stride2_pad1() {
    TransposeConvolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    a.stride_x = a.stride_y = 2;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = 1;
    a.bias_enabled = true;
    return a;
}

}  // namespace

TEST(RefLayerDtypes, TransposeConvolutionQAsymmU8) {
    // x s 0.5 zp 10: {12,14,16,18} = {1,2,3,4}; weights all 1; bias 1.0 (q 2 at s 0.5); stride 2, pad 1
    // -> real {2,3,4,5} -> out s 0.25 zp 0: {8,12,16,20}
    EXPECT_EQ(
        run_weighted<uint8_t>(OpKind::TransposeConvolution2d, tconv_stride2_pad1(),
                              info(DataType::QAsymmU8, {1, 2, 2, 1}, 0.5f, 10), std::vector<uint8_t>{12, 14, 16, 18},
                              info(DataType::QAsymmU8, {1, 2, 2, 1}, 1.0f, 0), std::vector<uint8_t>{1, 1, 1, 1},
                              info(DataType::QAsymmU8, {1, 2, 2, 1}, 0.25f, 0), info(DataType::Signed32, {1}, 0.5f),
                              std::vector<int32_t>{2}),
        (std::vector<uint8_t>{8, 12, 16, 20}));
}

TEST(RefLayerDtypes, TransposeConvolutionQSymmS16WithQSymmS16Weights) {
    // CpuRef 20.08 accepts QSymmS16 weights with a QSymmS16 input (conformance: transpose_conv2d_s16_*).
    // x s 0.5: {2,4,6,8} = {1,2,3,4}; weights s 0.5 {2,2,2,2} = 1; bias 1.0 (q 4 at s 0.25); stride 2, pad 1
    // -> real {2,3,4,5} -> out s 0.25: {8,12,16,20}
    EXPECT_EQ(run_weighted<int16_t>(OpKind::TransposeConvolution2d, tconv_stride2_pad1(),
                                    info(DataType::QSymmS16, {1, 2, 2, 1}, 0.5f, 0), std::vector<int16_t>{2, 4, 6, 8},
                                    info(DataType::QSymmS16, {1, 2, 2, 1}, 0.5f, 0), std::vector<int16_t>{2, 2, 2, 2},
                                    info(DataType::QSymmS16, {1, 2, 2, 1}, 0.25f, 0),
                                    info(DataType::Signed32, {1}, 0.25f), std::vector<int32_t>{4}),
              (std::vector<int16_t>{8, 12, 16, 20}));
}

TEST(RefLayerDtypes, BatchMatMulQAsymmS8) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmS8, {2, 2}, 0.5f, 0), std::vector<int8_t>{2, 4, 6, 8});
    auto z = t.tensor(info(DataType::QAsymmS8, {2, 2}, 1.0f, 0), std::vector<int8_t>{5, 6, 7, 8});
    auto y = t.output(info(DataType::QAsymmS8, {2, 2}, 1.0f, -10));
    t.op(OpKind::BatchMatMul, BatchMatMulAttrs{}, {x, z}, {y});
    t.run();
    EXPECT_EQ(t.out<int8_t>(), (std::vector<int8_t>{9, 12, 33, 40}));  // {19,22,43,50} - 10
}

TEST(RefLayerDtypes, GatherRequantizesWhenOutputParametersDiffer) {
    OneOp t;
    auto x = t.tensor(info(DataType::QAsymmS8, {2}, 1.0f, 0), std::vector<int8_t>{10, -20});
    auto i = t.tensor(info(DataType::Signed32, {2}), std::vector<int32_t>{1, 0});
    auto y = t.output(info(DataType::QAsymmS8, {2}, 2.0f, 1));
    t.op(OpKind::Gather, GatherAttrs{0}, {x, i}, {y});
    t.run();
    EXPECT_EQ(t.out<int8_t>(), (std::vector<int8_t>{-9, 6}));  // -20/2 + 1, 10/2 + 1
}

TEST(RefLayerDtypes, DataMovementIsBitExactForEqualQuantization) {
    OneOp t;
    auto x = t.tensor(info(DataType::QSymmS16, {1, 1, 1, 4}, 0.001f), std::vector<int16_t>{-32768, 1, 2, 32767});
    auto y = t.output(info(DataType::QSymmS16, {1, 2, 2, 1}, 0.001f));
    t.op(OpKind::DepthToSpace, DepthToSpaceAttrs{2, DataLayout::NHWC}, {x}, {y});
    t.run();
    EXPECT_EQ(t.out<int16_t>(), (std::vector<int16_t>{-32768, 1, 2, 32767}));
}

TEST(RefLayerDtypes, Float16InstanceNormAndPooling3d) {
    {
        OneOp t;
        auto x = t.tensor(info(DataType::Float16, {1, 2, 2, 1}), to_f16({1, 2, 3, 4}));
        auto y = t.output(info(DataType::Float16, {1, 2, 2, 1}));
        t.op(OpKind::InstanceNormalization, InstanceNormalizationAttrs{2, 1, 0, DataLayout::NHWC}, {x}, {y});
        t.run();
        EXPECT_FLOATS_NEAR(from_f16(t.out<uint16_t>()), (std::vector<float>{-1.6832816f, 0.1055728f, 1.8944272f, 3.6832816f}), 4e-3);
    }
    {
        OneOp t;
        auto x = t.tensor(info(DataType::Float16, {1, 2, 2, 2, 1}), to_f16({1, 2, 3, 4, 5, 6, 7, 8}));
        auto y = t.output(info(DataType::Float16, {1, 1, 1, 1, 1}));
        Pooling3dAttrs a;
        a.algorithm = PoolingAlgorithm::Average;
        a.pool_width = a.pool_height = a.pool_depth = a.stride_x = a.stride_y = a.stride_z = 2;
        t.op(OpKind::Pooling3d, a, {x}, {y});
        t.run();
        EXPECT_EQ(from_f16(t.out<uint16_t>()), (std::vector<float>{4.5f}));
    }
}

TEST(RefLayerDtypes, QuantizedDetectionPostProcessInputs) {
    // Scores QAsymmU8 s 0.01 zp 0: {0, 90, 10} = {0, .9, .1}; one box, anchors/encodings exact in QAsymmS8 s 0.5.
    OneOp t;
    auto e = t.tensor(info(DataType::QAsymmS8, {1, 1, 4}, 0.5f, 0), std::vector<int8_t>{0, 0, 0, 0});
    auto s = t.tensor(info(DataType::QAsymmU8, {1, 1, 3}, 0.01f, 0), std::vector<uint8_t>{0, 90, 10});
    auto an = t.tensor(info(DataType::QAsymmS8, {1, 4}, 0.5f, 0), std::vector<int8_t>{1, 1, 2, 2}, true);  // (.5,.5,1,1)
    DetectionPostProcessAttrs a;
    a.max_detections = a.max_classes_per_detection = a.detections_per_class = 1;
    a.num_classes = 2;
    a.nms_iou_threshold = 0.5f;
    a.scale_x = a.scale_y = a.scale_w = a.scale_h = 1;
    std::vector<TensorId> outs{t.output(f32({1, 1, 4})), t.output(f32({1, 1})), t.output(f32({1, 1})), t.output(f32({1}))};
    t.op(OpKind::DetectionPostProcess, a, {e, s, an}, outs);
    t.run();
    EXPECT_EQ(t.out<float>(0), (std::vector<float>{0, 0, 1, 1}));
    EXPECT_EQ(t.out<float>(1), (std::vector<float>{0}));
    EXPECT_FLOATS_NEAR(t.out<float>(2), (std::vector<float>{0.9f}), 1e-6);
}

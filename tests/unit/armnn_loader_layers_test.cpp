// Every one of the 69 layer types of the current schema (seed 001) maps to an IR node with its attributes.
// Each case writes one layer with non-default descriptor values and checks what the loader made of them.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "tests/unit/armnn_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

using Builder = flatbuffers::FlatBufferBuilder;
using Base = flatbuffers::Offset<fb::LayerBase>;
using Check = std::function<void(const Graph&, const Node&)>;

struct LayerCase {
    fb::Layer ut;
    fb::LayerType lt;
    int num_inputs;
    int num_outputs;
    mw::TableFn make;
    OpKind want;
    Check check;
};

auto u32v(Builder& b, std::vector<uint32_t> v) { return b.CreateVector(v); }
auto i32v(Builder& b, std::vector<int32_t> v) { return b.CreateVector(v); }
auto ct(Builder& b, std::vector<uint32_t> dims) {
    std::vector<float> v(dims.empty() ? 1 : 1);
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    v.assign(n, 0.5f);
    return mw::ModelWriter::write_const_tensor(b, mw::const_f32(std::move(dims), v));
}
flatbuffers::Offset<fb::OriginsDescriptor> two_views(Builder& b, uint32_t axis) {
    std::vector<flatbuffers::Offset<fb::UintVector>> v{fb::CreateUintVector(b, u32v(b, {0, 0, 0, 0})),
                                                       fb::CreateUintVector(b, u32v(b, {0, 2, 0, 0}))};
    return fb::CreateOriginsDescriptor(b, axis, 2, 4, b.CreateVector(v));
}
template <class P>
flatbuffers::Offset<P> lstm_params(Builder& b, bool with_input_gate) {
    auto w = [&] { return ct(b, {4, 2}); };
    auto r = [&] { return ct(b, {4, 4}); };
    auto bias = [&] { return ct(b, {4}); };
    auto i2f = w(), i2c = w(), i2o = w(), r2f = r(), r2c = r(), r2o = r(), fb_ = bias(), cb = bias(), ob = bias();
    flatbuffers::Offset<fb::ConstTensor> i2i, r2i, ib;
    if (with_input_gate) i2i = w(), r2i = r(), ib = bias();
    typename P::Builder pb(b);
    pb.add_inputToForgetWeights(i2f);
    pb.add_inputToCellWeights(i2c);
    pb.add_inputToOutputWeights(i2o);
    pb.add_recurrentToForgetWeights(r2f);
    pb.add_recurrentToCellWeights(r2c);
    pb.add_recurrentToOutputWeights(r2o);
    pb.add_forgetGateBias(fb_);
    pb.add_cellBias(cb);
    pb.add_outputGateBias(ob);
    if (with_input_gate) {
        pb.add_inputToInputWeights(i2i);
        pb.add_recurrentToInputWeights(r2i);
        pb.add_inputGateBias(ib);
    }
    return pb.Finish();
}

void check_lstm_operands(const Graph& g, const Node& n, bool input_gate) {
    ASSERT_EQ(n.inputs.size(), size_t(kLstmOperandCount));
    for (uint32_t k = 0; k < 3; ++k) EXPECT_FALSE(g.tensor(n.inputs[k]).is_constant());
    EXPECT_EQ(g.info(n.inputs[kInputToForgetWeights]).shape, (Shape{4, 2}));
    EXPECT_EQ(g.info(n.inputs[kRecurrentToOutputWeights]).shape, (Shape{4, 4}));
    EXPECT_EQ(g.info(n.inputs[kOutputGateBias]).shape, (Shape{4}));
    EXPECT_EQ(n.inputs[kInputToInputWeights] != kNoTensor, input_gate);
    EXPECT_EQ(n.inputs[kProjectionWeights], kNoTensor);
    EXPECT_EQ(n.inputs[kCellToForgetWeights], kNoTensor);
}

// A layer table with only its base: for the layers whose loader reads no descriptor.
mw::TableFn plain(fb::Layer ut) {
    return [ut](Builder& b, Base base) {
        (void)ut;
        fb::AdditionLayerBuilder lb(b);
        lb.add_base(base);
        return lb.Finish().Union();
    };
}

void binop(std::vector<LayerCase>& c, fb::Layer ut, fb::LayerType lt, BinaryOp op) {
    c.push_back({ut, lt, 2, 1, plain(ut), OpKind::ElementwiseBinary,
                 [op](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ElementwiseBinaryAttrs>().op, op); }});
}

// The cases in schema order, in four runs so that no function is a 400-line list; all_cases joins them.
void add_cases_activation_to_subtraction(std::vector<LayerCase>& c) {
    using L = fb::Layer;
    using T = fb::LayerType;
    c.push_back({L::ActivationLayer, T::Activation, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateActivationLayer(b, base, fb::CreateActivationDescriptor(b, fb::ActivationFunction::LeakyReLu, 0.1f, 0.2f)).Union(); },
                 OpKind::Activation, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<ActivationAttrs>().function, ActivationFunction::LeakyReLu);
                     EXPECT_EQ(n.attr<ActivationAttrs>().a, 0.1f);
                     EXPECT_EQ(n.attr<ActivationAttrs>().b, 0.2f);
                 }});
    binop(c, L::AdditionLayer, T::Addition, BinaryOp::Add);
    c.push_back({L::BatchToSpaceNdLayer, T::BatchToSpaceNd, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateBatchToSpaceNdLayer(b, base, fb::CreateBatchToSpaceNdDescriptor(b, u32v(b, {2, 2}), u32v(b, {0, 0, 0, 1}), fb::DataLayout::NCHW)).Union(); },
                 OpKind::BatchToSpaceNd, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<BatchToSpaceNdAttrs>();
                     EXPECT_EQ(a.block_shape, (std::vector<uint32_t>{2, 2}));
                     EXPECT_EQ(a.crops, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 0}, {0, 1}}));
                     EXPECT_EQ(a.layout, DataLayout::NCHW);
                 }});
    c.push_back({L::BatchNormalizationLayer, T::BatchNormalization, 1, 1,
                 [](Builder& b, Base base) {
                     auto m = mw::ModelWriter::write_const_tensor(b, mw::const_f32({2}, {1, 2}));
                     auto v = mw::ModelWriter::write_const_tensor(b, mw::const_f32({2}, {3, 4}));
                     auto be = mw::ModelWriter::write_const_tensor(b, mw::const_f32({2}, {5, 6}));
                     auto ga = mw::ModelWriter::write_const_tensor(b, mw::const_f32({2}, {7, 8}));
                     return fb::CreateBatchNormalizationLayer(b, base, fb::CreateBatchNormalizationDescriptor(b, 0.001f, fb::DataLayout::NHWC), m, v, be, ga).Union();
                 },
                 OpKind::BatchNormalization, [](const Graph& g, const Node& n) {
                     ASSERT_EQ(n.inputs.size(), 5u);
                     EXPECT_EQ(values<float>(g, n.inputs[1]), (std::vector<float>{1, 2}));  // mean
                     EXPECT_EQ(values<float>(g, n.inputs[2]), (std::vector<float>{3, 4}));  // variance
                     EXPECT_EQ(values<float>(g, n.inputs[3]), (std::vector<float>{5, 6}));  // beta
                     EXPECT_EQ(values<float>(g, n.inputs[4]), (std::vector<float>{7, 8}));  // gamma
                     EXPECT_EQ(n.attr<BatchNormalizationAttrs>().eps, 0.001f);
                     EXPECT_EQ(n.attr<BatchNormalizationAttrs>().layout, DataLayout::NHWC);
                 }});
    c.push_back({L::ConstantLayer, T::Constant, 0, 1,
                 [](Builder& b, Base base) { return fb::CreateConstantLayer(b, base, mw::ModelWriter::write_const_tensor(b, mw::const_f32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}))).Union(); },
                 OpKind::Constant, [](const Graph& g, const Node& n) {
                     EXPECT_EQ(values<float>(g, n.outputs[0]), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
                 }});
    c.push_back({L::Convolution2dLayer, T::Convolution2d, 1, 1,
                 [](Builder& b, Base base) {
                     auto w = ct(b, {2, 3, 3, 2});
                     auto bi = ct(b, {2});
                     return fb::CreateConvolution2dLayer(b, base, fb::CreateConvolution2dDescriptor(b, 1, 2, 3, 4, 5, 6, 7, 8, true, fb::DataLayout::NHWC), w, bi).Union();
                 },
                 OpKind::Convolution2d, [](const Graph& g, const Node& n) {
                     const auto& a = n.attr<Convolution2dAttrs>();
                     EXPECT_EQ(a.pad_left, 1u); EXPECT_EQ(a.pad_right, 2u); EXPECT_EQ(a.pad_top, 3u); EXPECT_EQ(a.pad_bottom, 4u);
                     EXPECT_EQ(a.stride_x, 5u); EXPECT_EQ(a.stride_y, 6u); EXPECT_EQ(a.dilation_x, 7u); EXPECT_EQ(a.dilation_y, 8u);
                     EXPECT_TRUE(a.bias_enabled);
                     EXPECT_EQ(a.layout, DataLayout::NHWC);
                     ASSERT_EQ(n.inputs.size(), 3u);
                     EXPECT_EQ(g.info(n.inputs[1]).shape, (Shape{2, 3, 3, 2}));
                 }});
    c.push_back({L::DepthwiseConvolution2dLayer, T::DepthwiseConvolution2d, 1, 1,
                 [](Builder& b, Base base) {
                     auto w = ct(b, {1, 3, 3, 2});
                     return fb::CreateDepthwiseConvolution2dLayer(b, base, fb::CreateDepthwiseConvolution2dDescriptor(b, 1, 1, 1, 1, 2, 2, 1, 1, false, fb::DataLayout::NHWC), w).Union();
                 },
                 OpKind::DepthwiseConvolution2d, [](const Graph& g, const Node& n) {
                     EXPECT_EQ(n.attr<DepthwiseConvolution2dAttrs>().stride_x, 2u);
                     EXPECT_EQ(n.attr<DepthwiseConvolution2dAttrs>().layout, DataLayout::NHWC);
                     ASSERT_EQ(n.inputs.size(), 2u);
                     EXPECT_EQ(g.info(n.inputs[1]).shape, (Shape{1, 3, 3, 2}));  // scheme 1: unchanged
                 }});
    c.push_back({L::FullyConnectedLayer, T::FullyConnected, 1, 1,
                 [](Builder& b, Base base) {
                     auto w = ct(b, {8, 3});
                     auto bi = ct(b, {3});
                     return fb::CreateFullyConnectedLayer(b, base, fb::CreateFullyConnectedDescriptor(b, true, false, false), w, bi).Union();
                 },
                 OpKind::FullyConnected, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<FullyConnectedAttrs>();
                     EXPECT_TRUE(a.bias_enabled);
                     EXPECT_FALSE(a.transpose_weights);
                     EXPECT_FALSE(a.constant_weights);
                     EXPECT_EQ(n.inputs.size(), 3u);
                 }});
}

void add_cases_multiplication_to_splitter(std::vector<LayerCase>& c) {
    using L = fb::Layer;
    using T = fb::LayerType;
    // Input (9) and Output (11) are in every case's graph; checked in the test body.
    binop(c, L::MultiplicationLayer, T::Multiplication, BinaryOp::Mul);
    c.push_back({L::PermuteLayer, T::Permute, 1, 1,
                 [](Builder& b, Base base) { return fb::CreatePermuteLayer(b, base, fb::CreatePermuteDescriptor(b, u32v(b, {0, 2, 3, 1}))).Union(); },
                 OpKind::Permute, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<PermuteAttrs>().mapping, (std::vector<uint32_t>{0, 2, 3, 1})); }});
    c.push_back({L::Pooling2dLayer, T::Pooling2d, 1, 1,
                 [](Builder& b, Base base) {
                     return fb::CreatePooling2dLayer(b, base, fb::CreatePooling2dDescriptor(b, fb::PoolingAlgorithm::L2, 1, 2, 3, 4, 5, 6, 7, 8, fb::OutputShapeRounding::Ceiling, fb::PaddingMethod::Exclude, fb::DataLayout::NCHW)).Union();
                 },
                 OpKind::Pooling2d, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<Pooling2dAttrs>();
                     EXPECT_EQ(a.algorithm, PoolingAlgorithm::L2);
                     EXPECT_EQ(a.pad_left, 1u); EXPECT_EQ(a.pad_bottom, 4u);
                     EXPECT_EQ(a.pool_width, 5u); EXPECT_EQ(a.pool_height, 6u);
                     EXPECT_EQ(a.stride_x, 7u); EXPECT_EQ(a.stride_y, 8u);
                     EXPECT_EQ(a.rounding, OutputShapeRounding::Ceiling);
                     EXPECT_EQ(a.padding_method, PaddingMethod::Exclude);
                     EXPECT_EQ(a.layout, DataLayout::NCHW);
                 }});
    c.push_back({L::ReshapeLayer, T::Reshape, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateReshapeLayer(b, base, fb::CreateReshapeDescriptor(b, u32v(b, {1, 8}))).Union(); },
                 OpKind::Reshape, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ReshapeAttrs>().target, (Shape{1, 8})); }});
    c.push_back({L::SoftmaxLayer, T::Softmax, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateSoftmaxLayer(b, base, fb::CreateSoftmaxDescriptor(b, 2.0f, 1)).Union(); },
                 OpKind::Softmax, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<SoftmaxAttrs>().beta, 2.0f);
                     EXPECT_EQ(n.attr<SoftmaxAttrs>().axis, 1);
                 }});
    c.push_back({L::SpaceToBatchNdLayer, T::SpaceToBatchNd, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateSpaceToBatchNdLayer(b, base, fb::CreateSpaceToBatchNdDescriptor(b, u32v(b, {2, 2}), u32v(b, {0, 1, 1, 0}), fb::DataLayout::NHWC)).Union(); },
                 OpKind::SpaceToBatchNd, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<SpaceToBatchNdAttrs>().pads, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 1}, {1, 0}}));
                 }});
    binop(c, L::DivisionLayer, T::Division, BinaryOp::Div);
    binop(c, L::MinimumLayer, T::Minimum, BinaryOp::Minimum);
    c.push_back({L::EqualLayer, T::Equal, 2, 1, plain(L::EqualLayer), OpKind::Comparison,
                 [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ComparisonAttrs>().op, ComparisonOp::Equal); }});
    binop(c, L::MaximumLayer, T::Maximum, BinaryOp::Maximum);
    c.push_back({L::NormalizationLayer, T::Normalization, 1, 1,
                 [](Builder& b, Base base) {
                     return fb::CreateNormalizationLayer(b, base, fb::CreateNormalizationDescriptor(b, fb::NormalizationAlgorithmChannel::Within, fb::NormalizationAlgorithmMethod::LocalContrast, 5, 0.1f, 0.75f, 2.0f, fb::DataLayout::NHWC)).Union();
                 },
                 OpKind::Normalization, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<NormalizationAttrs>();
                     EXPECT_EQ(a.channel, NormChannel::Within);
                     EXPECT_EQ(a.method, NormMethod::LocalContrast);
                     EXPECT_EQ(a.norm_size, 5u);
                     EXPECT_EQ(a.alpha, 0.1f); EXPECT_EQ(a.beta, 0.75f); EXPECT_EQ(a.k, 2.0f);
                     EXPECT_EQ(a.layout, DataLayout::NHWC);
                 }});
    c.push_back({L::PadLayer, T::Pad, 1, 1,
                 [](Builder& b, Base base) { return fb::CreatePadLayer(b, base, fb::CreatePadDescriptor(b, u32v(b, {0, 0, 1, 1, 2, 2, 0, 0}), 3.0f, fb::PaddingMode::Reflect)).Union(); },
                 OpKind::Pad, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<PadAttrs>();
                     EXPECT_EQ(a.pads, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 0}, {1, 1}, {2, 2}, {0, 0}}));
                     EXPECT_EQ(a.value, 3.0f);
                     EXPECT_EQ(a.mode, PaddingMode::Reflect);
                 }});
    c.push_back({L::RsqrtLayer, T::Rsqrt, 1, 1, plain(L::RsqrtLayer), OpKind::ElementwiseUnary,
                 [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ElementwiseUnaryAttrs>().op, UnaryOp::Rsqrt); }});
    c.push_back({L::FloorLayer, T::Floor, 1, 1, plain(L::FloorLayer), OpKind::Floor, nullptr});
    c.push_back({L::GreaterLayer, T::Greater, 2, 1, plain(L::GreaterLayer), OpKind::Comparison,
                 [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ComparisonAttrs>().op, ComparisonOp::Greater); }});
    c.push_back({L::ResizeBilinearLayer, T::ResizeBilinear, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateResizeBilinearLayer(b, base, fb::CreateResizeBilinearDescriptor(b, 5, 3, fb::DataLayout::NHWC, false, true)).Union(); },
                 OpKind::Resize, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<ResizeAttrs>();
                     EXPECT_EQ(a.method, ResizeMethod::Bilinear);
                     EXPECT_EQ(a.target_width, 5u); EXPECT_EQ(a.target_height, 3u);
                     EXPECT_TRUE(a.half_pixel_centers);
                 }});
    binop(c, L::SubtractionLayer, T::Subtraction, BinaryOp::Sub);
    c.push_back({L::StridedSliceLayer, T::StridedSlice, 1, 1,
                 [](Builder& b, Base base) {
                     return fb::CreateStridedSliceLayer(b, base, fb::CreateStridedSliceDescriptor(b, i32v(b, {0, 0, 0, -1}), i32v(b, {1, 2, 2, 2}), i32v(b, {1, 1, 1, -1}), 1, 2, 4, 8, 16, fb::DataLayout::NHWC)).Union();
                 },
                 OpKind::StridedSlice, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<StridedSliceAttrs>();
                     EXPECT_EQ(a.begin, (std::vector<int32_t>{0, 0, 0, -1}));
                     EXPECT_EQ(a.stride, (std::vector<int32_t>{1, 1, 1, -1}));
                     EXPECT_EQ(a.begin_mask, 1); EXPECT_EQ(a.end_mask, 2); EXPECT_EQ(a.shrink_axis_mask, 4);
                     EXPECT_EQ(a.ellipsis_mask, 8); EXPECT_EQ(a.new_axis_mask, 16);
                 }});
    c.push_back({L::GatherLayer, T::Gather, 2, 1,
                 [](Builder& b, Base base) { return fb::CreateGatherLayer(b, base, fb::CreateGatherDescriptor(b, -2)).Union(); },
                 OpKind::Gather, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<GatherAttrs>().axis, -2); }});
    c.push_back({L::MeanLayer, T::Mean, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateMeanLayer(b, base, fb::CreateMeanDescriptor(b, u32v(b, {1, 2}), true)).Union(); },
                 OpKind::Mean, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<ReduceAttrs>();
                     EXPECT_EQ(a.op, ReduceAttrs::Op::Mean);
                     EXPECT_EQ(a.axes, (std::vector<uint32_t>{1, 2}));
                     EXPECT_TRUE(a.keep_dims);
                 }});
    c.push_back({L::MergerLayer, T::Merger, 2, 1,
                 [](Builder& b, Base base) { return fb::CreateMergerLayer(b, base, two_views(b, 1)).Union(); },
                 OpKind::Concat, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<ConcatAttrs>().axis, 1u);
                     EXPECT_EQ(n.attr<ConcatAttrs>().view_origins[1], (std::vector<uint32_t>{0, 2, 0, 0}));
                 }});
    c.push_back({L::L2NormalizationLayer, T::L2Normalization, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateL2NormalizationLayer(b, base, fb::CreateL2NormalizationDescriptor(b, fb::DataLayout::NHWC, 1e-6f)).Union(); },
                 OpKind::L2Normalization, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<L2NormalizationAttrs>().layout, DataLayout::NHWC);
                     EXPECT_EQ(n.attr<L2NormalizationAttrs>().eps, 1e-6f);
                 }});
    c.push_back({L::SplitterLayer, T::Splitter, 1, 2,
                 [](Builder& b, Base base) {
                     std::vector<flatbuffers::Offset<fb::UintVector>> sizes{fb::CreateUintVector(b, u32v(b, {1, 1, 2, 2})),
                                                                            fb::CreateUintVector(b, u32v(b, {1, 1, 2, 2}))};
                     auto s = b.CreateVector(sizes);
                     auto o = two_views(b, 1);
                     return fb::CreateSplitterLayer(b, base, fb::CreateViewsDescriptor(b, o, s)).Union();
                 },
                 OpKind::Splitter, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<SplitterAttrs>();
                     EXPECT_EQ(a.view_origins.size(), 2u);
                     EXPECT_EQ(a.view_sizes[1], (std::vector<uint32_t>{1, 1, 2, 2}));
                     EXPECT_EQ(n.outputs.size(), 2u);
                 }});
}

void add_cases_detection_to_comparison(std::vector<LayerCase>& c) {
    using L = fb::Layer;
    using T = fb::LayerType;
    c.push_back({L::DetectionPostProcessLayer, T::DetectionPostProcess, 2, 4,
                 [](Builder& b, Base base) {
                     auto anchors = mw::ModelWriter::write_const_tensor(b, mw::const_f32({2, 4}, {0.5f, 0.5f, 1, 1, 0.25f, 0.25f, 0.5f, 0.5f}));
                     auto d = fb::CreateDetectionPostProcessDescriptor(b, 10, 2, 3, 0.3f, 0.6f, 90, true, 10, 11, 5, 6);
                     return fb::CreateDetectionPostProcessLayer(b, base, d, anchors).Union();
                 },
                 OpKind::DetectionPostProcess, [](const Graph& g, const Node& n) {
                     const auto& a = n.attr<DetectionPostProcessAttrs>();
                     EXPECT_EQ(a.max_detections, 10u); EXPECT_EQ(a.max_classes_per_detection, 2u);
                     EXPECT_EQ(a.detections_per_class, 3u); EXPECT_EQ(a.nms_score_threshold, 0.3f);
                     EXPECT_EQ(a.nms_iou_threshold, 0.6f); EXPECT_EQ(a.num_classes, 90u); EXPECT_TRUE(a.use_regular_nms);
                     EXPECT_EQ(a.scale_x, 10.0f); EXPECT_EQ(a.scale_y, 11.0f); EXPECT_EQ(a.scale_w, 5.0f); EXPECT_EQ(a.scale_h, 6.0f);
                     ASSERT_EQ(n.inputs.size(), 3u);
                     EXPECT_EQ(values<float>(g, n.inputs[2]), (std::vector<float>{0.5f, 0.5f, 1, 1, 0.25f, 0.25f, 0.5f, 0.5f}));
                 }});
    c.push_back({L::LstmLayer, T::Lstm, 3, 4,
                 [](Builder& b, Base base) {
                     auto p = lstm_params<fb::LstmInputParams>(b, false);
                     auto d = fb::CreateLstmDescriptor(b, 4, 0.5f, 0.25f);  // cifg stays at its default (true)
                     return fb::CreateLstmLayer(b, base, d, p).Union();
                 },
                 OpKind::Lstm, [](const Graph& g, const Node& n) {
                     const auto& a = n.attr<LstmAttrs>();
                     EXPECT_EQ(a.activation, 4u); EXPECT_EQ(a.clip_cell, 0.5f); EXPECT_EQ(a.clip_proj, 0.25f);
                     EXPECT_TRUE(a.cifg); EXPECT_FALSE(a.peephole);
                     check_lstm_operands(g, n, false);
                 }});
    c.push_back({L::QuantizedLstmLayer, T::QuantizedLstm, 3, 2,
                 [](Builder& b, Base base) {
                     auto w = [&] { return ct(b, {4, 2}); };
                     auto r = [&] { return ct(b, {4, 4}); };
                     auto bi = [&] { return ct(b, {4}); };
                     auto p = fb::CreateQuantizedLstmInputParams(b, w(), w(), w(), w(), r(), r(), r(), r(), bi(), bi(), bi(), bi());
                     return fb::CreateQuantizedLstmLayer(b, base, p).Union();
                 },
                 OpKind::QuantizedLstm, [](const Graph& g, const Node& n) {
                     ASSERT_EQ(n.inputs.size(), size_t(kLstmOperandCount));
                     EXPECT_EQ(g.info(n.inputs[kInputToInputWeights]).shape, (Shape{4, 2}));
                     EXPECT_EQ(g.info(n.inputs[kRecurrentToCellWeights]).shape, (Shape{4, 4}));
                     EXPECT_EQ(g.info(n.inputs[kOutputGateBias]).shape, (Shape{4}));
                 }});
    c.push_back({L::QuantizeLayer, T::Quantize, 1, 1, plain(L::QuantizeLayer), OpKind::Quantize, nullptr});
    c.push_back({L::DequantizeLayer, T::Dequantize, 1, 1, plain(L::DequantizeLayer), OpKind::Dequantize, nullptr});
    c.push_back({L::MergeLayer, T::Merge, 2, 1, plain(L::MergeLayer), OpKind::Merge, nullptr});
    c.push_back({L::SwitchLayer, T::Switch, 2, 2, plain(L::SwitchLayer), OpKind::Switch, nullptr});
    c.push_back({L::ConcatLayer, T::Concat, 2, 1,
                 [](Builder& b, Base base) { return fb::CreateConcatLayer(b, base, two_views(b, 1)).Union(); },
                 OpKind::Concat, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ConcatAttrs>().view_origins.size(), 2u); }});
    c.push_back({L::SpaceToDepthLayer, T::SpaceToDepth, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateSpaceToDepthLayer(b, base, fb::CreateSpaceToDepthDescriptor(b, 2, fb::DataLayout::NCHW)).Union(); },
                 OpKind::SpaceToDepth, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<DepthToSpaceAttrs>().block_size, 2u);
                     EXPECT_EQ(n.attr<DepthToSpaceAttrs>().layout, DataLayout::NCHW);
                 }});
    c.push_back({L::PreluLayer, T::Prelu, 2, 1, plain(L::PreluLayer), OpKind::Prelu, nullptr});
    c.push_back({L::TransposeConvolution2dLayer, T::TransposeConvolution2d, 1, 1,
                 [](Builder& b, Base base) {
                     auto w = ct(b, {2, 3, 3, 2});
                     auto bi = ct(b, {2});
                     return fb::CreateTransposeConvolution2dLayer(b, base, fb::CreateTransposeConvolution2dDescriptor(b, 1, 1, 0, 0, 2, 2, true, fb::DataLayout::NHWC), w, bi).Union();
                 },
                 OpKind::TransposeConvolution2d, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<TransposeConvolution2dAttrs>().stride_x, 2u);
                     EXPECT_TRUE(n.attr<TransposeConvolution2dAttrs>().bias_enabled);
                     EXPECT_EQ(n.inputs.size(), 3u);
                 }});
    c.push_back({L::ResizeLayer, T::Resize, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateResizeLayer(b, base, fb::CreateResizeDescriptor(b, 7, 9, fb::ResizeMethod::Bilinear, fb::DataLayout::NCHW, true, false)).Union(); },
                 OpKind::Resize, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<ResizeAttrs>();
                     EXPECT_EQ(a.target_height, 7u); EXPECT_EQ(a.target_width, 9u);
                     EXPECT_EQ(a.method, ResizeMethod::Bilinear); EXPECT_EQ(a.layout, DataLayout::NCHW);
                     EXPECT_TRUE(a.align_corners);
                 }});
    c.push_back({L::StackLayer, T::Stack, 2, 1,
                 [](Builder& b, Base base) { return fb::CreateStackLayer(b, base, fb::CreateStackDescriptor(b, 1, 2, u32v(b, {1, 2, 2, 2}))).Union(); },
                 OpKind::Stack, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<StackAttrs>().axis, 1u);
                     EXPECT_EQ(n.attr<StackAttrs>().num_inputs, 2u);
                     EXPECT_EQ(n.attr<StackAttrs>().input_shape, (Shape{1, 2, 2, 2}));
                 }});
    c.push_back({L::AbsLayer, T::Abs, 1, 1, plain(L::AbsLayer), OpKind::ElementwiseUnary,
                 [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ElementwiseUnaryAttrs>().op, UnaryOp::Abs); }});
    c.push_back({L::ArgMinMaxLayer, T::ArgMinMax, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateArgMinMaxLayer(b, base, fb::CreateArgMinMaxDescriptor(b, fb::ArgMinMaxFunction::Max, 3)).Union(); },
                 OpKind::ArgMinMax, [](const Graph&, const Node& n) {
                     EXPECT_TRUE(n.attr<ArgMinMaxAttrs>().is_max);
                     EXPECT_EQ(n.attr<ArgMinMaxAttrs>().axis, 3);
                 }});
    c.push_back({L::SliceLayer, T::Slice, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateSliceLayer(b, base, fb::CreateSliceDescriptor(b, u32v(b, {0, 1, 0, 0}), u32v(b, {1, 1, 2, 2}))).Union(); },
                 OpKind::Slice, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<SliceAttrs>().begin, (std::vector<uint32_t>{0, 1, 0, 0}));
                     EXPECT_EQ(n.attr<SliceAttrs>().size, (std::vector<uint32_t>{1, 1, 2, 2}));
                 }});
    c.push_back({L::DepthToSpaceLayer, T::DepthToSpace, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateDepthToSpaceLayer(b, base, fb::CreateDepthToSpaceDescriptor(b, 2, fb::DataLayout::NHWC)).Union(); },
                 OpKind::DepthToSpace, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<DepthToSpaceAttrs>().block_size, 2u); }});
    c.push_back({L::InstanceNormalizationLayer, T::InstanceNormalization, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateInstanceNormalizationLayer(b, base, fb::CreateInstanceNormalizationDescriptor(b, 1.5f, 0.5f, 1e-3f, fb::DataLayout::NCHW)).Union(); },
                 OpKind::InstanceNormalization, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<InstanceNormalizationAttrs>();
                     EXPECT_EQ(a.gamma, 1.5f); EXPECT_EQ(a.beta, 0.5f); EXPECT_EQ(a.eps, 1e-3f);
                     EXPECT_EQ(a.layout, DataLayout::NCHW);
                 }});
    c.push_back({L::LogSoftmaxLayer, T::LogSoftmax, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateLogSoftmaxLayer(b, base, fb::CreateLogSoftmaxDescriptor(b, 0.5f, 2)).Union(); },
                 OpKind::LogSoftmax, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<SoftmaxAttrs>().beta, 0.5f);
                     EXPECT_EQ(n.attr<SoftmaxAttrs>().axis, 2);
                 }});
    c.push_back({L::ComparisonLayer, T::Comparison, 2, 1,
                 [](Builder& b, Base base) { return fb::CreateComparisonLayer(b, base, fb::CreateComparisonDescriptor(b, fb::ComparisonOperation::LessOrEqual)).Union(); },
                 OpKind::Comparison, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ComparisonAttrs>().op, ComparisonOp::LessOrEqual); }});
}

void add_cases_standin_to_batch_matmul(std::vector<LayerCase>& c) {
    using L = fb::Layer;
    using T = fb::LayerType;
    c.push_back({L::StandInLayer, T::StandIn, 2, 3,
                 [](Builder& b, Base base) { return fb::CreateStandInLayer(b, base, fb::CreateStandInDescriptor(b, 2, 3)).Union(); },
                 OpKind::StandIn, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<StandInAttrs>().num_inputs, 2u);
                     EXPECT_EQ(n.attr<StandInAttrs>().num_outputs, 3u);
                 }});
    c.push_back({L::ElementwiseUnaryLayer, T::ElementwiseUnary, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateElementwiseUnaryLayer(b, base, fb::CreateElementwiseUnaryDescriptor(b, fb::UnaryOperation::Sin)).Union(); },
                 OpKind::ElementwiseUnary, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<ElementwiseUnaryAttrs>().op, UnaryOp::Sin); }});
    c.push_back({L::TransposeLayer, T::Transpose, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateTransposeLayer(b, base, fb::CreateTransposeDescriptor(b, u32v(b, {0, 3, 1, 2}))).Union(); },
                 OpKind::Transpose, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<PermuteAttrs>().mapping, (std::vector<uint32_t>{0, 3, 1, 2})); }});
    c.push_back({L::QLstmLayer, T::QLstm, 3, 3,
                 [](Builder& b, Base base) {
                     auto p = lstm_params<fb::QLstmInputParams>(b, true);
                     auto d = fb::CreateQLstmDescriptor(b, false, false, false, false, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 7, 0.8f);
                     return fb::CreateQLstmLayer(b, base, d, p).Union();
                 },
                 OpKind::QLstm, [](const Graph& g, const Node& n) {
                     const auto& a = n.attr<QLstmAttrs>();
                     EXPECT_FALSE(a.cifg);
                     EXPECT_EQ(a.cell_clip, 0.1f); EXPECT_EQ(a.projection_clip, 0.2f);
                     EXPECT_EQ(a.input_intermediate_scale, 0.3f); EXPECT_EQ(a.output_intermediate_scale, 0.6f);
                     EXPECT_EQ(a.hidden_state_zero_point, 7); EXPECT_EQ(a.hidden_state_scale, 0.8f);
                     check_lstm_operands(g, n, true);
                 }});
    c.push_back({L::FillLayer, T::Fill, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateFillLayer(b, base, fb::CreateFillDescriptor(b, 4.0f)).Union(); },
                 OpKind::Fill, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<FillAttrs>().value, 4.0f); }});
    c.push_back({L::RankLayer, T::Rank, 1, 1, plain(L::RankLayer), OpKind::Rank, nullptr});
    c.push_back({L::LogicalBinaryLayer, T::LogicalBinary, 2, 1,
                 [](Builder& b, Base base) { return fb::CreateLogicalBinaryLayer(b, base, fb::CreateLogicalBinaryDescriptor(b, fb::LogicalBinaryOperation::LogicalOr)).Union(); },
                 OpKind::LogicalBinary, [](const Graph&, const Node& n) { EXPECT_EQ(n.attr<LogicalBinaryAttrs>().op, LogicalBinaryOp::Or); }});
    c.push_back({L::ReduceLayer, T::Reduce, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateReduceLayer(b, base, fb::CreateReduceDescriptor(b, true, u32v(b, {3}), fb::ReduceOperation::Prod)).Union(); },
                 OpKind::Reduce, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<ReduceAttrs>();
                     EXPECT_EQ(a.op, ReduceAttrs::Op::Prod);
                     EXPECT_EQ(a.axes, (std::vector<uint32_t>{3}));
                     EXPECT_TRUE(a.keep_dims);
                 }});
    c.push_back({L::CastLayer, T::Cast, 1, 1, plain(L::CastLayer), OpKind::Cast, nullptr});
    c.push_back({L::ShapeLayer, T::Shape, 1, 1, plain(L::ShapeLayer), OpKind::Shape, nullptr});
    c.push_back({L::UnidirectionalSequenceLstmLayer, T::UnidirectionalSequenceLstm, 3, 3,
                 [](Builder& b, Base base) {
                     auto p = lstm_params<fb::LstmInputParams>(b, false);
                     auto d = fb::CreateUnidirectionalSequenceLstmDescriptor(b, 4, 0, 0, true, false, false, false, true);
                     return fb::CreateUnidirectionalSequenceLstmLayer(b, base, d, p).Union();
                 },
                 OpKind::UnidirectionalSequenceLstm, [](const Graph& g, const Node& n) {
                     EXPECT_TRUE(n.attr<LstmAttrs>().time_major);
                     check_lstm_operands(g, n, false);
                 }});
    c.push_back({L::ChannelShuffleLayer, T::ChannelShuffle, 1, 1,
                 [](Builder& b, Base base) { return fb::CreateChannelShuffleLayer(b, base, fb::CreateChannelShuffleDescriptor(b, 3, 2)).Union(); },
                 OpKind::ChannelShuffle, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<ChannelShuffleAttrs>().axis, 3u);
                     EXPECT_EQ(n.attr<ChannelShuffleAttrs>().num_groups, 2u);
                 }});
    c.push_back({L::Convolution3dLayer, T::Convolution3d, 3, 1,
                 [](Builder& b, Base base) {
                     auto d = fb::CreateConvolution3dDescriptor(b, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, true);
                     return fb::CreateConvolution3dLayer(b, base, d).Union();
                 },
                 OpKind::Convolution3d, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<Convolution3dAttrs>();
                     EXPECT_EQ(a.stride_z, 2u);
                     EXPECT_EQ(a.layout, DataLayout::NDHWC);  // the schema's default for Conv3d
                     EXPECT_TRUE(a.bias_enabled);
                 }});
    c.push_back({L::Pooling3dLayer, T::Pooling3d, 1, 1,
                 [](Builder& b, Base base) {
                     auto d = fb::CreatePooling3dDescriptor(b, fb::PoolingAlgorithm::Average, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, fb::OutputShapeRounding::Floor, fb::PaddingMethod::IgnoreValue, fb::DataLayout::NCDHW);
                     return fb::CreatePooling3dLayer(b, base, d).Union();
                 },
                 OpKind::Pooling3d, [](const Graph&, const Node& n) {
                     EXPECT_EQ(n.attr<Pooling3dAttrs>().algorithm, PoolingAlgorithm::Average);
                     EXPECT_EQ(n.attr<Pooling3dAttrs>().pool_depth, 2u);
                     EXPECT_EQ(n.attr<Pooling3dAttrs>().layout, DataLayout::NCDHW);
                 }});
    c.push_back({L::GatherNdLayer, T::GatherNd, 2, 1, plain(L::GatherNdLayer), OpKind::GatherNd, nullptr});
    c.push_back({L::BatchMatMulLayer, T::BatchMatMul, 2, 1,
                 [](Builder& b, Base base) { return fb::CreateBatchMatMulLayer(b, base, fb::CreateBatchMatMulDescriptor(b, true, false, false, true, fb::DataLayout::NHWC, fb::DataLayout::NCHW)).Union(); },
                 OpKind::BatchMatMul, [](const Graph&, const Node& n) {
                     const auto& a = n.attr<BatchMatMulAttrs>();
                     EXPECT_TRUE(a.transpose_x); EXPECT_FALSE(a.transpose_y);
                     EXPECT_FALSE(a.adjoint_x); EXPECT_TRUE(a.adjoint_y);
                     EXPECT_EQ(a.layout_x, DataLayout::NHWC); EXPECT_EQ(a.layout_y, DataLayout::NCHW);
                 }});
}

std::vector<LayerCase> all_cases() {
    std::vector<LayerCase> c;
    add_cases_activation_to_subtraction(c);
    add_cases_multiplication_to_splitter(c);
    add_cases_detection_to_comparison(c);
    add_cases_standin_to_batch_matmul(c);
    return c;
}

}  // namespace

TEST(ArmnnLayers, EveryLayerTypeOfTheSchemaMapsToANode) {
    const auto cases = all_cases();
    std::set<int> covered = {static_cast<int>(fb::Layer::InputLayer), static_cast<int>(fb::Layer::OutputLayer)};
    for (const LayerCase& lc : cases) {
        SCOPED_TRACE(fb::EnumNameLayer(lc.ut));
        covered.insert(static_cast<int>(lc.ut));
        mw::ModelWriter w;
        std::vector<mw::Port> ins;
        for (int i = 0; i < lc.num_inputs; ++i) ins.push_back(w.add_input("in" + std::to_string(i), f32(), i));
        std::vector<mw::TensorDesc> outs(lc.num_outputs, f32());
        const uint32_t id = w.add_layer(lc.ut, lc.lt, "the_layer", ins, outs, lc.make);
        for (int k = 0; k < lc.num_outputs; ++k) w.add_output("out" + std::to_string(k), mw::Port(id, k), k);
        Graph g;
        try {
            g = load_bytes(w.finish());
        } catch (const Error& e) {
            ADD_FAILURE() << e.what();
            continue;
        }
        const Node& n = node_named(g, "the_layer");
        EXPECT_EQ(n.op, lc.want);
        EXPECT_EQ(n.outputs.size(), size_t(lc.num_outputs));
        EXPECT_EQ(g.inputs.size(), size_t(lc.num_inputs));
        for (const Node& other : g.nodes) {
            if (other.name.rfind("in", 0) == 0) {
                EXPECT_EQ(other.op, OpKind::Input);
            }
            if (other.name.rfind("out", 0) == 0) {
                EXPECT_EQ(other.op, OpKind::Output);
            }
        }
        if (lc.check) lc.check(g, n);
    }
    // All 69 union members, 1..69.
    EXPECT_EQ(covered.size(), 69u);
    EXPECT_EQ(*covered.begin(), 1);
    EXPECT_EQ(*covered.rbegin(), 69);
}

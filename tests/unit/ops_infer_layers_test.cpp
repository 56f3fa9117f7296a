// Shape inference and validation errors of the layer types added by issue 3: every bad operand or attribute is
// a one-line Error(BadModel) naming the layer and the problem.
#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

template <class Attrs>
std::string infer_error(OpKind k, Attrs a, std::vector<TensorInfo> ins, std::vector<TensorInfo> outs) {
    OneOp t;
    std::vector<TensorId> in, out;
    for (const auto& i : ins) in.push_back(t.output(i));
    for (const auto& o : outs) out.push_back(t.output(o));
    t.op(k, a, in, out);
    const Error e = expect_error([&] { t.infer(); });
    EXPECT_EQ(e.kind(), ErrorKind::BadModel) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    EXPECT_EQ(std::string(e.what()).rfind("layer 0 'test' (" + std::string(to_string(k)) + "): ", 0), 0u) << e.what();
    return e.what();
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(InferLayers, ConvolutionFamily) {
    Convolution3dAttrs c;
    c.layout = DataLayout::NHWC;
    EXPECT_TRUE(has(infer_error(OpKind::Convolution3d, c, {f32({1, 1, 1, 1, 1}), f32({1, 1, 1, 1, 1})}, {f32({1})}),
                    "NDHWC or NCDHW"));
    Convolution3dAttrs c2;
    EXPECT_TRUE(has(infer_error(OpKind::Convolution3d, c2, {f32({1, 1, 1, 1, 2}), f32({1, 1, 1, 3, 1})}, {f32({1})}),
                    "input channels"));
    c2.bias_enabled = true;
    EXPECT_TRUE(has(infer_error(OpKind::Convolution3d, c2, {f32({1, 1, 1, 1, 1}), f32({1, 1, 1, 1, 1})}, {f32({1})}),
                    "biasEnabled"));
    Pooling3dAttrs p;
    p.layout = DataLayout::NDHWC;
    p.pool_width = p.pool_height = p.pool_depth = 3;
    p.stride_x = p.stride_y = p.stride_z = 1;
    EXPECT_TRUE(has(infer_error(OpKind::Pooling3d, p, {f32({1, 2, 2, 2, 1})}, {f32({1})}), "larger than the padded input"));
}

TEST(InferLayers, DataMovement) {
    EXPECT_TRUE(has(infer_error(OpKind::SpaceToDepth, DepthToSpaceAttrs{2, DataLayout::NHWC}, {f32({1, 3, 2, 1})}, {f32({1})}),
                    "not divisible by the block size"));
    EXPECT_TRUE(has(infer_error(OpKind::DepthToSpace, DepthToSpaceAttrs{2, DataLayout::NHWC}, {f32({1, 1, 1, 3})}, {f32({1})}),
                    "not divisible by block size squared"));
    EXPECT_TRUE(has(infer_error(OpKind::ChannelShuffle, ChannelShuffleAttrs{1, 4}, {f32({1, 6})}, {f32({1})}), "numGroups"));
    EXPECT_TRUE(has(infer_error(OpKind::ChannelShuffle, ChannelShuffleAttrs{2, 1}, {f32({1, 6})}, {f32({1})}), "out of range"));
    StackAttrs s;
    s.num_inputs = 2;
    s.input_shape = Shape{2};
    EXPECT_TRUE(has(infer_error(OpKind::Stack, s, {f32({2}), f32({3})}, {f32({1})}), "input 1 has shape 3"));
    EXPECT_TRUE(has(infer_error(OpKind::Gather, GatherAttrs{2}, {f32({2, 2}), info(DataType::Signed32, {1})}, {f32({1})}),
                    "out of range for rank 2"));
    EXPECT_TRUE(has(infer_error(OpKind::GatherNd, std::monostate{}, {f32({2, 2}), info(DataType::Signed32, {1, 3})}, {f32({1})}),
                    "index depth 3"));
    EXPECT_TRUE(has(infer_error(OpKind::Gather, GatherAttrs{0}, {f32({2}), f32({1})}, {f32({1})}), "indices has data type"));
    SpaceToBatchNdAttrs sb;
    sb.block_shape = {2, 2};
    sb.pads = {{0, 0}};
    EXPECT_TRUE(has(infer_error(OpKind::SpaceToBatchNd, sb, {f32({1, 2, 2, 1})}, {f32({1})}), "different lengths"));
}

TEST(InferLayers, LstmFamily) {
    LstmAttrs a;
    a.activation = 4;
    // A Lstm with 3 operands only (the loader always gives the full LstmOperand vector).
    EXPECT_TRUE(has(infer_error(OpKind::Lstm, a, {f32({1, 2}), f32({1, 2}), f32({1, 2})},
                                {f32({1}), f32({1}), f32({1}), f32({1})}),
                    "expected 24"));
    QLstmAttrs q;
    OneOp t;
    std::vector<TensorId> in(kLstmOperandCount, kNoTensor);
    in[kLstmInput] = t.output(info(DataType::QAsymmS8, {1, 1}, 0.1f));
    in[kLstmOutputStateIn] = t.output(info(DataType::QAsymmS8, {1, 1}, 0.1f));
    in[kLstmCellStateIn] = t.output(info(DataType::QSymmS16, {1, 1}, 0.1f));
    for (uint32_t op : {kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights, kRecurrentToForgetWeights,
                        kRecurrentToCellWeights, kRecurrentToOutputWeights})
        in[op] = t.output(info(DataType::QSymmS8, {1, 1}, 0.1f));
    for (uint32_t op : {kForgetGateBias, kCellBias, kOutputGateBias}) in[op] = t.output(info(DataType::Signed32, {1}));
    std::vector<TensorId> out{t.output(info(DataType::QAsymmS8, {1, 1}, 0.1f)), t.output(info(DataType::QSymmS16, {1, 1}, 0.1f)),
                              t.output(info(DataType::QAsymmS8, {1, 1}, 0.1f))};
    t.op(OpKind::QLstm, q, in, out);  // intermediate scales left at 0
    EXPECT_TRUE(has(expect_error([&] { t.infer(); }).what(), "forgetIntermediateScale must be a positive"));
}

TEST(InferLayers, DetectionAndControlFlow) {
    DetectionPostProcessAttrs d;
    d.num_classes = 1;
    d.max_detections = 1;
    d.scale_x = d.scale_y = d.scale_w = d.scale_h = 1;
    EXPECT_TRUE(has(infer_error(OpKind::DetectionPostProcess, d, {f32({1, 2, 4}), f32({1, 2, 2}), f32({3, 4})},
                                {f32({1}), f32({1}), f32({1}), f32({1})}),
                    "anchors 3x4 must be [2, 4]"));
    d.scale_h = 0;
    EXPECT_TRUE(has(infer_error(OpKind::DetectionPostProcess, d, {f32({1, 2, 4}), f32({1, 2, 2}), f32({2, 4})},
                                {f32({1}), f32({1}), f32({1}), f32({1})}),
                    "scales"));
    EXPECT_TRUE(has(infer_error(OpKind::Comparison, ComparisonAttrs{}, {f32({2}), info(DataType::Signed32, {2})},
                                {info(DataType::Boolean, {2})}),
                    "input 1 is Signed32"));
}

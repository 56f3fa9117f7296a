// ir/ops: shape inference per op, its error cases, the op table and validate_graph.
#include "tests/unit/ref_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

std::string message_of(const Error& e) { return e.what(); }

}  // namespace

TEST(OpTable, EveryOpKindIsEitherInferredOrCleanlyUnsupported) {
    for (uint32_t k = 0; k < uint32_t(OpKind::Count_); ++k) {
        const OpKind kind = OpKind(k);
        if (ops::infer_fn(kind)) continue;
        Graph g;
        Node n;
        n.op = kind;
        n.name = "x";
        n.source_index = 7;
        Error e = expect_error([&] { ops::infer_outputs(n, g); });
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        EXPECT_EQ(message_of(e), std::string("layer 7 'x' (") + to_string(kind) + "): " + to_string(kind) +
                                     " is not supported yet");
    }
}

TEST(OpTable, ThisIssuesOpsHaveSemanticsAndReferenceKernels) {
    const OpKind kinds[] = {OpKind::Convolution2d, OpKind::DepthwiseConvolution2d, OpKind::FullyConnected,
                            OpKind::Pooling2d, OpKind::Activation, OpKind::Softmax, OpKind::ElementwiseBinary,
                            OpKind::Reshape, OpKind::Permute, OpKind::Transpose, OpKind::Concat, OpKind::Splitter,
                            OpKind::Pad, OpKind::Mean, OpKind::BatchNormalization, OpKind::Resize, OpKind::Quantize,
                            OpKind::Dequantize, OpKind::ElementwiseUnary, OpKind::Floor};
    for (OpKind k : kinds) {
        EXPECT_NE(ops::infer_fn(k), nullptr) << to_string(k);
        EXPECT_NE(kernels::ref_kernel(k), nullptr) << to_string(k);
    }
    EXPECT_NE(ops::infer_fn(OpKind::Input), nullptr);
    EXPECT_NE(ops::infer_fn(OpKind::Output), nullptr);
    EXPECT_NE(ops::infer_fn(OpKind::Constant), nullptr);
}

TEST(InferConv2d, ShapesForLayoutsStridesDilation) {
    OneOp t;
    auto x = t.tensor(f32({1, 3, 7, 9}), std::vector<float>(189));  // NCHW, C=3, H=7, W=9
    auto w = t.tensor(f32({4, 3, 3, 2}), std::vector<float>(72), true);  // [O, I, H, W]
    auto y = t.output(f32({1, 1, 1, 1}));
    Convolution2dAttrs a;
    a.layout = DataLayout::NCHW;
    a.stride_y = 2;
    a.stride_x = 3;
    a.dilation_y = 2;  // dilated kernel height 5
    a.pad_left = 1;
    t.op(OpKind::Convolution2d, a, {x, w}, {y});
    // H: (7 - 5) / 2 + 1 = 2; W: (9 + 1 - 2) / 3 + 1 = 3
    EXPECT_EQ(t.infer()[0].shape, (Shape{1, 4, 2, 3}));
}

TEST(InferConv2d, Errors) {
    struct Case {
        Shape x, w;
        Convolution2dAttrs a;
        const char* expect;
    };
    Convolution2dAttrs nhwc;
    nhwc.layout = DataLayout::NHWC;
    Convolution2dAttrs zero_stride = nhwc;
    zero_stride.stride_x = 0;
    Convolution2dAttrs zero_dil = nhwc;
    zero_dil.dilation_y = 0;
    Convolution2dAttrs big_dil = nhwc;
    big_dil.dilation_x = 0x80000000u;
    Convolution2dAttrs bias = nhwc;
    bias.bias_enabled = true;
    Convolution2dAttrs ncdhw = nhwc;
    ncdhw.layout = DataLayout::NCDHW;
    const Case cases[] = {
        {{1, 4, 4, 2}, {1, 5, 1, 2}, nhwc, "larger than the padded input"},
        {{1, 4, 4, 2}, {1, 1, 1, 3}, nhwc, "expect 3 input channels, the input has 2"},
        {{1, 4, 4, 2}, {1, 1, 1, 2}, zero_stride, "stride width is 0"},
        {{1, 4, 4, 2}, {1, 1, 1, 2}, zero_dil, "dilation height is 0"},
        {{1, 4, 4, 2}, {1, 1, 3, 2}, big_dil, "overflows"},
        {{1, 4, 4, 2}, {1, 1, 1, 2}, bias, "input 2 is missing"},
        {{4, 4, 2}, {1, 1, 1, 2}, nhwc, "input has rank 3"},
        {{1, 4, 4, 2}, {1, 1, 2}, nhwc, "weights has rank 3"},
        {{1, 4, 4, 2}, {1, 1, 1, 2}, ncdhw, "NCDHW"},
    };
    for (const Case& c : cases) {
        OneOp t;
        auto x = t.tensor(f32(c.x), std::vector<float>(c.x.num_elements()));
        auto w = t.tensor(f32(c.w), std::vector<float>(c.w.num_elements()), true);
        auto y = t.output(f32({1}));
        t.op(OpKind::Convolution2d, c.a, {x, w}, {y});
        Error e = expect_error([&] { t.infer(); });
        EXPECT_EQ(e.kind(), ErrorKind::BadModel);
        EXPECT_NE(message_of(e).find(c.expect), std::string::npos) << message_of(e) << " / expected " << c.expect;
        EXPECT_EQ(message_of(e).rfind("layer 0 'test' (Convolution2d): ", 0), 0u) << message_of(e);
    }
}

TEST(InferConv2d, DtypeRules) {
    auto err = [](TensorInfo xi, TensorInfo wi) {
        OneOp t;
        auto x = t.tensor(xi, std::vector<uint8_t>(xi.num_bytes()));
        auto w = t.tensor(wi, std::vector<uint8_t>(wi.num_bytes()), true);
        auto y = t.output(f32({1}));
        Convolution2dAttrs a;
        a.layout = DataLayout::NHWC;
        t.op(OpKind::Convolution2d, a, {x, w}, {y});
        return message_of(expect_error([&] { t.infer(); }));
    };
    EXPECT_NE(err(f32({1, 1, 1, 1}), info(DataType::Float16, {1, 1, 1, 1})).find("weights is Float16 but the input is Float32"),
              std::string::npos);
    EXPECT_NE(err(info(DataType::QAsymmU8, {1, 1, 1, 1}, 0.0f), info(DataType::QAsymmU8, {1, 1, 1, 1}, 1.0f))
                  .find("no scale"),
              std::string::npos);
    TensorInfo per_axis = info(DataType::QSymmS8, {2, 1, 1, 1});
    per_axis.quant.scales = {1.0f, 1.0f};
    per_axis.quant.axis = 3;
    EXPECT_NE(err(info(DataType::QAsymmU8, {1, 1, 1, 1}, 1.0f), per_axis).find("2 quantization scales for 1 channels"),
              std::string::npos);
    per_axis.quant.axis = 5;
    EXPECT_NE(err(info(DataType::QAsymmU8, {1, 1, 1, 1}, 1.0f), per_axis).find("quantization axis out of range"),
              std::string::npos);
    per_axis.shape = Shape{2, 1, 1, 2};
    per_axis.quant.axis = 3;  // consistent scales, but conv weights are quantized along O (axis 0)
    EXPECT_NE(err(info(DataType::QAsymmU8, {1, 1, 1, 2}, 1.0f), per_axis).find("output-channel axis 0, not 3"),
              std::string::npos);
}

TEST(InferDepthwise, ChannelMultiplierRules) {
    auto run = [](Shape xs, Shape ws) {
        OneOp t;
        auto x = t.tensor(f32(xs), std::vector<float>(xs.num_elements()));
        auto w = t.tensor(f32(ws), std::vector<float>(ws.num_elements()), true);
        auto y = t.output(f32({1}));
        DepthwiseConvolution2dAttrs a;
        a.layout = DataLayout::NHWC;
        t.op(OpKind::DepthwiseConvolution2d, a, {x, w}, {y});
        return t.infer();
    };
    EXPECT_EQ(run({1, 5, 5, 3}, {1, 3, 3, 6})[0].shape, (Shape{1, 3, 3, 6}));
    EXPECT_NE(message_of(expect_error([&] { run({1, 5, 5, 3}, {1, 3, 3, 4}); })).find("multiple"), std::string::npos);
    EXPECT_NE(message_of(expect_error([&] { run({1, 5, 5, 3}, {2, 3, 3, 3}); })).find("[1, H, W, I*M]"),
              std::string::npos);
}

TEST(InferFullyConnected, FlattensAndChecksK) {
    auto run = [](Shape xs, Shape ws, bool transposed) {
        OneOp t;
        auto x = t.tensor(f32(xs), std::vector<float>(xs.num_elements()));
        auto w = t.tensor(f32(ws), std::vector<float>(ws.num_elements()), true);
        auto y = t.output(f32({1}));
        FullyConnectedAttrs a;
        a.transpose_weights = transposed;
        t.op(OpKind::FullyConnected, a, {x, w}, {y});
        return t.infer();
    };
    EXPECT_EQ(run({2, 2, 3}, {6, 5}, false)[0].shape, (Shape{2, 5}));
    EXPECT_EQ(run({2, 6}, {5, 6}, true)[0].shape, (Shape{2, 5}));
    EXPECT_NE(message_of(expect_error([&] { run({2, 6}, {6, 5}, true); })).find("expect 5"), std::string::npos);
    EXPECT_NE(message_of(expect_error([&] { run({6}, {6, 5}, false); })).find("at least 2"), std::string::npos);
}

TEST(InferShapes, PermuteTransposeReshapeErrors) {
    auto err = [](OpKind k, OpAttrs a, Shape xs) {
        OneOp t;
        auto x = t.tensor(f32(xs), std::vector<float>(xs.num_elements()));
        auto y = t.output(f32({1}));
        t.op(k, a, {x}, {y});
        return message_of(expect_error([&] { t.infer(); }));
    };
    EXPECT_NE(err(OpKind::Permute, PermuteAttrs{{0, 0}}, {2, 3}).find("not a permutation"), std::string::npos);
    EXPECT_NE(err(OpKind::Transpose, PermuteAttrs{{0, 1, 2}}, {2, 3}).find("3 entries for an input of rank 2"),
              std::string::npos);
    ReshapeAttrs r;
    r.target = Shape{4};
    EXPECT_NE(err(OpKind::Reshape, r, {2, 3}).find("cannot reshape 2x3 (6 elements) to 4"), std::string::npos);
    EXPECT_NE(err(OpKind::Softmax, SoftmaxAttrs{1.0f, 2}, {2, 3}).find("axis 2 is out of range"), std::string::npos);
    EXPECT_NE(err(OpKind::Activation, SoftmaxAttrs{}, {2}).find("attributes of the wrong kind"), std::string::npos);
}

TEST(InferQuantize, OutputTypeRules) {
    OneOp t;
    auto x = t.tensor(f32({2}), std::vector<float>(2));
    auto y = t.output(f32({2}));
    t.op(OpKind::Quantize, std::monostate{}, {x}, {y});
    EXPECT_NE(message_of(expect_error([&] { t.infer(); })).find("output has data type Float32"), std::string::npos);

    OneOp d;
    auto dx = d.tensor(f32({2}), std::vector<float>(2));
    auto dy = d.output(f32({2}));
    d.op(OpKind::Dequantize, std::monostate{}, {dx}, {dy});
    EXPECT_NE(message_of(expect_error([&] { d.infer(); })).find("input has data type Float32"), std::string::npos);
}

TEST(InferOperandCounts, TooManyOrTooFewInputs) {
    OneOp t;
    auto x = t.tensor(f32({2}), std::vector<float>(2));
    auto y = t.output(f32({2}));
    t.op(OpKind::Floor, std::monostate{}, {x, x}, {y});
    EXPECT_NE(message_of(expect_error([&] { t.infer(); })).find("has 2 inputs, expected 1"), std::string::npos);
    OneOp b;
    auto bx = b.tensor(f32({2}), std::vector<float>(2));
    auto by = b.output(f32({2}));
    b.op(OpKind::BatchNormalization, BatchNormalizationAttrs{}, {bx}, {by});
    EXPECT_NE(message_of(expect_error([&] { b.infer(); })).find("has 1 inputs, expected 5"), std::string::npos);
}

// ---- validate_graph ----

namespace {

// input -> relu -> output, with a declared shape for the relu output.
Graph relu_graph(Shape relu_out) {
    Graph g;
    Tensor in;
    in.name = "in:0";
    in.info = f32({1, 4});
    const TensorId a = g.add_tensor(in);
    Tensor r;
    r.name = "relu:0";
    r.info = f32(relu_out);
    const TensorId b = g.add_tensor(r);
    Node n_in;
    n_in.op = OpKind::Input;
    n_in.name = "in";
    n_in.attrs = BindingAttrs{};
    n_in.outputs = {a};
    Node n_relu;
    n_relu.op = OpKind::Activation;
    n_relu.name = "relu";
    n_relu.source_index = 1;
    n_relu.attrs = ActivationAttrs{ActivationFunction::ReLu, 0, 0};
    n_relu.inputs = {a};
    n_relu.outputs = {b};
    Node n_out;
    n_out.op = OpKind::Output;
    n_out.name = "out";
    n_out.source_index = 2;
    n_out.attrs = BindingAttrs{};
    n_out.inputs = {b};
    g.nodes = {n_in, n_relu, n_out};
    return g;
}

}  // namespace

TEST(ValidateGraph, AcceptsAConsistentGraph) { EXPECT_NO_THROW(validate_graph(relu_graph({1, 4}))); }

TEST(ValidateGraph, DeclaredShapeMismatchNamesLayerAndBothShapes) {
    Error e = expect_error([] { validate_graph(relu_graph({4, 1})); });
    EXPECT_EQ(e.kind(), ErrorKind::BadModel);
    EXPECT_EQ(message_of(e), "layer 1 'relu' (Activation): output 0 is declared as 4x1 but the layer computes 1x4");
}

TEST(ValidateGraph, DeclaredTypeMismatch) {
    Graph g = relu_graph({1, 4});
    g.tensors[1].info.dtype = DataType::Float16;
    EXPECT_NE(message_of(expect_error([&] { validate_graph(g); })).find("declared as Float16 but the layer produces Float32"),
              std::string::npos);
}

TEST(ValidateGraph, ConsumedBeforeProduced) {
    Graph g = relu_graph({1, 4});
    std::swap(g.nodes[0], g.nodes[1]);
    Error e = expect_error([&] { validate_graph(g); });
    EXPECT_EQ(message_of(e), "layer 1 'relu' (Activation): input 0 ('in:0') is consumed before it is produced");
}

TEST(ValidateGraph, TensorIdOutOfRangeAndDoubleProducer) {
    Graph g = relu_graph({1, 4});
    g.nodes[2].inputs = {99};
    EXPECT_NE(message_of(expect_error([&] { validate_graph(g); })).find("tensor 99, which does not exist"),
              std::string::npos);
    Graph h = relu_graph({1, 4});
    h.nodes[1].outputs = {0};
    h.tensors[0].info = f32({1, 4});
    EXPECT_NE(message_of(expect_error([&] { validate_graph(h); })).find("already produced"), std::string::npos);
}

TEST(ValidateGraph, AttributesOfTheWrongKindAreACleanError) {
    Graph g = relu_graph({1, 4});
    g.nodes[1].op = OpKind::Lstm;  // an Lstm node carrying ActivationAttrs
    Error e = expect_error([&] { validate_graph(g); });
    EXPECT_EQ(e.kind(), ErrorKind::BadModel);
    EXPECT_EQ(message_of(e), "layer 1 'relu' (Lstm): attributes of the wrong kind");
}

TEST(OpTable, EveryOpKindHasSemantics) {
    for (uint32_t k = 0; k < uint32_t(OpKind::Count_); ++k)
        EXPECT_NE(ops::infer_fn(OpKind(k)), nullptr) << to_string(OpKind(k));
}

TEST(ValidateGraph, ConstantsCountAsAvailable) {
    Graph g = relu_graph({1, 4});
    static const float data[4] = {1, 2, 3, 4};
    g.tensors[0].data = data;
    g.nodes.erase(g.nodes.begin());  // no Input layer: the relu reads constant data
    EXPECT_NO_THROW(validate_graph(g));
}

TEST(ValidateGraph, HugeDeclaredOutputRejected) {
    Graph g = relu_graph({1, 4});
    g.tensors[0].info.shape = Shape{0xffffffffu, 0xffffffffu, 0xffffffffu};
    g.tensors[1].info.shape = g.tensors[0].info.shape;
    Error e = expect_error([&] { validate_graph(g); });
    EXPECT_EQ(e.kind(), ErrorKind::BadModel);
}

TEST(ValidateGraph, QuantizedTensorWithoutValidScaleRejected) {
    Graph g = relu_graph({1, 4});
    g.tensors[0].info.dtype = DataType::QAsymmU8;
    g.tensors[1].info.dtype = DataType::QAsymmU8;
    g.tensors[0].info.quant.scales = {0.0f};
    Error e = expect_error([&] { validate_graph(g); });
    EXPECT_EQ(message_of(e), "layer 0 'in' (Input): output 0 has an invalid quantization scale 0.000000");
}

TEST(InferIo, ConstantNeedsDataAndOutputNeedsAnInput) {
    OneOp c;
    auto y = c.output(f32({2}));
    c.op(OpKind::Constant, std::monostate{}, {}, {y});
    EXPECT_NE(message_of(expect_error([&] { c.infer(); })).find("constant layer without data"), std::string::npos);

    OneOp k;
    auto data = k.tensor(f32({2}), std::vector<float>{1, 2}, true);
    k.op(OpKind::Constant, std::monostate{}, {}, {data});
    EXPECT_EQ(k.infer()[0].shape, (Shape{2}));

    OneOp o;
    o.op(OpKind::Output, BindingAttrs{}, {}, {});
    EXPECT_NE(message_of(expect_error([&] { o.infer(); })).find("has 0 inputs, expected 1"), std::string::npos);
}

TEST(InferShapes, PadAndResizeShapes) {
    OneOp p;
    auto x = p.tensor(f32({1, 2, 3}), std::vector<float>(6));
    auto y = p.output(f32({1}));
    PadAttrs pa;
    pa.pads = {{0, 0}, {1, 2}, {3, 0}};
    p.op(OpKind::Pad, pa, {x}, {y});
    EXPECT_EQ(p.infer()[0].shape, (Shape{1, 5, 6}));

    OneOp r;
    auto rx = r.tensor(f32({1, 3, 4, 5}), std::vector<float>(60));
    auto ry = r.output(f32({1}));
    ResizeAttrs ra;
    ra.layout = DataLayout::NCHW;
    ra.target_height = 7;
    ra.target_width = 9;
    r.op(OpKind::Resize, ra, {rx}, {ry});
    EXPECT_EQ(r.infer()[0].shape, (Shape{1, 3, 7, 9}));
}

// The NPU support checker: each limit of seed 003 and of the register fields accepts at the limit and
// refuses just past it, with a reason that names the limit.
#include <gtest/gtest.h>

#include "runtime/passes/npu_support.h"

using namespace npurun;

namespace {

struct GraphBuilder {
    Graph g;
    std::vector<std::unique_ptr<std::vector<uint8_t>>> data;

    TensorId value(Shape s, DataType t = DataType::QAsymmS8, float scale = 0.5f, int32_t zp = 0) {
        Tensor x;
        x.info.shape = s;
        x.info.dtype = t;
        if (is_quantized(t)) x.info.quant.scales = {scale}, x.info.quant.offset = zp;
        return g.add_tensor(x);
    }
    TensorId constant(Shape s, DataType t) {
        TensorId id = value(s, t);
        g.tensors[id].data = g.allocate_owned(g.tensors[id].info.num_bytes());
        return id;
    }
    const Node& node(OpKind op, std::vector<TensorId> in, std::vector<TensorId> out, OpAttrs attrs) {
        Node n;
        n.op = op;
        n.inputs = std::move(in);
        n.outputs = std::move(out);
        n.attrs = std::move(attrs);
        g.nodes.push_back(n);
        return g.nodes.back();
    }
};

NpuVerdict conv(uint32_t k, uint32_t stride, uint32_t pad, DataType t = DataType::QAsymmS8, uint32_t dilation = 1,
                NpuPolicy policy = {}) {
    GraphBuilder b;
    Convolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    a.stride_x = a.stride_y = stride;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = pad;
    a.dilation_x = a.dilation_y = dilation;
    const uint32_t in = 64, out = (in + 2 * pad - (k - 1) * dilation - 1) / stride + 1;
    DataType wt = t == DataType::QAsymmS8 ? DataType::QSymmS8 : t;
    const Node& n = b.node(OpKind::Convolution2d,
                           {b.value({1, in, in, 8}, t), b.constant({16, k, k, 8}, wt)},
                           {b.value({1, out, out, 16}, t)}, a);
    return check_npu_support(b.g, n, policy);
}

NpuVerdict pool(PoolingAlgorithm alg, uint32_t k, uint32_t stride, uint32_t pad,
                OutputShapeRounding r = OutputShapeRounding::Floor, PaddingMethod m = PaddingMethod::IgnoreValue,
                uint32_t plane = 32) {
    GraphBuilder b;
    Pooling2dAttrs a;
    a.algorithm = alg;
    a.pool_width = a.pool_height = k;
    a.stride_x = a.stride_y = stride;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = pad;
    a.rounding = r;
    a.padding_method = m;
    const Node& n = b.node(OpKind::Pooling2d, {b.value({1, plane, plane, 8})}, {b.value({1, 4, 4, 8})}, a);
    return check_npu_support(b.g, n, {});
}

}  // namespace

TEST(NpuSupport, ConvolutionWithinRegisterLimits) {
    auto v = conv(3, 1, 1);
    EXPECT_TRUE(v.supported()) << v.reason();
    EXPECT_EQ(v.domain, NpuDomain::Int8);
    EXPECT_TRUE(conv(31, 7, 15).supported());
}

TEST(NpuSupport, ConvolutionRefusalsNameTheLimit) {
    auto k = conv(33, 1, 1);
    EXPECT_FALSE(k.supported());
    EXPECT_NE(k.reason().find("kernel 33x33 exceeds 31x31"), std::string::npos) << k.reason();
    auto s = conv(3, 8, 1);
    EXPECT_NE(s.reason().find("stride 8x8 outside 1..7"), std::string::npos) << s.reason();
    auto p = conv(3, 1, 16);
    EXPECT_NE(p.reason().find("padding top/left 16x16 exceeds 15"), std::string::npos) << p.reason();
    // Dilation runs in the CONV_CON3 atrous fields: the kernel stays 3x3, so a window of 33x33 pixels (dilation
    // 16) is fine; seed 003 caps a Conv's dilation at 31.
    auto d = conv(3, 1, 2, DataType::QAsymmS8, 2);
    EXPECT_TRUE(d.supported()) << d.reason();
    auto d16 = conv(3, 1, 15, DataType::QAsymmS8, 16);
    EXPECT_TRUE(d16.supported()) << d16.reason();
    auto d32 = conv(3, 1, 15, DataType::QAsymmS8, 32);
    EXPECT_FALSE(d32.supported());
    EXPECT_NE(d32.reason().find("dilation 32x32 exceeds 31 (seed 003 Conv limit)"), std::string::npos) << d32.reason();
}

TEST(NpuSupport, Float32NeedsExplicitFp16) {
    auto v = conv(3, 1, 1, DataType::Float32);
    EXPECT_FALSE(v.supported());
    EXPECT_NE(v.reason().find("--fp16"), std::string::npos) << v.reason();
    NpuPolicy p;
    p.fp32_as_fp16 = true;
    auto w = conv(3, 1, 1, DataType::Float32, 1, p);
    EXPECT_TRUE(w.supported()) << w.reason();
    EXPECT_EQ(w.domain, NpuDomain::Fp16);
    EXPECT_TRUE(conv(3, 1, 1, DataType::Float16).supported());
}

TEST(NpuSupport, PoolingLimitsOfSeed003) {
    EXPECT_TRUE(pool(PoolingAlgorithm::Max, 7, 8, 7).supported());
    auto k = pool(PoolingAlgorithm::Max, 9, 1, 0);
    EXPECT_FALSE(k.supported());
    EXPECT_NE(k.reason().find("MaxPool kernel 9x9 exceeds 7x7"), std::string::npos) << k.reason();
    EXPECT_NE(pool(PoolingAlgorithm::Max, 3, 9, 0).reason().find("stride 9x9"), std::string::npos);
    EXPECT_NE(pool(PoolingAlgorithm::Average, 3, 1, 8).reason().find("padding 8 exceeds 7"), std::string::npos);
    EXPECT_NE(pool(PoolingAlgorithm::Max, 3, 2, 0, OutputShapeRounding::Ceiling).reason().find("ceil"), std::string::npos);
    auto ex = pool(PoolingAlgorithm::Average, 3, 1, 1, OutputShapeRounding::Floor, PaddingMethod::Exclude);
    EXPECT_NE(ex.reason().find("count_include_pad"), std::string::npos) << ex.reason();
    // Exclude without padding is the same computation as IgnoreValue: allowed.
    EXPECT_TRUE(pool(PoolingAlgorithm::Average, 3, 1, 0, OutputShapeRounding::Floor, PaddingMethod::Exclude).supported());
    EXPECT_NE(pool(PoolingAlgorithm::L2, 2, 2, 0).reason().find("L2"), std::string::npos);
}

TEST(NpuSupport, GlobalPoolingPlaneLimit) {
    EXPECT_TRUE(pool(PoolingAlgorithm::Average, 0, 0, 0, OutputShapeRounding::Floor, PaddingMethod::IgnoreValue, 7).supported());
    // Above 7x7: pooling passes when the sides factor into windows <= 7 (8 = 4 x 2), else refused.
    EXPECT_TRUE(pool(PoolingAlgorithm::Average, 0, 0, 0, OutputShapeRounding::Floor, PaddingMethod::IgnoreValue, 8).supported());
    auto v = pool(PoolingAlgorithm::Average, 0, 0, 0, OutputShapeRounding::Floor, PaddingMethod::IgnoreValue, 11);
    EXPECT_FALSE(v.supported());
    EXPECT_NE(
        v.reason().find("GlobalAveragePool over 11x11 exceeds 7x7 and does not split into passes of windows <= 7"),
        std::string::npos)
        << v.reason();
}

TEST(NpuSupport, ElementwiseBroadcastPatterns) {
    auto run = [](BinaryOp op, Shape a, Shape bshape, DataType t = DataType::QAsymmS8) {
        GraphBuilder b;
        const Node& n = b.node(OpKind::ElementwiseBinary, {b.value(a, t), b.value(bshape, t)}, {b.value({1, 8, 8, 16}, t)},
                               ElementwiseBinaryAttrs{op});
        return check_npu_support(b.g, n, {});
    };
    EXPECT_TRUE(run(BinaryOp::Mul, {1, 8, 8, 16}, {1, 8, 8, 16}).supported());
    EXPECT_TRUE(run(BinaryOp::Mul, {1, 8, 8, 16}, {1, 1, 1, 16}).supported());  // [b,c,1,1]
    EXPECT_TRUE(run(BinaryOp::Maximum, {1, 8, 8, 16}, {1, 1, 8, 16}).supported());  // [b,c,1,w]
    EXPECT_TRUE(run(BinaryOp::Minimum, {1, 8, 8, 16}, {1, 8, 1, 1}).supported());   // [b,1,h,1]
    auto v = run(BinaryOp::Add, {1, 8, 8, 16}, {1, 1, 1, 1});  // [b,1,1,1] is not an Expand pattern
    EXPECT_FALSE(v.supported());
    EXPECT_NE(v.reason().find("Expand patterns"), std::string::npos) << v.reason();
    auto div8 = run(BinaryOp::Div, {1, 8, 8, 16}, {1, 8, 8, 16});
    EXPECT_FALSE(div8.supported());
    EXPECT_NE(div8.reason().find("float16"), std::string::npos);
    EXPECT_TRUE(run(BinaryOp::Div, {1, 8, 8, 16}, {1, 8, 8, 16}, DataType::Float16).supported());
}

TEST(NpuSupport, DepthwiseMultiplierMustBeOne) {
    GraphBuilder b;
    DepthwiseConvolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    const Node& n = b.node(OpKind::DepthwiseConvolution2d,
                           {b.value({1, 8, 8, 4}), b.constant({1, 3, 3, 8}, DataType::QSymmS8)},
                           {b.value({1, 6, 6, 8})}, a);
    auto v = check_npu_support(b.g, n, {});
    EXPECT_FALSE(v.supported());
    EXPECT_NE(v.reason().find("depth multiplier 2"), std::string::npos) << v.reason();
}

TEST(NpuSupport, PerAxisActivationsAndBatchRefused) {
    GraphBuilder b;
    Convolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    const Node& n = b.node(OpKind::Convolution2d, {b.value({2, 8, 8, 4}), b.constant({4, 1, 1, 4}, DataType::QSymmS8)},
                           {b.value({2, 8, 8, 4})}, a);
    auto v = check_npu_support(b.g, n, {});
    EXPECT_NE(v.reason().find("batch 2"), std::string::npos) << v.reason();

    GraphBuilder c;
    TensorId x = c.value({1, 8, 8, 4});
    c.g.tensors[x].info.quant.scales = {0.1f, 0.2f, 0.3f, 0.4f};
    const Node& m = c.node(OpKind::Convolution2d, {x, c.constant({4, 1, 1, 4}, DataType::QSymmS8)}, {c.value({1, 8, 8, 4})}, a);
    EXPECT_NE(check_npu_support(c.g, m, {}).reason().find("per-axis"), std::string::npos);
}

TEST(NpuSupport, PadModes) {
    auto run = [](PaddingMode mode, Shape s) {
        GraphBuilder b;
        PadAttrs a;
        a.mode = mode;
        a.pads = {{0, 0}, {1, 1}, {1, 1}, {0, 0}};
        const Node& n = b.node(OpKind::Pad, {b.value(s)}, {b.value({s[0], s[1] + 2, s[2] + 2, s[3]})}, a);
        return check_npu_support(b.g, n, {});
    };
    EXPECT_TRUE(run(PaddingMode::Constant, {1, 8, 8, 4}).supported());
    EXPECT_TRUE(run(PaddingMode::Reflect, {1, 8, 8176, 4}).supported());
    EXPECT_NE(run(PaddingMode::Reflect, {1, 8, 8177, 4}).reason().find("8176"), std::string::npos);
    EXPECT_NE(run(PaddingMode::Symmetric, {1, 8, 8, 4}).reason().find("symmetric"), std::string::npos);
}

TEST(NpuSupport, TileIsSeed003Expand) {
    auto run = [](Shape in, Shape out) {
        GraphBuilder b;
        TileAttrs a;
        for (uint32_t d = 0; d < in.rank; ++d) a.multiples.push_back(out[d] / in[d]);
        const Node& n = b.node(OpKind::Tile, {b.value(in)}, {b.value(out)}, a);
        return check_npu_support(b.g, n, {});
    };
    // NHWC shapes; seed 003 writes the patterns NCHW.
    EXPECT_TRUE(run({1, 1, 6, 8}, {1, 5, 6, 8}).supported());  // [b,c,1,w]
    EXPECT_TRUE(run({1, 5, 1, 8}, {1, 5, 6, 8}).supported());  // [b,c,h,1]
    EXPECT_TRUE(run({1, 1, 1, 8}, {1, 5, 6, 8}).supported());  // [b,c,1,1]
    EXPECT_TRUE(run({1, 1, 6, 1}, {1, 5, 6, 8}).supported());  // [b,1,1,w]: the seed allows it (the unit refuses)
    EXPECT_NE(run({1, 5, 6, 1}, {1, 5, 6, 8}).reason().find("not one of the Expand patterns"), std::string::npos);
    EXPECT_NE(run({1, 2, 6, 8}, {1, 6, 6, 8}).reason().find("repeats axis 1 of size 2"), std::string::npos);
    EXPECT_NE(run({1, 1, 1, 8}, {1, 8193, 1, 8}).reason().find("above 8192"), std::string::npos);
}

// Slice and Splitter are views of their input on the NPU: a [1,H,W,C] or [1,C] map, every output quantized as the
// input (the channel-axis and atom rules are the view unit's, runtime/npu/buffer_alias.h).
TEST(NpuSupport, ChannelViewsKeepTheQuantization) {
    for (OpKind op : {OpKind::Slice, OpKind::Splitter}) {
        GraphBuilder b;
        const Node& same = b.node(op, {b.value({1, 4, 4, 32})}, {b.value({1, 4, 4, 16})}, std::monostate{});
        EXPECT_TRUE(check_npu_support(b.g, same, {}).supported()) << to_string(op);
        const Node& requant =
            b.node(op, {b.value({1, 4, 4, 32})}, {b.value({1, 4, 4, 16}, DataType::QAsymmS8, 0.25f)}, std::monostate{});
        EXPECT_NE(check_npu_support(b.g, requant, {}).reason().find("quantized differently"), std::string::npos)
            << to_string(op);
        const Node& rank3 = b.node(op, {b.value({4, 4, 32})}, {b.value({4, 4, 16})}, std::monostate{});
        EXPECT_NE(check_npu_support(b.g, rank3, {}).reason().find("a view on the NPU only of a [1,H,W,C] or [1,C] map"),
                  std::string::npos)
            << to_string(op);
    }
}

TEST(NpuSupport, EveryOtherOpHasAReason) {
    for (int k = 0; k < int(OpKind::Count_); ++k) {
        const OpKind op = OpKind(k);
        if (op == OpKind::Convolution2d || op == OpKind::DepthwiseConvolution2d || op == OpKind::FullyConnected ||
            op == OpKind::ElementwiseBinary || op == OpKind::Pooling2d || op == OpKind::Pad || op == OpKind::Concat ||
            op == OpKind::Reshape || op == OpKind::Activation || op == OpKind::Slice ||
            op == OpKind::Splitter ||  // ChannelViewsKeepTheQuantization
            op == OpKind::Gather ||    // the unit (ops/gather_op.cpp) checks its constant indices
            op == OpKind::Tile)        // an Expand when it repeats nothing: TileIsSeed003Expand
            continue;
        GraphBuilder b;
        const Node& n = b.node(op, {b.value({1, 4, 4, 4})}, {b.value({1, 4, 4, 4})}, std::monostate{});
        auto v = check_npu_support(b.g, n, {});
        EXPECT_FALSE(v.supported()) << to_string(op);
        EXPECT_FALSE(v.reason().empty()) << to_string(op);
    }
}

// The real .armnn files in ../shared/models (written by Arm NN itself): they load with the expected
// structure. Skipped when the shared folder is absent.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "tests/unit/armnn_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

std::string model_path(const std::string& rel) {
    const std::string root = shared_dir();
    return root.empty() ? std::string() : root + "/models/armnn/" + rel;
}

bool exists(const std::string& p) {
    if (p.empty()) return false;
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) return false;
    std::fclose(f);
    return true;
}

std::map<OpKind, int> op_histogram(const Graph& g) {
    std::map<OpKind, int> h;
    for (const Node& n : g.nodes) ++h[n.op];
    return h;
}

void expect_topological(const Graph& g) {
    std::vector<bool> produced(g.tensors.size(), false);
    for (const Node& n : g.nodes) {
        for (TensorId t : n.inputs) {
            if (t != kNoTensor && !g.tensor(t).is_constant()) {
                EXPECT_TRUE(produced[t]) << n.describe();
            }
        }
        for (TensorId t : n.outputs) produced[t] = true;
    }
}

#define REQUIRE_FILE(path)                                                                                  \
    do {                                                                                                    \
        if (!exists(path)) GTEST_SKIP() << "real model not found (set NPURUN_SHARED to ../shared): " << path; \
    } while (0)

}  // namespace

TEST(ArmnnRealModels, MnistUint8) {
    const std::string p = model_path("mnist_uint8.armnn");
    REQUIRE_FILE(p);
    const Graph g = load_model_file(p);
    ASSERT_EQ(g.nodes.size(), 10u);
    expect_topological(g);
    // The file lists FullyConnected (index 6) before the Reshape (index 7) feeding it.
    std::vector<std::string> names;
    for (const Node& n : g.nodes) names.push_back(std::to_string(n.source_index));
    EXPECT_EQ(names, (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "7", "6", "8", "9"}));
    ASSERT_EQ(g.inputs.size(), 1u);
    ASSERT_EQ(g.outputs.size(), 1u);
    EXPECT_EQ(g.inputs[0].name, "input_1");
    EXPECT_EQ(g.inputs[0].id, 3328);
    const TensorInfo& in = g.info(g.inputs[0].tensor);
    EXPECT_EQ(in.shape, (Shape{1, 28, 28, 1}));
    EXPECT_EQ(in.dtype, DataType::QAsymmU8);
    EXPECT_EQ(in.quant.offset, 128);
    EXPECT_EQ(g.outputs[0].name, "dense/Softmax");
    EXPECT_EQ(g.outputs[0].id, 2816);
    EXPECT_EQ(g.info(g.outputs[0].tensor).shape, (Shape{1, 10}));
    // Depthwise weights [32,1,3,3] (M=32, I=1) became [1,3,3,32].
    const Node& dw = g.nodes[1];
    ASSERT_EQ(dw.op, OpKind::DepthwiseConvolution2d);
    EXPECT_EQ(g.info(dw.inputs[1]).shape, (Shape{1, 3, 3, 32}));
    EXPECT_EQ(g.info(dw.inputs[2]).dtype, DataType::Signed32);
    EXPECT_EQ(dw.attr<DepthwiseConvolution2dAttrs>().layout, DataLayout::NHWC);
    EXPECT_EQ(dw.attr<DepthwiseConvolution2dAttrs>().pad_left, 1u);
    EXPECT_EQ(g.nodes[8].attr<SoftmaxAttrs>().beta, 1.0f);
    // Mapped file: the non-depthwise weights are views into it.
    ASSERT_NE(g.file, nullptr);
    EXPECT_EQ(g.owned.size(), 1u);  // only the converted depthwise weights
}

TEST(ArmnnRealModels, MobilenetV1Quant) {
    const std::string p = model_path("mobilenet_v1_0.25_128_quant.armnn");
    REQUIRE_FILE(p);
    const Graph g = load_model_file(p);
    EXPECT_EQ(g.nodes.size(), 60u);
    expect_topological(g);
    const auto h = op_histogram(g);
    EXPECT_EQ(h.at(OpKind::Activation), 27);
    EXPECT_EQ(h.at(OpKind::Convolution2d), 15);
    EXPECT_EQ(h.at(OpKind::DepthwiseConvolution2d), 13);
    EXPECT_EQ(h.at(OpKind::Pooling2d), 1);
    EXPECT_EQ(h.at(OpKind::Reshape), 1);
    EXPECT_EQ(h.at(OpKind::Softmax), 1);
    ASSERT_EQ(g.inputs.size(), 1u);
    EXPECT_EQ(g.info(g.inputs[0].tensor).shape, (Shape{1, 128, 128, 3}));
    EXPECT_EQ(g.info(g.inputs[0].tensor).dtype, DataType::QAsymmU8);
    ASSERT_EQ(g.outputs.size(), 1u);
    EXPECT_EQ(g.outputs[0].id, 22528);
    EXPECT_EQ(g.info(g.outputs[0].tensor).shape, (Shape{1, 1001}));
    for (const Node& n : g.nodes) {
        if (n.op != OpKind::DepthwiseConvolution2d) continue;
        const Shape w = g.info(n.inputs[1]).shape;
        EXPECT_EQ(w.rank, 4u);
        EXPECT_EQ(w[0], 1u) << n.describe();
        EXPECT_EQ(w[1], 3u) << n.describe();
    }
}

TEST(ArmnnRealModels, HelloWorldFloat) {
    const std::string p = model_path("hello_world_float.armnn");
    REQUIRE_FILE(p);
    const Graph g = load_model_file(p);
    EXPECT_EQ(g.nodes.size(), 7u);
    const auto h = op_histogram(g);
    EXPECT_EQ(h.at(OpKind::FullyConnected), 3);
    EXPECT_EQ(h.at(OpKind::Activation), 2);
    EXPECT_EQ(g.inputs.at(0).id, 0);
    EXPECT_EQ(g.info(g.inputs[0].tensor).shape, (Shape{1, 1}));
    EXPECT_EQ(g.outputs.at(0).id, 2304);
    EXPECT_EQ(g.info(g.outputs[0].tensor).shape, (Shape{1, 1}));
    const Node& fc = g.nodes[1];
    ASSERT_EQ(fc.op, OpKind::FullyConnected);
    EXPECT_TRUE(fc.attr<FullyConnectedAttrs>().transpose_weights);
    EXPECT_EQ(g.info(fc.inputs[1]).shape, (Shape{16, 1}));
    // IntData holding Float32 bits: the first weight is the int -1107724496 reinterpreted.
    const int32_t bits = -1107724496;
    float expected;
    std::memcpy(&expected, &bits, 4);
    EXPECT_EQ(values<float>(g, fc.inputs[1])[0], expected);
    EXPECT_TRUE(g.owned.empty());  // every constant used in place
}

TEST(ArmnnRealModels, LegacyFilesLoad) {
    struct Expect {
        const char* file;
        size_t nodes, inputs, outputs;
        OpKind main;
    };
    const Expect cases[] = {
        {"legacy/EnsureL2NormalizationBackwardCompatibility.armnn", 3, 1, 1, OpKind::L2Normalization},
        {"legacy/EnsureLstmLayersBackwardCompatibility.armnn", 8, 3, 4, OpKind::Lstm},
        {"legacy/EnsureMergerLayerBackwardCompatibility.armnn", 4, 2, 1, OpKind::Concat},
        {"legacy/EnsurePadBackwardCompatibility.armnn", 3, 1, 1, OpKind::Pad},
        {"legacy/EnsureResizeBilinearBackwardCompatibility.armnn", 3, 1, 1, OpKind::Resize},
    };
    for (const Expect& e : cases) {
        const std::string p = model_path(e.file);
        REQUIRE_FILE(p);
        SCOPED_TRACE(e.file);
        const Graph g = load_model_file(p);
        EXPECT_EQ(g.nodes.size(), e.nodes);
        EXPECT_EQ(g.inputs.size(), e.inputs);
        EXPECT_EQ(g.outputs.size(), e.outputs);
        const auto h = op_histogram(g);
        EXPECT_EQ(h.count(e.main), 1u);
        for (const Node& n : g.nodes) {
            if (n.op == OpKind::L2Normalization) {
                EXPECT_EQ(n.attr<L2NormalizationAttrs>().eps, 1e-12f);  // field absent in 2019 files
            } else if (n.op == OpKind::Resize) {
                EXPECT_EQ(n.attr<ResizeAttrs>().method, ResizeMethod::Bilinear);
                EXPECT_EQ(n.attr<ResizeAttrs>().target_width, 4u);
                EXPECT_EQ(n.attr<ResizeAttrs>().target_height, 2u);
                EXPECT_EQ(n.attr<ResizeAttrs>().layout, DataLayout::NCHW);
            } else if (n.op == OpKind::Concat) {
                EXPECT_EQ(n.attr<ConcatAttrs>().view_origins[1], (std::vector<uint32_t>{2, 0, 0, 0}));
            } else if (n.op == OpKind::Pad) {
                EXPECT_EQ(n.attr<PadAttrs>().value, 0.0f);
                EXPECT_EQ(n.attr<PadAttrs>().pads.size(), 4u);
            } else if (n.op == OpKind::Lstm) {
                const auto& a = n.attr<LstmAttrs>();
                EXPECT_FALSE(a.cifg);
                EXPECT_TRUE(a.peephole);
                EXPECT_TRUE(a.projection);
                EXPECT_EQ(a.activation, 4u);
                EXPECT_NE(n.inputs[kInputToInputWeights], kNoTensor);
                EXPECT_NE(n.inputs[kCellToInputWeights], kNoTensor);
                EXPECT_NE(n.inputs[kProjectionWeights], kNoTensor);
                EXPECT_EQ(n.outputs.size(), 4u);
            }
        }
    }
}

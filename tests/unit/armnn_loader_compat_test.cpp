// One test per compatibility rule of the .armnn loader (reference/armnn-format.md §1), each on a file
// built with the model writer; expected values are written out by hand.
#include <gtest/gtest.h>

#include <memory>

#include "runtime/loaders/armnn/armnn_loader.h"
#include "tests/unit/armnn_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

// in(binding 5) -> Activation ReLu -> out(binding 9)
mw::ModelWriter relu_model() {
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", f32(), 5);
    const uint32_t act = w.add_activation("relu", in, f32(), fb::ActivationFunction::ReLu);
    w.add_output("out", act, 9);
    return w;
}

}  // namespace

TEST(ArmnnCompat, IdentifierIsOptional) {
    const auto w = relu_model();
    mw::WriteOptions with, without;
    with.identifier = true;
    const auto a = w.finish(with), b = w.finish(without);
    ASSERT_EQ(std::memcmp(a.data() + 4, "ARMN", 4), 0);
    ASSERT_NE(std::memcmp(b.data() + 4, "ARMN", 4), 0);
    for (const auto* bytes : {&a, &b}) {
        const Graph g = load_bytes(*bytes);
        ASSERT_EQ(g.nodes.size(), 3u);
        EXPECT_EQ(g.nodes[1].op, OpKind::Activation);
        EXPECT_EQ(g.nodes[1].attr<ActivationAttrs>().function, ActivationFunction::ReLu);
    }
}

TEST(ArmnnCompat, BindingScheme0IdsAreLayerIndices) {
    // No featureVersions: inputIds/outputIds are LayerBase.index values (100 + 3*id here), the exposed
    // binding id is still the layer's layerBindingId.
    const auto w = relu_model();
    mw::WriteOptions o;
    o.features = mw::Features::Absent;
    o.index_base = 100;
    o.index_stride = 3;
    const Graph g = load_bytes(w.finish(o));
    ASSERT_EQ(g.inputs.size(), 1u);
    ASSERT_EQ(g.outputs.size(), 1u);
    EXPECT_EQ(g.inputs[0].id, 5);
    EXPECT_EQ(g.inputs[0].name, "in");
    EXPECT_EQ(g.outputs[0].id, 9);
    EXPECT_EQ(node_named(g, "relu").source_index, 103u);
    EXPECT_EQ(g.inputs[0].tensor, node_named(g, "in").outputs[0]);
    EXPECT_EQ(g.outputs[0].tensor, node_named(g, "relu").outputs[0]);

    // The same ids read as binding ids (scheme 1) name no layer.
    o.custom_features = std::array<uint32_t, 3>{1, 0, 0};
    o.input_ids = std::vector<int32_t>{100};
    o.output_ids = std::vector<int32_t>{106};
    expect_bad_model(w.finish(o), {"no input layer with binding id 100"});
}

TEST(ArmnnCompat, BindingScheme1IdsAreBindingIdsInFileOrder) {
    mw::ModelWriter w;
    const uint32_t a = w.add_input("a", f32(), 3328);
    const uint32_t b = w.add_input("b", f32(), 256);
    const uint32_t add = w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "add", {a, b}, {f32()});
    w.add_output("y", add, 2816);
    mw::WriteOptions o;
    o.features = mw::Features::BindingOnly;
    o.input_ids = std::vector<int32_t>{256, 3328};  // bindings follow inputIds, not layer order
    const Graph g = load_bytes(w.finish(o));
    ASSERT_EQ(g.inputs.size(), 2u);
    EXPECT_EQ(g.inputs[0].name, "b");
    EXPECT_EQ(g.inputs[0].id, 256);
    EXPECT_EQ(g.inputs[1].name, "a");
    EXPECT_EQ(g.inputs[1].id, 3328);
    EXPECT_EQ(g.outputs[0].id, 2816);
}

TEST(ArmnnCompat, DataTypeNumbersOfBothSchemas) {
    const std::vector<std::pair<int, DataType>> cases = {
        {0, DataType::Float16}, {1, DataType::Float32}, {2, DataType::QAsymmU8}, {3, DataType::Signed32},
        {4, DataType::Boolean}, {5, DataType::QSymmS16}, {6, DataType::QAsymmU8}, {7, DataType::QSymmS16},
        {8, DataType::QAsymmS8}, {9, DataType::QSymmS8}, {10, DataType::Signed64},
    };
    for (const auto& [raw, want] : cases) {
        mw::ModelWriter w;
        const auto t = mw::tensor({4}, static_cast<fb::DataType>(raw), 0.5f, 3);
        w.add_output("out", w.add_input("in", t, 0), 0);
        const Graph g = load_bytes(w.finish());
        EXPECT_EQ(g.info(g.inputs[0].tensor).dtype, want) << "raw " << raw;
        EXPECT_EQ(g.info(g.inputs[0].tensor).quant.scale(), 0.5f);
        EXPECT_EQ(g.info(g.inputs[0].tensor).quant.offset, 3);
    }
    mw::ModelWriter w;
    w.add_output("out", w.add_input("in", mw::tensor({4}, static_cast<fb::DataType>(11)), 0), 0);
    expect_bad_model(w.finish(), {"layer 0 'in' (Input)", "unknown data type 11"});
}

TEST(ArmnnCompat, LegacyQuantisedAsymm8Constant) {
    // A 2019-style uint8 constant (DataType 2 in ByteData) feeding an Addition.
    mw::ModelWriter w;
    const auto t = mw::tensor({1, 1, 1, 3}, fb::DataType::QuantisedAsymm8, 0.25f, 10);
    const uint32_t in = w.add_input("in", t, 0);
    const uint32_t c = w.add_constant("k", mw::const_u8({1, 1, 1, 3}, {1, 2, 250}, 0.25f, 10, fb::DataType::QuantisedAsymm8));
    const uint32_t add = w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "add", {in, c}, {t});
    w.add_output("out", add, 0);
    mw::WriteOptions o;
    o.features = mw::Features::Absent;
    const Graph g = load_bytes(w.finish(o));
    const Node& k = node_named(g, "k");
    EXPECT_EQ(k.op, OpKind::Constant);
    EXPECT_EQ(g.info(k.outputs[0]).dtype, DataType::QAsymmU8);
    EXPECT_EQ(values<uint8_t>(g, k.outputs[0]), (std::vector<uint8_t>{1, 2, 250}));
    EXPECT_EQ(node_named(g, "add").attr<ElementwiseBinaryAttrs>().op, BinaryOp::Add);
}

TEST(ArmnnCompat, PerAxisQuantization) {
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", mw::tensor({1, 2, 2, 1}, fb::DataType::QAsymmU8, 0.5f, 128), 0);
    auto weights = mw::const_i8({3, 1, 1, 1}, {1, -2, 3}, 0.0f, 0, fb::DataType::QSymmS8);
    weights.info.scales = {0.1f, 0.2f, 0.3f};
    weights.info.axis = 0;
    auto bias = mw::const_i32({3}, {10, 20, 30});
    bias.info.scales = {0.05f, 0.1f, 0.15f};
    const uint32_t conv = w.add_convolution2d("conv", in, mw::tensor({1, 2, 2, 3}, fb::DataType::QAsymmU8, 1.0f, 0),
                                              mw::Conv2dParams{}, weights, bias);
    w.add_output("out", conv, 0);
    const Graph g = load_bytes(w.finish());
    const Node& n = node_named(g, "conv");
    ASSERT_EQ(n.inputs.size(), 3u);
    const TensorInfo& wi = g.info(n.inputs[1]);
    EXPECT_TRUE(wi.quant.per_axis());
    EXPECT_EQ(wi.quant.axis, 0u);
    EXPECT_EQ(wi.quant.scales, (std::vector<float>{0.1f, 0.2f, 0.3f}));
    EXPECT_EQ(wi.quant.offset, 0);
    EXPECT_EQ(values<int8_t>(g, n.inputs[1]), (std::vector<int8_t>{1, -2, 3}));
    EXPECT_EQ(g.info(n.inputs[2]).quant.scales, (std::vector<float>{0.05f, 0.1f, 0.15f}));
    EXPECT_EQ(g.info(n.inputs[0]).quant.scale(), 0.5f);
    EXPECT_EQ(g.info(n.inputs[0]).quant.offset, 128);

    // A scale count that does not match the axis is rejected.
    weights.info.scales = {0.1f, 0.2f};
    mw::ModelWriter w2;
    const uint32_t in2 = w2.add_input("in", mw::tensor({1, 2, 2, 1}, fb::DataType::QAsymmU8, 0.5f, 128), 0);
    w2.add_output("out", w2.add_convolution2d("conv", in2, mw::tensor({1, 2, 2, 3}, fb::DataType::QAsymmU8, 1.0f, 0),
                                              mw::Conv2dParams{}, weights, std::nullopt), 0);
    expect_bad_model(w2.finish(), {"'conv' (Convolution2d)", "weights", "2 scales but dimension 0"});
}

TEST(ArmnnCompat, ScalarDimensionality) {
    mw::ModelWriter w;
    auto s = mw::tensor({7, 7});  // dims are ignored for scalars
    s.dimensionality = 2;
    const uint32_t in = w.add_input("in", f32(), 0);
    auto c = mw::const_f32({}, {2.5f});
    c.info.dimensionality = 2;
    const uint32_t k = w.add_constant("two_and_a_half", c);
    const uint32_t mul = w.add_plain(fb::Layer::MultiplicationLayer, fb::LayerType::Multiplication, "mul", {in, k}, {f32()});
    w.add_output("out", mul, 0);
    const uint32_t in_s = w.add_input("scalar_in", s, 1);
    w.add_output("scalar_out", in_s, 1);
    const Graph g = load_bytes(w.finish());
    const Node& kn = node_named(g, "two_and_a_half");
    EXPECT_EQ(g.info(kn.outputs[0]).shape.rank, 0u);
    EXPECT_EQ(values<float>(g, kn.outputs[0]), std::vector<float>{2.5f});
    EXPECT_EQ(g.info(g.inputs[1].tensor).shape.rank, 0u);
    EXPECT_EQ(node_named(g, "mul").attr<ElementwiseBinaryAttrs>().op, BinaryOp::Mul);
}

TEST(ArmnnCompat, UnspecifiedDimensionsAreAClearError) {
    mw::ModelWriter w;
    auto t = f32();
    t.specificity = {true, false, true, true};
    w.add_output("out", w.add_input("in", t, 0), 0);
    expect_bad_model(w.finish(), {"layer 0 'in' (Input)", "dimension 1 is unspecified"});

    mw::ModelWriter w2;
    auto u = f32();
    u.dimensionality = 0;
    w2.add_output("out", w2.add_input("in", u, 0), 0);
    expect_bad_model(w2.finish(), {"rank is unspecified"});
}

namespace {

// Legacy depthwise weights [M=2, I=3, H=2, W=2] whose value encodes its coordinates: 1000m+100i+10h+w.
mw::ConstDesc legacy_depthwise_weights() {
    std::vector<float> v;
    for (int m = 0; m < 2; ++m)
        for (int i = 0; i < 3; ++i)
            for (int h = 0; h < 2; ++h)
                for (int x = 0; x < 2; ++x) v.push_back(float(1000 * m + 100 * i + 10 * h + x));
    return mw::const_f32({2, 3, 2, 2}, v);
}

// The same weights in the IR's [1, H, W, I*M] order: element (h, w, c = i*M + m).
std::vector<float> expected_current_depthwise() {
    std::vector<float> v(2 * 2 * 6);
    for (int h = 0; h < 2; ++h)
        for (int x = 0; x < 2; ++x)
            for (int i = 0; i < 3; ++i)
                for (int m = 0; m < 2; ++m) v[(h * 2 + x) * 6 + i * 2 + m] = float(1000 * m + 100 * i + 10 * h + x);
    return v;
}

std::vector<uint8_t> depthwise_model(const mw::ConstDesc& weights, mw::Features features, mw::WeightsPlacement placement) {
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", f32({1, 3, 3, 3}), 0);
    const uint32_t dw = w.add_depthwise_convolution2d("dw", in, f32({1, 2, 2, 6}), mw::Conv2dParams{}, weights,
                                                      mw::const_f32({6}, {0, 1, 2, 3, 4, 5}), placement);
    w.add_output("out", dw, 0);
    mw::WriteOptions o;
    o.features = features;
    return w.finish(o);
}

}  // namespace

TEST(ArmnnCompat, LegacyDepthwiseWeightsAreConverted) {
    // weightsLayoutScheme 0 (featureVersions absent or {1}): [M,I,H,W] -> [1,H,W,I*M].
    for (auto features : {mw::Features::Absent, mw::Features::BindingOnly}) {
        const Graph g = load_bytes(depthwise_model(legacy_depthwise_weights(), features, mw::WeightsPlacement::Embedded));
        const Node& n = node_named(g, "dw");
        ASSERT_EQ(n.inputs.size(), 3u);
        EXPECT_EQ(g.info(n.inputs[1]).shape, (Shape{1, 2, 2, 6}));
        EXPECT_EQ(values<float>(g, n.inputs[1]), expected_current_depthwise());
        // Spot check by hand: m=1, i=2, h=1, w=0 (value 1210) lands at h=1, w=0, c=2*2+1=5.
        EXPECT_EQ(values<float>(g, n.inputs[1])[(1 * 2 + 0) * 6 + 5], 1210.0f);
        // The bias is not a depthwise weight: untouched.
        EXPECT_EQ(values<float>(g, n.inputs[2]), (std::vector<float>{0, 1, 2, 3, 4, 5}));
    }
}

TEST(ArmnnCompat, CurrentDepthwiseWeightsAreKeptAndUsedInPlace) {
    const auto current = mw::const_f32({1, 2, 2, 6}, expected_current_depthwise());
    const auto bytes = depthwise_model(current, mw::Features::Current, mw::WeightsPlacement::Embedded);
    // Load through load_armnn with the buffer as keepalive: aligned constants must point into it.
    auto owner = std::make_shared<std::vector<uint8_t>>(bytes);
    struct Holder : ConstantStorage {
        std::shared_ptr<std::vector<uint8_t>> v;
    };
    auto holder = std::make_shared<Holder>();
    holder->v = owner;
    const Graph g = load_armnn(owner->data(), owner->size(), holder);
    const Node& n = node_named(g, "dw");
    EXPECT_EQ(g.info(n.inputs[1]).shape, (Shape{1, 2, 2, 6}));
    EXPECT_EQ(values<float>(g, n.inputs[1]), expected_current_depthwise());
    const auto* p = static_cast<const uint8_t*>(g.tensor(n.inputs[1]).data);
    EXPECT_TRUE(p >= owner->data() && p < owner->data() + owner->size()) << "weights were copied";
    EXPECT_TRUE(g.owned.empty());
    EXPECT_EQ(g.file.get(), holder.get());
}

TEST(ArmnnCompat, LegacyDepthwiseWeightsFromAConstantLayer) {
    // Scheme 0 with the weights on input slot 1 (from a Constant layer) is converted too.
    const Graph g = load_bytes(depthwise_model(legacy_depthwise_weights(), mw::Features::BindingOnly,
                                               mw::WeightsPlacement::ConstantLayers));
    const Node& n = node_named(g, "dw");
    ASSERT_EQ(n.inputs.size(), 3u);
    EXPECT_EQ(g.info(n.inputs[1]).shape, (Shape{1, 2, 2, 6}));
    EXPECT_EQ(values<float>(g, n.inputs[1]), expected_current_depthwise());
    // The Constant layer's own output keeps the file's shape.
    EXPECT_EQ(g.info(node_named(g, "dw/weights").outputs[0]).shape, (Shape{2, 3, 2, 2}));
}

TEST(ArmnnCompat, OnlyDepthwiseWeightsAreConverted) {
    // Arm NN >= 22.05 permutes every 4-D Constant of a scheme-0 file (and fails on the others); we do not.
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", f32({2, 3, 2, 2}), 0);
    const uint32_t k = w.add_constant("k", legacy_depthwise_weights());
    const uint32_t k1 = w.add_constant("k1", mw::const_f32({3}, {1, 2, 3}));
    const uint32_t add = w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "add", {in, k}, {f32({2, 3, 2, 2})});
    w.add_output("out", add, 0);
    w.add_output("out1", k1, 1);
    mw::WriteOptions o;
    o.features = mw::Features::Absent;
    const Graph g = load_bytes(w.finish(o));
    const Node& kn = node_named(g, "k");
    EXPECT_EQ(g.info(kn.outputs[0]).shape, (Shape{2, 3, 2, 2}));
    EXPECT_EQ(values<float>(g, kn.outputs[0])[1 * 12 + 2 * 4 + 1 * 2 + 0], 1210.0f);  // still [m][i][h][w]
    EXPECT_EQ(g.info(node_named(g, "k1").outputs[0]).shape, (Shape{3}));
}

TEST(ArmnnCompat, LegacyDepthwisePerAxisScalesAreRemapped) {
    // Weights [M=2, I=3, 1, 1] int8.
    auto make = [](std::vector<float> scales, uint32_t axis) {
        auto c = mw::const_i8({2, 3, 1, 1}, {0, 1, 2, 10, 11, 12}, 0.0f, 0, fb::DataType::QSymmS8);
        c.info.scales = std::move(scales);
        c.info.axis = axis;
        mw::ModelWriter w;
        const uint32_t in = w.add_input("in", mw::tensor({1, 1, 1, 3}, fb::DataType::QAsymmU8, 1.0f, 0), 0);
        const uint32_t dw = w.add_depthwise_convolution2d("dw", in, mw::tensor({1, 1, 1, 6}, fb::DataType::QAsymmU8, 1.0f, 0),
                                                          mw::Conv2dParams{}, c, std::nullopt);
        w.add_output("out", dw, 0);
        mw::WriteOptions o;
        o.features = mw::Features::BindingOnly;
        return w.finish(o);
    };
    {   // one scale per M on axis 0: output channel c = i*M + m gets scale[m]
        const Graph g = load_bytes(make({0.5f, 2.0f}, 0));
        const TensorInfo& t = g.info(node_named(g, "dw").inputs[1]);
        EXPECT_EQ(t.shape, (Shape{1, 1, 1, 6}));
        EXPECT_EQ(t.quant.axis, 3u);
        EXPECT_EQ(t.quant.scales, (std::vector<float>{0.5f, 2.0f, 0.5f, 2.0f, 0.5f, 2.0f}));
        EXPECT_EQ(values<int8_t>(g, node_named(g, "dw").inputs[1]), (std::vector<int8_t>{0, 10, 1, 11, 2, 12}));
    }
    {   // one scale per output channel on axis 0 (Arm NN 20.08 TfLite parser): kept, axis 3
        const Graph g = load_bytes(make({1, 2, 3, 4, 5, 6}, 0));
        const TensorInfo& t = g.info(node_named(g, "dw").inputs[1]);
        EXPECT_EQ(t.quant.axis, 3u);
        EXPECT_EQ(t.quant.scales, (std::vector<float>{1, 2, 3, 4, 5, 6}));
    }
    {   // one scale per I on axis 1: c = i*M + m gets scale[i]
        const Graph g = load_bytes(make({0.25f, 0.5f, 0.75f}, 1));
        const TensorInfo& t = g.info(node_named(g, "dw").inputs[1]);
        EXPECT_EQ(t.quant.axis, 3u);
        EXPECT_EQ(t.quant.scales, (std::vector<float>{0.25f, 0.25f, 0.5f, 0.5f, 0.75f, 0.75f}));
    }
    expect_bad_model(make({1, 2, 3, 4}, 0), {"'dw' (DepthwiseConvolution2d)", "4 scales on axis 0"});
}

TEST(ArmnnCompat, ConstantTensorsAsInputsDecidedPerLayer) {
    const auto weights = mw::const_f32({2, 1, 1, 2}, {1, 2, 3, 4});
    const auto bias = mw::const_f32({2}, {0.5f, -0.5f});
    // Embedded weights + 1 input slot are used even when the flag says "inputs" (Arm NN 21.08-22.05 files),
    // and weights on slots 1/2 are used even when the flag is absent.
    for (auto features : {mw::Features::Absent, mw::Features::BindingOnly, mw::Features::Current}) {
        for (auto placement : {mw::WeightsPlacement::Embedded, mw::WeightsPlacement::ConstantLayers}) {
            mw::ModelWriter w;
            const uint32_t in = w.add_input("in", f32({1, 1, 1, 2}), 0);
            const uint32_t conv = w.add_convolution2d("conv", in, f32({1, 1, 1, 2}), mw::Conv2dParams{}, weights, bias, placement);
            const uint32_t fc = w.add_fully_connected("fc", conv, f32({1, 2}), mw::const_f32({2, 2}, {1, 0, 0, 1}),
                                                      std::nullopt, true, placement);
            w.add_output("out", fc, 0);
            mw::WriteOptions o;
            o.features = features;
            const Graph g = load_bytes(w.finish(o));
            const Node& c = node_named(g, "conv");
            ASSERT_EQ(c.inputs.size(), 3u);
            EXPECT_EQ(values<float>(g, c.inputs[1]), (std::vector<float>{1, 2, 3, 4}));
            EXPECT_EQ(values<float>(g, c.inputs[2]), (std::vector<float>{0.5f, -0.5f}));
            EXPECT_TRUE(c.attr<Convolution2dAttrs>().bias_enabled);
            const Node& f = node_named(g, "fc");
            ASSERT_EQ(f.inputs.size(), 2u);
            EXPECT_TRUE(f.attr<FullyConnectedAttrs>().transpose_weights);
            EXPECT_FALSE(f.attr<FullyConnectedAttrs>().bias_enabled);
            EXPECT_EQ(g.nodes.size(), placement == mw::WeightsPlacement::Embedded ? 4u : 7u);
        }
    }
}

TEST(ArmnnCompat, WeightsOnInputsMustMatchBiasEnabled) {
    // Bias enabled, but only input + weights slots: no embedded weights to fall back on.
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", f32({1, 1, 1, 2}), 0);
    const uint32_t k = w.add_constant("w", mw::const_f32({2, 1, 1, 2}, {1, 2, 3, 4}));
    const uint32_t conv = w.add_layer(fb::Layer::Convolution2dLayer, fb::LayerType::Convolution2d, "conv", {in, k},
                                      {f32({1, 1, 1, 2})},
                                      [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto d = fb::CreateConvolution2dDescriptor(b, 0, 0, 0, 0, 1, 1, 1, 1, true,
                                                                                     fb::DataLayout::NHWC);
                                          return fb::CreateConvolution2dLayer(b, base, d).Union();
                                      });
    w.add_output("out", conv, 0);
    expect_bad_model(w.finish(), {"'conv' (Convolution2d)", "has 2 input slots, expected 3"});
}

TEST(ArmnnCompat, LayersInAnyOrderGiveAStableTopologicalOrder) {
    // in -> a, in -> b, (a, b) -> add -> out, written in reverse order with index != position.
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", f32(), 0);
    const uint32_t a = w.add_activation("a", in, f32(), fb::ActivationFunction::ReLu);
    const uint32_t b = w.add_activation("b", in, f32(), fb::ActivationFunction::Sigmoid);
    const uint32_t add = w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "add", {a, b}, {f32()});
    const uint32_t out = w.add_output("out", add, 0);
    mw::WriteOptions o;
    o.order = std::vector<uint32_t>{out, add, b, a, in};
    o.index_base = 50;
    o.index_stride = 7;
    const Graph g = load_bytes(w.finish(o));
    std::vector<std::string> names;
    for (const Node& n : g.nodes) names.push_back(n.name);
    // Ready layers leave in file order: b (position 2) before a (position 3).
    EXPECT_EQ(names, (std::vector<std::string>{"in", "b", "a", "add", "out"}));
    EXPECT_EQ(node_named(g, "add").source_index, 50u + 7u * 3u);
    // add's inputs keep slot order: a then b.
    EXPECT_EQ(node_named(g, "add").inputs[0], node_named(g, "a").outputs[0]);
    EXPECT_EQ(node_named(g, "add").inputs[1], node_named(g, "b").outputs[0]);
}

TEST(ArmnnCompat, ShuffledFilesLoadIdenticallyAndTopologically) {
    mw::ModelWriter w;
    uint32_t prev = w.add_input("in", f32(), 0);
    std::vector<uint32_t> chain;
    for (int i = 0; i < 12; ++i) {
        const uint32_t side = w.add_activation("s" + std::to_string(i), prev, f32(), fb::ActivationFunction::TanH, 1, 1);
        prev = w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "add" + std::to_string(i), {prev, side}, {f32()});
    }
    w.add_output("out", prev, 0);
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        mw::WriteOptions o;
        o.shuffle = true;
        o.seed = seed;
        o.index_base = 1000;
        o.index_stride = 3;
        const auto bytes = w.finish(o);
        const Graph g = load_bytes(bytes);
        ASSERT_EQ(g.nodes.size(), w.num_layers());
        std::vector<bool> produced(g.tensors.size(), false);
        for (const Node& n : g.nodes) {
            for (TensorId t : n.inputs)
                if (t != kNoTensor && !g.tensor(t).is_constant()) {
                    EXPECT_TRUE(produced[t]) << n.describe();
                }
            for (TensorId t : n.outputs) produced[t] = true;
        }
        const Graph again = load_bytes(bytes);
        for (size_t i = 0; i < g.nodes.size(); ++i) EXPECT_EQ(g.nodes[i].name, again.nodes[i].name);
    }
}

TEST(ArmnnCompat, DeprecatedLayersMapToSuccessors) {
    mw::ModelWriter w;
    const uint32_t x = w.add_input("x", f32(), 0);
    const uint32_t y = w.add_input("y", f32(), 1);
    auto boolean = mw::tensor({1, 2, 2, 2}, fb::DataType::Boolean);
    struct Case {
        fb::Layer ut;
        fb::LayerType lt;
        const char* name;
        int inputs;
    };
    const Case cases[] = {
        {fb::Layer::AdditionLayer, fb::LayerType::Addition, "addition", 2},
        {fb::Layer::SubtractionLayer, fb::LayerType::Subtraction, "subtraction", 2},
        {fb::Layer::MultiplicationLayer, fb::LayerType::Multiplication, "multiplication", 2},
        {fb::Layer::DivisionLayer, fb::LayerType::Division, "division", 2},
        {fb::Layer::MaximumLayer, fb::LayerType::Maximum, "maximum", 2},
        {fb::Layer::MinimumLayer, fb::LayerType::Minimum, "minimum", 2},
        {fb::Layer::EqualLayer, fb::LayerType::Equal, "equal", 2},
        {fb::Layer::GreaterLayer, fb::LayerType::Greater, "greater", 2},
        {fb::Layer::AbsLayer, fb::LayerType::Abs, "abs", 1},
        {fb::Layer::RsqrtLayer, fb::LayerType::Rsqrt, "rsqrt", 1},
    };
    int32_t binding = 0;
    for (const Case& c : cases) {
        std::vector<mw::Port> ins{x};
        if (c.inputs == 2) ins.push_back(y);
        const bool cmp = c.ut == fb::Layer::EqualLayer || c.ut == fb::Layer::GreaterLayer;
        w.add_output(std::string("out_") + c.name, w.add_plain(c.ut, c.lt, c.name, ins, {cmp ? boolean : f32()}), binding++);
    }
    const uint32_t merger = w.add_layer(fb::Layer::MergerLayer, fb::LayerType::Merger, "merger", {x, y}, {f32({2, 2, 2, 2})},
                                        [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                            std::vector<flatbuffers::Offset<fb::UintVector>> v{
                                                fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{0, 0, 0, 0})),
                                                fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{1, 0, 0, 0}))};
                                            auto od = fb::CreateOriginsDescriptor(b, 0, 2, 4, b.CreateVector(v));
                                            return fb::CreateMergerLayer(b, base, od).Union();
                                        });
    w.add_output("out_merger", merger, binding++);
    const uint32_t rb = w.add_layer(fb::Layer::ResizeBilinearLayer, fb::LayerType::ResizeBilinear, "resize_bilinear", {x},
                                    {f32({1, 4, 6, 2})},
                                    [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                        auto d = fb::CreateResizeBilinearDescriptor(b, 6, 4, fb::DataLayout::NHWC, true, false);
                                        return fb::CreateResizeBilinearLayer(b, base, d).Union();
                                    });
    w.add_output("out_rb", rb, binding++);
    mw::WriteOptions o;
    o.features = mw::Features::Absent;
    const Graph g = load_bytes(w.finish(o));

    auto eb = [&](const char* n) { return node_named(g, n).attr<ElementwiseBinaryAttrs>().op; };
    EXPECT_EQ(node_named(g, "addition").op, OpKind::ElementwiseBinary);
    EXPECT_EQ(eb("addition"), BinaryOp::Add);
    EXPECT_EQ(eb("subtraction"), BinaryOp::Sub);
    EXPECT_EQ(eb("multiplication"), BinaryOp::Mul);
    EXPECT_EQ(eb("division"), BinaryOp::Div);
    EXPECT_EQ(eb("maximum"), BinaryOp::Maximum);
    EXPECT_EQ(eb("minimum"), BinaryOp::Minimum);
    EXPECT_EQ(node_named(g, "equal").op, OpKind::Comparison);
    EXPECT_EQ(node_named(g, "equal").attr<ComparisonAttrs>().op, ComparisonOp::Equal);
    EXPECT_EQ(node_named(g, "greater").attr<ComparisonAttrs>().op, ComparisonOp::Greater);
    EXPECT_EQ(node_named(g, "abs").op, OpKind::ElementwiseUnary);
    EXPECT_EQ(node_named(g, "abs").attr<ElementwiseUnaryAttrs>().op, UnaryOp::Abs);
    EXPECT_EQ(node_named(g, "rsqrt").attr<ElementwiseUnaryAttrs>().op, UnaryOp::Rsqrt);
    const Node& m = node_named(g, "merger");
    EXPECT_EQ(m.op, OpKind::Concat);
    EXPECT_EQ(m.attr<ConcatAttrs>().view_origins, (std::vector<std::vector<uint32_t>>{{0, 0, 0, 0}, {1, 0, 0, 0}}));
    const Node& r = node_named(g, "resize_bilinear");
    EXPECT_EQ(r.op, OpKind::Resize);
    const auto& ra = r.attr<ResizeAttrs>();
    EXPECT_EQ(ra.method, ResizeMethod::Bilinear);
    EXPECT_EQ(ra.target_width, 6u);
    EXPECT_EQ(ra.target_height, 4u);
    EXPECT_EQ(ra.layout, DataLayout::NHWC);
    EXPECT_TRUE(ra.align_corners);
    EXPECT_FALSE(ra.half_pixel_centers);
}

TEST(ArmnnCompat, SchemaDefaultsForAbsentFields) {
    mw::ModelWriter w;
    const uint32_t x = w.add_input("x", f32(), 0);
    // Softmax without a descriptor: beta 0 (the schema has no default), axis -1.
    const uint32_t sm = w.add_layer(fb::Layer::SoftmaxLayer, fb::LayerType::Softmax, "softmax", {x}, {f32()},
                                    [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                        return fb::CreateSoftmaxLayer(b, base).Union();
                                    });
    const uint32_t lsm = w.add_layer(fb::Layer::LogSoftmaxLayer, fb::LayerType::LogSoftmax, "logsoftmax", {x}, {f32()},
                                     [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                         return fb::CreateLogSoftmaxLayer(b, base, fb::LogSoftmaxDescriptorBuilder(b).Finish()).Union();
                                     });
    const uint32_t conv = w.add_layer(fb::Layer::Convolution2dLayer, fb::LayerType::Convolution2d, "conv", {x}, {f32()},
                                      [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto wt = mw::ModelWriter::write_const_tensor(b, mw::const_f32({2, 1, 1, 2}, {1, 0, 0, 1}));
                                          auto d = fb::Convolution2dDescriptorBuilder(b).Finish();
                                          return fb::CreateConvolution2dLayer(b, base, d, wt).Union();
                                      });
    const uint32_t l2 = w.add_layer(fb::Layer::L2NormalizationLayer, fb::LayerType::L2Normalization, "l2", {x}, {f32()},
                                    [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                        return fb::CreateL2NormalizationLayer(b, base).Union();
                                    });
    const uint32_t act = w.add_layer(fb::Layer::ActivationLayer, fb::LayerType::Activation, "act", {x}, {f32()},
                                     [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                         return fb::CreateActivationLayer(b, base).Union();
                                     });
    const uint32_t soft = w.add_activation("softrelu", x, f32(), fb::ActivationFunction::SoftReLu);
    const uint32_t idx = w.add_input("idx", mw::tensor({2}, fb::DataType::Signed32), 1);
    const uint32_t gather = w.add_layer(fb::Layer::GatherLayer, fb::LayerType::Gather, "gather", {x, idx}, {f32({2, 2, 2, 2})},
                                        [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                            return fb::CreateGatherLayer(b, base).Union();  // 19.x: no descriptor
                                        });
    int32_t id = 0;
    for (uint32_t l : {sm, lsm, conv, l2, act, soft, gather}) w.add_output("out" + std::to_string(id), l, id), ++id;
    const Graph g = load_bytes(w.finish());

    EXPECT_EQ(node_named(g, "softmax").attr<SoftmaxAttrs>().beta, 0.0f);
    EXPECT_EQ(node_named(g, "softmax").attr<SoftmaxAttrs>().axis, -1);
    EXPECT_EQ(node_named(g, "logsoftmax").op, OpKind::LogSoftmax);
    EXPECT_EQ(node_named(g, "logsoftmax").attr<SoftmaxAttrs>().beta, 1.0f);
    EXPECT_EQ(node_named(g, "logsoftmax").attr<SoftmaxAttrs>().axis, -1);
    const auto& c = node_named(g, "conv").attr<Convolution2dAttrs>();
    EXPECT_EQ(c.layout, DataLayout::NCHW);
    EXPECT_EQ(c.dilation_x, 1u);
    EXPECT_EQ(c.dilation_y, 1u);
    EXPECT_EQ(c.stride_x, 0u);  // the schema's default, not a guess
    EXPECT_FALSE(c.bias_enabled);
    EXPECT_EQ(node_named(g, "conv").inputs.size(), 2u);
    EXPECT_EQ(node_named(g, "l2").attr<L2NormalizationAttrs>().eps, 1e-12f);
    EXPECT_EQ(node_named(g, "l2").attr<L2NormalizationAttrs>().layout, DataLayout::NCHW);
    EXPECT_EQ(node_named(g, "act").attr<ActivationAttrs>().function, ActivationFunction::Sigmoid);
    EXPECT_EQ(node_named(g, "act").attr<ActivationAttrs>().a, 0.0f);
    EXPECT_EQ(node_named(g, "softrelu").attr<ActivationAttrs>().function, ActivationFunction::SoftReLu);
    EXPECT_EQ(node_named(g, "gather").attr<GatherAttrs>().axis, 0);
}

TEST(ArmnnCompat, ConstantLayerCarriesDataAndIntDataHoldsFloatBits) {
    mw::ModelWriter w;
    const uint32_t k = w.add_constant("k", mw::const_f32({2, 2}, {1.5f, -2.0f, 0.0f, 3.25f}));
    w.add_output("out", k, 0);
    const auto bytes = w.finish();
    const Graph g = load_bytes(bytes);
    const Node& n = node_named(g, "k");
    EXPECT_EQ(n.op, OpKind::Constant);
    EXPECT_TRUE(g.tensor(n.outputs[0]).is_constant());
    EXPECT_EQ(values<float>(g, n.outputs[0]), (std::vector<float>{1.5f, -2.0f, 0.0f, 3.25f}));
    EXPECT_TRUE(g.inputs.empty());
}

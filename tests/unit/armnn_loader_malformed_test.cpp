// Malformed .armnn files: each gives Error(BadModel) with a one-line message naming the layer and the
// problem; none crashes.
#include <gtest/gtest.h>

#include "tests/unit/armnn_test_util.h"

using namespace npurun;
using namespace npurun::testing;

namespace {

// in -> relu -> out, the base every broken file starts from.
struct Small {
    mw::ModelWriter w;
    uint32_t in, relu, out;
    Small() {
        in = w.add_input("in", f32(), 0);
        relu = w.add_activation("relu", in, f32(), fb::ActivationFunction::ReLu);
        out = w.add_output("out", relu, 0);
    }
};

}  // namespace

TEST(ArmnnMalformed, EmptyTruncatedAndGarbageBuffers) {
    expect_bad_model({}, {"test.armnn: ", "the model is empty"});
    const auto good = Small().w.finish();
    for (size_t cut : {size_t(1), size_t(4), size_t(8), good.size() / 2, good.size() - 1}) {
        SCOPED_TRACE(cut);
        expect_bad_model(std::vector<uint8_t>(good.begin(), good.begin() + cut), {"FlatBuffers verifier rejected"});
    }
    std::vector<uint8_t> garbage(1000);
    uint32_t x = 12345;
    for (auto& b : garbage) b = uint8_t((x = x * 1103515245u + 12345u) >> 24);
    expect_bad_model(garbage, {"not a valid Arm NN model"});
    // A misaligned copy of a good file still loads (the loader realigns it).
    std::vector<uint8_t> shifted(good.size() + 1);
    std::memcpy(shifted.data() + 1, good.data(), good.size());
    EXPECT_EQ(load_model_memory(shifted.data() + 1, good.size(), "x").nodes.size(), 3u);
}

TEST(ArmnnMalformed, UnionTypeBeyondTheSchema) {
    Small s;
    // Union type 74 with an Addition-shaped table: a layer from a newer Arm NN than any this reader knows of
    // (73, ScatterNdLayer, is the last member of Arm NN's schema at e3cc7166: see schemas/ArmnnSchema.fbs).
    s.w.add_layer(static_cast<fb::Layer>(74), fb::LayerType::Addition, "future", {s.in, s.in}, {f32()},
                  [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                      return fb::CreateAdditionLayer(b, base).Union();
                  });
    expect_bad_model(s.w.finish(), {"layer 3 'future' (position 3): unknown layer type 74", "1..73"});
    mw::WriteOptions shifted;
    shifted.index_base = 10;
    expect_bad_model(s.w.finish(shifted), {"layer 13 'future' (position 3): unknown layer type 74"});

    Small n;
    n.w.add_layer(fb::Layer::NONE, fb::LayerType::Addition, "none", {}, {},
                  [](flatbuffers::FlatBufferBuilder&, flatbuffers::Offset<fb::LayerBase>) { return flatbuffers::Offset<void>(); });
    expect_bad_model(n.w.finish(), {"layer at position 3: layer type is NONE"});
}

TEST(ArmnnMalformed, ConstantWithNoneData) {
    // What Arm NN 20.08 writes for per-tensor QAsymmS8 constants.
    Small s;
    auto c = mw::const_i8({4}, {1, 2, 3, 4}, 0.5f, 0);
    c.storage = fb::ConstTensorData::NONE;
    s.w.add_output("k_out", s.w.add_constant("k", c), 1);
    expect_bad_model(s.w.finish(), {"layer 3 'k' (Constant)", "data union type NONE"});
}

TEST(ArmnnMalformed, ConstantElementCountMustMatchShape) {
    Small s;
    auto c = mw::const_f32({2, 2}, {1, 2, 3});
    s.w.add_output("k_out", s.w.add_constant("k", c), 1);
    expect_bad_model(s.w.finish(), {"layer 3 'k' (Constant)", "has 3 elements but its shape 2x2 needs 4"});

    // Embedded weights too, named as such.
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", f32({1, 1, 1, 2}), 0);
    w.add_output("out", w.add_convolution2d("conv", in, f32({1, 1, 1, 2}), mw::Conv2dParams{},
                                            mw::const_f32({2, 1, 1, 2}, {1, 2, 3, 4, 5}), std::nullopt), 0);
    expect_bad_model(w.finish(), {"layer 1 'conv' (Convolution2d)", "weights: constant has 5 elements"});
}

TEST(ArmnnMalformed, ConstantElementWidthMustMatchType) {
    Small s;
    auto c = mw::const_f32({2}, {1, 2});
    c.storage = fb::ConstTensorData::ByteData;
    c.element_count = 2;
    s.w.add_output("k_out", s.w.add_constant("k", c), 1);
    expect_bad_model(s.w.finish(), {"'k' (Constant)", "Float32 is stored with 1-byte elements"});
}

TEST(ArmnnMalformed, BadSourceLayerIndex) {
    Small s;
    s.w.layer(s.relu).inputs[0] = mw::Port::file_index(99, 0);
    expect_bad_model(s.w.finish(), {"layer 1 'relu' (Activation)", "refers to layer index 99, which does not exist"});
}

TEST(ArmnnMalformed, BadOutputSlotIndex) {
    Small s;
    s.w.layer(s.relu).inputs[0] = mw::Port(s.in, 3);
    expect_bad_model(s.w.finish(), {"layer 1 'relu' (Activation)", "refers to output slot 3 of layer 0 'in' (Input)"});
}

TEST(ArmnnMalformed, Cycle) {
    // in -> add(in, b) -> a -> b -> add: a and b wait on each other through add.
    mw::ModelWriter w;
    const uint32_t in = w.add_input("in", f32(), 0);
    const uint32_t add = w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "add", {in, mw::Port(3)}, {f32()});
    const uint32_t a = w.add_activation("a", add, f32(), fb::ActivationFunction::ReLu);
    const uint32_t b = w.add_activation("b", a, f32(), fb::ActivationFunction::ReLu);
    ASSERT_EQ(b, 3u);
    w.add_output("out", b, 0);
    expect_bad_model(w.finish(), {"is part of a cycle"});

    // A layer feeding itself.
    Small s;
    s.w.layer(s.relu).inputs[0] = mw::Port(s.relu, 0);
    expect_bad_model(s.w.finish(), {"layer 1 'relu' (Activation) is part of a cycle"});
}

TEST(ArmnnMalformed, DuplicateSlotIndices) {
    Small s;
    const uint32_t split = s.w.add_layer(fb::Layer::SwitchLayer, fb::LayerType::Switch, "switch", {s.in, s.in}, {f32(), f32()},
                                         [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                             return fb::CreateSwitchLayer(b, base).Union();
                                         });
    s.w.layer(split).output_slot_index = {0, 0};
    expect_bad_model(s.w.finish(), {"layer 3 'switch' (Switch)", "duplicate output slot index 0"});

    Small t;
    t.w.layer(t.relu).input_slot_index = {4};
    expect_bad_model(t.w.finish(), {"'relu' (Activation)", "input slot index 4 is out of range"});
}

TEST(ArmnnMalformed, DuplicateLayerIndex) {
    Small s;
    s.w.layer(s.relu).index_override = 0;
    expect_bad_model(s.w.finish(), {"index 0 is also used by the layer at position 0"});
}

TEST(ArmnnMalformed, AbsurdDimensionsOverflow) {
    {
        mw::ModelWriter w;
        w.add_output("out", w.add_input("in", f32({0xffffffffu, 0xffffffffu, 0xffffffffu}), 0), 0);
        expect_bad_model(w.finish(), {"layer 0 'in' (Input)", "too large"});
    }
    {   // fits in size_t elements, not in bytes... and beyond any memory
        mw::ModelWriter w;
        w.add_output("out", w.add_input("in", f32({0x40000000u, 0x40000000u}), 0), 0);
        expect_bad_model(w.finish(), {"layer 0 'in' (Input)", "too large"});
    }
    {
        mw::ModelWriter w;
        w.add_output("out", w.add_input("in", f32({1, 2, 3, 4, 5, 6, 7}), 0), 0);
        expect_bad_model(w.finish(), {"layer 0 'in' (Input)", "rank 7 exceeds the maximum of 6"});
    }
    {
        mw::ModelWriter w;
        w.add_output("out", w.add_input("in", f32({1, 0, 3}), 0), 0);
        expect_bad_model(w.finish(), {"dimension 1 is 0"});
    }
}

TEST(ArmnnMalformed, UnknownBindingIds) {
    Small s;
    mw::WriteOptions o;
    o.input_ids = std::vector<int32_t>{42};
    expect_bad_model(s.w.finish(o), {"input 0: no input layer with binding id 42"});
    o.input_ids.reset();
    o.output_ids = std::vector<int32_t>{0, 0};
    expect_bad_model(s.w.finish(o), {"layer 2 'out' (Output) is listed twice as a model output"});
    o.output_ids = std::vector<int32_t>{};
    expect_bad_model(s.w.finish(o), {"layer 2 'out' (Output) is not listed among the model's outputs"});
    // Scheme 0: the id must be the index of an Input layer, not of another layer.
    o.output_ids.reset();
    o.features = mw::Features::Absent;
    o.input_ids = std::vector<int32_t>{1};
    expect_bad_model(s.w.finish(o), {"no input layer with layer index 1"});
}

TEST(ArmnnMalformed, UnknownEnumValuesAreRejected) {
    Small s;
    s.w.add_output("o2", s.w.add_activation("act", s.in, f32(), static_cast<fb::ActivationFunction>(13)), 1);
    expect_bad_model(s.w.finish(), {"layer 3 'act' (Activation)", "unknown activation function 13"});

    Small t;
    const uint32_t l2 = t.w.add_layer(fb::Layer::L2NormalizationLayer, fb::LayerType::L2Normalization, "l2", {t.in}, {f32()},
                                      [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          auto d = fb::CreateL2NormalizationDescriptor(b, static_cast<fb::DataLayout>(7));
                                          return fb::CreateL2NormalizationLayer(b, base, d).Union();
                                      });
    t.w.add_output("o2", l2, 1);
    expect_bad_model(t.w.finish(), {"'l2' (L2Normalization)", "unknown data layout 7"});

    Small u;
    u.w.add_output("o2", u.w.add_layer(fb::Layer::ComparisonLayer, fb::LayerType::Comparison, "cmp", {u.in, u.in}, {f32()},
                                       [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                           auto d = fb::CreateComparisonDescriptor(b, static_cast<fb::ComparisonOperation>(6));
                                           return fb::CreateComparisonLayer(b, base, d).Union();
                                       }), 1);
    expect_bad_model(u.w.finish(), {"'cmp' (Comparison)", "unknown comparison operation 6"});

    Small v;
    mw::WriteOptions o;
    o.custom_features = std::array<uint32_t, 3>{1, 2, 1};
    expect_bad_model(v.w.finish(o), {"unknown featureVersions.weightsLayoutScheme 2"});
}

TEST(ArmnnMalformed, WrongOperandCounts) {
    Small s;
    s.w.add_output("o2", s.w.add_plain(fb::Layer::AdditionLayer, fb::LayerType::Addition, "add", {s.in}, {f32()}), 1);
    expect_bad_model(s.w.finish(), {"layer 3 'add' (Addition)", "has 1 input slots, expected 2"});

    Small t;
    const uint32_t concat = t.w.add_layer(fb::Layer::ConcatLayer, fb::LayerType::Concat, "concat", {t.in, t.in}, {f32()},
                                          [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                              std::vector<flatbuffers::Offset<fb::UintVector>> v{
                                                  fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{0, 0, 0, 0}))};
                                              return fb::CreateConcatLayer(b, base, fb::CreateOriginsDescriptor(b, 0, 1, 4, b.CreateVector(v))).Union();
                                          });
    t.w.add_output("o2", concat, 1);
    expect_bad_model(t.w.finish(), {"'concat' (Concat)", "numViews is 1 but the layer has 2 inputs"});

    Small u;
    const uint32_t perm = u.w.add_layer(fb::Layer::PermuteLayer, fb::LayerType::Permute, "perm", {u.in}, {f32()},
                                        [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                            auto d = fb::CreatePermuteDescriptor(b, b.CreateVector(std::vector<uint32_t>{0, 1, 1, 3}));
                                            return fb::CreatePermuteLayer(b, base, d).Union();
                                        });
    u.w.add_output("o2", perm, 1);
    expect_bad_model(u.w.finish(), {"'perm' (Permute)", "not a permutation"});

    Small v;
    const uint32_t bn = v.w.add_layer(fb::Layer::BatchNormalizationLayer, fb::LayerType::BatchNormalization, "bn", {v.in}, {f32()},
                                      [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                          return fb::CreateBatchNormalizationLayer(b, base).Union();
                                      });
    v.w.add_output("o2", bn, 1);
    expect_bad_model(v.w.finish(), {"'bn' (BatchNormalization)", "mean are missing"});
}

TEST(ArmnnMalformed, NoOutputs) {
    mw::ModelWriter w;
    w.add_input("in", f32(), 0);
    expect_bad_model(w.finish(), {"the model has no outputs"});
}

TEST(ArmnnMalformed, AxesOutOfRange) {
    Small s;
    s.w.add_output("o2", s.w.add_layer(fb::Layer::SoftmaxLayer, fb::LayerType::Softmax, "sm", {s.in}, {f32()},
                                       [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                           return fb::CreateSoftmaxLayer(b, base, fb::CreateSoftmaxDescriptor(b, 1.0f, 4)).Union();
                                       }), 1);
    expect_bad_model(s.w.finish(), {"layer 3 'sm' (Softmax)", "axis 4 is out of range for a rank-4 input"});

    Small t;
    t.w.add_output("o2", t.w.add_layer(fb::Layer::MeanLayer, fb::LayerType::Mean, "mean", {t.in}, {f32()},
                                       [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                           auto axes = b.CreateVector(std::vector<uint32_t>{1, 9});
                                           return fb::CreateMeanLayer(b, base, fb::CreateMeanDescriptor(b, axes)).Union();
                                       }), 1);
    expect_bad_model(t.w.finish(), {"'mean' (Mean)", "axis 9 is out of range"});

    Small u;
    u.w.add_output("o2", u.w.add_layer(fb::Layer::PadLayer, fb::LayerType::Pad, "pad", {u.in}, {f32()},
                                       [](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                           auto pads = b.CreateVector(std::vector<uint32_t>{1, 1, 1});
                                           return fb::CreatePadLayer(b, base, fb::CreatePadDescriptor(b, pads)).Union();
                                       }), 1);
    expect_bad_model(u.w.finish(), {"'pad' (Pad)", "padList has an odd number of entries (3)"});
}

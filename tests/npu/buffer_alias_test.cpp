// Reshape and Concat inside an NPU segment are views of other layers' buffers (runtime/npu/buffer_alias.h):
// no task and no copy, and the simulator's result equals the CPU's; when a view is impossible the layer
// stays on the CPU with the reason.
#include <gtest/gtest.h>

#include <numeric>

#include "include/npurun/npurun.hpp"
#include "runtime/session/session_factory.h"
#include "runtime/npu/npu_backend.h"
#include "tests/npu/npu_graphs.h"

namespace {

using namespace npurun;
using namespace npurun::npu_test;

ConvSpec spec(DataType dt, uint32_t h, uint32_t w, uint32_t c, uint32_t k, uint32_t seed) {
    ConvSpec s;
    s.dt = dt;
    s.h = h, s.w = w, s.c = c, s.k = k, s.seed = seed;
    return s;
}

TensorId input_of(Graph& g, DataType dt, uint32_t h, uint32_t w, uint32_t c) {
    const bool q = dt != DataType::Float32;
    return value(g, "x", Shape{1, h, w, c}, dt, q ? 0.05f : 0.0f, dt == DataType::QAsymmU8 ? 118 : (dt == DataType::QAsymmS8 ? 4 : 0));
}

// x -> conv A (ka channels), conv B (kb channels) -> Concat along channels -> conv C (16) -> output.
// A and B see the same number of products per output, so they get the same output quantization, which
// the Concat output shares (the checker requires it).
std::shared_ptr<const Model> concat_model(DataType dt, uint32_t ka, uint32_t kb) {
    Graph g;
    const TensorId x = input_of(g, dt, 8, 8, 16);
    // B runs first, so a producer writing past its channels (A) would clobber B's result.
    const TensorId b = add_conv(g, spec(dt, 8, 8, 16, kb, 12), x, "conv_b");
    const TensorId a = add_conv(g, spec(dt, 8, 8, 16, ka, 11), x, "conv_a");
    const TensorInfo ai = g.info(a);
    const TensorId cat = value(g, "cat", Shape{1, 8, 8, ka + kb}, dt, ai.quant.scales.empty() ? 0.0f : ai.quant.scale(), ai.quant.offset);
    ConcatAttrs ca;
    ca.axis = 3;
    ca.view_origins = {{0, 0, 0, 0}, {0, 0, 0, ka}};
    node(g, OpKind::Concat, "concat", {a, b}, {cat}, ca);
    const TensorId y = add_conv(g, spec(dt, 8, 8, ka + kb, 16, 13), cat, "conv_c");
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "concat");
}

// x [1,4,4,16] -> conv (32) -> Reshape [1,16,1,32] -> conv 3x3 over the 16x1 map -> output.
std::shared_ptr<const Model> reshape_model(DataType dt, Shape target, bool conv_after = true) {
    Graph g;
    const TensorId x = input_of(g, dt, 4, 4, 16);
    const TensorId a = add_conv(g, spec(dt, 4, 4, 16, 32, 21), x, "conv_a");
    const TensorInfo ai = g.info(a);
    const TensorId r = value(g, "reshaped", target, dt, ai.quant.scales.empty() ? 0.0f : ai.quant.scale(), ai.quant.offset);
    ReshapeAttrs ra;
    ra.target = target;
    node(g, OpKind::Reshape, "reshape", {a}, {r}, ra);
    const TensorId y = conv_after ? add_conv(g, spec(dt, target[1], target[2], target[3], 16, 22), r, "conv_b") : r;
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "reshape");
}

const NodePlacement& kept_placement_of(const std::shared_ptr<const Model>& m, OpKind op, bool fp16, Placement* keep) {
    *keep = place(m->graph(), npu::npu_placement_options(fp16));
    for (size_t i = 0; i < m->graph().nodes.size(); ++i)
        if (m->graph().nodes[i].op == op) return keep->nodes[i];
    ADD_FAILURE() << "no such node";
    return keep->nodes.at(0);
}

TEST(NpuConcat, Int8ChannelConcatIsWrittenInPlaceAndMatchesCpu) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8}) {
        auto m = concat_model(dt, 16, 32);
        const Compared r = compare_cpu_sim(m);
        EXPECT_LE(r.max_diff, 1.0) << to_string(dt);
        EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
        expect_view_without_task(m, false, "Concat");
    }
}

TEST(NpuConcat, Fp16ChannelConcatIsWrittenInPlaceAndMatchesCpu) {
    // 16 + 8 channels: the second input's offset (16) is a multiple of the 8-channel fp16 atom and it is
    // last, so its 16-channel write may run past the concat's 24 channels into the region's tail.
    auto m = concat_model(DataType::Float32, 16, 8);
    const Compared r = compare_cpu_sim(m, true);
    EXPECT_LE(r.max_diff, 1.0 / 128.0 * std::max(1.0, r.max_ref));
    EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
    expect_view_without_task(m, true, "Concat");
}

TEST(NpuConcat, UnalignedOffsetStaysOnTheCpuWithTheReason) {
    Placement keep;
    const NodePlacement& np = kept_placement_of(concat_model(DataType::QAsymmU8, 8, 16), OpKind::Concat, false, &keep);
    EXPECT_EQ(np.device, Placed::Cpu);
    EXPECT_NE(np.reason.find("not a multiple of the 16-channel"), std::string::npos) << np.reason;
    // And the whole model still gives the CPU's result.
    EXPECT_LE(compare_cpu_sim(concat_model(DataType::QAsymmU8, 8, 16)).max_diff, 1.0);
}

TEST(NpuConcat, Fp16ConvolutionWritingPastItsInputIsRefused) {
    // offset 8 is fp16-aligned, but conv A writes 16 channels (a whole 16-channel group) over conv B's first 8.
    Placement keep;
    const NodePlacement& np = kept_placement_of(concat_model(DataType::Float32, 8, 16), OpKind::Concat, true, &keep);
    EXPECT_EQ(np.device, Placed::Cpu);
    EXPECT_NE(np.reason.find("is written in 16 channels"), std::string::npos) << np.reason;
    const Compared r = compare_cpu_sim(concat_model(DataType::Float32, 8, 16), true);
    EXPECT_LE(r.max_diff, 1.0 / 128.0 * std::max(1.0, r.max_ref));
}

TEST(NpuReshape, ChannelPreservingReshapeIsAnAliasAndMatchesCpu) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8}) {
        auto m = reshape_model(dt, Shape{1, 16, 1, 32});
        const Compared r = compare_cpu_sim(m);
        EXPECT_LE(r.max_diff, 1.0) << to_string(dt);
        EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
        expect_view_without_task(m, false, "Reshape");
    }
    auto f = reshape_model(DataType::Float32, Shape{1, 2, 8, 32});
    const Compared r = compare_cpu_sim(f, true);
    EXPECT_LE(r.max_diff, 1.0 / 128.0 * std::max(1.0, r.max_ref));
    expect_view_without_task(f, true, "Reshape");
}

TEST(NpuReshape, ReshapeAtTheSegmentEdgeUnpacksTheView) {
    // conv -> Reshape -> model output: the Reshape output leaves the segment from the convolution's buffer.
    for (Shape target : {Shape{1, 16, 1, 32}, Shape{1, 2, 8, 32}}) {
        auto m = reshape_model(DataType::QAsymmU8, target, false);
        const Compared r = compare_cpu_sim(m);
        EXPECT_LE(r.max_diff, 1.0) << target.str();
        EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
        expect_view_without_task(m, false, "Reshape");
    }
}

TEST(NpuReshape, ChannelChangingReshapeStaysOnTheCpuWithTheReason) {
    Placement keep;
    const NodePlacement& np =
        kept_placement_of(reshape_model(DataType::QAsymmU8, Shape{1, 8, 1, 64}), OpKind::Reshape, false, &keep);
    EXPECT_EQ(np.device, Placed::Cpu);
    EXPECT_NE(np.reason.find("moves data"), std::string::npos) << np.reason;
}

}  // namespace

namespace {

TEST(NpuViews, AViewAloneStaysOnTheCpu) {
    // Reshape alone: nothing for the NPU to compute, it would only add layout conversions.
    Graph g;
    const TensorId x = input_of(g, DataType::QAsymmU8, 4, 4, 16);
    const TensorId r = value(g, "reshaped", Shape{1, 16, 1, 16}, DataType::QAsymmU8, 0.05f, 118);
    ReshapeAttrs ra;
    ra.target = Shape{1, 16, 1, 16};
    node(g, OpKind::Reshape, "reshape", {x}, {r}, ra);
    io(g, x, r);
    auto m = std::make_shared<const Model>(std::move(g), "reshape-alone");
    Placement keep;
    const NodePlacement& np = kept_placement_of(m, OpKind::Reshape, false, &keep);
    EXPECT_EQ(np.device, Placed::Cpu);
    EXPECT_EQ(np.segment, -1);
    EXPECT_TRUE(keep.segments.empty());
    EXPECT_NE(np.reason.find("no NPU layer is next to it"), std::string::npos) << np.reason;
}

}  // namespace

namespace {

// x -> conv A (ka), conv B (kb) -> inner Concat -> with conv C (kc) -> outer Concat -> conv D (16).
std::shared_ptr<const Model> nested_concat_model(DataType dt, uint32_t ka, uint32_t kb, uint32_t kc) {
    Graph g;
    const TensorId x = input_of(g, dt, 8, 8, 16);
    // C runs first, so B writing past the inner concat's channels would clobber C's result.
    const TensorId c = add_conv(g, spec(dt, 8, 8, 16, kc, 33), x, "conv_c");
    const TensorId a = add_conv(g, spec(dt, 8, 8, 16, ka, 31), x, "conv_a");
    const TensorId b = add_conv(g, spec(dt, 8, 8, 16, kb, 32), x, "conv_b");
    const TensorInfo ai = g.info(a);
    const float sc = ai.quant.scales.empty() ? 0.0f : ai.quant.scale();
    const TensorId inner = value(g, "inner", Shape{1, 8, 8, ka + kb}, dt, sc, ai.quant.offset);
    ConcatAttrs ia;
    ia.axis = 3;
    ia.view_origins = {{0, 0, 0, 0}, {0, 0, 0, ka}};
    node(g, OpKind::Concat, "inner_concat", {a, b}, {inner}, ia);
    const TensorId outer = value(g, "outer", Shape{1, 8, 8, ka + kb + kc}, dt, sc, ai.quant.offset);
    ConcatAttrs oa;
    oa.axis = 3;
    oa.view_origins = {{0, 0, 0, 0}, {0, 0, 0, ka + kb}};
    node(g, OpKind::Concat, "outer_concat", {inner, c}, {outer}, oa);
    const TensorId y = add_conv(g, spec(dt, 8, 8, ka + kb + kc, 16, 34), outer, "conv_d");
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "nested-concat");
}

TEST(NpuConcat, NestedConcatsShareOneBuffer) {
    auto m = nested_concat_model(DataType::QAsymmU8, 16, 32, 16);
    const Compared r = compare_cpu_sim(m);
    EXPECT_LE(r.max_diff, 1.0);
    EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
    expect_view_without_task(m, false, "Concat");
}

TEST(NpuConcat, Fp16NestedConcatWhoseLastConvolutionOverrunsIsRefused) {
    // inner = [A 16 | B 8]: B's convolution writes channels 16..31, past inner's 24, where C would start.
    auto m = nested_concat_model(DataType::Float32, 16, 8, 16);
    Placement keep = place(m->graph(), npu::npu_placement_options(true));
    const Graph& g = m->graph();
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        if (g.nodes[i].name == "outer_concat") {
            EXPECT_EQ(keep.nodes[i].device, Placed::Cpu);
            EXPECT_NE(keep.nodes[i].reason.find("24 channels is written in 32"), std::string::npos) << keep.nodes[i].reason;
        }
    }
    const Compared r = compare_cpu_sim(m, true);
    EXPECT_LE(r.max_diff, 1.0 / 128.0 * std::max(1.0, r.max_ref));
}

}  // namespace

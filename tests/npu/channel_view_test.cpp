// Slice and Splitter along channels inside an NPU segment are views of their input's buffer
// (runtime/npu/buffer_alias.h): no task and no copy, the consumers read the input's channel planes, and the
// simulator's result equals the CPU's; a cut the NC1HWC2 layout cannot express as a view stays on the CPU with
// the reason.
#include <gtest/gtest.h>

#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/npu/npu_backend.h"
#include "runtime/session/session_factory.h"
#include "tests/npu/npu_graphs.h"

namespace {

using namespace npurun;
using namespace npurun::npu_test;

ConvSpec view_conv_spec(DataType dt, uint32_t c, uint32_t k, uint32_t seed) {
    ConvSpec s;
    s.dt = dt;
    s.h = 6, s.w = 7, s.c = c, s.k = k, s.seed = seed;
    return s;
}

TensorId view_input(Graph& g, DataType dt, uint32_t c) {
    const bool q = dt != DataType::Float32;
    return value(g, "x", Shape{1, 6, 7, c}, dt, q ? 0.05f : 0.0f,
                 dt == DataType::QAsymmU8 ? 118 : (dt == DataType::QAsymmS8 ? 4 : 0));
}

// A tensor like `like` (its type and quantization) of shape s.
TensorId like_value(Graph& g, const std::string& name, TensorId like, Shape s) {
    const TensorInfo li = g.info(like);
    return value(g, name, s, li.dtype, li.quant.scales.empty() ? 0.0f : li.quant.scale(), li.quant.offset);
}

struct SliceCut {
    uint32_t channels = 48;  // of the sliced map
    uint32_t begin = 16, size = 16;
    bool conv_before = true;  // else the model input is sliced
    bool conv_after = true;   // else the slice is the model output
    uint32_t h_begin = 0;     // > 0: the cut also drops rows (not a channel view)
};

// x -> [conv (channels)] -> Slice [begin, begin + size) of the channels -> [conv 3x3 (16)] -> output.
std::shared_ptr<const Model> slice_model(DataType dt, const SliceCut& s) {
    Graph g;
    const TensorId x = view_input(g, dt, s.conv_before ? 16 : s.channels);
    const TensorId a = s.conv_before ? add_conv(g, view_conv_spec(dt, 16, s.channels, 31), x, "conv_a") : x;
    const uint32_t rows = 6 - s.h_begin;
    const TensorId cut = like_value(g, "cut", a, Shape{1, rows, 7, s.size});
    SliceAttrs sa;
    sa.begin = {0, s.h_begin, 0, s.begin};
    sa.size = {1, rows, 7, s.size};
    node(g, OpKind::Slice, "slice", {a}, {cut}, sa);
    TensorId y = cut;
    if (s.conv_after) {
        ConvSpec cs = view_conv_spec(dt, s.size, 16, 32);
        cs.h = rows;
        y = add_conv(g, cs, cut, "conv_b");
    }
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "slice");
}

// x -> conv (32) -> Splitter into channels [0, 16) and [16, 32) -> a conv on each (16 each) -> channel Concat -> output.
std::shared_ptr<const Model> splitter_model(DataType dt) {
    Graph g;
    const TensorId x = view_input(g, dt, 16);
    const TensorId a = add_conv(g, view_conv_spec(dt, 16, 32, 41), x, "conv_a");
    const TensorId lo = like_value(g, "lo", a, Shape{1, 6, 7, 16}), hi = like_value(g, "hi", a, Shape{1, 6, 7, 16});
    SplitterAttrs sp;
    sp.view_origins = {{0, 0, 0, 0}, {0, 0, 0, 16}};
    sp.view_sizes = {{1, 6, 7, 16}, {1, 6, 7, 16}};
    node(g, OpKind::Splitter, "split", {a}, {lo, hi}, sp);
    // The same products per output in both: the same output quantization, which the Concat shares.
    const TensorId b = add_conv(g, view_conv_spec(dt, 16, 16, 42), lo, "conv_lo");
    const TensorId c = add_conv(g, view_conv_spec(dt, 16, 16, 43), hi, "conv_hi");
    const TensorId cat = like_value(g, "cat", b, Shape{1, 6, 7, 32});
    ConcatAttrs ca;
    ca.axis = 3;
    ca.view_origins = {{0, 0, 0, 0}, {0, 0, 0, 16}};
    node(g, OpKind::Concat, "concat", {c, b}, {cat}, ca);
    io(g, x, cat);
    return std::make_shared<const Model>(std::move(g), "splitter");
}

NodePlacement view_placement(const std::shared_ptr<const Model>& m, OpKind op, bool fp16) {
    const Placement p = place(m->graph(), npu::npu_placement_options(fp16));
    for (size_t i = 0; i < m->graph().nodes.size(); ++i)
        if (m->graph().nodes[i].op == op) return p.nodes[i];
    ADD_FAILURE() << "no such node";
    return {};
}

void expect_slice_refused(DataType dt, const SliceCut& s, const std::string& reason_part) {
    const NodePlacement np = view_placement(slice_model(dt, s), OpKind::Slice, dt == DataType::Float32);
    EXPECT_EQ(np.device, Placed::Cpu);
    EXPECT_NE(np.reason.find(reason_part), std::string::npos) << np.reason;
}

}  // namespace

// 16 of 48 channels from channel 16 (the second 16-channel int8 atom plane); also the last 8 of 40 channels,
// which end inside an atom but at the map's last channel.
TEST(NpuSliceView, Int8ChannelSliceIsAViewAndMatchesCpu) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8}) {
        for (const SliceCut& s : {SliceCut{48, 16, 16}, SliceCut{40, 32, 8}, SliceCut{48, 0, 32}}) {
            const auto m = slice_model(dt, s);
            const Compared r = compare_cpu_sim(m);
            EXPECT_LE(r.max_diff, 1.0) << to_string(dt) << " [" << s.begin << ", " << s.begin + s.size << ")";
            EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
            expect_view_without_task(m, false, "Slice");
        }
    }
}

// fp16's atom is 8 channels: channels [8, 20) of 20 (12 channels, ending at the last one) and [8, 16) of 24.
TEST(NpuSliceView, Fp16ChannelSliceIsAViewAndMatchesCpu) {
    for (const SliceCut& s : {SliceCut{20, 8, 12}, SliceCut{24, 8, 8}}) {
        const auto m = slice_model(DataType::Float32, s);
        const Compared r = compare_cpu_sim(m, true);
        EXPECT_LE(r.max_diff, 1.0 / 128.0 * std::max(1.0, r.max_ref)) << s.begin << " " << s.size;
        EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
        expect_view_without_task(m, true, "Slice");
    }
}

// The view at the segment's edges: a slice of the model input (the edge conversion writes its root), and a slice
// that is the model output (the edge conversion reads the view's planes of its input's region).
TEST(NpuSliceView, SliceOfTheInputAndSliceAsTheOutput) {
    SliceCut first{32, 16, 16, false, true};
    SliceCut last{48, 16, 16, true, false};
    for (const SliceCut& s : {first, last}) {
        const auto m = slice_model(DataType::QAsymmS8, s);
        const Compared r = compare_cpu_sim(m);
        EXPECT_LE(r.max_diff, 1.0) << s.conv_before;
        const NodePlacement np = view_placement(m, OpKind::Slice, false);
        EXPECT_EQ(np.device, Placed::Npu) << np.reason;
        EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
    }
}

TEST(NpuSplitterView, ChannelSplitterOutputsAreViewsAndMatchCpu) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        const bool fp16 = dt == DataType::Float32;
        const auto m = splitter_model(dt);
        const Compared r = compare_cpu_sim(m, fp16);
        EXPECT_LE(r.max_diff, fp16 ? 1.0 / 128.0 * std::max(1.0, r.max_ref) : 1.0) << to_string(dt);
        EXPECT_TRUE(r.cpu_layers.empty()) << "a layer fell back to the CPU";
        expect_view_without_task(m, fp16, "Splitter");
    }
}

// Spread over 3 cores (the convolutions reading the views split by output rows), the output is the 1-core output
// byte for byte.
TEST(NpuSplitterView, OutputsAreByteIdenticalOnOneAndThreeCores) {
    const auto m = splitter_model(DataType::QAsymmS8);
    std::vector<uint8_t> out[2];
    for (unsigned cores : {1u, 3u}) {
        SessionOptions so = sim_options(false);
        so.npu_cores = cores;
        Session s(m, so);
        TensorBinding& in = s.input(0);
        for (size_t i = 0; i < in.info.num_bytes(); ++i)
            static_cast<uint8_t*>(in.data)[i] = static_cast<uint8_t>(i * 37 + 11);
        s.run();
        const auto* o = static_cast<const uint8_t*>(s.output(0).data);
        out[cores == 3].assign(o, o + s.output(0).info.num_bytes());
    }
    EXPECT_EQ(out[0], out[1]);
}

TEST(NpuSliceView, CutsTheLayoutCannotViewStayOnTheCpuWithTheReason) {
    // int8's atom is 16 channels: a view starting at channel 8 would need a copy.
    expect_slice_refused(DataType::QAsymmU8, {48, 8, 16}, "starts at channel 8, not a multiple of the 16-channel");
    // 8 channels from 0 of 32: a consumer reading the whole atom would take channels 8-15 as padding.
    expect_slice_refused(DataType::QAsymmU8, {32, 0, 8}, "ends inside an NC1HWC2 atom before the input's last channel");
    // Rows dropped as well: not a view.
    SliceCut rows{32, 0, 16};
    rows.h_begin = 2;
    expect_slice_refused(DataType::QAsymmS8, rows, "takes part of axis 1");
}

// A sliced tensor feeding a Concat would have to live inside both its input's and the Concat's buffers.
TEST(NpuSliceView, SliceFeedingAConcatStaysOnTheCpu) {
    Graph g;
    const DataType dt = DataType::QAsymmS8;
    const TensorId x = view_input(g, dt, 16);
    const TensorId a = add_conv(g, view_conv_spec(dt, 16, 32, 51), x, "conv_a");
    const TensorId cut = like_value(g, "cut", a, Shape{1, 6, 7, 16});
    SliceAttrs sa;
    sa.begin = {0, 0, 0, 16};
    sa.size = {1, 6, 7, 16};
    node(g, OpKind::Slice, "slice", {a}, {cut}, sa);
    const TensorId cat = like_value(g, "cat", a, Shape{1, 6, 7, 48});
    ConcatAttrs ca;
    ca.axis = 3;
    ca.view_origins = {{0, 0, 0, 0}, {0, 0, 0, 16}};
    node(g, OpKind::Concat, "concat", {cut, a}, {cat}, ca);
    io(g, x, cat);
    const auto m = std::make_shared<const Model>(std::move(g), "slice-concat");
    const NodePlacement np = view_placement(m, OpKind::Slice, false);
    EXPECT_EQ(np.device, Placed::Cpu);
    EXPECT_NE(np.reason.find("feeds a Concat"), std::string::npos) << np.reason;
    const Compared r = compare_cpu_sim(m);
    EXPECT_LE(r.max_diff, 1.0);
}

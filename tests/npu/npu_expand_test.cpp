// Expand on the simulated NPU (runtime/npu/ops/expand_op.cpp): a Tile of size-1 axes along H and W, the patterns
// of seed 003, in uint8, int8 and fp16, against the CPU reference kernel (a raw copy: exact in int8, fp16 rounding
// of the input only); the channel-broadcasting patterns through the channel expansion (a 1x1 convolution with
// weights 1) first; the task counts of the doubling copies; and the refusals (channels alone, a Tile of a longer
// axis, differing quantization) with their reasons.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/npu/npu_graphs.h"

using namespace npurun;
using namespace npurun::npu_test;

namespace {

constexpr uint32_t kExpandC = 40;  // 3 int8 / 5 fp16 channel planes, the last partial

struct ExpandSpec {
    DataType dt = DataType::QAsymmU8;
    Shape in;                        // NHWC
    std::vector<uint32_t> multiples;
    float out_scale = 0.05f;
};

std::shared_ptr<const Model> expand_model(const ExpandSpec& s) {
    Graph g;
    const bool q = s.dt != DataType::Float32;
    TensorId x = value(g, "x", s.in, s.dt, q ? 0.05f : 0.0f, q ? 118 : 0);
    Shape os = s.in;
    for (uint32_t a = 0; a < os.rank; ++a) os.dims[a] *= s.multiples[a];
    TensorId y = value(g, "y", os, s.dt, q ? s.out_scale : 0.0f, q ? 118 : 0);
    TileAttrs a;
    a.multiples = s.multiples;
    node(g, OpKind::Tile, "expand", {x}, {y}, a);
    io(g, x, y);
    for (uint32_t k = 0; k < g.nodes.size(); ++k) g.nodes[k].source_index = k;
    return std::make_shared<const Model>(std::move(g), "expand");
}

NodePlacement expand_placement(const ExpandSpec& s) {
    return placement_of(*expand_model(s), OpKind::Tile, s.dt == DataType::Float32);
}

void expect_refused(const ExpandSpec& s, const std::string& reason_part) {
    const NodePlacement p = expand_placement(s);
    EXPECT_EQ(p.device, Placed::Cpu);
    EXPECT_NE(p.reason.find(reason_part), std::string::npos) << p.reason;
}

void expect_lowered(const ExpandSpec& s, uint32_t tasks, const char* what) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        ExpandSpec e = s;
        e.dt = dt;
        const bool fp16 = dt == DataType::Float32;
        const Compared r = compare_cpu_sim(expand_model(e), fp16);
        ASSERT_EQ(r.npu_layers.size(), 1u) << what << " " << to_string(dt);
        EXPECT_EQ(r.npu_tasks[0], tasks) << what << " " << to_string(dt);
        EXPECT_LE(r.max_diff, fp16 ? 2e-3 : 0.0) << what << " " << to_string(dt);
        std::printf("[ expand %s %s ] %zu outputs, %u tasks, max |npu-cpu| = %.5f\n", what, to_string(dt), r.elements,
                    r.npu_tasks[0], r.max_diff);
    }
}

}  // namespace

TEST(NpuExpand, RowRepeatedDownIsOneCopyAndRowDoublings) {
    // [b,c,1,w] -> [b,c,h,w]: the row, then rows 1, 2, 4 (h 7: copies of 1, 2, 3 rows).
    expect_lowered({DataType::QAsymmU8, Shape{1, 1, 6, kExpandC}, {1, 7, 1, 1}}, 1 + 3, "rows");
}

TEST(NpuExpand, ColumnRepeatedAcrossIsDoubledInsideEachRow) {
    // [b,c,h,1] -> [b,c,h,w]: each of the 5 pixels into its row, then 3 doublings per row (w 5: 1, 2, 2).
    expect_lowered({DataType::QAsymmU8, Shape{1, 5, 1, kExpandC}, {1, 1, 5, 1}}, 5 + 5 * 3, "columns");
}

TEST(NpuExpand, PixelRepeatedOverTheMap) {
    // [b,c,1,1] -> [b,c,h,w]: one pixel, 4 doublings along W (w 9), 2 along H (h 3).
    expect_lowered({DataType::QAsymmU8, Shape{1, 1, 1, kExpandC}, {1, 3, 9, 1}}, 1 + 4 + 2, "pixel");
    // A power-of-two target: exact doublings.
    expect_lowered({DataType::QAsymmU8, Shape{1, 1, 1, kExpandC}, {1, 8, 8, 1}}, 1 + 3 + 3, "pixel 8x8");
}

TEST(NpuExpand, ChannelBroadcastRepeatsTheChannelByAConvolutionFirst) {
    // [b,1,1,w] -> [b,c,h,w]: the 1x1 convolution with weights 1 to 40 channels (one task), then the row and its
    // doublings as above. Exact in int8: the expansion's requantization multiplier is 1.
    expect_lowered({DataType::QAsymmU8, Shape{1, 1, 6, 1}, {1, 7, 1, kExpandC}}, 1 + 1 + 3, "channels+rows");
    // [b,1,h,1] -> [b,c,h,w]: the expansion, then each pixel into its row and 3 doublings per row.
    expect_lowered({DataType::QAsymmU8, Shape{1, 5, 1, 1}, {1, 1, 5, kExpandC}}, 1 + 5 + 5 * 3, "channels+columns");
}

TEST(NpuExpand, RefusalsNameTheLimit) {
    EXPECT_EQ(expand_placement({DataType::QAsymmU8, Shape{1, 1, 4, kExpandC}, {1, 3, 1, 1}}).device, Placed::Npu);
    // Seed 003 allows [b,1,1,w] -> [b,c,h,w] (lowered above), not a one-channel map repeated across channels alone.
    EXPECT_EQ(expand_placement({DataType::QAsymmU8, Shape{1, 1, 4, 1}, {1, 3, 1, 8}}).device, Placed::Npu);
    // Not a seed 003 pattern: the channels alone.
    expect_refused({DataType::QAsymmU8, Shape{1, 3, 4, 1}, {1, 1, 1, 8}}, "is not one of the Expand patterns of seed 003");
    // A Tile that repeats data is not an Expand.
    expect_refused({DataType::QAsymmU8, Shape{1, 2, 4, kExpandC}, {1, 3, 1, 1}},
                   "repeats axis 1 of size 2: not an Expand");
    expect_refused({DataType::QAsymmU8, Shape{1, 1, 4, kExpandC}, {1, 3, 1, 1}, 0.1f},
                   "Expand input and output quantization differ");
    expect_refused({DataType::QAsymmU8, Shape{1, 1, 1, kExpandC}, {1, 9000, 1, 1}}, "above 8192");
    // A channel expansion beyond the cube fields is refused before any weight is made.
    expect_refused({DataType::QAsymmU8, Shape{1, 1, 4, 1}, {1, 3, 1, 9000}}, "above 8192");
    // Float32 without --fp16 stays on the CPU (support checker).
    const NodePlacement f32 =
        placement_of(*expand_model({DataType::Float32, Shape{1, 1, 4, kExpandC}, {1, 3, 1, 1}}), OpKind::Tile, false);
    EXPECT_NE(f32.reason.find("use --fp16"), std::string::npos) << f32.reason;
}

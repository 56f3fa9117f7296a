// Slice of rows and / or columns inside an NPU segment (runtime/npu/ops/slice_op.cpp): DPU flying copies, one
// task for a band of whole rows, one per output row for a column cut; in uint8, int8 and fp16, against the CPU;
// the Slice of a model input and the Slice as the model output; 1 and 3 cores byte-identical; and the cuts it
// refuses, with their reasons.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "runtime/npu/npu_backend.h"
#include "runtime/session/session_factory.h"
#include "tests/npu/npu_graphs.h"

namespace {

using namespace npurun;
using namespace npurun::npu_test;

constexpr uint32_t kCopyH = 6, kCopyW = 7;

struct RowColCut {
    uint32_t h0 = 0, hs = kCopyH, w0 = 0, ws = kCopyW;
    uint32_t c0 = 0, cs = 40;  // channels of the 40-channel map (all of them: a copy)
    bool conv_before = true;   // else the model input is sliced
    bool conv_after = false;   // else the slice is the model output
};

// x [1,6,7,16 or 40] -> [conv 3x3 (40)] -> Slice -> [conv 3x3 (16)] -> output.
std::shared_ptr<const Model> row_col_model(DataType dt, const RowColCut& s) {
    Graph g;
    const bool q = dt != DataType::Float32;
    const int32_t zp = dt == DataType::QAsymmU8 ? 118 : (dt == DataType::QAsymmS8 ? 4 : 0);
    const TensorId x = value(g, "x", Shape{1, kCopyH, kCopyW, s.conv_before ? 16u : 40u}, dt, q ? 0.05f : 0.0f, zp);
    TensorId a = x;
    if (s.conv_before) {
        ConvSpec cs;
        cs.dt = dt, cs.h = kCopyH, cs.w = kCopyW, cs.c = 16, cs.k = 40, cs.kh = cs.kw = 3, cs.pad = 1, cs.seed = 61;
        a = add_conv(g, cs, x, "conv_a");
    }
    const TensorInfo ai = g.info(a);
    const TensorId cut = value(g, "cut", Shape{1, s.hs, s.ws, s.cs}, ai.dtype,
                               ai.quant.scales.empty() ? 0.0f : ai.quant.scale(), ai.quant.offset);
    SliceAttrs sa;
    sa.begin = {0, s.h0, s.w0, s.c0};
    sa.size = {1, s.hs, s.ws, s.cs};
    node(g, OpKind::Slice, "slice", {a}, {cut}, sa);
    TensorId y = cut;
    if (s.conv_after) {
        ConvSpec cs;
        cs.dt = dt, cs.h = s.hs, cs.w = s.ws, cs.c = s.cs, cs.k = 16, cs.kh = cs.kw = 3, cs.pad = 1, cs.seed = 62;
        y = add_conv(g, cs, cut, "conv_b");
    }
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "slice-copy");
}

// The Slice's row of the profile: on the NPU, in the one segment, with `tasks` tasks.
void expect_copied(const std::shared_ptr<const Model>& m, bool fp16, uint32_t tasks, double tolerance,
                   const char* what) {
    const Placement p = place(m->graph(), npu::npu_placement_options(fp16));
    ASSERT_EQ(p.segments.size(), 1u) << what << "\n" << explain(m->graph(), p);
    const Compared r = compare_cpu_sim(m, fp16);
    bool seen = false;
    for (size_t i = 0; i < r.npu_layers.size(); ++i)
        if (r.npu_layers[i] == "Slice") {
            seen = true;
            EXPECT_EQ(r.npu_tasks[i], tasks) << what;
        }
    EXPECT_TRUE(seen) << what << ": the Slice is not on the NPU";
    EXPECT_LE(r.max_scaled, tolerance) << what;
    std::printf("[ slice copy %s ] %zu outputs, max |npu-cpu| = %.5f\n", what, r.elements, r.max_diff);
}

}  // namespace

// The copy itself is exact (raw atoms): what differs from the CPU is the convolutions' rounding, at most one
// int8 step; in fp16 5e-3 of max(1, |cpu|) after one convolution, 3e-2 after two (the second sums 360 products
// of the first's fp16-rounded outputs).
TEST(NpuSliceCopy, RowsAreOneTaskColumnsOneTaskPerRow) {
    for (DataType dt : {DataType::QAsymmU8, DataType::QAsymmS8, DataType::Float32}) {
        const bool fp16 = dt == DataType::Float32;
        const double tol = fp16 ? 5e-3 : 1.0, tol2 = fp16 ? 3e-2 : 1.0;
        RowColCut rows;
        rows.h0 = 1, rows.hs = 4;
        expect_copied(row_col_model(dt, rows), fp16, 1, tol, (std::string(to_string(dt)) + " rows [1,5)").c_str());
        RowColCut cols;
        cols.w0 = 2, cols.ws = 4;
        expect_copied(row_col_model(dt, cols), fp16, kCopyH, tol,
                      (std::string(to_string(dt)) + " columns [2,6)").c_str());
        RowColCut both;
        both.h0 = 2, both.hs = 3, both.w0 = 1, both.ws = 5, both.conv_after = true;
        expect_copied(row_col_model(dt, both), fp16, 3, tol2,
                      (std::string(to_string(dt)) + " rows [2,5) x columns [1,6)").c_str());
    }
}

TEST(NpuSliceCopy, SliceOfTheModelInputIsExact) {
    // x -> Slice -> conv: the copy reads the converted input; a wrong address or pitch would show as large errors.
    RowColCut s;
    s.conv_before = false, s.conv_after = true, s.h0 = 1, s.hs = 5, s.w0 = 3, s.ws = 4;
    expect_copied(row_col_model(DataType::QAsymmS8, s), false, 5, 1.0, "input rows [1,6) x columns [3,7)");
}

TEST(NpuSliceCopy, OneAndThreeCoresAreByteIdentical) {
    RowColCut s;
    s.h0 = 1, s.hs = 4, s.w0 = 1, s.ws = 5, s.conv_after = true;
    const auto m = row_col_model(DataType::QAsymmU8, s);
    std::vector<uint8_t> out[2];
    for (unsigned cores : {1u, 3u}) {
        SessionOptions so = sim_options();
        so.npu_cores = cores;
        Session sim(m, so);
        fill_input(sim, 9);
        sim.run();
        const uint8_t* o = static_cast<const uint8_t*>(sim.output(0).data);
        out[cores == 3].assign(o, o + sim.output(0).info.num_bytes());
    }
    EXPECT_EQ(out[0], out[1]);
}

TEST(NpuSliceCopy, CutsItCannotCopyStayOnTheCpuWithTheReason) {
    // Rows and 16 of the 40 channels: a copy moves whole atoms of every channel; not a view either.
    RowColCut s;
    s.h0 = 1, s.hs = 4, s.c0 = 16, s.cs = 16, s.conv_after = true;
    const NodePlacement np = placement_of(*row_col_model(DataType::QAsymmS8, s), OpKind::Slice, false);
    EXPECT_EQ(np.device, Placed::Cpu);
    EXPECT_NE(np.reason.find("Slice of channels together with rows or columns"), std::string::npos) << np.reason;
    EXPECT_NE(np.reason.find("takes part of axis 1"), std::string::npos) << np.reason;
}

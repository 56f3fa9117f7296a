// K tiling and the multi-core split on the simulator (through drv and the fake rknpu kernel): tiled and
// multi-lane results against the CPU reference (int8 at most 1, fp16 within fp16 rounding) and bit-exact
// against the single-task / single-core NPU result; the job's lanes and core mask; the fake kernel's
// refusal of lanes that touch each other's data.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>

#include "drv/device_factory.h"
#include "drv/regcmd/fields.h"
#include "drv/regcmd/regcmd_decoder.h"
#include "drv/sim/npu_simulator.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_regcmd.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/session/session_factory.h"
#include "tests/npu/conv_rig.h"
#include "tests/npu/npu_graphs.h"

namespace rc = npudrv::regcmd;
using namespace npurun;
using namespace npurun::npu_test;
using npurun::npu::ConvLayer;
using npurun::npu::ConvTiling;
using npurun::npu::LaneSplit;

namespace {

// ---------------------------------------------------------------- sessions

struct SimRun {
    std::vector<uint8_t> out;  // output bytes
    uint32_t lanes = 0, core_mask = 0, tasks = 0;
    size_t regcmd_bytes = 0;
    double max_diff = 0, max_ref = 0;  // against the CPU
};

SimRun run_sim(const std::shared_ptr<const Model>& m, unsigned cores, bool fp16 = false) {
    SessionOptions so = sim_options(fp16);
    so.npu_cores = cores;
    CpuSimRun run(m, so, 11);
    Session& cpu = run.cpu;
    Session& sim = run.sim;
    SimRun r;
    const npu::NpuBackend* be = SessionFactory::npu_backend(sim);
    EXPECT_NE(be, nullptr);
    if (be == nullptr || be->segments().size() != 1) {
        ADD_FAILURE() << "expected one NPU segment";
        return r;
    }
    r.lanes = be->segments()[0]->lane_count();
    r.core_mask = be->segments()[0]->core_mask();
    r.tasks = be->segments()[0]->task_count();
    r.regcmd_bytes = be->segments()[0]->regcmd().size_bytes();
    const TensorBinding& a = cpu.output(0);
    const TensorBinding& b = sim.output(0);
    const size_t n = a.info.shape.num_elements();
    const uint8_t* bp = static_cast<const uint8_t*>(b.data);
    r.out.assign(bp, bp + b.info.num_bytes());
    {
        const Difference d = difference(a, b, n);
        r.max_diff = std::max(r.max_diff, d.max_diff);
        r.max_ref = std::max(r.max_ref, d.max_ref);
    }
    return r;
}

std::shared_ptr<const Model> fc_model(uint32_t in_features, uint32_t out_features) {
    Graph g;
    TensorId x = value(g, "x", Shape{1, in_features}, DataType::QAsymmU8, 0.05f, 120);
    std::vector<uint8_t> wv(size_t(out_features) * in_features);
    std::mt19937 rng(5);
    for (auto& v : wv) v = uint8_t(rng());
    TensorId w =
        constant(g, "w", Shape{out_features, in_features}, DataType::QAsymmU8, wv.data(), wv.size(), {0.01f}, 128);
    std::vector<int32_t> bv(out_features);
    for (uint32_t i = 0; i < out_features; ++i) bv[i] = int32_t(i % 97) * 50 - 2000;
    TensorId b =
        constant(g, "b", Shape{out_features}, DataType::Signed32, bv.data(), bv.size() * 4, {0.05f * 0.01f}, 0);
    TensorId y = value(g, "y", Shape{1, out_features}, DataType::QAsymmU8, 0.5f, 128);
    FullyConnectedAttrs a;
    a.bias_enabled = true;
    a.transpose_weights = true;
    node(g, OpKind::FullyConnected, "fc", {x, w, b}, {y}, a);
    io(g, x, y);
    return std::make_shared<const Model>(std::move(g), "fc");
}

double fp16_tol(const SimRun& r, uint32_t terms) {
    return 4e-3 * std::max(1.0, r.max_ref) + 2e-3 * std::sqrt(double(terms));
}

// ---------------------------------------------------------------- driver rig (no session)

ConvLayer rig_layer(uint32_t k) { return small_int8_conv(k); }

std::vector<uint8_t> test_bs_stream(const ConvLayer& L) {
    std::vector<uint8_t> bs(L.bs_stream_bytes(), 0);
    for (uint32_t o = 0; o < L.k; ++o) {
        const int32_t bias = int32_t(o * 37 % 200) - 100;
        std::memcpy(&bs[o * 4], &bias, 4);
    }
    return bs;
}

// Runs the layer with `t` through the driver, lanes as the tiling says (core mask 3/7), or every lane's
// tasks given explicitly by `lane_tiles` (a list of tilings whose tasks each lane runs). Returns the output.
std::vector<uint8_t> rig_run(const ConvLayer& L, const std::vector<ConvTiling>& lane_plans, uint32_t core_mask,
                             npudrv::DriverKind kind = npudrv::DriverKind::Rknpu) {
    Rig rig = Rig::make(kind);
    const uint32_t planes = L.coa / 16;
    npudrv::Buffer in = rig.dev.create_buffer(L.h * L.w * 16, npudrv::kBufferZeroed);
    npudrv::Buffer out = rig.dev.create_buffer(uint64_t(planes) * L.ho * L.wo * 16, npudrv::kBufferZeroed);
    out.map();
    const std::vector<uint8_t> weights = pattern_weights(L), bs_stream = test_bs_stream(L);
    npudrv::Buffer cst = rig.dev.create_buffer(weights.size() + bs_stream.size() + 64, npudrv::kBufferZeroed);
    std::mt19937 rng(3);
    uint8_t* ip = in.map();
    for (uint32_t i = 0; i < L.h * L.w * 16; ++i) ip[i] = uint8_t(rng());
    const uint64_t bs_off = (weights.size() + 63) / 64 * 64;
    std::memcpy(cst.map(), weights.data(), weights.size());
    std::memcpy(cst.data() + bs_off, bs_stream.data(), bs_stream.size());
    const npurun::npu::ConvAddresses a{uint32_t(in.dma_addr()), uint32_t(out.dma_addr()), uint32_t(cst.dma_addr()),
                                       uint32_t(cst.dma_addr() + bs_off)};
    // Each entry of lane_plans: one lane (a plan with lanes == 1), or all the lanes of one plan.
    std::vector<rc::RegcmdWriter> writers;
    for (const ConvTiling& t : lane_plans) {
        for (uint32_t l = 0; l < t.lanes; ++l) {
            writers.emplace_back();
            npurun::npu::emit_conv_tasks(writers.back(), L, t, a, t.lanes > 1 ? int(l) : -1);
        }
    }
    std::vector<uint64_t> offs;
    uint64_t total = 0;
    for (auto& w : writers) {
        offs.push_back(total);
        total = (total + w.finish(0).size_bytes() + 63) / 64 * 64;
    }
    npudrv::Buffer cmd = rig.dev.create_buffer(total, 0);
    npudrv::JobSpec spec;
    for (size_t i = 0; i < writers.size(); ++i) {
        const rc::RegcmdBuffer b = writers[i].finish(cmd.dma_addr() + offs[i]);
        std::memcpy(cmd.map() + offs[i], b.qwords.data(), b.size_bytes());
        npudrv::Lane lane;
        for (const auto& lt : b.tasks)
            lane.tasks.push_back({&cmd, offs[i] + lt.offset, lt.total_qwords, lt.enable_mask, lt.int_mask});
        spec.lanes.push_back(lane);
    }
    spec.core_mask = core_mask;
    spec.inputs = {&in};
    spec.outputs = {&out};
    spec.timeout = std::chrono::milliseconds(50);
    npudrv::Job job = rig.dev.create_job(spec);
    job.run();
    for (const auto& r : rig.sim->records()) EXPECT_EQ(r.result.error, "");
    return std::vector<uint8_t>(out.data(), out.data() + uint64_t(planes) * L.ho * L.wo * 16);
}

ConvTiling manual(uint32_t rows_per_task, uint32_t kernels_per_task, bool rows_outer) {
    ConvTiling t;
    t.data_banks = 4, t.weight_banks = 8, t.rows_per_task = rows_per_task, t.weight_reuse = true;
    t.kernels_per_task = kernels_per_task, t.rows_outer = rows_outer;
    return t;
}

}  // namespace

// ---------------------------------------------------------------- K tiling

TEST(NpuKTiling, FullyConnectedWithMoreThan8192Outputs) {
    // 9000 outputs: above the DPU's 8192-channel cube field, so two K tiles (8192 + 808).
    const SimRun r = run_sim(fc_model(64, 9000), 1);
    EXPECT_EQ(r.tasks, 2u);
    EXPECT_LE(r.max_diff, 1.0);
    std::printf("[ int8 ] FC 64->9000: %u tasks, max |npu-cpu| = %.0f\n", r.tasks, r.max_diff);
}

TEST(NpuKTiling, Fp16OneByOneConvWithMoreThan8192Outputs) {
    ConvSpec s;
    s.dt = DataType::Float32;
    s.h = s.w = 2, s.c = 16, s.k = 8200, s.kh = s.kw = 1, s.pad = 0;
    const SimRun r = run_sim(conv_model(s), 1, true);
    EXPECT_EQ(r.tasks, 2u);
    EXPECT_LE(r.max_diff, fp16_tol(r, 16));
    std::printf("[ fp16 ] 1x1 16->8200: %u tasks, max |npu-cpu| = %.5f\n", r.tasks, r.max_diff);
}

TEST(NpuKTiling, RowsTimesKTilesInBothOrdersComputeTheUntiledResult) {
    // 64 kernels in K tiles of 32 x row tiles of 5 (12 rows): rows outer (DATA_REUSE across K tiles) and
    // K outer (WEIGHT_REUSE across row tiles); the simulator refuses any reuse of data it does not hold.
    const ConvLayer L = rig_layer(64);
    ConvTiling one = manual(L.ho, 0, false);
    const std::vector<uint8_t> ref = rig_run(L, {one}, 0);
    size_t nonzero = 0;
    for (uint8_t v : ref) nonzero += v != 0;
    EXPECT_GT(nonzero, ref.size() / 2);
    for (bool rows_outer : {false, true}) {
        const ConvTiling t = manual(5, 32, rows_outer);
        const auto tiles = npurun::npu::conv_tiles(L, t);
        ASSERT_EQ(tiles.size(), 6u);
        size_t wr = 0, dr = 0;
        for (const auto& x : tiles) wr += x.weight_reuse, dr += x.data_reuse;
        EXPECT_EQ(rows_outer ? dr : wr, rows_outer ? 3u : 4u);
        EXPECT_EQ(rig_run(L, {t}, 0), ref) << (rows_outer ? "rows outer" : "K outer");
    }
}

// ---------------------------------------------------------------- multi-core

TEST(NpuMultiCore, SplitByKernelsIsBitExactWithOneCore) {
    ConvSpec s;
    s.h = s.w = 20, s.c = 32, s.k = 192;
    const auto m = conv_model(s);
    const SimRun one = run_sim(m, 1), two = run_sim(m, 2), three = run_sim(m, 3);
    EXPECT_EQ(one.lanes, 1u);
    EXPECT_EQ(one.core_mask, 0u);
    EXPECT_EQ(two.lanes, 2u);
    EXPECT_EQ(two.core_mask, 3u);
    EXPECT_EQ(three.lanes, 3u);
    EXPECT_EQ(three.core_mask, 7u);
    EXPECT_EQ(two.out, one.out);
    EXPECT_EQ(three.out, one.out);
    EXPECT_LE(one.max_diff, 1.0);
    EXPECT_LE(three.max_diff, 1.0);
}

TEST(NpuMultiCore, SplitByRowsWhenThereAreFewKernels) {
    ConvSpec s;
    s.h = s.w = 24, s.c = 16, s.k = 32, s.stride = 2;
    const auto m = conv_model(s);
    const SimRun one = run_sim(m, 1), three = run_sim(m, 3);
    EXPECT_EQ(three.lanes, 3u);
    EXPECT_EQ(three.core_mask, 7u);
    EXPECT_EQ(three.out, one.out);
    EXPECT_LE(three.max_diff, 1.0);
}

TEST(NpuMultiCore, KLanesWithRowTilesInsideAndAutoChoice) {
    // 1x1 16384->96 int8 on 5x5: the input (409600 bytes) is split by rows (4 + 1), the weights (1.5 MB)
    // are larger than the input, so over 3 cores each lane takes 32 kernels and its own row tiles: rows x K
    // in one job. 39.3 M MACs: above the auto threshold, so auto uses 3 cores too.
    ConvSpec s;
    s.h = s.w = 5, s.c = 16384, s.k = 96, s.kh = s.kw = 1, s.pad = 0;
    const auto m = conv_model(s);
    const SimRun one = run_sim(m, 1), three = run_sim(m, 3), automatic = run_sim(m, 0);
    EXPECT_EQ(one.tasks, 2u);
    EXPECT_EQ(three.lanes, 3u);
    EXPECT_EQ(three.tasks, 3 * 2u);
    EXPECT_EQ(three.out, one.out);
    EXPECT_LE(one.max_diff, 1.0);
    EXPECT_LE(three.max_diff, 1.0);
    EXPECT_EQ(automatic.lanes, 3u);
    EXPECT_EQ(automatic.out, one.out);
    std::printf("[ int8 ] 1x1 16384->96 5x5: 1 core %u tasks %zu regcmd bytes, 3 cores %u tasks %zu regcmd bytes\n",
                one.tasks, one.regcmd_bytes, three.tasks, three.regcmd_bytes);
}

TEST(NpuMultiCore, RowLanesForALargeInputWithSmallWeights) {
    // 1x1 64->192 int8 on 72x80: the input (368640 bytes) outweighs the weights (12 KiB): lanes by rows.
    ConvSpec s;
    s.h = 72, s.w = 80, s.c = 64, s.k = 192, s.kh = s.kw = 1, s.pad = 0;
    const auto m = conv_model(s);
    const SimRun one = run_sim(m, 1), two = run_sim(m, 2);
    EXPECT_GT(one.tasks, 1u);
    EXPECT_EQ(two.lanes, 2u);
    EXPECT_EQ(two.core_mask, 3u);
    EXPECT_EQ(two.out, one.out);
    EXPECT_LE(two.max_diff, 1.0);
}

TEST(NpuMultiCore, Fp16SplitIsBitExact) {
    ConvSpec s;
    s.dt = DataType::Float32;
    s.h = s.w = 16, s.c = 24, s.k = 160;
    const auto m = conv_model(s);
    const SimRun one = run_sim(m, 1, true), two = run_sim(m, 2, true);
    EXPECT_EQ(two.lanes, 2u);
    EXPECT_EQ(two.out, one.out);
    EXPECT_LE(two.max_diff, fp16_tol(two, 9 * 24));
}

TEST(NpuMultiCore, SmallLayerStaysOnOneCoreUnderAuto) {
    const SimRun r = run_sim(conv_model(ConvSpec{}), 0);
    EXPECT_EQ(r.lanes, 1u);
    EXPECT_EQ(r.core_mask, 0u);
}

// A segment of several layers: layer 2 reads what layer 1 writes. With a 3x3 second layer, each lane of it reads
// rows another lane wrote (the halo), so each spread layer gets a job of its own (the job boundary is the barrier,
// CompiledSegment::Phase). With a 1x1 second layer, split by the same output rows, each lane reads only the rows
// its own lane wrote, so both layers share one job. 1, 2 and 3 cores give the same bytes either way.
std::shared_ptr<const Model> two_layer_model(uint32_t second_kernel = 1) {
    Graph g;
    TensorId x = value(g, "x", Shape{1, 16, 16, 8}, DataType::QAsymmU8, 0.05f, 118);
    ConvSpec a;
    a.h = a.w = 16, a.c = 8, a.k = 192;
    TensorId y1 = add_conv(g, a, x, "c1");
    ConvSpec b;
    b.h = b.w = 16, b.c = 192, b.k = 8, b.kh = b.kw = second_kernel, b.pad = second_kernel / 2, b.seed = 3;
    TensorId y2 = add_conv(g, b, y1, "c2");
    io(g, x, y2);
    return std::make_shared<const Model>(std::move(g), "two");
}

const npu::CompiledSegment& only_segment(const Session& s) {
    const npu::NpuBackend* be = SessionFactory::npu_backend(s);
    if (be == nullptr || be->segments().size() != 1) throw std::runtime_error("expected one NPU segment");
    return *be->segments()[0];
}

TEST(NpuMultiCore, SegmentOfSeveralLayersSharesAJobOnlyWhereEachLaneReadsItsOwnRows) {
    for (uint32_t second_kernel : {3u, 1u}) {
        SCOPED_TRACE("second layer " + std::to_string(second_kernel) + "x" + std::to_string(second_kernel));
        const size_t layers_per_job = second_kernel == 1 ? 2 : 1;
        const auto m = two_layer_model(second_kernel);
        const SimRun one = run_sim(m, 1);
        EXPECT_EQ(one.lanes, 1u);
        EXPECT_LE(one.max_diff, 2.0);
        for (unsigned cores : {2u, 3u}) {
            const SimRun r = run_sim(m, cores);
            EXPECT_EQ(r.lanes, cores);
            EXPECT_EQ(r.out, one.out) << cores << " cores";
            SessionOptions so = sim_options(false);
            so.npu_cores = cores;
            Session s(m, so);
            const npu::CompiledSegment& seg = only_segment(s);
            ASSERT_EQ(seg.phases().size(), 2 / layers_per_job);
            size_t next_op = 0, next_task = 0;
            for (const auto& ph : seg.phases()) {
                EXPECT_EQ(ph.first_op, next_op);  // the jobs cover the layers in order
                EXPECT_EQ(ph.end_op, ph.first_op + layers_per_job);
                EXPECT_EQ(ph.lanes, cores);
                EXPECT_EQ(ph.core_mask, cores == 2 ? 3u : 7u);
                ASSERT_EQ(ph.lane_tasks.size(), cores);
                for (const auto& [first, end] : ph.lane_tasks) {
                    EXPECT_EQ(first, next_task);  // lanes back to back, in job order
                    EXPECT_LT(first, end);
                    next_task = end;
                }
                next_op = ph.end_op;
            }
            EXPECT_EQ(next_op, seg.layers().size());
            EXPECT_EQ(next_task, seg.task_count());
            s.run();
            // Every core did work, and the critical path is shorter than the sum of the lanes.
            uint64_t total = 0;
            for (unsigned c = 0; c < cores; ++c) {
                EXPECT_GT(seg.core_cycles().at(c), 0u) << "core " << c;
                total += seg.core_cycles()[c];
            }
            EXPECT_LT(seg.critical_path_cycles(), total);
        }
    }
}

// The row split that lets a 1x1 layer share the job of a row-split depthwise layer costs each of its lanes the
// whole weights (a K split fetches a slice each). A segment shares the job only when that costs the slowest lane
// less than a job round trip (kJobRoundTripCycles): 512 -> 64 kernels (32 KiB of weights) does, 512 -> 2048
// (1 MiB: about 44,000 more cycles per lane at 16 bytes a cycle) keeps a job of its own.
TEST(NpuMultiCore, A1x1LayerSharesTheJobOnlyWhenTheRowSplitCostsLessThanAJob) {
    for (uint32_t k : {64u, 2048u}) {
        Graph g;
        TensorId x = value(g, "x", Shape{1, 6, 6, 512}, DataType::QAsymmU8, 0.05f, 118);
        ConvSpec d;
        d.depthwise = true, d.h = d.w = 6, d.c = 512;
        TensorId y1 = add_conv(g, d, x, "dw");
        ConvSpec p;
        p.h = p.w = 6, p.c = 512, p.k = k, p.kh = p.kw = 1, p.pad = 0, p.seed = 5;
        TensorId y2 = add_conv(g, p, y1, "pw");
        io(g, x, y2);
        const auto m = std::make_shared<const Model>(std::move(g), "dw-pw");
        SessionOptions so = sim_options(false);
        so.npu_cores = 3;
        Session s(m, so);
        const npu::CompiledSegment& seg = only_segment(s);
        EXPECT_EQ(seg.phases().size(), k == 64 ? 1u : 2u) << k << " kernels";
        const SimRun one = run_sim(m, 1), three = run_sim(m, 3);
        EXPECT_EQ(three.out, one.out) << k << " kernels";
    }
}

// A segment that starts with a view (a Reshape of the model input: no task) before a layer spread over cores:
// the view joins the spread layer's job, so no job is left without tasks.
TEST(NpuMultiCore, ALeadingViewJoinsTheSpreadLayersJob) {
    Graph g;
    TensorId x = value(g, "x", Shape{1, 16, 16, 8}, DataType::QAsymmU8, 0.05f, 118);
    TensorId r = value(g, "r", Shape{1, 8, 32, 8}, DataType::QAsymmU8, 0.05f, 118);
    ReshapeAttrs ra;
    ra.target = Shape{1, 8, 32, 8};
    node(g, OpKind::Reshape, "reshape", {x}, {r}, ra);
    ConvSpec a;
    a.h = 8, a.w = 32, a.c = 8, a.k = 192;
    TensorId y = add_conv(g, a, r, "c1");
    io(g, x, y);
    const auto m = std::make_shared<const Model>(std::move(g), "view-then-conv");
    const SimRun one = run_sim(m, 1), three = run_sim(m, 3);
    EXPECT_EQ(three.lanes, 3u);
    EXPECT_EQ(three.out, one.out);
    SessionOptions so = sim_options(false);
    so.npu_cores = 3;
    Session s(m, so);
    const npu::CompiledSegment& seg = only_segment(s);
    ASSERT_EQ(seg.layers().size(), 2u) << "the Reshape is part of the NPU segment";
    ASSERT_EQ(seg.phases().size(), 1u);
    EXPECT_EQ(seg.phases()[0].first_op, 0u);
    EXPECT_EQ(seg.phases()[0].lanes, 3u);
}

TEST(NpuMultiCore, SmallLayersOfASegmentShareOneJobUnderAuto) {
    SessionOptions so = sim_options(false);
    so.npu_cores = 0;
    Session s(two_layer_model(), so);
    const npu::CompiledSegment& seg = only_segment(s);
    ASSERT_EQ(seg.phases().size(), 1u);
    EXPECT_EQ(seg.phases()[0].lanes, 1u);
    EXPECT_EQ(seg.job_count(), 1u);
    EXPECT_EQ(seg.lane_count(), 1u);
}

TEST(NpuMultiCore, TooManyCoresIsABadOption) {
    SessionOptions so;
    so.device = DeviceKind::Sim;
    so.npu_cores = 4;
    try {
        Session s(conv_model(ConvSpec{}), so);
        FAIL() << "4 cores accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::BadInput);
        EXPECT_NE(std::string(e.what()).find("3 cores"), std::string::npos) << e.what();
    }
}

// ---------------------------------------------------------------- the fake kernel's lanes

TEST(FakeKernelLanes, IndependentLanesComputeTheOneLaneResult) {
    const ConvLayer L = rig_layer(16);
    ConvTiling one = manual(L.ho, 0, false);
    ConvTiling rows = one;
    rows.lanes = 2, rows.split = LaneSplit::Rows;
    EXPECT_EQ(rig_run(L, {rows}, 3), rig_run(L, {one}, 0));
}

TEST(FakeKernelLanes, RocketRunsEachLaneAsAJob) {
    // rocket: core mask 0, every lane a rocket job of the one SUBMIT, placed by the (fake) scheduler.
    const ConvLayer L = rig_layer(64);
    ConvTiling one = manual(L.ho, 0, false);
    ConvTiling k = one;
    k.lanes = 2, k.split = LaneSplit::Kernels;
    EXPECT_EQ(rig_run(L, {k}, 0, npudrv::DriverKind::Rocket), rig_run(L, {one}, 0));
}

TEST(FakeKernelLanes, LanesWritingTheSameBytesAreRefused) {
    // Both cores compute the whole layer into the same output: on a board the result would depend on
    // timing; the fake kernel names the race and the job fails.
    const ConvLayer L = rig_layer(16);
    const ConvTiling one = manual(L.ho, 0, false);
    try {
        rig_run(L, {one, one}, 3);
        FAIL() << "racing lanes accepted";
    } catch (const npurun::Error& e) {
        EXPECT_NE(std::string(e.what()).find("lane-race"), std::string::npos) << e.what();
    }
}

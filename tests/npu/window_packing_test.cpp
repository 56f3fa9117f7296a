// The first layer's input windows packed on the host (runtime/npu/window_packing.h): the packed 1x1
// lowering and the direct lowering of the same convolution, run through the driver and the simulator
// with the same constants and the same input, give the same output bytes (int8: the same integer sums,
// so nothing may change; fp16 within one rounding), while the packed form issues fewer MAC slots in the
// cost model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "core/quantization.h"
#include "drv/sim/npu_simulator.h"
#include "runtime/npu/conv_layer.h"
#include "runtime/npu/conv_regcmd.h"
#include "runtime/npu/conv_tiling.h"
#include "runtime/npu/feature_layout.h"
#include "runtime/npu/window_packing.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "tests/npu/conv_rig.h"
#include "tests/npu/npu_graphs.h"

namespace rc = npudrv::regcmd;
using namespace npurun;
using npu::ConvLayer;

namespace {

struct LayerRun {
    std::vector<uint8_t> output;  // the real output channels, NC1HWC2 order (padding channels are undefined)
    uint64_t issued_macs = 0;
};

// Runs layer `L` of `node` once: constants packed by the lowering, `input` already in L's NPU layout.
LayerRun run(const Graph& g, const Node& node, const ConvLayer& L, const std::vector<uint8_t>& input) {
    npu::ConvTiling t;
    std::string why;
    EXPECT_TRUE(npu::plan_conv_tiling(L, &t, &why)) << why;
    npu_test::Rig rig = npu_test::Rig::make();
    npudrv::Buffer in = rig.dev.create_buffer(input.size(), npudrv::kBufferZeroed);
    std::memcpy(in.map(), input.data(), input.size());
    npu::FeatureGeometry og;
    og.c = L.coa, og.h = L.ho, og.w = L.wo, og.elem_bytes = L.elem_bytes();
    npudrv::Buffer out = rig.dev.create_buffer(og.bytes(), npudrv::kBufferZeroed);
    out.map();
    const uint64_t bs_at = (L.weight_bytes() + 63) / 64 * 64;
    npudrv::Buffer cst = rig.dev.create_buffer(bs_at + L.bs_stream_bytes(), npudrv::kBufferZeroed);
    npu::write_conv_weights(g, node, L, cst.map());
    npu::write_conv_bs_stream(g, node, nullptr, L, cst.data() + bs_at);
    rc::RegcmdWriter w;
    const npu::ConvAddresses a{uint32_t(in.dma_addr()), uint32_t(out.dma_addr()), uint32_t(cst.dma_addr()),
                               uint32_t(cst.dma_addr() + bs_at)};
    npu::emit_conv_tasks(w, L, t, a);
    npudrv::Buffer cmd = rig.dev.create_buffer(w.finish(0).size_bytes(), 0);
    const rc::RegcmdBuffer b = w.finish(cmd.dma_addr());
    std::memcpy(cmd.map(), b.qwords.data(), b.size_bytes());
    npudrv::JobSpec spec;
    npudrv::Lane lane;
    for (const auto& lt : b.tasks) lane.tasks.push_back({&cmd, lt.offset, lt.total_qwords, lt.enable_mask, lt.int_mask});
    spec.lanes.push_back(lane);
    spec.inputs = {&in};
    spec.outputs = {&out};
    npudrv::Job job = rig.dev.create_job(spec);
    job.run();
    LayerRun r;
    for (const auto& rec : rig.sim->records()) {
        EXPECT_EQ(rec.result.error, "");
        r.issued_macs += rec.cost.issued_macs;
    }
    for (uint64_t i = 0; i < og.bytes(); ++i) {
        const uint64_t plane = i / og.plane_bytes(), ch = plane * og.c2() + i % 16 / og.elem_bytes;
        if (ch < L.k) r.output.push_back(out.data()[i]);
    }
    return r;
}

// The same convolution lowered directly and over its packed windows, on the same input.
struct Pair {
    LayerRun plain, packed;
};

Pair run_both(const npu_test::ConvSpec& s, NpuDomain d) {
    const auto model = npu_test::conv_model(s);
    const Graph& g = model->graph();
    const Node* conv = nullptr;
    for (const Node& n : g.nodes)
        if (n.op == OpKind::Convolution2d) conv = &n;
    if (conv == nullptr) ADD_FAILURE() << "no convolution";
    ConvLayer L;
    const Refusal r = npu::check_conv_layer(g, *conv, nullptr, d, &L);
    EXPECT_FALSE(r.refused()) << r.reason();
    EXPECT_FALSE(npu::window_packing_refusal(L).refused()) << npu::window_packing_refusal(L).reason();

    const TensorInfo& xi = g.info(conv->inputs[0]);
    const size_t n = xi.shape.num_elements();
    std::vector<uint8_t> x(n * (d == NpuDomain::Fp16 ? 4 : 1));
    std::mt19937 rng(s.seed + 11);
    if (d == NpuDomain::Fp16) {
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (size_t i = 0; i < n; ++i) {
            const float f = u(rng);
            std::memcpy(x.data() + i * 4, &f, 4);
        }
    } else {
        for (uint8_t& v : x) v = uint8_t(rng());
    }
    npu::FeatureGeometry gi;
    std::string why;
    EXPECT_TRUE(npu::feature_geometry(xi, d, &gi, &why)) << why;
    std::vector<uint8_t> plain_in(gi.alloc_bytes(), 0);
    npu::pack_feature(xi, x.data(), gi, plain_in.data());
    const npu::WindowPacking p = npu::window_packing(L);
    std::vector<uint8_t> packed_in(p.packed().alloc_bytes(), 0);
    npu::pack_windows(xi, x.data(), p, packed_in.data());
    return {run(g, *conv, L, plain_in), run(g, *conv, npu::packed_conv_layer(L), packed_in)};
}

void expect_packed_matches(const npu_test::ConvSpec& s) {
    const Pair r = run_both(s, NpuDomain::Int8);
    const LayerRun& plain = r.plain;
    const LayerRun& packed = r.packed;
    EXPECT_EQ(plain.output, packed.output) << "packed windows changed the int8 result";
    EXPECT_LT(packed.issued_macs, plain.issued_macs);
    // Not a trivially equal pair: most output values differ from the output zero point's byte.
    size_t varied = 0;
    for (size_t i = 0; i < plain.output.size(); ++i) varied += plain.output[i] != plain.output[0];
    EXPECT_GT(varied, plain.output.size() / 4);
}

npu_test::ConvSpec spec(uint32_t c, uint32_t k, uint32_t kernel, uint32_t stride, uint32_t pad, uint32_t h, uint32_t w) {
    npu_test::ConvSpec s;
    s.c = c, s.k = k, s.kh = s.kw = kernel, s.stride = stride, s.pad = pad, s.h = h, s.w = w;
    return s;
}

}  // namespace

TEST(NpuWindowPacking, Uint8Rgb3x3Stride2Pad1) { expect_packed_matches(spec(3, 32, 3, 2, 1, 17, 15)); }

TEST(NpuWindowPacking, Int8PerChannelRgb3x3Stride2Pad1) {
    npu_test::ConvSpec s = spec(3, 40, 3, 2, 1, 16, 16);
    s.dt = DataType::QAsymmS8;
    s.per_channel = true;
    expect_packed_matches(s);
}

TEST(NpuWindowPacking, Uint8Gray5x5Pad2) { expect_packed_matches(spec(1, 8, 5, 1, 2, 12, 13)); }

TEST(NpuWindowPacking, Uint8Rgb7x7Stride2Pad3) { expect_packed_matches(spec(3, 24, 7, 2, 3, 21, 19)); }

TEST(NpuWindowPacking, Uint8FourChannels3x3) { expect_packed_matches(spec(4, 16, 3, 1, 1, 10, 9)); }

// fp16: the same products summed in another order (fp32 accumulation of fp16 products), so the outputs may
// differ by a rounding of the fp16 result, never more.
TEST(NpuWindowPacking, Fp16Rgb3x3Stride2Pad1WithinOneRounding) {
    npu_test::ConvSpec s = spec(3, 16, 3, 2, 1, 15, 17);
    s.dt = DataType::Float32;
    const Pair r = run_both(s, NpuDomain::Fp16);
    ASSERT_EQ(r.plain.output.size(), r.packed.output.size());
    double max_diff = 0.0, max_abs = 0.0;
    for (size_t i = 0; i + 1 < r.plain.output.size(); i += 2) {
        uint16_t a, b;
        std::memcpy(&a, &r.plain.output[i], 2);
        std::memcpy(&b, &r.packed.output[i], 2);
        const double fa = quant::fp16_to_fp32(a), fb = quant::fp16_to_fp32(b);
        max_diff = std::max(max_diff, std::abs(fa - fb));
        max_abs = std::max(max_abs, std::abs(fa));
    }
    EXPECT_GT(max_abs, 0.5);
    EXPECT_LE(max_diff, max_abs / 1024.0) << "more than one fp16 rounding at the largest output";
    EXPECT_LT(r.packed.issued_macs, r.plain.issued_macs);
}

TEST(NpuWindowPacking, ShapesThatDoNotPackSayWhy) {
    ConvLayer L;
    L.c = 16, L.h = L.w = 8, L.k = 16, L.ho = L.wo = 8, L.kh = L.kw = 3, L.pad_left = L.pad_top = 1, L.ca = 16, L.coa = 16;
    EXPECT_NE(npu::window_packing_refusal(L).reason().find("fill the 16-channel feature atom"), std::string::npos);
    L.c = 3, L.kh = L.kw = 1, L.pad_left = L.pad_top = 0;
    EXPECT_NE(npu::window_packing_refusal(L).reason().find("1x1 stride-1"), std::string::npos);
    L.kh = L.kw = 7, L.c = 6;
    EXPECT_NE(npu::window_packing_refusal(L).reason().find("exceeds 256"), std::string::npos);
    L.depthwise = true;
    EXPECT_NE(npu::window_packing_refusal(L).reason().find("depthwise"), std::string::npos);
}

// A zero-point Pad folded into the first convolution (the TfLite pattern): the segment packs the Pad's
// input with the folded padding, --explain says so, and the result is the CPU's.
TEST(NpuWindowPacking, FoldedPadFirstLayerIsPackedAndMatchesTheCpu) {
    Graph g;
    const TensorId x = npu_test::value(g, "x", Shape{1, 16, 16, 3}, DataType::QAsymmU8, 0.05f, 118);
    const TensorId p = npu_test::value(g, "p", Shape{1, 17, 17, 3}, DataType::QAsymmU8, 0.05f, 118);
    PadAttrs pa;
    pa.pads = {{0, 0}, {0, 1}, {0, 1}, {0, 0}};  // TfLite's SAME for 3x3/2 on an even size: bottom/right only
    pa.value = 118.0f;
    npu_test::node(g, OpKind::Pad, "pad", {x}, {p}, pa);
    npu_test::ConvSpec s = spec(3, 16, 3, 2, 0, 17, 17);
    const TensorId y = npu_test::add_conv(g, s, p, "conv");
    npu_test::io(g, x, y);
    const auto m = std::make_shared<const Model>(std::move(g), "pad-rgb-conv");
    const Placement pl = place(m->graph(), npu::npu_placement_options(false));
    const std::string table = explain(m->graph(), pl);
    EXPECT_NE(table.find("input windows packed on the host: 3x3x3 -> 32 channels"), std::string::npos) << table;
    const npu_test::Compared r = npu_test::compare_cpu_sim(m);
    ASSERT_EQ(r.npu_layers.size(), 1u);
    EXPECT_LE(r.max_diff, 1.0) << "max |npu - cpu| in the integer value";
}

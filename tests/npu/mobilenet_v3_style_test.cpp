// A float MobileNet-v3-style detector written as Arm NN 20.08's TfLite parser writes one (Addition /
// Multiplication layers, HardSwish activations, squeeze-excite with a global average pool, a [1,1,1,C]
// per-channel Multiplication and a hard-sigmoid made of x + 3 / ReLU6 / * 1/6 with [1,1,1,1] constants, SSD
// box and class heads reshaped to [1, anchors, 4] and concatenated, Sigmoid scores), run with --fp16 on the
// simulated NPU against the CPU. It prints the placement summary (layers, segments, MAC share) that the
// issue-14 table reports; NPURUN_V3_MODEL=path keeps the written model for `npurun --explain`.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <unistd.h>

#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "include/npurun/npurun.hpp"
#include "tests/npu/npu_graphs.h"
#include "tools/modelwriter/model_writer.h"

namespace mw = npurun::modelwriter;
namespace fb = armnnSerializer;
using namespace npurun;

namespace {

struct Map {
    uint32_t layer, h, w, c;
};

class V3Writer {
public:
    mw::ModelWriter w;

    Map input(uint32_t h, uint32_t wd, uint32_t c) { return {w.add_input("image", f32({1, h, wd, c}), 0), h, wd, c}; }
    Map conv(const Map& x, uint32_t co, uint32_t k, uint32_t s) {
        mw::Conv2dParams p = same(x, k, s);
        const uint32_t oh = (x.h + s - 1) / s, ow = (x.w + s - 1) / s;
        const uint32_t id = w.add_convolution2d(name("conv"), x.layer, f32({1, oh, ow, co}), p,
                                                mw::const_f32({co, k, k, x.c}, random(size_t{co} * k * k * x.c, k * k * x.c)),
                                                mw::const_f32({co}, random(co, 16)));
        return {id, oh, ow, co};
    }
    Map dw(const Map& x, uint32_t k, uint32_t s) {
        mw::Conv2dParams p = same(x, k, s);
        const uint32_t oh = (x.h + s - 1) / s, ow = (x.w + s - 1) / s;
        const uint32_t id = w.add_depthwise_convolution2d(name("dw"), x.layer, f32({1, oh, ow, x.c}), p,
                                                          mw::const_f32({1, k, k, x.c}, random(size_t{k} * k * x.c, k * k)),
                                                          mw::const_f32({x.c}, random(x.c, 16)));
        return {id, oh, ow, x.c};
    }
    Map act(const Map& x, fb::ActivationFunction f, float a = 0.0f) {
        return {w.add_activation(name("act"), x.layer, f32(dims(x)), f, a), x.h, x.w, x.c};
    }
    Map binary(fb::Layer l, fb::LayerType t, const Map& a, uint32_t b) {
        return {w.add_plain(l, t, name("ew"), {a.layer, b}, {f32(dims(a))}), a.h, a.w, a.c};
    }
    Map add(const Map& a, uint32_t b) { return binary(fb::Layer::AdditionLayer, fb::LayerType::Addition, a, b); }
    Map mul(const Map& a, uint32_t b) { return binary(fb::Layer::MultiplicationLayer, fb::LayerType::Multiplication, a, b); }
    uint32_t scalar(float v) { return w.add_constant(name("k"), mw::const_f32({1, 1, 1, 1}, {v})); }
    // TfLite's hard-sigmoid after Arm NN 20.08: Addition(+3) with the fused ReLU6 as its own layer, Multiplication(1/6).
    Map hard_sigmoid(const Map& x) { return mul(act(add(x, scalar(3.0f)), fb::ActivationFunction::BoundedReLu, 6.0f), scalar(1.0f / 6.0f)); }
    Map squeeze_excite(const Map& x, uint32_t squeeze) {
        const uint32_t gap = w.add_layer(fb::Layer::Pooling2dLayer, fb::LayerType::Pooling2d, name("gap"), {x.layer}, {f32({1, 1, 1, x.c})},
                                         [x](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                                             return fb::CreatePooling2dLayer(b, base, fb::CreatePooling2dDescriptor(
                                                 b, fb::PoolingAlgorithm::Average, 0, 0, 0, 0, x.w, x.h, x.w, x.h,
                                                 fb::OutputShapeRounding::Floor, fb::PaddingMethod::Exclude, fb::DataLayout::NHWC)).Union();
                                         });
        Map s = act(conv({gap, 1, 1, x.c}, squeeze, 1, 1), fb::ActivationFunction::ReLu);
        return mul(x, hard_sigmoid(conv(s, x.c, 1, 1)).layer);
    }
    // expand 1x1 -> depthwise k x k -> (squeeze-excite) -> project 1x1 (+ residual).
    Map block(const Map& x, uint32_t expand, uint32_t out, uint32_t k, uint32_t s, bool se, bool hswish) {
        const auto a = [&](const Map& m) { return hswish ? act(m, fb::ActivationFunction::HardSwish) : act(m, fb::ActivationFunction::ReLu); };
        Map y = a(dw(a(conv(x, expand, 1, 1)), k, s));
        if (se) y = squeeze_excite(y, expand / 4);
        y = conv(y, out, 1, 1);
        return (s == 1 && out == x.c) ? add(y, x.layer) : y;
    }
    // SSD head: 1x1 conv to anchors*n, reshaped to [1, h*w*anchors, n].
    uint32_t head(const Map& x, uint32_t anchors, uint32_t n) {
        const Map c = conv(x, anchors * n, 1, 1);
        const uint32_t rows = x.h * x.w * anchors;
        return w.add_layer(fb::Layer::ReshapeLayer, fb::LayerType::Reshape, name("reshape"), {c.layer}, {f32({1, rows, n})},
                           [rows, n](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                               auto d = b.CreateVector(std::vector<uint32_t>{1, rows, n});
                               return fb::CreateReshapeLayer(b, base, fb::CreateReshapeDescriptor(b, d)).Union();
                           });
    }
    uint32_t concat(uint32_t a, uint32_t b, uint32_t rows_a, uint32_t rows_b, uint32_t n) {
        return w.add_layer(fb::Layer::ConcatLayer, fb::LayerType::Concat, name("concat"), {a, b}, {f32({1, rows_a + rows_b, n})},
                           [rows_a](flatbuffers::FlatBufferBuilder& b, flatbuffers::Offset<fb::LayerBase> base) {
                               std::vector<flatbuffers::Offset<fb::UintVector>> v{
                                   fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{0, 0, 0})),
                                   fb::CreateUintVector(b, b.CreateVector(std::vector<uint32_t>{0, rows_a, 0}))};
                               return fb::CreateConcatLayer(b, base, fb::CreateOriginsDescriptor(b, 1, 2, 3, b.CreateVector(v))).Union();
                           });
    }

private:
    std::mt19937 rng_{7};
    uint32_t count_ = 0;

    static mw::TensorDesc f32(std::vector<uint32_t> d) { return mw::tensor(std::move(d), fb::DataType::Float32); }
    static std::vector<uint32_t> dims(const Map& m) { return {1, m.h, m.w, m.c}; }
    std::string name(const char* what) { return std::string(what) + std::to_string(count_++); }
    // Uniform weights of variance 2 / fan_in (activations stay O(1) through the network).
    std::vector<float> random(size_t n, uint32_t fan_in) {
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        const float scale = std::sqrt(6.0f / float(fan_in));
        std::vector<float> v(n);
        for (auto& e : v) e = d(rng_) * scale;
        return v;
    }
    // TfLite SAME padding (the extra row / column at the end).
    static mw::Conv2dParams same(const Map& x, uint32_t k, uint32_t s) {
        mw::Conv2dParams p;
        p.stride_x = p.stride_y = s;
        const auto total = [&](uint32_t in) {
            const uint32_t out = (in + s - 1) / s;
            const int64_t t = int64_t(out - 1) * s + k - in;
            return uint32_t(t > 0 ? t : 0);
        };
        p.pad_top = total(x.h) / 2, p.pad_bottom = total(x.h) - total(x.h) / 2;
        p.pad_left = total(x.w) / 2, p.pad_right = total(x.w) - total(x.w) / 2;
        return p;
    }
};

std::vector<uint8_t> mobilenet_v3_style() {
    V3Writer v;
    Map x = v.act(v.conv(v.input(96, 96, 3), 16, 3, 2), fb::ActivationFunction::HardSwish);  // 48x48x16
    x = v.block(x, 16, 16, 3, 1, false, false);
    x = v.block(x, 64, 24, 3, 2, false, false);    // 24x24
    x = v.block(x, 72, 24, 3, 1, false, false);
    x = v.block(x, 72, 40, 5, 2, true, true);      // 12x12
    const Map c4 = v.block(x, 120, 40, 5, 1, true, true);
    x = v.block(c4, 240, 80, 3, 2, false, true);   // 6x6
    const Map c5 = v.block(x, 200, 80, 3, 1, true, true);
    const uint32_t a4 = 12 * 12 * 3, a5 = 6 * 6 * 3;
    const uint32_t boxes = v.concat(v.head(c4, 3, 4), v.head(c5, 3, 4), a4, a5, 4);
    const uint32_t cls = v.concat(v.head(c4, 3, 4), v.head(c5, 3, 4), a4, a5, 4);
    const uint32_t scores = v.w.add_activation("scores", cls, mw::tensor({1, a4 + a5, 4}), fb::ActivationFunction::Sigmoid);
    v.w.add_output("boxes", boxes, 0);
    v.w.add_output("scores", scores, 1);
    return v.w.finish();
}

std::string model_path() {
    if (const char* keep = std::getenv("NPURUN_V3_MODEL")) return keep;
    return "/tmp/npurun-v3-style-" + std::to_string(::getpid()) + ".armnn";
}

}  // namespace

TEST(MobilenetV3Style, Fp16OnTheSimulatorMatchesTheCpu) {
    const std::string path = model_path();
    mw::write_file(path, mobilenet_v3_style());
    auto model = Model::load(path);
    if (!std::getenv("NPURUN_V3_MODEL")) ::unlink(path.c_str());
    const Graph& g = model->graph();
    const Placement p = place(g, npu::npu_placement_options(true));
    const std::string table = explain(g, p);
    std::printf("%s", table.substr(table.rfind(" layers on the NPU") - 12).c_str());

    const auto session = [&model](DeviceKind device) {
        SessionOptions o;
        o.device = device;
        o.fp16 = device == DeviceKind::Sim;  // --fp16 (the CPU path computes float32 either way)
        return std::make_unique<Session>(model, o);
    };
    auto cpu_session = session(DeviceKind::Cpu), sim_session = session(DeviceKind::Sim);
    Session& cpu = *cpu_session;
    Session& sim = *sim_session;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    TensorBinding& in = cpu.input(0);
    for (size_t k = 0; k < in.info.shape.num_elements(); ++k) static_cast<float*>(in.data)[k] = d(rng);
    std::memcpy(sim.input(0).data, in.data, in.info.num_bytes());
    cpu.run();
    sim.run();
    for (size_t o = 0; o < cpu.num_outputs(); ++o) {
        const size_t n = cpu.output(o).info.shape.num_elements();
        const npu_test::Difference diff = npu_test::difference(cpu.output(o), sim.output(o), n);
        std::printf("output %zu: %zu values, max |sim-cpu| = %.5f, max |cpu| = %.4f\n", o, n, diff.max_diff, diff.max_ref);
        // Twice conformance-npu's --fp16 tolerance of one layer (2^-7 * max(1, |cpu|)) for the whole chain of
        // ~40 fp16 layers (conformance-npu allows layers x 2^-7 for a model).
        EXPECT_LE(diff.max_diff, std::ldexp(1.0, -6) * std::max(1.0, diff.max_ref)) << "output " << o;
    }
    // What the issue asks of this network with --fp16: at most 12 segments, at least 95% of the MACs on the NPU.
    EXPECT_LE(p.segments.size(), 12u);
    EXPECT_NE(table.find("NPU share of MACs: 100.0%"), std::string::npos) << table;
}

namespace {

// x [1,5,6,40] * 4 (a [1,1,1,1] constant, expanded to per-channel) -> `f`: inputs over [-4, 4].
std::shared_ptr<const Model> scaled_activation(ActivationFunction f, DataType dt) {
    Graph g;
    const bool q = dt != DataType::Float32;
    const Shape s{1, 5, 6, 40};
    TensorId x = npu_test::value(g, "x", s, dt, q ? 0.05f : 0.0f, 0);
    const float four = 4.0f;
    const uint8_t q4 = 80;
    TensorId k = q ? npu_test::constant(g, "k", Shape{1, 1, 1, 1}, dt, &q4, 1, {0.05f}, 0)
                   : npu_test::constant(g, "k", Shape{1, 1, 1, 1}, dt, &four, 4);
    TensorId y = npu_test::value(g, "y", s, dt, q ? 0.2f : 0.0f, 0);
    ElementwiseBinaryAttrs ea;
    ea.op = BinaryOp::Mul;
    npu_test::node(g, OpKind::ElementwiseBinary, "scale", {x, k}, {y}, ea);
    TensorId o = npu_test::value(g, "o", s, dt, q ? 0.2f : 0.0f, 0);
    npu_test::node(g, OpKind::Activation, "act", {y}, {o}, ActivationAttrs{f, 0, 0});
    npu_test::io(g, x, o);
    return std::make_shared<const Model>(std::move(g), "activation");
}

NodePlacement placed_act(const std::shared_ptr<const Model>& m, bool fp16) {
    const Graph& g = m->graph();
    const Placement p = place(g, npu::npu_placement_options(fp16));
    for (uint32_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].name == "act") return p.nodes[i];
    ADD_FAILURE() << "no act node";
    return {};
}

}  // namespace

// HardSwish as one DPU task (BS add / mul / ReLU / ReLU-X, EW multiply by the input itself) in the segment of
// the Mul before it, within fp16 rounding of the CPU's x * relu6(x + 3) / 6.
TEST(NpuHardSwish, Fp16OneTaskMatchesTheCpu) {
    const npu_test::Compared r = npu_test::compare_cpu_sim(scaled_activation(ActivationFunction::HardSwish, DataType::Float32), true);
    ASSERT_EQ(r.npu_layers.size(), 2u);
    EXPECT_TRUE(r.cpu_layers.empty());
    EXPECT_EQ(r.npu_tasks[1], 1u);
    // fp16: the input, the scaled input and the result rounded (2^-11 each) plus 1/6 held as fp16 (2^-12).
    EXPECT_LE(r.max_diff, 4.0 * std::ldexp(1.0, -11) * std::max(1.0, r.max_ref));
    std::printf("HardSwish fp16: %zu values, max |sim-cpu| = %.6f (max |cpu| %.3f)\n", r.elements, r.max_diff, r.max_ref);
}

TEST(NpuHardSwish, RefusalsNameTheLookupTable) {
    const NodePlacement i8 = placed_act(scaled_activation(ActivationFunction::HardSwish, DataType::QAsymmS8), false);
    EXPECT_EQ(i8.device, Placed::Cpu);
    EXPECT_NE(i8.reason.find("int8 HardSwish needs the DPU lookup table"), std::string::npos) << i8.reason;
    const NodePlacement sig = placed_act(scaled_activation(ActivationFunction::Sigmoid, DataType::Float32), true);
    EXPECT_EQ(sig.device, Placed::Cpu);
    EXPECT_NE(sig.reason.find("Sigmoid has no NPU lowering (DPU LUT not programmed)"), std::string::npos) << sig.reason;
}

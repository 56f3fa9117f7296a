// Small graphs built in code for the NPU backend tests: quantized / float convolutions with their
// constants, activations, chains; plus helpers to run a model on the CPU and on the simulated NPU.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "include/npurun/npurun.hpp"
#include "ir/graph.h"
#include "runtime/npu/npu_backend.h"
#include "runtime/passes/placement.h"
#include "runtime/session/session_factory.h"
#include "tests/common/graph_builders.h"

namespace npurun::npu_test {

inline TensorId value(Graph& g, const std::string& name, Shape s, DataType dt, float scale = 0.0f, int32_t zp = 0) {
    const TensorId id = testing::add_value(g, name, s, dt);
    if (scale != 0.0f) g.tensors[id].info.quant.scales = {scale};
    g.tensors[id].info.quant.offset = zp;
    return id;
}

inline TensorId constant(Graph& g, const std::string& name, Shape s, DataType dt, const void* bytes, size_t n,
                         std::vector<float> scales = {}, int32_t zp = 0, uint32_t axis = 0) {
    Tensor t;
    t.name = name;
    t.info.dtype = dt;
    t.info.shape = s;
    t.info.quant.scales = std::move(scales);
    t.info.quant.offset = zp;
    t.info.quant.axis = axis;
    uint8_t* d = g.allocate_owned(n);
    std::memcpy(d, bytes, n);
    t.data = d;
    return g.add_tensor(std::move(t));
}

inline void node(Graph& g, OpKind op, const std::string& name, std::vector<TensorId> in, std::vector<TensorId> out,
                 OpAttrs attrs = {}) {
    testing::add_node(g, op, name, std::move(in), std::move(out), std::move(attrs));
}

// Binds `t` as model input `id` with an Input node at nodes[position].
inline void add_input_binding(Graph& g, const std::string& name, int32_t id, TensorId t, size_t position) {
    Node a;
    a.op = OpKind::Input;
    a.name = name;
    a.outputs = {t};
    a.attrs = BindingAttrs{id};
    g.nodes.insert(g.nodes.begin() + long(position), a);
    g.inputs.push_back({name, id, t});
}

// Binds `t` as model output `id` with an Output node at the end.
inline void add_output_binding(Graph& g, const std::string& name, int32_t id, TensorId t) {
    Node b;
    b.op = OpKind::Output;
    b.name = name;
    b.inputs = {t};
    b.attrs = BindingAttrs{id};
    b.source_index = uint32_t(g.nodes.size());
    g.nodes.push_back(b);
    g.outputs.push_back({name, id, t});
}

inline void io(Graph& g, TensorId in, TensorId out) {
    add_input_binding(g, "input", 0, in, 0);
    add_output_binding(g, "output", 0, out);
}

enum class Act { None, Relu, Relu6 };

struct ConvSpec {
    DataType dt = DataType::QAsymmU8;  // activation type: QAsymmU8, QAsymmS8 or Float32
    bool per_channel = false;          // int8 weights QSymmS8 per output channel
    bool depthwise = false;
    uint32_t h = 8, w = 8, c = 16, k = 16, kh = 3, kw = 3, stride = 1, pad = 1;
    uint32_t dilation = 1;
    bool bias = true;
    Act act = Act::None;
    bool coarse_intermediate = false;  // conv output quantized coarser than the activation's (no fusion)
    uint32_t seed = 1;
};

inline uint32_t out_dim(uint32_t in, uint32_t k, uint32_t s, uint32_t p) { return (in + 2 * p - k) / s + 1; }

// The NHWC attributes of `s` for Convolution2d or DepthwiseConvolution2d (both name these fields alike).
template <class Attrs> Attrs conv_attrs(const ConvSpec& s, bool bias) {
    Attrs a;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = s.pad;
    a.stride_x = a.stride_y = s.stride;
    a.dilation_x = a.dilation_y = s.dilation;
    a.bias_enabled = bias;
    a.layout = DataLayout::NHWC;
    return a;
}

// NHWC max pooling with a square `size` window and `stride`, no padding.
inline Pooling2dAttrs max_pool_attrs(uint32_t size, uint32_t stride) {
    Pooling2dAttrs a;
    a.algorithm = PoolingAlgorithm::Max;
    a.pool_width = a.pool_height = size;
    a.stride_x = a.stride_y = stride;
    a.layout = DataLayout::NHWC;
    return a;
}

// Appends one conv layer (and its activation) reading `in` ([1,h,w,c]); returns the output tensor.
inline TensorId add_conv(Graph& g, const ConvSpec& s, TensorId in, const std::string& name) {
    std::mt19937 rng(s.seed);
    const TensorInfo xi = g.info(in);
    const bool q = s.dt != DataType::Float32;
    const uint32_t ho = out_dim(s.h, (s.kh - 1) * s.dilation + 1, s.stride, s.pad);
    const uint32_t wo = out_dim(s.w, (s.kw - 1) * s.dilation + 1, s.stride, s.pad);
    const uint32_t k = s.depthwise ? s.c : s.k;
    const uint32_t per_out = s.kh * s.kw * (s.depthwise ? 1 : s.c);
    const size_t nw = size_t(k) * per_out;
    const float sx = q ? xi.quant.scale() : 1.0f;
    TensorId w, b = kNoTensor;
    std::vector<float> sw(k, 0.02f);
    if (!q) {
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        std::vector<float> v(nw);
        for (float& x : v) x = d(rng);
        w = constant(g, name + "_w", s.depthwise ? Shape{1, s.kh, s.kw, s.c} : Shape{s.k, s.kh, s.kw, s.c}, DataType::Float32,
                     v.data(), v.size() * 4);
        if (s.bias) {
            std::vector<float> bv(k);
            for (float& x : bv) x = d(rng);
            b = constant(g, name + "_b", Shape{k}, DataType::Float32, bv.data(), bv.size() * 4);
        }
    } else if (s.per_channel) {
        std::uniform_int_distribution<int> d(-127, 127);
        std::vector<int8_t> v(nw);
        for (auto& x : v) x = int8_t(d(rng));
        for (uint32_t o = 0; o < k; ++o) sw[o] = 0.005f + 0.001f * float(o % 13);
        w = constant(g, name + "_w", s.depthwise ? Shape{1, s.kh, s.kw, s.c} : Shape{s.k, s.kh, s.kw, s.c}, DataType::QSymmS8,
                     v.data(), v.size(), sw, 0, s.depthwise ? 3 : 0);
    } else {
        std::uniform_int_distribution<int> d(0, 255);
        std::vector<uint8_t> v(nw);
        for (auto& x : v) x = uint8_t(d(rng));
        const DataType wdt = s.dt == DataType::QAsymmU8 ? DataType::QAsymmU8 : DataType::QAsymmS8;
        if (wdt == DataType::QAsymmS8)
            for (auto& x : v) x = uint8_t(int8_t(int(x) - 128));
        w = constant(g, name + "_w", s.depthwise ? Shape{1, s.kh, s.kw, s.c} : Shape{s.k, s.kh, s.kw, s.c}, wdt, v.data(),
                     v.size(), {0.02f}, wdt == DataType::QAsymmU8 ? 131 : -7);
    }
    if (q && s.bias) {
        std::uniform_int_distribution<int> d(-3000, 3000);
        std::vector<int32_t> bv(k);
        std::vector<float> bs(k);
        for (uint32_t o = 0; o < k; ++o) bv[o] = d(rng), bs[o] = sx * sw[o];
        b = constant(g, name + "_b", Shape{k}, DataType::Signed32, bv.data(), bv.size() * 4,
                     s.per_channel ? bs : std::vector<float>{bs[0]}, 0);
    }
    // Output scale: about the spread of a sum of per_out random products.
    float so = q ? 0.1f * std::sqrt(float(per_out)) : 0.0f;  // ~3 sigma of the sum over 128 codes
    int32_t zo = s.dt == DataType::QAsymmU8 ? 120 : (s.dt == DataType::QAsymmS8 ? -5 : 0);
    // With an activation the convolution's output carries the activation's quantization, as converters
    // write it (TfLite fuses the activation; Arm NN's parser re-adds it with the same quantization).
    const float sa = q ? (s.act == Act::Relu6 ? 6.0f / 255.0f : so) : 0.0f;
    const int32_t za = s.dt == DataType::QAsymmU8 ? 0 : (s.dt == DataType::QAsymmS8 ? -128 : 0);
    if (s.act != Act::None && !s.coarse_intermediate) so = sa, zo = za;
    TensorId y = value(g, name + "_out", Shape{1, ho, wo, k}, s.dt, so, zo);
    std::vector<TensorId> ins = {in, w};
    if (b != kNoTensor) ins.push_back(b);
    if (s.depthwise)
        node(g, OpKind::DepthwiseConvolution2d, name, ins, {y},
             conv_attrs<DepthwiseConvolution2dAttrs>(s, b != kNoTensor));
    else
        node(g, OpKind::Convolution2d, name, ins, {y}, conv_attrs<Convolution2dAttrs>(s, b != kNoTensor));
    if (s.act == Act::None) return y;
    ActivationAttrs aa;
    aa.function = s.act == Act::Relu ? ActivationFunction::ReLu : ActivationFunction::BoundedReLu;
    aa.a = 6.0f;
    aa.b = 0.0f;
    TensorId z = value(g, name + "_act", Shape{1, ho, wo, k}, s.dt, sa, q ? za : 0);
    node(g, OpKind::Activation, name + "_relu", {y}, {z}, aa);
    return z;
}

inline std::shared_ptr<const Model> conv_model(const ConvSpec& s) {
    Graph g;
    const bool q = s.dt != DataType::Float32;
    TensorId in = value(g, "x", Shape{1, s.h, s.w, s.c}, s.dt, q ? 0.05f : 0.0f,
                        s.dt == DataType::QAsymmU8 ? 118 : (s.dt == DataType::QAsymmS8 ? 4 : 0));
    TensorId out = add_conv(g, s, in, "conv");
    io(g, in, out);
    return std::make_shared<const Model>(std::move(g), "in-memory");
}

// Deterministic input bytes for binding 0.
inline void fill_input(Session& s, uint32_t seed) {
    std::mt19937 rng(seed);
    TensorBinding& b = s.input(0);
    const size_t n = b.info.shape.num_elements();
    if (b.info.dtype == DataType::Float32) {
        std::uniform_real_distribution<float> d(-1.0f, 1.0f);
        for (size_t i = 0; i < n; ++i) static_cast<float*>(b.data)[i] = d(rng);
    } else {
        std::uniform_int_distribution<int> d(0, 255);
        for (size_t i = 0; i < n; ++i) static_cast<uint8_t*>(b.data)[i] = uint8_t(d(rng));
    }
}

// Element i of a Float32, QAsymmS8 or QAsymmU8 output as a double (the stored integer for 8-bit types).
inline double element_value(const TensorBinding& t, DataType dt, size_t i) {
    if (dt == DataType::Float32) return static_cast<const float*>(t.data)[i];
    if (dt == DataType::QAsymmS8) return static_cast<const int8_t*>(t.data)[i];
    return static_cast<const uint8_t*>(t.data)[i];
}

// Over the first `n` elements of `ref` (the CPU's output) and `got` (the NPU's), read as ref's dtype:
// the largest |ref - got|, the largest |ref|, and the largest |ref - got| / max(1, |ref|) (absolute below 1,
// relative above: the measure for outputs that grow like the input, whose fp16 rounding is relative).
struct Difference {
    double max_diff = 0, max_ref = 0, max_scaled = 0;
};
inline Difference difference(const TensorBinding& ref, const TensorBinding& got, size_t n) {
    Difference d;
    for (size_t i = 0; i < n; ++i) {
        const double x = element_value(ref, ref.info.dtype, i), y = element_value(got, ref.info.dtype, i);
        d.max_diff = std::max(d.max_diff, std::fabs(x - y));
        d.max_ref = std::max(d.max_ref, std::fabs(x));
        d.max_scaled = std::max(d.max_scaled, std::fabs(x - y) / std::max(1.0, std::fabs(x)));
    }
    return d;
}

struct Compared {
    double max_diff = 0;     // integers: max |npu - cpu|; floats: max |npu - cpu|
    double max_ref = 0;      // floats: max |cpu|
    double max_scaled = 0;   // max |npu - cpu| / max(1, |cpu|)
    size_t elements = 0;
    std::vector<std::string> npu_layers;  // profile rows on the NPU
    std::vector<uint32_t> npu_tasks;      // hardware tasks of each NPU row
    std::vector<std::string> cpu_layers;
};

inline SessionOptions cpu_options() {
    SessionOptions o;
    o.device = DeviceKind::Cpu;
    return o;
}
inline SessionOptions sim_options(bool fp16 = false) {
    SessionOptions o;
    o.device = DeviceKind::Sim;
    o.fp16 = fp16;
    return o;
}

// A CPU and a simulator session of one model, fed the same input 0 (fill_input(seed)) and run once.
struct CpuSimRun {
    Session cpu;
    Session sim;
    CpuSimRun(const std::shared_ptr<const Model>& model, const SessionOptions& sim_opts, uint32_t seed)
        : cpu(model, cpu_options()), sim(model, sim_opts) {
        fill_input(cpu, seed);
        std::memcpy(sim.input(0).data, cpu.input(0).data, cpu.input(0).info.num_bytes());
        cpu.run();
        sim.run();
    }
};

// Every output of a run: the largest |sim - cpu| and |cpu| of each, printed one line per output.
inline std::vector<Difference> output_differences(const CpuSimRun& r) {
    std::vector<Difference> out;
    for (size_t o = 0; o < r.cpu.num_outputs(); ++o) {
        const size_t n = r.cpu.output(o).info.shape.num_elements();
        out.push_back(difference(r.cpu.output(o), r.sim.output(o), n));
        std::printf("output %zu: %zu values, max |sim-cpu| = %.5f, max |cpu| = %.4f\n", o, n, out.back().max_diff,
                    out.back().max_ref);
    }
    return out;
}

// Output 0 of two sessions of one model that have run (`sim` with profiling), and the simulator's layers.
inline Compared compare_runs(const Session& cpu, const Session& sim) {
    Compared r;
    const TensorBinding& a = cpu.output(0);
    const TensorBinding& b = sim.output(0);
    r.elements = a.info.shape.num_elements();
    const Difference d = difference(a, b, r.elements);
    r.max_diff = d.max_diff;
    r.max_ref = d.max_ref;
    r.max_scaled = d.max_scaled;
    for (const LayerProfile& p : sim.profile()) {
        (p.device == "sim" ? r.npu_layers : r.cpu_layers).push_back(p.type);
        if (p.device == "sim") r.npu_tasks.push_back(p.tasks);
    }
    return r;
}

// Where placement puts the first node of kind `op` of `model` (with --fp16 or without); a test failure when
// the model has none.
inline NodePlacement placement_of(const Model& model, OpKind op, bool fp16) {
    const Graph& g = model.graph();
    const Placement p = place(g, npu::npu_placement_options(fp16));
    for (uint32_t k = 0; k < g.nodes.size(); ++k)
        if (g.nodes[k].op == op) return p.nodes[k];
    ADD_FAILURE() << "no " << to_string(op) << " node";
    return {};
}

// Runs `model` on the CPU and on the simulated NPU with the same input; compares output 0.
inline Compared compare_cpu_sim(const std::shared_ptr<const Model>& model, bool fp16 = false, uint32_t seed = 7) {
    SessionOptions so = sim_options(fp16);
    so.profile = true;
    CpuSimRun run(model, so, seed);
    return compare_runs(run.cpu, run.sim);
}

// One NPU segment with the view (Reshape / Concat / Slice / Splitter) in it: its row has no task, and the segment's
// tasks are exactly the other layers' tasks (no copy).
inline void expect_view_without_task(const std::shared_ptr<const Model>& m, bool fp16, const char* view_type) {
    SessionOptions so;
    so.device = DeviceKind::Sim;
    so.fp16 = fp16;
    so.profile = true;
    Session sim(m, so);
    const npu::NpuBackend* b = SessionFactory::npu_backend(sim);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(b->segments().size(), 1u) << explain(m->graph(), b->placement());
    uint32_t other_tasks = 0;
    bool seen = false;
    for (const npu::NpuLayerStats& l : b->segments()[0]->layers()) {
        if (l.type == view_type) {
            seen = true;
            EXPECT_EQ(l.tasks, 0u) << view_type << " must not generate a task or a copy";
        } else {
            other_tasks += l.tasks;
        }
    }
    EXPECT_TRUE(seen) << view_type << " is not in the NPU segment";
    EXPECT_EQ(b->segments()[0]->task_count(), other_tasks) << "a task besides the other layers' (a copy?)";
}

}  // namespace npurun::npu_test

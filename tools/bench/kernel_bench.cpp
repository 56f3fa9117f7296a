// Per-kernel benchmark: npurun's NEON kernels vs kernels/ref vs XNNPACK on fixed layer shapes from
// MobileNet v1 (1.0, 224) and ResNet-50, same data, same thread count.
//
// What is measured: wall time of one kernel call on warm caches, median over repetitions (at least 3,
// and at least ~0.3 s of calls per implementation); the rate printed is 2*MACs / time (GFLOP/s for
// float, GOP/s for 8-bit), the ratios are ours/ref and ours/XNNPACK. XNNPACK operators are created once
// (weight packing excluded from the timing, as in an inference session); npurun's kernels do their
// per-call preparation inside the call, which is included. Not a test: no assertion on any number.
//
// Usage: npurun-kernel-bench [--threads N] [--filter SUBSTRING]
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <xnnpack.h>

#include "kernels/kernel.h"
#include "kernels/neon/registry.h"
#include "kernels/neon/thread_pool.h"
#include "kernels/ref/registry.h"
#include "runtime/exec/kernel_node_view.h"
#include "ir/graph.h"

namespace {

using namespace npurun;

// One node in its own graph, with every operand's bytes.
struct Layer {
    std::string name;
    double macs = 0;
    Graph graph;
    std::vector<std::vector<uint8_t>> inputs;  // run-time input bytes (constants live in the graph)
    std::vector<std::vector<uint8_t>> outputs;
    std::function<std::function<void()>(Layer&, pthreadpool_t)> make_xnn;  // nullptr: no XNNPACK counterpart
};

TensorInfo ti(DataType t, Shape s, float scale = 0.0f, int32_t off = 0) {
    TensorInfo i;
    i.dtype = t;
    i.shape = s;
    if (scale != 0.0f) i.quant.scales = {scale};
    i.quant.offset = off;
    return i;
}

std::mt19937 rng(1234);

std::vector<uint8_t> random_bytes(const TensorInfo& t) {
    std::vector<uint8_t> b(t.num_bytes());
    if (t.dtype == DataType::Float32) {
        std::uniform_real_distribution<float> d(-1, 1);
        for (size_t i = 0; i < b.size() / 4; ++i) {
            const float v = d(rng);
            std::memcpy(b.data() + 4 * i, &v, 4);
        }
    } else if (t.dtype == DataType::Signed32) {
        std::uniform_int_distribution<int32_t> d(-1000, 1000);
        for (size_t i = 0; i < b.size() / 4; ++i) {
            const int32_t v = d(rng);
            std::memcpy(b.data() + 4 * i, &v, 4);
        }
    } else {
        for (auto& x : b) x = uint8_t(rng());
    }
    return b;
}

// Adds operand tensors: `constant` ones get their data in the graph.
Layer make_layer(std::string name, double macs, OpKind op, OpAttrs attrs, std::vector<std::pair<TensorInfo, bool>> ins, TensorInfo out) {
    Layer l;
    l.name = std::move(name);
    l.macs = macs;
    Node n;
    n.op = op;
    n.attrs = std::move(attrs);
    for (auto& [info, constant] : ins) {
        Tensor t;
        t.info = info;
        auto bytes = random_bytes(info);
        if (constant) {
            uint8_t* p = l.graph.allocate_owned(bytes.size());
            std::memcpy(p, bytes.data(), bytes.size());
            t.data = p;
            l.inputs.emplace_back();
        } else {
            l.inputs.push_back(std::move(bytes));
        }
        n.inputs.push_back(l.graph.add_tensor(t));
    }
    Tensor o;
    o.info = out;
    n.outputs.push_back(l.graph.add_tensor(o));
    l.outputs.emplace_back(out.num_bytes());
    l.graph.nodes.push_back(n);
    return l;
}

const void* operand(const Layer& l, size_t i) {
    const Tensor& t = l.graph.tensor(l.graph.nodes[0].inputs[i]);
    return t.data ? t.data : l.inputs[i].data();
}

double median_seconds(const std::function<void()>& f) {
    f();  // warm-up
    std::vector<double> t;
    double total = 0;
    while (t.size() < 3 || (total < 0.3 && t.size() < 200)) {
        const auto a = std::chrono::steady_clock::now();
        f();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
        t.push_back(s);
        total += s;
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Times a kernel of ours on the layer; 0 if it refuses the node.
double time_kernel(Layer& l, const kernels::Kernel* k) {
    const Node& n = l.graph.nodes[0];
    const exec::KernelNodeView view(n, l.graph);
    if (k == nullptr || !k->check(view).empty()) return 0;
    const size_t sb = k->scratch_bytes ? k->scratch_bytes(view) : 0;
    std::vector<uint8_t> scratch(sb + 64);
    void* sp = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(scratch.data()) + 63) & ~uintptr_t(63));
    std::vector<const void*> in;
    for (size_t i = 0; i < n.inputs.size(); ++i) in.push_back(operand(l, i));
    void* out = l.outputs[0].data();
    std::vector<uint8_t> state_store;
    void* state = exec::prepare_standalone(*k, view, state_store);  // once, as a Session does
    kernels::KernelArgs args{view, in.data(), &out, sb ? sp : nullptr, state};
    return median_seconds([&] { k->run(args); });
}

uint32_t conv_out(uint32_t in, uint32_t k, uint32_t s, uint32_t p0, uint32_t p1) { return (in + p0 + p1 - k) / s + 1; }

Layer conv(const std::string& name, uint32_t h, uint32_t w, uint32_t ic, uint32_t oc, uint32_t k, uint32_t s, uint32_t pad_lo,
           uint32_t pad_hi, bool quant) {
    const uint32_t oh = conv_out(h, k, s, pad_lo, pad_hi), ow = conv_out(w, k, s, pad_lo, pad_hi);
    Convolution2dAttrs a;
    a.pad_top = a.pad_left = pad_lo;
    a.pad_bottom = a.pad_right = pad_hi;
    a.stride_x = a.stride_y = s;
    a.bias_enabled = true;
    a.layout = DataLayout::NHWC;
    const DataType dt = quant ? DataType::QAsymmU8 : DataType::Float32;
    const float sx = quant ? 0.02f : 0, sw = quant ? 0.005f : 0, sy = quant ? 0.1f : 0;
    Layer l = make_layer(name, double(oh) * ow * oc * k * k * ic, OpKind::Convolution2d, a,
                         {{ti(dt, {1, h, w, ic}, sx, quant ? 128 : 0), false},
                          {ti(dt, {oc, k, k, ic}, sw, quant ? 120 : 0), true},
                          {ti(quant ? DataType::Signed32 : DataType::Float32, {oc}, quant ? sx * sw : 0), true}},
                         ti(dt, {1, oh, ow, oc}, sy, quant ? 100 : 0));
    l.make_xnn = [h, w, ic, oc, k, s, pad_lo, pad_hi, quant, sx, sw, sy](Layer& l, pthreadpool_t pool) -> std::function<void()> {
        xnn_operator_t op = nullptr;
        const void* wt = operand(l, 1);
        const void* b = operand(l, 2);
        xnn_status st = quant ? xnn_create_convolution2d_nhwc_qu8(pad_lo, pad_hi, pad_hi, pad_lo, k, k, s, s, 1, 1, 1, ic, oc, ic, oc, 128, sx,
                                                                  120, sw, static_cast<const uint8_t*>(wt), static_cast<const int32_t*>(b),
                                                                  100, sy, 0, 255, 0, &op)
                              : xnn_create_convolution2d_nhwc_f32(pad_lo, pad_hi, pad_hi, pad_lo, k, k, s, s, 1, 1, 1, ic, oc, ic, oc,
                                                                  static_cast<const float*>(wt), static_cast<const float*>(b), -INFINITY,
                                                                  INFINITY, 0, &op);
        if (st != xnn_status_success) return nullptr;
        st = quant ? xnn_setup_convolution2d_nhwc_qu8(op, 1, h, w, static_cast<const uint8_t*>(operand(l, 0)), l.outputs[0].data(), pool)
                   : xnn_setup_convolution2d_nhwc_f32(op, 1, h, w, static_cast<const float*>(operand(l, 0)),
                                                      reinterpret_cast<float*>(l.outputs[0].data()), pool);
        if (st != xnn_status_success) return nullptr;
        return [op, pool] {
            if (xnn_run_operator(op, pool) != xnn_status_success) std::abort();
        };
    };
    return l;
}

Layer depthwise(const std::string& name, uint32_t h, uint32_t w, uint32_t c, uint32_t s, bool quant) {
    const uint32_t pad_lo = s == 1 ? 1 : 0, pad_hi = 1;
    const uint32_t oh = conv_out(h, 3, s, pad_lo, pad_hi), ow = conv_out(w, 3, s, pad_lo, pad_hi);
    DepthwiseConvolution2dAttrs a;
    a.pad_top = a.pad_left = pad_lo;
    a.pad_bottom = a.pad_right = pad_hi;
    a.stride_x = a.stride_y = s;
    a.bias_enabled = true;
    a.layout = DataLayout::NHWC;
    const DataType dt = quant ? DataType::QAsymmU8 : DataType::Float32;
    const float sx = quant ? 0.02f : 0, sw = quant ? 0.005f : 0, sy = quant ? 0.1f : 0;
    Layer l = make_layer(name, double(oh) * ow * c * 9, OpKind::DepthwiseConvolution2d, a,
                         {{ti(dt, {1, h, w, c}, sx, quant ? 128 : 0), false},
                          {ti(dt, {1, 3, 3, c}, sw, quant ? 120 : 0), true},
                          {ti(quant ? DataType::Signed32 : DataType::Float32, {c}, quant ? sx * sw : 0), true}},
                         ti(dt, {1, oh, ow, c}, sy, quant ? 100 : 0));
    l.make_xnn = [h, w, c, s, pad_lo, pad_hi, quant, sx, sw, sy](Layer& l, pthreadpool_t pool) -> std::function<void()> {
        xnn_operator_t op = nullptr;
        const void* wt = operand(l, 1);
        const void* b = operand(l, 2);
        const uint32_t flags = XNN_FLAG_DEPTHWISE_CONVOLUTION;  // weights [1, KH, KW, C], as ours
        xnn_status st = quant ? xnn_create_convolution2d_nhwc_qu8(pad_lo, pad_hi, pad_hi, pad_lo, 3, 3, s, s, 1, 1, c, 1, 1, c, c, 128, sx, 120,
                                                                  sw, static_cast<const uint8_t*>(wt), static_cast<const int32_t*>(b), 100,
                                                                  sy, 0, 255, flags, &op)
                              : xnn_create_convolution2d_nhwc_f32(pad_lo, pad_hi, pad_hi, pad_lo, 3, 3, s, s, 1, 1, c, 1, 1, c, c,
                                                                  static_cast<const float*>(wt), static_cast<const float*>(b), -INFINITY,
                                                                  INFINITY, flags, &op);
        if (st != xnn_status_success) return nullptr;
        st = quant ? xnn_setup_convolution2d_nhwc_qu8(op, 1, h, w, static_cast<const uint8_t*>(operand(l, 0)), l.outputs[0].data(), pool)
                   : xnn_setup_convolution2d_nhwc_f32(op, 1, h, w, static_cast<const float*>(operand(l, 0)),
                                                      reinterpret_cast<float*>(l.outputs[0].data()), pool);
        if (st != xnn_status_success) return nullptr;
        return [op, pool] {
            if (xnn_run_operator(op, pool) != xnn_status_success) std::abort();
        };
    };
    return l;
}

Layer fully_connected(const std::string& name, uint32_t in, uint32_t out) {
    FullyConnectedAttrs a;
    a.bias_enabled = true;
    a.transpose_weights = true;  // [O, I], the TFLite form; XNNPACK's layout too
    Layer l = make_layer(name, double(in) * out, OpKind::FullyConnected, a,
                         {{ti(DataType::Float32, {1, in}), false}, {ti(DataType::Float32, {out, in}), true}, {ti(DataType::Float32, {out}), true}},
                         ti(DataType::Float32, {1, out}));
    l.make_xnn = [in, out](Layer& l, pthreadpool_t pool) -> std::function<void()> {
        xnn_operator_t op = nullptr;
        if (xnn_create_fully_connected_nc_f32(in, out, in, out, static_cast<const float*>(operand(l, 1)), static_cast<const float*>(operand(l, 2)),
                                              -INFINITY, INFINITY, 0, &op) != xnn_status_success)
            return nullptr;
        if (xnn_setup_fully_connected_nc_f32(op, 1, static_cast<const float*>(operand(l, 0)), reinterpret_cast<float*>(l.outputs[0].data()),
                                             pool) != xnn_status_success)
            return nullptr;
        return [op, pool] {
            if (xnn_run_operator(op, pool) != xnn_status_success) std::abort();
        };
    };
    return l;
}

Layer add(const std::string& name, uint32_t h, uint32_t w, uint32_t c) {
    ElementwiseBinaryAttrs a;
    a.op = BinaryOp::Add;
    Layer l = make_layer(name, double(h) * w * c / 2, OpKind::ElementwiseBinary, a,
                         {{ti(DataType::Float32, {1, h, w, c}), false}, {ti(DataType::Float32, {1, h, w, c}), false}},
                         ti(DataType::Float32, {1, h, w, c}));
    return l;  // (macs = elements/2 so that "2*MACs" counts one op per element)
}

}  // namespace

int main(int argc, char** argv) {
    unsigned threads = 1;
    std::string filter;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--threads N] [--filter SUBSTRING]\n", argv[0]);
            return 2;
        }
    }
    if (threads == 0) threads = 1;
    kernels::neon::set_num_threads(threads);
    if (xnn_initialize(nullptr) != xnn_status_success) {
        std::fprintf(stderr, "xnn_initialize failed\n");
        return 1;
    }
    pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;

    std::vector<std::unique_ptr<Layer>> layers;
    auto push = [&](Layer l) { layers.push_back(std::make_unique<Layer>(std::move(l))); };
    // MobileNet v1 1.0/224 layers (float and uint8), ResNet-50 layers.
    push(conv("mnv1 conv0 3x3s2 224x224x3->32 f32", 224, 224, 3, 32, 3, 2, 0, 1, false));
    push(conv("mnv1 pw 56x56x64->128 f32", 56, 56, 64, 128, 1, 1, 0, 0, false));
    push(conv("mnv1 pw 14x14x512->512 f32", 14, 14, 512, 512, 1, 1, 0, 0, false));
    push(conv("resnet50 3x3 56x56x64->64 f32", 56, 56, 64, 64, 3, 1, 1, 1, false));
    push(depthwise("mnv1 dw 3x3 112x112x32 f32", 112, 112, 32, 1, false));
    push(depthwise("mnv1 dw 3x3s2 56x56x128 f32", 56, 56, 128, 2, false));
    push(fully_connected("mnv1 fc 1024->1001 f32", 1024, 1001));
    push(add("resnet50 add 56x56x256 f32", 56, 56, 256));
    push(conv("mnv1 pw 56x56x64->128 u8", 56, 56, 64, 128, 1, 1, 0, 0, true));
    push(conv("mnv1 pw 14x14x512->512 u8", 14, 14, 512, 512, 1, 1, 0, 0, true));
    push(conv("resnet50 3x3 28x28x128->128 u8", 28, 28, 128, 128, 3, 1, 1, 1, true));
    push(depthwise("mnv1 dw 3x3 112x112x32 u8", 112, 112, 32, 1, true));

    std::printf("threads=%u  (rates: 2*MACs/median time; ratio > 1 means npurun NEON is faster)\n", threads);
    std::printf("%-38s %9s %9s %9s %9s %9s\n", "layer", "neon", "ref", "xnnpack", "neon/ref", "neon/xnn");
    for (auto& lp : layers) {
        Layer& l = *lp;
        if (!filter.empty() && l.name.find(filter) == std::string::npos) continue;
        const OpKind op = l.graph.nodes[0].op;
        const double t_neon = time_kernel(l, kernels::neon_kernel(op));
        const double t_ref = time_kernel(l, kernels::ref_kernel(op));
        double t_xnn = 0;
        if (l.make_xnn) {
            auto run = l.make_xnn(l, pool);
            if (run) t_xnn = median_seconds(run);
        }
        auto rate = [&](double t) { return t > 0 ? 2 * l.macs / t * 1e-9 : 0.0; };
        char xnn[16] = "-", ratio_x[16] = "-";
        if (t_xnn > 0) {
            std::snprintf(xnn, sizeof xnn, "%9.2f", rate(t_xnn));
            std::snprintf(ratio_x, sizeof ratio_x, "%9.2f", t_xnn / t_neon);
        }
        std::printf("%-38s %9.2f %9.2f %9s %9.2f %9s\n", l.name.c_str(), rate(t_neon), rate(t_ref), xnn, t_ref / t_neon, ratio_x);
    }
    if (pool) pthreadpool_destroy(pool);
    return 0;
}

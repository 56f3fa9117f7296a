// A one-layer graph harness for the reference-kernel and shape-inference tests: declare tensors with
// their values, one node, then infer (ir/ops) and run the reference kernel (kernels/ref).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/ref/registry.h"
#include "runtime/exec/kernel_node_view.h"
#include "core/error.h"
#include "ir/graph.h"
#include "ir/ops/op_semantics.h"
#include "core/quantization.h"

namespace npurun::testing {

inline TensorInfo info(DataType t, Shape s, float scale = 0.0f, int32_t offset = 0) {
    TensorInfo i;
    i.dtype = t;
    i.shape = s;
    if (scale != 0.0f) i.quant.scales = {scale};
    i.quant.offset = offset;
    return i;
}
inline TensorInfo f32(Shape s) { return info(DataType::Float32, s); }

class OneOp {
public:
    Graph g;

    // A tensor with values (an input of the node) or without (an output, filled with a marker byte).
    template <class T> TensorId tensor(const TensorInfo& i, const std::vector<T>& values, bool constant = false) {
        const size_t bytes = values.size() * sizeof(T);
        EXPECT_EQ(bytes, i.num_bytes()) << "test tensor " << i.str() << " given " << values.size() << " values";
        std::vector<uint8_t> b(bytes);
        if (bytes) std::memcpy(b.data(), values.data(), bytes);
        return add(i, std::move(b), constant);
    }
    TensorId output(const TensorInfo& i) { return add(i, std::vector<uint8_t>(i.num_bytes(), 0xcd), false); }

    Node& op(OpKind kind, OpAttrs attrs, std::vector<TensorId> in, std::vector<TensorId> out) {
        Node n;
        n.op = kind;
        n.name = "test";
        n.attrs = std::move(attrs);
        n.inputs = std::move(in);
        n.outputs = std::move(out);
        g.nodes.push_back(std::move(n));
        return g.nodes.back();
    }
    const Node& node() const { return g.nodes.back(); }

    std::vector<TensorInfo> infer() const { return ops::infer_outputs(node(), g); }

    // Infers (declared output shapes must match), checks the kernel accepts the node, runs it.
    void run() {
        const std::vector<TensorInfo> inferred = infer();
        ASSERT_EQ(inferred.size(), node().outputs.size());
        for (size_t i = 0; i < inferred.size(); ++i) {
            ASSERT_EQ(inferred[i].shape.str(), g.info(node().outputs[i]).shape.str()) << "output " << i;
            ASSERT_EQ(inferred[i].dtype, g.info(node().outputs[i]).dtype) << "output " << i;
        }
        const kernels::Kernel* k = kernels::ref_kernel(node().op);
        ASSERT_NE(k, nullptr) << "no reference kernel for " << to_string(node().op);
        const exec::KernelNodeView view(node(), g);
        ASSERT_EQ(k->check(view), "");
        std::vector<const void*> ins;
        for (TensorId t : node().inputs) ins.push_back(t == kNoTensor ? nullptr : buffers_[t].data());
        std::vector<void*> outs;
        for (TensorId t : node().outputs) outs.push_back(buffers_[t].data());
        std::vector<uint8_t> scratch(k->scratch_bytes ? k->scratch_bytes(view) : 0);
        std::vector<uint8_t> state_store;
        void* state = exec::prepare_standalone(*k, view, state_store);
        k->run({view, ins.data(), outs.data(), scratch.empty() ? nullptr : scratch.data(), state});
    }

    template <class T> std::vector<T> values(TensorId t) const {
        const auto& b = buffers_[t];
        std::vector<T> v(b.size() / sizeof(T));
        if (!b.empty()) std::memcpy(v.data(), b.data(), b.size());
        return v;
    }
    template <class T> std::vector<T> out(size_t i = 0) const { return values<T>(node().outputs[i]); }

private:
    TensorId add(const TensorInfo& i, std::vector<uint8_t> bytes, bool constant) {
        Tensor t;
        t.name = "t" + std::to_string(g.tensors.size());
        t.info = i;
        buffers_.push_back(std::move(bytes));
        if (constant) t.data = buffers_.back().data();  // vector storage does not move with the outer vector
        return g.add_tensor(std::move(t));
    }
    std::vector<std::vector<uint8_t>> buffers_;
};

// n consecutive values from `first`: inputs whose every element is told apart in the expected output.
inline std::vector<float> iota(size_t n, float first = 1) {
    std::vector<float> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

// One `kind` node with one Float32 input of `in_shape` and one Float32 output of `out_shape`, run; its output.
inline std::vector<float> run_unary_f32(OpKind kind, OpAttrs attrs, Shape in_shape, const std::vector<float>& in,
                                        Shape out_shape) {
    OneOp t;
    auto x = t.tensor(f32(in_shape), in);
    auto y = t.output(f32(out_shape));
    t.op(kind, std::move(attrs), {x}, {y});
    t.run();
    return t.out<float>();
}

// A convolution-like `kind` node on stored values of any type: input `x`, constant weights `w` and, when `bias`
// is not empty, a constant bias (the attrs say bias_enabled themselves); run, its one output read as Y.
template <class Y, class X, class W, class B = int32_t>
std::vector<Y> run_weighted(OpKind kind, OpAttrs attrs, const TensorInfo& xi, const std::vector<X>& x,
                            const TensorInfo& wi, const std::vector<W>& w, const TensorInfo& yi,
                            const TensorInfo& bi = {}, const std::vector<B>& bias = {}) {
    OneOp t;
    std::vector<TensorId> in{t.tensor(xi, x), t.tensor(wi, w, true)};
    if (!bias.empty()) in.push_back(t.tensor(bi, bias, true));
    auto y = t.output(yi);
    t.op(kind, std::move(attrs), in, {y});
    t.run();
    return t.out<Y>();
}

// run_weighted on Float32 values, the bias (when given) of shape [bias.size()], which sets bias_enabled.
template <class Attrs> std::vector<float> run_weighted_f32(OpKind kind, Attrs a, Shape xs, const std::vector<float>& x,
                                                           Shape ws, const std::vector<float>& w, Shape ys,
                                                           const std::vector<float>& bias = {}) {
    a.bias_enabled = !bias.empty();
    return run_weighted<float>(kind, a, f32(xs), x, f32(ws), w, f32(ys), f32({uint32_t(bias.size())}), bias);
}

// Runs f and returns the Error it throws (fails the test when it does not throw).
template <class F> Error expect_error(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "expected an npurun::Error";
    return Error(ErrorKind::Internal, "no error");
}

inline std::vector<uint16_t> to_f16(const std::vector<float>& v) {
    std::vector<uint16_t> r;
    for (float f : v) r.push_back(quant::fp32_to_fp16(f));
    return r;
}
inline std::vector<float> from_f16(const std::vector<uint16_t>& v) {
    std::vector<float> r;
    for (uint16_t h : v) r.push_back(quant::fp16_to_fp32(h));
    return r;
}

}  // namespace npurun::testing

#define EXPECT_FLOATS_NEAR(actual, expected, tol)                                        \
    do {                                                                                 \
        const auto& a_ = (actual);                                                       \
        const auto& e_ = (expected);                                                     \
        ASSERT_EQ(a_.size(), e_.size());                                                 \
        for (size_t i_ = 0; i_ < a_.size(); ++i_) EXPECT_NEAR(a_[i_], e_[i_], tol) << "at " << i_; \
    } while (0)

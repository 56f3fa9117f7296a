// Test harness: one node built in a Graph, run through the NEON kernel and through kernels/ref (the
// oracle) on the same random inputs, outputs returned as raw bytes for comparison.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernel.h"
#include "kernels/neon/registry.h"
#include "kernels/ref/registry.h"
#include "runtime/exec/kernel_node_view.h"
#include "ir/graph.h"

namespace npurun::neontest {

struct Operand {
    TensorInfo info;
    std::vector<uint8_t> bytes;  // empty for an absent optional operand
    bool constant = false;       // weights and biases: given to the kernel as constant tensor data
    bool absent = false;         // an absent optional operand (kNoTensor)
};

// A single-node graph and the input bytes, ready to run through any kernel.
class OneNode {
public:
    OneNode(OpKind op, OpAttrs attrs, std::vector<Operand> inputs, std::vector<TensorInfo> outputs)
        : inputs_(std::move(inputs)) {
        node_.op = op;
        node_.name = "under_test";
        node_.attrs = std::move(attrs);
        for (auto& in : inputs_) {
            if (in.absent) {
                node_.inputs.push_back(kNoTensor);
                continue;
            }
            Tensor t;
            t.name = "in";
            t.info = in.info;
            if (in.constant) {
                uint8_t* p = graph_.allocate_owned(in.bytes.size());
                std::memcpy(p, in.bytes.data(), in.bytes.size());
                t.data = p;
            }
            node_.inputs.push_back(graph_.add_tensor(t));
        }
        for (auto& o : outputs) {
            Tensor t;
            t.name = "out";
            t.info = o;
            node_.outputs.push_back(graph_.add_tensor(t));
        }
        graph_.nodes.push_back(node_);
    }

    const Node& node() const { return graph_.nodes.back(); }
    const Graph& graph() const { return graph_; }

    // Runs `k` (check must pass) and returns each output's bytes. Output buffers start as 0xCD garbage
    // so a kernel that leaves elements unwritten is caught. The kernel is prepared for this run, unless
    // `prepared` points at a state prepared earlier (by prepare_standalone on a node of the same structure).
    std::vector<std::vector<uint8_t>> run(const kernels::Kernel* k, void* const* prepared = nullptr) const {
        std::vector<std::vector<uint8_t>> outs;
        if (k == nullptr) {
            ADD_FAILURE() << "no kernel";
            return outs;
        }
        const exec::KernelNodeView view(node(), graph_);
        const std::string why = k->check ? k->check(view) : std::string();
        if (!why.empty()) {
            ADD_FAILURE() << "kernel refused: " << why;
            return outs;
        }
        const size_t scratch_size = k->scratch_bytes ? k->scratch_bytes(view) : 0;
        std::vector<uint8_t> scratch_store(scratch_size + 64);
        void* scratch = nullptr;
        if (scratch_size) {
            uintptr_t p = reinterpret_cast<uintptr_t>(scratch_store.data());
            scratch = reinterpret_cast<void*>((p + 63) & ~uintptr_t(63));
        }
        std::vector<const void*> in_ptrs;
        for (size_t i = 0; i < node().inputs.size(); ++i) {
            if (node().inputs[i] == kNoTensor) in_ptrs.push_back(nullptr);
            else if (graph_.tensor(node().inputs[i]).data) in_ptrs.push_back(graph_.tensor(node().inputs[i]).data);
            else in_ptrs.push_back(inputs_[i].bytes.data());
        }
        for (auto id : node().outputs) outs.emplace_back(graph_.info(id).num_bytes(), uint8_t(0xCD));
        std::vector<void*> out_ptrs;
        for (auto& o : outs) out_ptrs.push_back(o.data());
        std::vector<uint8_t> state_store;
        void* state = prepared ? *prepared : exec::prepare_standalone(*k, view, state_store);
        kernels::KernelArgs args{view, in_ptrs.data(), out_ptrs.data(), scratch, state};
        k->run(args);
        return outs;
    }

    std::vector<std::vector<uint8_t>> run_neon() const { return run(kernels::neon_kernel(node_.op)); }
    std::vector<std::vector<uint8_t>> run_ref() const { return run(kernels::ref_kernel(node_.op)); }
    std::string neon_check() const {
        const kernels::Kernel* k = kernels::neon_kernel(node_.op);
        return k ? k->check(exec::KernelNodeView(node(), graph_)) : "no NEON kernel";
    }

private:
    Graph graph_;
    Node node_;
    std::vector<Operand> inputs_;
};

inline TensorInfo tinfo(DataType dt, Shape s, std::vector<float> scales = {}, int32_t offset = 0, uint32_t axis = 0) {
    TensorInfo t;
    t.dtype = dt;
    t.shape = s;
    t.quant.scales = std::move(scales);
    t.quant.offset = offset;
    t.quant.axis = axis;
    return t;
}

template <class T> std::vector<uint8_t> to_bytes(const std::vector<T>& v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}
template <class T> std::vector<T> from_bytes(const std::vector<uint8_t>& b) {
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
}

inline std::vector<float> random_floats(std::mt19937& rng, size_t n, float lo = -1.0f, float hi = 1.0f) {
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}
template <class T> std::vector<T> random_ints(std::mt19937& rng, size_t n, int lo, int hi) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = T(d(rng));
    return v;
}

// Compares float outputs element-wise with a per-element bound; reports the first few violations.
inline ::testing::AssertionResult floats_near(const std::vector<float>& got, const std::vector<float>& want,
                                              const std::vector<double>& bound) {
    if (got.size() != want.size()) return ::testing::AssertionFailure() << "size " << got.size() << " vs " << want.size();
    int bad = 0;
    std::string msg;
    for (size_t i = 0; i < got.size(); ++i) {
        const double d = std::fabs(double(got[i]) - double(want[i]));
        const bool both_nan = std::isnan(got[i]) && std::isnan(want[i]);
        if (!both_nan && !(d <= bound[i])) {
            if (++bad <= 5)
                msg += "\n  [" + std::to_string(i) + "] neon " + std::to_string(got[i]) + " ref " + std::to_string(want[i]) +
                       " |diff| " + std::to_string(d) + " > bound " + std::to_string(bound[i]);
        }
    }
    if (bad) return ::testing::AssertionFailure() << bad << " elements out of bound" << msg;
    return ::testing::AssertionSuccess();
}

// ulp distance between two finite floats (0 when bitwise equal).
inline uint32_t ulp_distance(float a, float b) {
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    if (ia < 0) ia = int32_t(0x80000000u - uint32_t(ia));
    if (ib < 0) ib = int32_t(0x80000000u - uint32_t(ib));
    return ia > ib ? uint32_t(ia - ib) : uint32_t(ib - ia);
}

// Convolution2dAttrs or DepthwiseConvolution2dAttrs with the same padding on every side and one stride.
template <class Attrs> Attrs window_attrs(uint32_t pad, uint32_t stride, bool bias, DataLayout layout) {
    Attrs a;
    a.pad_left = a.pad_right = a.pad_top = a.pad_bottom = pad;
    a.stride_x = a.stride_y = stride;
    a.bias_enabled = bias;
    a.layout = layout;
    return a;
}

// A square k x k pooling window with stride s and padding (top, bottom, left, right).
inline Pooling2dAttrs pool_attrs(PoolingAlgorithm alg, uint32_t k, uint32_t s, std::array<uint32_t, 4> pad, PaddingMethod pm,
                                 DataLayout layout) {
    Pooling2dAttrs a;
    a.algorithm = alg;
    a.pool_width = a.pool_height = k;
    a.stride_x = a.stride_y = s;
    a.pad_top = pad[0], a.pad_bottom = pad[1], a.pad_left = pad[2], a.pad_right = pad[3];
    a.padding_method = pm;
    a.layout = layout;
    return a;
}

}  // namespace npurun::neontest

// Small helpers shared by the NEON kernels: operand access and the refusal messages of `check`.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "kernels/kernel.h"

namespace npurun::kernels::neon {

inline bool has_input(const KernelNode& n, size_t i) { return n.has_input(i); }
inline const TensorInfo& in_info(const KernelNode& n, size_t i) { return n.in(i); }
inline const TensorInfo& out_info(const KernelNode& n, size_t i = 0) { return n.out(i); }

template <class T> const T* in_ptr(const KernelArgs& a, size_t i) { return static_cast<const T*>(a.inputs[i]); }
template <class T> T* out_ptr(const KernelArgs& a, size_t i = 0) { return static_cast<T*>(a.outputs[i]); }

// "NEON: <what>" so a placement/profile table shows which backend refused and why.
inline std::string refuse(const std::string& why) { return "NEON: " + why; }

// The first refusals of a windowed kernel (convolution, depthwise): NHWC or NCHW, input + weights (+ bias) to
// one output, all of rank 4. "" when none applies.
template <class WindowAttrs> std::string check_window_operands(const WindowAttrs& a, const KernelNode& n) {
    if (a.layout != DataLayout::NHWC && a.layout != DataLayout::NCHW) return refuse("layout other than NHWC/NCHW");
    if (n.num_inputs() < 2 || n.num_outputs() != 1) return refuse("unexpected operand count");
    if (in_info(n, 0).shape.rank != 4 || in_info(n, 1).shape.rank != 4 || out_info(n).shape.rank != 4)
        return refuse("rank other than 4");
    return {};
}

// The refusals every windowed kernel (convolution, depthwise) shares: a zero stride or dilation, and rank-4
// dimensions above int32 (taps outside the input read a zero row, so any output shape is memory-safe; the
// ptrdiff_t index arithmetic only needs dimensions that fit in int32). "" when none applies.
template <class WindowAttrs>
std::string check_window_dims(const WindowAttrs& a, const TensorInfo& x, const TensorInfo& w, const TensorInfo& y) {
    if (a.stride_x == 0 || a.stride_y == 0 || a.dilation_x == 0 || a.dilation_y == 0) return refuse("zero stride/dilation");
    const uint64_t max_dim = std::numeric_limits<int32_t>::max();
    for (uint32_t i = 0; i < 4; ++i)
        if (x.shape[i] > max_dim || y.shape[i] > max_dim || w.shape[i] > max_dim) return refuse("dimension too large");
    return {};
}

// The 8-bit quantized types (asymmetric unsigned / signed, symmetric signed).
inline bool eight_bit(DataType t) { return t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::QSymmS8; }

}  // namespace npurun::kernels::neon

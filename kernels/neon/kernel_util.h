// Small helpers shared by the NEON kernels: operand access and the refusal messages of `check`.
#pragma once

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

// The 8-bit quantized types (asymmetric unsigned / signed, symmetric signed).
inline bool eight_bit(DataType t) { return t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::QSymmS8; }

}  // namespace npurun::kernels::neon

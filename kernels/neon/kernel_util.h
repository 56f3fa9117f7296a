// Small helpers shared by the NEON kernels: operand access and the refusal messages of `check`.
#pragma once

#include <string>

#include "kernels/kernel.h"
#include "ir/graph.h"

namespace npurun::kernels::neon {

inline bool has_input(const Node& n, size_t i) { return i < n.inputs.size() && n.inputs[i] != kNoTensor; }
inline const TensorInfo& in_info(const Node& n, const Graph& g, size_t i) { return g.info(n.inputs.at(i)); }
inline const TensorInfo& out_info(const Node& n, const Graph& g, size_t i = 0) { return g.info(n.outputs.at(i)); }

template <class T> const T* in_ptr(const KernelArgs& a, size_t i) { return static_cast<const T*>(a.inputs[i]); }
template <class T> T* out_ptr(const KernelArgs& a, size_t i = 0) { return static_cast<T*>(a.outputs[i]); }

// "NEON: <what>" so a placement/profile table shows which backend refused and why.
inline std::string refuse(const std::string& why) { return "NEON: " + why; }

}  // namespace npurun::kernels::neon

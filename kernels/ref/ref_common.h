// Helpers shared by the reference kernels: data-type checks for `check`, tensor indexing.
#pragma once

#include <string>

#include "kernels/kernel.h"
#include "runtime/graph/graph.h"

namespace npurun::kernels::ref {

inline bool is_numeric(DataType t) { return is_float(t) || is_quantized(t); }

// "" when every present input and every output is a float or quantized type; otherwise the reason.
std::string check_numeric_io(const Node& node, const Graph& graph);

inline const TensorInfo& in_info(const KernelArgs& a, size_t i) { return a.graph.info(a.node.inputs[i]); }
inline const TensorInfo& out_info(const KernelArgs& a, size_t i) { return a.graph.info(a.node.outputs[i]); }

// Row-major strides of a shape (in elements).
struct Strides {
    size_t s[kMaxRank] = {};
    explicit Strides(const Shape& shape) {
        size_t acc = 1;
        for (uint32_t d = shape.rank; d-- > 0;) {
            s[d] = acc;
            acc *= shape[d];
        }
    }
    size_t operator[](uint32_t d) const { return s[d]; }
};

// Flat index of a 4-D image tensor element in NHWC or NCHW.
struct ImageIndexer {
    uint32_t n = 0, h = 0, w = 0, c = 0;
    bool nchw = false;

    ImageIndexer(const Shape& s, DataLayout layout) : nchw(layout == DataLayout::NCHW) {
        n = s[0];
        if (nchw) { c = s[1]; h = s[2]; w = s[3]; }
        else { h = s[1]; w = s[2]; c = s[3]; }
    }
    size_t operator()(uint32_t bn, uint32_t ch, uint32_t y, uint32_t x) const {
        if (nchw) return ((size_t(bn) * c + ch) * h + y) * w + x;
        return ((size_t(bn) * h + y) * w + x) * c + ch;
    }
};

}  // namespace npurun::kernels::ref

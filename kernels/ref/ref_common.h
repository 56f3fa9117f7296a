// Helpers shared by the reference kernels: data-type checks for `check`, tensor indexing.
#pragma once

#include <initializer_list>
#include <string>

#include "kernels/kernel.h"
#include "kernels/ref/element_access.h"

namespace npurun::kernels::ref {

inline bool is_numeric(DataType t) { return is_float(t) || is_quantized(t); }

// "" when t is a float or quantized type or one of `also`; otherwise "<t><what>" (what: " input not
// supported", ...), the reason a `check` gives for one operand.
std::string accept_numeric_or(DataType t, std::initializer_list<DataType> also, const char* what);

// "" when every present input and every output is a float or quantized type; otherwise the reason.
std::string check_numeric_io(const KernelNode& node);

// `check` of the layers with weights and an optional bias run by the integer pipeline (Convolution2d,
// DepthwiseConvolution2d, FullyConnected): input, weights and output all float or all quantized, one
// output scale, and a bias of the input's float type or Signed32.
std::string check_weighted_operands(const KernelNode& node);

inline const TensorInfo& in_info(const KernelArgs& a, size_t i) { return a.node.in(i); }
inline const TensorInfo& out_info(const KernelArgs& a, size_t i) { return a.node.out(i); }

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

// f(index, flat) for every element of `shape` in row-major order; index is a uint32_t[kMaxRank].
template <class F> void for_each_index(const Shape& shape, F&& f) {
    const size_t count = shape.num_elements();
    uint32_t idx[kMaxRank] = {};
    for (size_t flat = 0; flat < count; ++flat) {
        f(static_cast<const uint32_t*>(idx), flat);
        for (uint32_t d = shape.rank; d-- > 0;) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
}

// f(flat, offset) for every element of `shape` in row-major order, where offset = base + sum index[d] *
// stride[d] is kept up to date incrementally (a view or a permutation walked without recomputing it).
template <class F> void for_each_strided(const Shape& shape, const size_t* stride, size_t base, F&& f) {
    const size_t count = shape.num_elements();
    uint32_t idx[kMaxRank] = {};
    size_t off = base;
    for (size_t flat = 0; flat < count; ++flat) {
        f(flat, off);
        for (uint32_t d = shape.rank; d-- > 0;) {
            ++idx[d];
            off += stride[d];
            if (idx[d] < shape[d]) break;
            off -= stride[d] * idx[d];
            idx[d] = 0;
        }
    }
}

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

// Input 0 read and output 0 written as real values, both indexed as images of one layout (the
// normalization layers, whose output has the input's shape).
struct ImageInOut {
    const TensorInfo& info;  // the input's
    ImageIndexer ix;
    Reader x;
    Writer y;
    ImageInOut(const KernelArgs& a, DataLayout layout)
        : info(in_info(a, 0)), ix(info.shape, layout), x(info, a.inputs[0]), y(out_info(a, 0), a.outputs[0]) {}
};

// Copies single elements from one tensor to another of the same element type: raw bytes when the
// quantization is identical (data movement is exact), otherwise through float (a requantization, as
// CpuRef's Decoder/Encoder pair does it).
class ElementCopier {
public:
    ElementCopier(const TensorInfo& in, const void* src, const TensorInfo& out, void* dst)
        : src_(static_cast<const uint8_t*>(src)), dst_(static_cast<uint8_t*>(dst)), size_(element_size(in.dtype)),
          raw_(in.dtype == out.dtype && (!is_quantized(in.dtype) || (in.quant.scales == out.quant.scales &&
                                                                     in.quant.offset == out.quant.offset))),
          reader_(in, src), writer_(out, dst) {}
    void copy(size_t to, size_t from) const {
        if (raw_) {
            for (size_t b = 0; b < size_; ++b) dst_[to * size_ + b] = src_[from * size_ + b];
        } else {
            writer_.set(to, reader_[from]);
        }
    }
    // The output element `to` set to the real value 0 (the zero point for quantized outputs).
    void zero(size_t to) const { writer_.set(to, 0.0f); }

private:
    const uint8_t* src_;
    uint8_t* dst_;
    size_t size_;
    bool raw_;
    Reader reader_;
    Writer writer_;
};

// The operands of a layer that moves elements of input 0 into output 0 (slices, block rearrangements):
// both tensors, the input's row-major strides and the copier between them.
struct MovedElements {
    const TensorInfo& in;
    const TensorInfo& out;
    Strides in_strides;
    ElementCopier copy;
    explicit MovedElements(const KernelArgs& a)
        : in(in_info(a, 0)), out(out_info(a, 0)), in_strides(in.shape), copy(in, a.inputs[0], out, a.outputs[0]) {}
};
// Every output element copied from the input-0 element at flat index source(output multi-index): the whole of
// a kernel that only rearranges elements (Slice, ReverseV2, Tile).
template <class F> void copy_from_source(const KernelArgs& a, F&& source) {
    const ElementCopier copy(in_info(a, 0), a.inputs[0], out_info(a, 0), a.outputs[0]);
    for_each_index(out_info(a, 0).shape, [&](const uint32_t* idx, size_t flat) { copy.copy(flat, source(idx)); });
}

// "" for any element type (data-movement kernels copy elements).
// The reduced axes of a Reduce/Mean layer, as a mask over the input's dimensions (no axes = all of them).
struct ReducedAxes {
    bool reduced[kMaxRank] = {};
    ReducedAxes(const std::vector<uint32_t>& axes, uint32_t rank) {
        for (uint32_t d = 0; d < rank; ++d) reduced[d] = axes.empty();
        for (uint32_t ax : axes) reduced[ax] = true;
    }
    bool operator[](uint32_t d) const { return reduced[d]; }
};

inline std::string check_any(const KernelNode&) { return {}; }

// "" when input 0 and output 0 have the same element type (raw element moves), otherwise the reason.
std::string check_same_type(const KernelNode& node);

// check_numeric_io, then check_same_type (layers that keep the element type and compute on real values).
std::string check_numeric_same_type(const KernelNode& node);

}  // namespace npurun::kernels::ref

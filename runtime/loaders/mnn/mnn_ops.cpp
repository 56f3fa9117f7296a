// The MNN op dispatcher and the ops that are not convolutions: graph inputs and constants, layout
// conversion, data movement, element-wise ops, normalisation, and the load-time folding of shape
// computations (Shape / StridedSlice / Pack on values known at load time become constants).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.h"
#include "runtime/loaders/mnn/mnn_ops.h"
#include "core/checked_math.h"

namespace npurun::mnn {

namespace {

using T = MNN::OpType;


Layout layout_of(MNN::MNN_DATA_FORMAT f) { return f == MNN::MNN_DATA_FORMAT::NHWC ? Layout::NHWC : Layout::NCHW; }

// A value computed from input 0 with the same dtype and quantization.
TensorId value_like(Builder& b, TensorId x, const std::string& suffix = "") {
    const TensorInfo& xi = b.g.info(x);
    return b.new_value(b.base_name() + suffix, xi.dtype, xi.quant);
}

// A one-input layer whose output is a new value like the input (same type and quantization), bound to the
// op's output slot 0 with `layout`.
void emit_unary(Builder& b, const TensorState& xs, OpKind kind, OpAttrs attrs, Layout layout, bool channels_last = false) {
    const TensorId y = value_like(b, xs.id);
    b.emit(kind, std::move(attrs), {xs.id}, {y});
    b.produce(0, y, layout, {}, channels_last);
}

// Emits a Transpose (output dim i = input dim perm[i]) and returns its output.
TensorId transpose(Builder& b, TensorId x, std::vector<uint32_t> perm, const std::string& suffix) {
    const TensorId y = value_like(b, x, suffix);
    b.emit(OpKind::Transpose, PermuteAttrs{std::move(perm)}, {x}, {y}, suffix);
    return y;
}

TensorId reshape(Builder& b, TensorId x, const Shape& s, const std::string& suffix = "") {
    const TensorId y = value_like(b, x, suffix);
    ReshapeAttrs a;
    a.target = s;
    b.emit(OpKind::Reshape, a, {x}, {y}, suffix);
    return y;
}

// Int32 values of input k, which must be known at load time.
const std::vector<int32_t>& const_values(const Builder& b, size_t k, const char* what) {
    const TensorState& s = b.raw(k);
    if (!s.values) b.unsupported(std::string(what) + " (input " + std::to_string(k) + ") is computed at run time; npurun needs it at load time");
    return *s.values;
}

uint32_t axis_of(const Builder& b, int32_t axis, uint32_t rank) {
    const int64_t a = axis < 0 ? int64_t(axis) + rank : axis;
    if (a < 0 || a >= int64_t(rank)) b.bad("axis " + std::to_string(axis) + " is outside rank " + std::to_string(rank));
    return static_cast<uint32_t>(a);
}

Shape shape_from(const Builder& b, const std::vector<uint32_t>& d) {
    if (d.size() > kMaxRank) b.unsupported("rank " + std::to_string(d.size()) + " is above npurun's limit of " + std::to_string(kMaxRank));
    Shape s = Shape::from(d);
    (void)s.num_elements();  // throws on overflow
    return s;
}

// ---- graph inputs and constants ----

void map_input(Builder& b) {
    const auto* in = b.op->main_as_Input();
    if (!in) b.bad("has no Input parameters");
    const int32_t t = b.output_index(0);
    const std::string tname = b.net->tensorName()->Get(t)->str();
    std::vector<uint32_t> dims;
    const std::vector<uint32_t>* given = nullptr;
    for (const auto& [n, s] : b.options.input_shapes)
        if (n == tname || n == b.op_name) given = &s;
    if (in->dims()) {
        for (uint32_t i = 0; i < in->dims()->size(); ++i) {
            const int32_t d = in->dims()->Get(i);
            if (d > 0) {
                dims.push_back(static_cast<uint32_t>(d));
            } else if (d == 0 || d == -1) {
                dims.push_back(i == 0 ? 1u : 0u);  // an open batch is 1; other open dimensions need --input-shape
            } else {
                b.bad("dimension " + std::to_string(i) + " is " + std::to_string(d));
            }
        }
    }
    if (given) {
        if (!dims.empty() && given->size() != dims.size())
            fail(ErrorKind::BadInput, "--input-shape " + tname + ": the model's input has rank " + std::to_string(dims.size()) +
                                          ", the option gives " + std::to_string(given->size()) + " dimensions");
        for (size_t i = 0; i < dims.size(); ++i)
            if (in->dims()->Get(static_cast<uint32_t>(i)) > 0 && (*given)[i] != dims[i])
                fail(ErrorKind::BadInput, "--input-shape " + tname + ": dimension " + std::to_string(i) + " is fixed to " +
                                              std::to_string(dims[i]) + " by the model");
        dims = *given;
    }
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i] == 0)
            fail(ErrorKind::BadInput, b.describe() + ": dimension " + std::to_string(i) +
                                          " is open (-1 or 0 in the file); give it with --input-shape " + tname + "=1x3x224x224");
    TensorInfo info;
    switch (in->dtype()) {
        case MNN::DataType::DT_FLOAT: info.dtype = DataType::Float32; break;
        case MNN::DataType::DT_INT32: info.dtype = DataType::Signed32; break;
        default: b.unsupported(std::string("input data type ") + MNN::EnumNameDataType(in->dtype()) + " is not supported");
    }
    info.shape = shape_from(b, dims);
    Tensor tensor;
    tensor.name = tname;
    tensor.info = info;
    const TensorId id = b.g.add_tensor(std::move(tensor));
    Node n;
    n.op = OpKind::Input;
    n.name = tname;
    n.source_index = b.op_index;
    n.outputs = {id};
    n.attrs = BindingAttrs{static_cast<int32_t>(b.g.inputs.size())};
    b.g.nodes.push_back(std::move(n));
    Binding bd;
    bd.name = tname;
    bd.id = static_cast<int32_t>(b.g.inputs.size());
    bd.tensor = id;
    b.g.inputs.push_back(bd);
    b.produce(0, id, layout_of(in->dformat()));
}

void map_const(Builder& b) {
    const auto* blob = b.op->main_as_Blob();
    if (!blob) b.bad("has no Blob");
    if (blob->external() && blob->external()->size() > 0)
        b.unsupported("its data is in an external .weight file (newer MNN converter)");
    std::vector<uint32_t> dims;
    if (blob->dims())
        for (uint32_t i = 0; i < blob->dims()->size(); ++i) {
            const int32_t d = blob->dims()->Get(i);
            if (d < 0) b.bad("constant dimension " + std::to_string(i) + " is " + std::to_string(d));
            dims.push_back(static_cast<uint32_t>(d));
        }
    const Shape s = shape_from(b, dims);
    const size_t n = s.num_elements();
    TensorInfo info;
    info.shape = s;
    const void* bytes = nullptr;
    std::optional<std::vector<int32_t>> values;
    auto need = [&](size_t have, const char* field) {
        if (have != n) b.bad(std::string("Blob.") + field + " has " + std::to_string(have) + " values for shape " + s.str());
    };
    switch (blob->dataType()) {
        case MNN::DataType::DT_FLOAT:
            info.dtype = DataType::Float32;
            need(blob->float32s() ? blob->float32s()->size() : 0, "float32s");
            bytes = n ? blob->float32s()->data() : nullptr;
            break;
        case MNN::DataType::DT_INT32:
            info.dtype = DataType::Signed32;
            need(blob->int32s() ? blob->int32s()->size() : 0, "int32s");
            bytes = n ? blob->int32s()->data() : nullptr;
            if (n <= 4096) values = std::vector<int32_t>(blob->int32s()->begin(), blob->int32s()->end());
            break;
        default:
            b.unsupported(std::string("constant data type ") + MNN::EnumNameDataType(blob->dataType()) + " is not supported");
    }
    const TensorId id = b.new_constant(b.net->tensorName()->Get(b.output_index(0))->str(), info, bytes);
    b.produce(0, id, layout_of(blob->dataFormat()), std::move(values));
}

// ---- layout and data movement ----

void map_convert_tensor(Builder& b) {
    const auto* ci = b.op->main_as_TensorConvertInfo();
    if (!ci) b.bad("has no TensorConvertInfo");
    const TensorState xs = b.raw(0);
    const Layout to = layout_of(ci->dest());
    const uint32_t rank = b.g.info(xs.id).shape.rank;
    if (rank != 4 || to == xs.layout) {  // NC4HW4 <-> NCHW is only a storage change: same semantics
        b.produce(0, xs.id, to, xs.values, xs.channels_last);
        return;
    }
    // N,C,H,W <-> N,H,W,C. A channels-last tensor already holds N,H,W,C (and an NHWC tensor read as
    // NC4HW4 becomes a channels-last one): only a file-order tensor needs a Transpose.
    if (to == Layout::NHWC) {
        if (xs.channels_last) return b.produce(0, xs.id, Layout::NHWC);
        return b.produce(0, transpose(b, xs.id, {0, 2, 3, 1}, ""), Layout::NHWC);
    }
    b.produce(0, xs.id, Layout::NCHW, {}, /*channels_last=*/true);
}

void map_permute(Builder& b, bool from_input) {
    const TensorState raw = b.raw(0);
    std::vector<int32_t> dims;
    if (from_input) {
        dims = const_values(b, 1, "the permutation");
    } else {
        const auto* p = b.op->main_as_Permute();
        if (!p || !p->dims()) b.bad("has no Permute dims");
        dims.assign(p->dims()->begin(), p->dims()->end());
    }
    const uint32_t rank = b.g.info(raw.id).shape.rank;
    std::vector<uint32_t> perm;
    for (int32_t d : dims) perm.push_back(axis_of(b, d, std::max<uint32_t>(rank, 1)));
    if (raw.channels_last) {
        // Compose with the storage order: output dim i is file dim perm[i], held at IR position pos(perm[i]).
        std::vector<uint32_t> q;
        bool identity = true;
        for (uint32_t i = 0; i < perm.size(); ++i) {
            q.push_back(channels_last_position(perm[i]));
            identity = identity && q.back() == i;
        }
        if (identity) return b.produce(0, raw.id, raw.layout);
        return b.produce(0, transpose(b, raw.id, q, ""), raw.layout);
    }
    b.produce(0, transpose(b, raw.id, perm, ""), raw.layout);
}

// Reshape target from dims (or the second input): 0 copies the input dimension, -1 is inferred.
void map_reshape(Builder& b) {
    const auto* r = b.op->main_as_Reshape();
    const Layout want0 = r ? layout_of(r->dimType()) : Layout::NCHW;
    TensorState xs = want0 == Layout::NHWC && b.raw(0).channels_last ? b.raw(0) : b.in(0);
    std::vector<int32_t> dims;
    if (b.num_inputs() >= 2) {
        dims = const_values(b, 1, "the target shape");
    } else {
        if (!r || !r->dims()) b.bad("has neither Reshape dims nor a shape input");
        dims.assign(r->dims()->begin(), r->dims()->end());
    }
    const Layout want = r ? layout_of(r->dimType()) : Layout::NCHW;
    TensorId x = xs.id;
    if (want == Layout::NHWC && b.raw(0).channels_last)
        x = b.raw(0).id;  // already N,H,W,C
    else if (b.g.info(x).shape.rank == 4 && want != xs.layout)  // MNN reshapes in the order dimType names
        x = want == Layout::NHWC ? transpose(b, x, {0, 2, 3, 1}, "/to_nhwc") : transpose(b, x, {0, 3, 1, 2}, "/to_nchw");
    const Shape in = b.g.info(x).shape;
    std::vector<uint32_t> out(dims.size());
    int infer = -1;
    size_t known = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == -1) {
            if (infer >= 0) b.bad("target shape has more than one -1");
            infer = static_cast<int>(i);
            continue;
        }
        if (dims[i] == 0) {
            if (i >= in.rank) b.bad("target dimension " + std::to_string(i) + " is 0 (copy) beyond the input's rank");
            out[i] = in[static_cast<uint32_t>(i)];
        } else if (dims[i] < 0) {
            b.bad("target dimension " + std::to_string(i) + " is " + std::to_string(dims[i]));
        } else {
            out[i] = static_cast<uint32_t>(dims[i]);
        }
        if (!checked_mul<size_t>(known, out[i], &known)) b.bad("target shape overflows");
    }
    const size_t total = in.num_elements();
    if (infer >= 0) {
        if (known == 0 || total % known != 0) b.bad("cannot reshape " + in.str() + " to a shape with " + std::to_string(known) + " elements per -1");
        if (total / known > UINT32_MAX) b.bad("inferred dimension too large");
        out[infer] = static_cast<uint32_t>(total / known);
    }
    const Shape s = shape_from(b, out);
    std::optional<std::vector<int32_t>> values;
    if (xs.values && x == xs.id) values = xs.values;
    if (xs.values && b.g.tensor(x).is_constant()) {
        TensorInfo info = b.g.info(x);
        info.shape = s;
        if (info.num_bytes() != b.g.info(x).num_bytes()) b.bad("cannot reshape " + in.str() + " to " + s.str());
        b.produce(0, b.new_constant(b.base_name(), info, b.g.tensor(x).data), want, values);
        return;
    }
    b.produce(0, reshape(b, x, s), want);
}

void map_squeeze_like(Builder& b) {
    const T type = b.op->type();
    const TensorState& xs = b.in(0);
    const Shape in = b.g.info(xs.id).shape;
    std::vector<uint32_t> out;
    if (type == T::Squeeze) {
        const auto* p = b.op->main_as_SqueezeParam();
        std::vector<bool> drop(in.rank, false);
        if (p && p->squeezeDims() && p->squeezeDims()->size() > 0) {
            for (int32_t d : *p->squeezeDims()) {
                const uint32_t a = axis_of(b, d, in.rank);
                if (in[a] != 1) b.bad("squeezes dimension " + std::to_string(a) + " of " + in.str() + ", which is not 1");
                drop[a] = true;
            }
        } else {
            for (uint32_t d = 0; d < in.rank; ++d) drop[d] = in[d] == 1;
        }
        for (uint32_t d = 0; d < in.rank; ++d)
            if (!drop[d]) out.push_back(in[d]);
    } else if (type == T::Flatten) {
        const auto* f = b.op->main_as_Flatten();
        const uint32_t axis = axis_of(b, f ? f->axis() : 1, std::max<uint32_t>(in.rank, 1));
        const uint32_t end = f && f->endAxis() != 0 ? axis_of(b, f->endAxis(), in.rank) : in.rank - 1;
        for (uint32_t d = 0; d < axis; ++d) out.push_back(in[d]);
        size_t m = 1;
        for (uint32_t d = axis; d <= end && d < in.rank; ++d) m *= in[d];
        out.push_back(static_cast<uint32_t>(m));
        for (uint32_t d = end + 1; d < in.rank; ++d) out.push_back(in[d]);
    } else {  // ExpandDims / Unsqueeze: one new axis of size 1
        int32_t axis = 0;
        if (const auto* e = b.op->main_as_ExpandDims()) axis = e->axis();
        else if (b.num_inputs() >= 2) axis = const_values(b, 1, "the axis").at(0);
        else if (const auto* s = b.op->main_as_SqueezeParam(); s && s->squeezeDims() && s->squeezeDims()->size() == 1)
            axis = s->squeezeDims()->Get(0);
        const uint32_t a = axis_of(b, axis, in.rank + 1);
        out = in.to_vector();
        out.insert(out.begin() + a, 1u);
    }
    const Shape s = shape_from(b, out);
    if (xs.values) {
        TensorInfo info = b.g.info(xs.id);
        info.shape = s;
        b.produce(0, b.new_constant(b.base_name(), info, b.g.tensor(xs.id).data), xs.layout, xs.values);
        return;
    }
    b.produce(0, reshape(b, xs.id, s), s.rank == 4 ? xs.layout : Layout::NCHW);
}

void map_concat(Builder& b) {
    const auto* ax = b.op->main_as_Axis();
    if (b.num_inputs() == 0) b.bad("has no inputs");
    bool all_cl = true;
    for (size_t k = 0; k < b.num_inputs(); ++k) all_cl = all_cl && b.raw(k).channels_last;
    if (all_cl) {  // concatenate the channels-last tensors directly (a channel concat stays on the NPU)
        const uint32_t axis = channels_last_position(axis_of(b, ax ? ax->axis() : 0, 4));
        ConcatAttrs a;
        a.axis = axis;
        std::vector<TensorId> ins;
        uint32_t offset = 0;
        for (size_t k = 0; k < b.num_inputs(); ++k) {
            const TensorInfo x = b.g.info(b.raw(k).id);
            std::vector<uint32_t> origin(4, 0);
            origin[axis] = offset;
            if (!checked_add(offset, x.shape[axis], &offset)) b.bad("concatenated size overflows");
            a.view_origins.push_back(origin);
            ins.push_back(b.raw(k).id);
        }
        const TensorId y = value_like(b, ins[0]);
        b.emit(OpKind::Concat, a, ins, {y});
        return b.produce(0, y, Layout::NCHW, {}, true);
    }
    const uint32_t rank = b.in_info(0).shape.rank;
    const uint32_t axis = axis_of(b, ax ? ax->axis() : 0, std::max<uint32_t>(rank, 1));
    ConcatAttrs a;
    a.axis = axis;
    std::vector<TensorId> ins;
    uint32_t offset = 0;
    for (size_t k = 0; k < b.num_inputs(); ++k) {
        const TensorInfo x = b.in_info(k);
        if (x.shape.rank != rank) b.bad("input " + std::to_string(k) + " has rank " + std::to_string(x.shape.rank) + ", input 0 has " + std::to_string(rank));
        std::vector<uint32_t> origin(rank, 0);
        origin[axis] = offset;
        if (!checked_add(offset, x.shape[axis], &offset)) b.bad("concatenated size overflows");
        a.view_origins.push_back(origin);
        ins.push_back(b.in_id(k));
    }
    const TensorId y = value_like(b, ins[0]);
    b.emit(OpKind::Concat, a, ins, {y});
    b.produce(0, y, b.in(0).layout);
}

void map_slice(Builder& b) {
    const auto* sl = b.op->main_as_Slice();
    if (!sl) b.bad("has no Slice parameters");
    const TensorState& xs = b.in(0);
    const Shape in = b.g.info(xs.id).shape;
    const uint32_t axis = axis_of(b, sl->axis(), std::max<uint32_t>(in.rank, 1));
    const size_t n_out = b.num_outputs();
    std::vector<uint32_t> points;
    if (sl->slicePoints() && sl->slicePoints()->size() > 0) {
        for (int32_t p : *sl->slicePoints()) {
            if (p <= 0 || uint32_t(p) >= in[axis] || (!points.empty() && uint32_t(p) <= points.back())) b.bad("slice point " + std::to_string(p) + " is out of order or range");
            points.push_back(uint32_t(p));
        }
    } else {
        if (in[axis] % n_out != 0) b.bad("cannot split " + std::to_string(in[axis]) + " evenly into " + std::to_string(n_out));
        for (size_t k = 1; k < n_out; ++k) points.push_back(uint32_t(k * (in[axis] / n_out)));
    }
    if (points.size() + 1 != n_out) b.bad(std::to_string(points.size()) + " slice points for " + std::to_string(n_out) + " outputs");
    SplitterAttrs a;
    std::vector<TensorId> outs;
    uint32_t start = 0;
    for (size_t k = 0; k < n_out; ++k) {
        const uint32_t end = k + 1 < n_out ? points[k] : in[axis];
        std::vector<uint32_t> origin(in.rank, 0), size = in.to_vector();
        origin[axis] = start;
        size[axis] = end - start;
        a.view_origins.push_back(origin);
        a.view_sizes.push_back(size);
        outs.push_back(value_like(b, xs.id, ":" + std::to_string(k)));
        start = end;
    }
    b.emit(OpKind::Splitter, a, {xs.id}, outs);
    for (size_t k = 0; k < n_out; ++k) b.produce(k, outs[k], xs.layout);
}

// Shape of a tensor: known at load time, so a constant.
void map_shape(Builder& b) {
    const TensorState& xs = b.in(0);
    const Shape s = b.g.info(xs.id).shape;
    std::vector<int32_t> v;
    for (uint32_t d = 0; d < s.rank; ++d) v.push_back(static_cast<int32_t>(s[d]));
    b.produce(0, b.new_int32_constant(b.base_name(), v), Layout::NCHW, v);
}

// StridedSlice on a 1-D int32 value known at load time (the shape arithmetic of TF graphs) folds; on a
// run-time tensor it is the IR's StridedSlice.
void map_strided_slice(Builder& b) {
    const auto* p = b.op->main_as_StridedSliceParam();
    const TensorState& xs = b.in(0);
    const std::vector<int32_t> begin = const_values(b, 1, "begin");
    const std::vector<int32_t> end = const_values(b, 2, "end");
    const std::vector<int32_t> stride = b.num_inputs() >= 4 ? const_values(b, 3, "strides") : std::vector<int32_t>(begin.size(), 1);
    if (begin.size() != end.size() || begin.size() != stride.size()) b.bad("begin, end and strides differ in length");
    StridedSliceAttrs a;
    a.begin = begin, a.end = end, a.stride = stride;
    if (p) {
        a.begin_mask = p->beginMask(), a.end_mask = p->endMask(), a.shrink_axis_mask = p->shrinkAxisMask();
        a.ellipsis_mask = p->ellipsisMask(), a.new_axis_mask = p->newAxisMask();
    }
    a.layout = xs.layout == Layout::NHWC ? DataLayout::NHWC : DataLayout::NCHW;
    if (xs.values && b.g.info(xs.id).shape.rank == 1 && begin.size() == 1 && !a.ellipsis_mask && !a.new_axis_mask) {
        const int32_t n = static_cast<int32_t>(xs.values->size());
        const int32_t st = stride[0];
        if (st == 0) b.bad("stride is 0");
        auto clampi = [&](int64_t v, int64_t lo, int64_t hi) { return std::max(lo, std::min(hi, v)); };
        int64_t s0 = begin[0] < 0 ? int64_t(begin[0]) + n : begin[0];
        int64_t e0 = end[0] < 0 ? int64_t(end[0]) + n : end[0];
        if (a.begin_mask & 1) s0 = st > 0 ? 0 : n - 1;
        if (a.end_mask & 1) e0 = st > 0 ? n : -1;
        s0 = st > 0 ? clampi(s0, 0, n) : clampi(s0, -1, n - 1);
        e0 = st > 0 ? clampi(e0, 0, n) : clampi(e0, -1, n - 1);
        if (a.shrink_axis_mask & 1) e0 = s0 + (st > 0 ? 1 : -1);
        std::vector<int32_t> v;
        for (int64_t i = s0; st > 0 ? i < e0 : i > e0; i += st)
            if (i >= 0 && i < n) v.push_back((*xs.values)[static_cast<size_t>(i)]);
        if (a.shrink_axis_mask & 1) {
            if (v.size() != 1) b.bad("shrinks an empty slice");
            TensorInfo info;
            info.dtype = DataType::Signed32;
            b.produce(0, b.new_constant(b.base_name(), info, v.data()), Layout::NCHW, v);
        } else {
            b.produce(0, b.new_int32_constant(b.base_name(), v), Layout::NCHW, v);
        }
        return;
    }
    emit_unary(b, xs, OpKind::StridedSlice, a, xs.layout);
}

// Pack of scalars / vectors known at load time folds (shape arithmetic); otherwise the IR's Stack.
void map_pack(Builder& b) {
    const auto* p = b.op->main_as_PackParam();
    const int32_t axis = p ? p->axis() : 0;
    bool all_known = true;
    for (size_t k = 0; k < b.num_inputs(); ++k) all_known = all_known && b.in(k).values && b.in_info(k).shape.rank == 0;
    if (all_known && b.num_inputs() > 0 && (axis == 0 || axis == -1)) {
        std::vector<int32_t> v;
        for (size_t k = 0; k < b.num_inputs(); ++k) v.push_back(b.in(k).values->at(0));
        b.produce(0, b.new_int32_constant(b.base_name(), v), Layout::NCHW, v);
        return;
    }
    if (b.num_inputs() == 0) b.bad("has no inputs");
    const TensorInfo x0 = b.in_info(0);
    StackAttrs a;
    a.axis = axis_of(b, axis, x0.shape.rank + 1);
    a.num_inputs = static_cast<uint32_t>(b.num_inputs());
    a.input_shape = x0.shape;
    std::vector<TensorId> ins;
    for (size_t k = 0; k < b.num_inputs(); ++k) ins.push_back(b.in_id(k));
    const TensorId y = value_like(b, ins[0]);
    b.emit(OpKind::Stack, a, ins, {y});
    b.produce(0, y, Layout::NCHW);
}

// ---- element-wise ----

void map_eltwise(Builder& b) {
    const auto* e = b.op->main_as_Eltwise();
    if (!e) b.bad("has no Eltwise parameters");
    if (e->coeff())
        for (float c : *e->coeff())
            if (c != 1.0f) b.unsupported("weighted Eltwise (coeff " + std::to_string(c) + ") is not supported (MNN's CPU backend refuses it too)");
    BinaryOp op = BinaryOp::Add;
    switch (e->type()) {
        case MNN::EltwiseType::PROD: op = BinaryOp::Mul; break;
        case MNN::EltwiseType::SUM: op = BinaryOp::Add; break;
        case MNN::EltwiseType::MAXIMUM: op = BinaryOp::Maximum; break;
        case MNN::EltwiseType::SUB: op = BinaryOp::Sub; break;
        default: b.bad("unknown Eltwise type " + std::to_string(static_cast<int>(e->type())));
    }
    if (b.num_inputs() < 2) b.bad("needs at least 2 inputs");
    bool all_cl = true;
    for (size_t k = 0; k < b.num_inputs(); ++k)
        all_cl = all_cl && b.raw(k).channels_last && b.g.info(b.raw(k).id).shape == b.g.info(b.raw(0).id).shape;
    auto operand = [&](size_t k) { return all_cl ? b.raw(k).id : b.in_id(k); };
    TensorId acc = operand(0);
    for (size_t k = 1; k < b.num_inputs(); ++k) {
        const TensorId rhs = operand(k);
        const TensorId y = value_like(b, acc, k + 1 < b.num_inputs() ? ":" + std::to_string(k) : "");
        b.emit(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{op}, {acc, rhs}, {y},
               k + 1 < b.num_inputs() ? "/" + std::to_string(k) : "");
        acc = y;
    }
    b.produce(0, acc, b.raw(0).layout, {}, all_cl);
}

void map_binary(Builder& b) {
    const auto* p = b.op->main_as_BinaryOp();
    const int32_t t = p ? p->opType() : 0;
    BinaryOp op;
    switch (t) {
        case 0: op = BinaryOp::Add; break;
        case 1: op = BinaryOp::Sub; break;
        case 2: op = BinaryOp::Mul; break;
        case 3: case 7: op = BinaryOp::Div; break;
        case 4: case 9: op = BinaryOp::Maximum; break;
        case 5: case 8: op = BinaryOp::Minimum; break;
        default: {
            const char* n = MNN::EnumNameBinaryOpOperation(static_cast<MNN::BinaryOpOperation>(t));
            b.unsupported(std::string("BinaryOp ") + (n && *n ? n : std::to_string(t).c_str()) + " is not supported");
        }
    }
    if (b.num_inputs() != 2) b.bad("needs 2 inputs");
    const bool both_cl = b.raw(0).channels_last && b.raw(1).channels_last &&
                         b.g.info(b.raw(0).id).shape == b.g.info(b.raw(1).id).shape;
    const TensorState x0 = both_cl ? b.raw(0) : b.in(0);
    const TensorState x1 = both_cl ? b.raw(1) : b.in(1);
    // A 4-D NCHW operand with a 1-D per-channel constant broadcasts over C in MNN; in NumPy terms that is [C,1,1].
    TensorId a = x0.id, c = x1.id;
    auto per_channel = [&](TensorId big, const TensorState& small) {
        const Shape& bs = b.g.info(big).shape;
        const Shape& ss = b.g.info(small.id).shape;
        if (bs.rank == 4 && ss.rank == 1 && ss[0] == bs[1] && bs[1] != bs[3] && b.g.tensor(small.id).is_constant())
            return reshape(b, small.id, Shape{ss[0], 1, 1}, "/per_channel");
        return small.id;
    };
    if (!both_cl && x0.layout == Layout::NCHW) c = per_channel(x0.id, x1);
    if (!both_cl && x1.layout == Layout::NCHW) a = per_channel(x1.id, x0);
    const TensorId y = value_like(b, a);
    b.emit(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{op}, {a, c}, {y});
    TensorId out = y;
    if (p && p->activationType() == 1) {
        out = value_like(b, y, ":relu");
        ActivationAttrs r;
        r.function = ActivationFunction::ReLu;
        b.emit(OpKind::Activation, r, {y}, {out}, "/relu");
    }
    b.produce(0, out, b.g.info(x0.id).shape.rank >= b.g.info(x1.id).shape.rank ? x0.layout : x1.layout, {}, both_cl);
}

// The attributes of activation f with parameters a and b (their meaning per function: ir/ops.h).
ActivationAttrs activation(ActivationFunction f, float a = 0.0f, float b = 0.0f) {
    ActivationAttrs attrs;
    attrs.function = f, attrs.a = a, attrs.b = b;
    return attrs;
}

void map_activation(Builder& b, ActivationAttrs a) {
    const TensorState xs = b.raw(0);  // element-wise: any storage order
    emit_unary(b, xs, OpKind::Activation, a, xs.layout, xs.channels_last);
}

void map_unary(Builder& b) {
    const auto* u = b.op->main_as_UnaryOp();
    const int32_t t = u ? u->opType() : 0;
    ActivationAttrs act;
    switch (t) {
        case 29: act.function = ActivationFunction::Sigmoid; return map_activation(b, act);
        case 30: act.function = ActivationFunction::TanH, act.a = 1.0f, act.b = 1.0f; return map_activation(b, act);
        case 31: act.function = ActivationFunction::HardSwish; return map_activation(b, act);
        case 4: act.function = ActivationFunction::Square; return map_activation(b, act);
        default: break;
    }
    UnaryOp op;
    switch (t) {
        case 0: op = UnaryOp::Abs; break;
        case 1: op = UnaryOp::Neg; break;
        case 5: op = UnaryOp::Sqrt; break;
        case 6: op = UnaryOp::Rsqrt; break;
        case 7: op = UnaryOp::Exp; break;
        case 8: op = UnaryOp::Log; break;
        case 9: op = UnaryOp::Sin; break;
        default: {
            const char* n = MNN::EnumNameUnaryOpOperation(static_cast<MNN::UnaryOpOperation>(t));
            b.unsupported(std::string("UnaryOp ") + (n && *n ? n : std::to_string(t).c_str()) + " is not supported");
        }
    }
    const TensorState xs = b.raw(0);
    emit_unary(b, xs, OpKind::ElementwiseUnary, ElementwiseUnaryAttrs{op}, xs.layout, xs.channels_last);
}

std::vector<float> floats(const flatbuffers::Vector<float>* v) {
    return v ? std::vector<float>(v->begin(), v->end()) : std::vector<float>();
}

// y = (x - mean) / sqrt(var + eps) * gamma + beta over the channels of an NCHW tensor.
void batch_norm(Builder& b, std::vector<float> mean, std::vector<float> var, std::vector<float> beta,
                std::vector<float> gamma, float eps) {
    const TensorId xid = b.in_channels_last(0);
    const TensorInfo x = b.g.info(xid);
    const uint32_t c = x.shape[3];
    for (auto* v : {&mean, &var, &beta, &gamma})
        if (v->size() != c) b.bad("has " + std::to_string(v->size()) + " per-channel values for " + std::to_string(c) + " channels");
    const std::string n = b.base_name();
    BatchNormalizationAttrs a;
    a.eps = eps;
    a.layout = DataLayout::NHWC;
    const TensorId y = value_like(b, xid);
    b.emit(OpKind::BatchNormalization, a,
           {xid, b.new_float_constant(n + ":mean", Shape{c}, mean), b.new_float_constant(n + ":variance", Shape{c}, var),
            b.new_float_constant(n + ":beta", Shape{c}, beta), b.new_float_constant(n + ":gamma", Shape{c}, gamma)},
           {y});
    b.produce(0, y, Layout::NCHW, {}, true);
}

void map_scale(Builder& b) {
    const auto* s = b.op->main_as_Scale();
    if (!s) b.bad("has no Scale parameters");
    if (s->external() && s->external()->size() > 0) b.unsupported("its data is in an external .weight file");
    const TensorInfo x = b.g.info(b.raw(0).id);
    const uint32_t c = x.shape.rank == 4 ? x.shape[b.raw(0).channels_last ? 3 : 1] : 0;
    std::vector<float> scale = floats(s->scaleData()), bias = floats(s->biasData());
    if (b.weights_stripped && scale.empty()) {
        if (c > (1u << 24)) b.unsupported("zero data for a stripped Scale of " + std::to_string(c) + " channels is above npurun's limit");
        scale.assign(c, 0.0f);
    }
    if (bias.empty()) bias.assign(scale.size(), 0.0f);
    // mean 0, variance 1, eps 0 make BatchNormalization exactly x * scale + bias
    batch_norm(b, std::vector<float>(scale.size(), 0.0f), std::vector<float>(scale.size(), 1.0f), bias, scale, 0.0f);
}

void map_mnn_batch_norm(Builder& b) {
    const auto* n = b.op->main_as_BatchNorm();
    if (!n) b.bad("has no BatchNorm parameters");
    if (n->Adata() && n->Adata()->size() > 0 && (!n->meanData() || n->meanData()->size() == 0))
        b.unsupported("BatchNorm stored as Adata/Bdata is not supported");
    batch_norm(b, floats(n->meanData()), floats(n->varData()), floats(n->biasData()), floats(n->slopeData()), n->epsilon());
}

void map_prelu(Builder& b) {
    const auto* p = b.op->main_as_PRelu();
    if (!p || !p->slope() || p->slope()->size() == 0) b.bad("has no slopes");
    const TensorState& xs = b.in(0);
    const TensorInfo x = b.g.info(xs.id);
    const std::vector<float> s = floats(p->slope());
    Shape shape = Shape{1};
    if (s.size() > 1) {
        if (x.shape.rank != 4 || x.shape[1] != s.size()) b.bad(std::to_string(s.size()) + " slopes for input " + x.shape.str());
        shape = Shape{static_cast<uint32_t>(s.size()), 1, 1};
    }
    const TensorId y = value_like(b, xs.id);
    b.emit(OpKind::Prelu, std::monostate{}, {xs.id, b.new_float_constant(b.base_name() + ":alpha", shape, s)}, {y});
    b.produce(0, y, xs.layout);
}

void map_softmax(Builder& b) {
    const auto* ax = b.op->main_as_Axis();
    const TensorState& xs = b.in(0);
    SoftmaxAttrs a;
    a.beta = 1.0f;
    a.axis = static_cast<int32_t>(axis_of(b, ax ? ax->axis() : 1, std::max<uint32_t>(b.g.info(xs.id).shape.rank, 1)));
    emit_unary(b, xs, OpKind::Softmax, a, xs.layout);
}

void map_argmax(Builder& b) {
    const auto* p = b.op->main_as_ArgMax();
    if (p && (p->topK() > 1 || p->outMaxVal() != 0)) b.unsupported("ArgMax with topK > 1 or outMaxVal is not supported");
    const TensorState& xs = b.in(0);
    ArgMinMaxAttrs a;
    a.is_max = b.op->type() != T::ArgMin;
    a.axis = static_cast<int32_t>(axis_of(b, p ? p->axis() : 0, std::max<uint32_t>(b.g.info(xs.id).shape.rank, 1)));
    const TensorId y = b.new_value(b.base_name(), DataType::Signed32);
    b.emit(OpKind::ArgMinMax, a, {xs.id}, {y});
    b.produce(0, y, Layout::NCHW);
}

void map_reduction(Builder& b) {
    const auto* p = b.op->main_as_ReductionParam();
    if (!p) b.bad("has no ReductionParam");
    ReduceAttrs a;
    switch (p->operation()) {
        case MNN::ReductionType::SUM: a.op = ReduceAttrs::Op::Sum; break;
        case MNN::ReductionType::MEAN: a.op = ReduceAttrs::Op::Mean; break;
        case MNN::ReductionType::MAXIMUM: a.op = ReduceAttrs::Op::Max; break;
        case MNN::ReductionType::MINIMUM: a.op = ReduceAttrs::Op::Min; break;
        case MNN::ReductionType::PROD: a.op = ReduceAttrs::Op::Prod; break;
        default: b.unsupported(std::string("reduction ") + MNN::EnumNameReductionType(p->operation()) + " is not supported");
    }
    const TensorState& xs = b.in(0);
    const uint32_t rank = b.g.info(xs.id).shape.rank;
    std::vector<int32_t> dims;
    if (p->dim() && p->dim()->size() > 0) dims.assign(p->dim()->begin(), p->dim()->end());
    else if (b.num_inputs() >= 2) dims = const_values(b, 1, "the reduced axes");
    for (int32_t d : dims) a.axes.push_back(axis_of(b, d, std::max<uint32_t>(rank, 1)));
    std::sort(a.axes.begin(), a.axes.end());
    a.axes.erase(std::unique(a.axes.begin(), a.axes.end()), a.axes.end());
    a.keep_dims = p->keepDims();
    emit_unary(b, xs, OpKind::Reduce, a, a.keep_dims ? xs.layout : Layout::NCHW);
}

// Input 0 of the image layers that run in MNN's NC4HW4 (NCHW here) layout only; refused otherwise.
TensorState nchw_image_input(Builder& b) {
    TensorState xs = b.in(0);
    if (b.g.info(xs.id).shape.rank != 4 || xs.layout != Layout::NCHW) b.unsupported("needs a 4-D NC4HW4/NCHW input");
    return xs;
}

void map_interp(Builder& b) {
    const TensorState xs = nchw_image_input(b);
    const TensorInfo x = b.g.info(xs.id);
    ResizeAttrs a;
    a.layout = DataLayout::NCHW;
    uint32_t oh = 0, ow = 0;
    int32_t type = 1;
    if (const auto* p = b.op->main_as_Interp()) {
        type = p->resizeType();
        oh = p->outputHeight() > 0 ? uint32_t(p->outputHeight()) : 0;
        ow = p->outputWidth() > 0 ? uint32_t(p->outputWidth()) : 0;
        if (!oh && p->heightScale() > 0) oh = static_cast<uint32_t>(std::floor(x.shape[2] * double(p->heightScale())));
        if (!ow && p->widthScale() > 0) ow = static_cast<uint32_t>(std::floor(x.shape[3] * double(p->widthScale())));
        a.align_corners = p->alignCorners() || p->ctm() == MNN::CoordinateTransformationMode::AlignCorners;
        a.half_pixel_centers = p->halfPixelCenters() || p->ctm() == MNN::CoordinateTransformationMode::HalfPixels ||
                               p->ctm() == MNN::CoordinateTransformationMode::PytorchHalfPixels;
        if (p->widthOffset() != 0.0f || p->heightOffset() != 0.0f) b.unsupported("Interp offsets are not supported");
    } else if (const auto* r = b.op->main_as_Resize()) {
        type = 2;
        oh = static_cast<uint32_t>(std::floor(x.shape[2] * double(r->yScale())));
        ow = static_cast<uint32_t>(std::floor(x.shape[3] * double(r->xScale())));
    } else {
        b.bad("has no Interp/Resize parameters");
    }
    if (b.num_inputs() >= 2 && (!oh || !ow)) {
        const auto& v = const_values(b, 1, "the output size");
        if (v.size() >= 2 && v[0] > 0 && v[1] > 0) oh = uint32_t(v[0]), ow = uint32_t(v[1]);
    }
    if (!oh || !ow || oh > 65536 || ow > 65536) b.bad("output size " + std::to_string(oh) + "x" + std::to_string(ow) + " is invalid");
    if (type == 1 || type == 4) a.method = ResizeMethod::NearestNeighbor;
    else if (type == 2) a.method = ResizeMethod::Bilinear;
    else b.unsupported("resize type " + std::to_string(type) + " (cubic) is not supported");
    if (type == 4) b.unsupported("nearest resize with rounding (resizeType 4) is not supported");
    if (a.align_corners && a.half_pixel_centers) a.half_pixel_centers = false;
    a.target_height = oh, a.target_width = ow;
    emit_unary(b, xs, OpKind::Resize, a, Layout::NCHW);
}

void map_lrn(Builder& b) {
    const auto* p = b.op->main_as_LRN();
    if (!p) b.bad("has no LRN parameters");
    const TensorState xs = nchw_image_input(b);
    NormalizationAttrs a;
    a.channel = p->regionType() == 0 ? NormChannel::Across : NormChannel::Within;
    a.method = NormMethod::LocalBrightness;
    a.norm_size = positive_size(b, p->localSize());
    a.alpha = p->alpha(), a.beta = p->beta(), a.k = p->bias();
    a.layout = DataLayout::NCHW;
    emit_unary(b, xs, OpKind::Normalization, a, Layout::NCHW);
}

void map_normalize(Builder& b) {
    const auto* p = b.op->main_as_Normalize();
    if (!p) b.bad("has no Normalize parameters");
    if (p->acrossSpatial()) b.unsupported("Normalize across spatial positions is not supported");
    const TensorState xs = nchw_image_input(b);
    const TensorInfo x = b.g.info(xs.id);
    L2NormalizationAttrs a;
    a.layout = DataLayout::NCHW;
    a.eps = p->eps();
    const TensorId y = value_like(b, xs.id, ":l2");
    b.emit(OpKind::L2Normalization, a, {xs.id}, {y}, "/l2");
    std::vector<float> s = floats(p->scale());
    if (s.empty()) s = {1.0f};
    const Shape shape = s.size() == 1 ? Shape{1} : Shape{static_cast<uint32_t>(s.size()), 1, 1};
    if (s.size() != 1 && s.size() != x.shape[1]) b.bad(std::to_string(s.size()) + " scales for " + std::to_string(x.shape[1]) + " channels");
    const TensorId z = value_like(b, xs.id);
    b.emit(OpKind::ElementwiseBinary, ElementwiseBinaryAttrs{BinaryOp::Mul},
           {y, b.new_float_constant(b.base_name() + ":scale", shape, s)}, {z});
    b.produce(0, z, Layout::NCHW);
}

void map_padding(Builder& b) {
    const TensorState& xs = b.in(0);
    const uint32_t rank = b.g.info(xs.id).shape.rank;
    const std::vector<int32_t>& v = const_values(b, 1, "the paddings");
    if (v.size() != size_t(rank) * 2) b.bad(std::to_string(v.size()) + " padding values for rank " + std::to_string(rank));
    PadAttrs a;
    for (uint32_t d = 0; d < rank; ++d) {
        if (v[2 * d] < 0 || v[2 * d + 1] < 0) b.unsupported("negative padding (cropping) is not supported");
        a.pads.emplace_back(uint32_t(v[2 * d]), uint32_t(v[2 * d + 1]));
    }
    if (const auto* p = b.op->main_as_PadParam()) {
        switch (p->mode()) {
            case MNN::PadValueMode::CONSTANT: a.mode = PaddingMode::Constant; break;
            case MNN::PadValueMode::REFLECT: a.mode = PaddingMode::Reflect; break;
            case MNN::PadValueMode::SYMMETRIC: a.mode = PaddingMode::Symmetric; break;
            default: b.unsupported("padding mode EDGE is not supported");
        }
    }
    emit_unary(b, xs, OpKind::Pad, a, xs.layout);
}

void map_cast(Builder& b) {
    const auto* p = b.op->main_as_CastParam();
    if (!p) b.bad("has no CastParam");
    DataType to;
    switch (p->dstT()) {
        case MNN::DataType::DT_FLOAT: to = DataType::Float32; break;
        case MNN::DataType::DT_INT32: to = DataType::Signed32; break;
        case MNN::DataType::DT_BOOL: to = DataType::Boolean; break;
        default: b.unsupported(std::string("cast to ") + MNN::EnumNameDataType(p->dstT()) + " is not supported");
    }
    const TensorState& xs = b.in(0);
    const TensorId y = b.new_value(b.base_name(), to);
    b.emit(OpKind::Cast, std::monostate{}, {xs.id}, {y});
    b.produce(0, y, xs.layout);
}

}  // namespace

uint32_t positive_size(const Builder& b, int32_t v) {
    if (v < 1 || v > 65536) b.bad("size " + std::to_string(v) + " is out of range");
    return static_cast<uint32_t>(v);
}

// ---- ops mapped in place (no family of their own) ----

namespace {

void map_dropout(Builder& b) {  // inference: the identity
    const TensorState xs = b.raw(0);
    b.produce(0, xs.id, xs.layout, xs.values, xs.channels_last);
}

void map_relu(Builder& b) {
    const auto* r = b.op->main_as_Relu();
    if (r && r->slope() != 0.0f) return map_activation(b, activation(ActivationFunction::LeakyReLu, r->slope()));
    map_activation(b, activation(ActivationFunction::ReLu));
}

void map_relu6(Builder& b) {
    const auto* r = b.op->main_as_Relu6();
    const ActivationAttrs a = activation(ActivationFunction::BoundedReLu, r ? r->maxValue() : 6.0f, r ? r->minValue() : 0.0f);
    if (!(a.a >= a.b)) b.bad("ReLU6 bounds are inverted");
    map_activation(b, a);
}

void map_elu(Builder& b) {
    const auto* e = b.op->main_as_ELU();
    map_activation(b, activation(ActivationFunction::Elu, e ? e->alpha() : 1.0f));
}

void map_sigmoid(Builder& b) { map_activation(b, activation(ActivationFunction::Sigmoid)); }
void map_tanh(Builder& b) { map_activation(b, activation(ActivationFunction::TanH, 1.0f, 1.0f)); }  // a*tanh(b*x)

void map_conv_float(Builder& b) { map_convolution(b, false); }
void map_conv_int8(Builder& b) { map_convolution(b, true); }
void map_permute_op(Builder& b) { map_permute(b, false); }
void map_transpose_op(Builder& b) { map_permute(b, true); }

using K = OpKind;

// One row per MNN op type the loader knows: how it is mapped and which IR operations it becomes (besides
// the layout Transposes and Reshapes any op may need at its inputs), or why it is refused. map_op
// dispatches through this table and `npurun --list-layers` prints it, so the list cannot drift from the
// code; map_op also checks, on every op it maps, that the nodes it added are of the kinds listed here.
const std::vector<MnnOpRow>& rows() {
    static const std::vector<MnnOpRow> table = {
        {{T::Input}, map_input, {K::Input}},
        {{T::Const}, map_const, {}},
        {{T::Convolution, T::ConvolutionDepthwise}, map_conv_float,
         {K::Convolution2d, K::DepthwiseConvolution2d, K::Activation}},
        {{T::ConvInt8, T::DepthwiseConvInt8}, map_conv_int8,
         {K::Convolution2d, K::DepthwiseConvolution2d, K::Activation}},
        {{T::FloatToInt8}, map_float_to_int8, {K::ElementwiseBinary, K::Quantize, K::Activation}},
        {{T::Int8ToFloat}, map_int8_to_float, {K::Dequantize}},
        {{T::Pooling}, map_pooling, {K::Pooling2d}},
        {{T::InnerProduct}, map_inner_product, {K::FullyConnected}},
        {{T::ConvertTensor}, map_convert_tensor, {K::Transpose}},
        {{T::Permute}, map_permute_op, {K::Transpose}},
        {{T::Transpose}, map_transpose_op, {K::Transpose}},
        {{T::Reshape}, map_reshape, {K::Reshape}},
        {{T::Squeeze, T::Unsqueeze, T::ExpandDims, T::Flatten}, map_squeeze_like, {K::Reshape}},
        {{T::Concat}, map_concat, {K::Concat}},
        {{T::Slice}, map_slice, {K::Splitter}},
        {{T::Shape}, map_shape, {}},
        {{T::StridedSlice}, map_strided_slice, {K::StridedSlice}},
        {{T::Pack}, map_pack, {K::Stack}},
        {{T::Eltwise}, map_eltwise, {K::ElementwiseBinary}},
        {{T::BinaryOp}, map_binary, {K::ElementwiseBinary, K::Activation}},
        {{T::UnaryOp}, map_unary, {K::ElementwiseUnary, K::Activation}},
        {{T::Softmax}, map_softmax, {K::Softmax}},
        {{T::ArgMax, T::ArgMin}, map_argmax, {K::ArgMinMax}},
        {{T::Reduction}, map_reduction, {K::Reduce}},
        {{T::Scale}, map_scale, {K::BatchNormalization}},
        {{T::BatchNorm}, map_mnn_batch_norm, {K::BatchNormalization}},
        {{T::PReLU}, map_prelu, {K::Prelu}},
        {{T::Interp, T::Resize}, map_interp, {K::Resize}},
        {{T::LRN}, map_lrn, {K::Normalization}},
        {{T::Normalize}, map_normalize, {K::L2Normalization, K::ElementwiseBinary}},
        {{T::Padding}, map_padding, {K::Pad}},
        {{T::Cast}, map_cast, {K::Cast}},
        {{T::Dropout}, map_dropout, {}},
        {{T::ReLU}, map_relu, {K::Activation}},
        {{T::ReLU6}, map_relu6, {K::Activation}},
        {{T::Sigmoid}, map_sigmoid, {K::Activation}},
        {{T::TanH}, map_tanh, {K::Activation}},
        {{T::ELU}, map_elu, {K::Activation}},
        {{T::PriorBox}, map_prior_box, {}},  // a constant computed at load
        {{T::DetectionOutput}, map_detection_output, {K::DetectionOutput}},
        {{T::ROIPooling}, map_roi_pooling, {K::RoiPooling}},
        {{T::Proposal}, nullptr, {},
         "Faster R-CNN proposals (anchor decoding and NMS) have no IR operation yet; cut the graph before it and run it on the host"},
        {{T::LSTM}, map_lstm, {K::UnidirectionalSequenceLstm}},
        {{T::Deconvolution, T::DeconvolutionDepthwise}, map_deconvolution, {K::TransposeConvolution2d, K::Activation}},
        {{T::EltwiseInt8}, map_eltwise_int8,
         {K::Dequantize, K::ElementwiseBinary, K::Quantize, K::Activation, K::Cast}},
        {{T::Extra, T::Plugin}, nullptr, {}, "custom ops (Extra/Plugin) cannot run outside MNN"},
    };
    return table;
}

// The layout moves any op may add in front of its inputs or at its outputs (Builder::in, file_order).
bool layout_move(OpKind k) { return k == OpKind::Transpose || k == OpKind::Reshape; }

}  // namespace

const std::vector<MnnOpRow>& mnn_op_table() { return rows(); }

const MnnOpRow* find_mnn_op(MNN::OpType type) {
    for (const MnnOpRow& r : rows())
        if (std::find(r.types.begin(), r.types.end(), type) != r.types.end()) return &r;
    return nullptr;
}

void map_op(Builder& b) {
    const T type = b.op->type();
    const MnnOpRow* row = find_mnn_op(type);
    if (!row) b.unsupported("op type " + std::to_string(static_cast<int32_t>(type)) + " is not supported");
    if (!row->map) b.unsupported(row->refusal);
    const size_t first = b.g.nodes.size();
    row->map(b);
    for (size_t i = first; i < b.g.nodes.size(); ++i) {
        const OpKind k = b.g.nodes[i].op;
        if (layout_move(k) || std::find(row->kinds.begin(), row->kinds.end(), k) != row->kinds.end()) continue;
        fail(ErrorKind::Internal, b.describe() + " became a " + to_string(k) +
                                      " node, which its row of the MNN op table (mnn_ops.cpp) does not list");
    }
}

}  // namespace npurun::mnn

// Indexing and data-movement layers of issue 3: BatchToSpaceNd, SpaceToBatchNd, DepthToSpace,
// SpaceToDepth, Slice, StridedSlice, Stack, Gather.
//
// Every case is built for every data type of index_types.h; the ones CpuRef 20.08 refuses stay in the
// index as skipped with its message (only the first parameter set of such a type is built, one skip
// is enough to document the refusal). Quantized tensors keep the input's quantization, as Arm NN
// requires for these layers.
#include <algorithm>
#include <climits>
#include <set>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/index_types.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::DataLayout;
using armnn::DataType;
using armnn::TensorShape;

constexpr float kLo = -3, kHi = 3;

armnn::TensorInfo io_info(const TypeVariant& v, const TensorShape& shape) { return ranged_info(v, shape, kLo, kHi); }

TensorShape shape_of(const std::vector<unsigned>& dims) {
    return TensorShape(static_cast<unsigned>(dims.size()), dims.data());
}

// A case of a data-movement layer: integer types compare exactly (see index_types.h).
CaseSpec movement_case(const std::string& name, const std::string& layer, const TypeVariant& v,
                       std::function<void(Net&)> build) {
    CaseSpec c = make_case(name, layer, v, std::move(build));
    if (v.type == DataType::Signed32 || v.type == DataType::Boolean) c = exact(std::move(c));
    return c;
}

// Data types CpuRef 20.08 refuses for a layer (found by generating all of them once; the skip reason
// in the index is CpuRef's own message). Only the first parameter set is built for these.
bool refused(const std::set<DataType>& refused_types, const TypeVariant& v, size_t param_index) {
    return param_index > 0 && refused_types.count(v.type) != 0;
}

// One case per data type and parameter set (only the first set for `refused_types`), named `prefix` + type
// tag + "_" + parameter tag and built by build(net, type, params).
template <class Params, class Build> void add_movement_cases(std::vector<CaseSpec>& out, const Params& params,
                                                             const std::set<DataType>& refused_types,
                                                             const char* prefix, const char* layer, Build build) {
    for (const TypeVariant& v : all_data_types())
        for (size_t i = 0; i < std::size(params); ++i) {
            if (refused(refused_types, v, i)) continue;
            const auto p = params[i];
            out.push_back(movement_case(std::string(prefix) + v.tag + "_" + p.tag, layer, v,
                                        [v, p, build](Net& net) { build(net, v, p); }));
        }
}

// ---- BatchToSpaceNd / SpaceToBatchNd --------------------------------------------------------------

using PadList = std::vector<std::pair<unsigned, unsigned>>;

struct BlockParams {
    const char* tag;
    DataLayout layout;
    unsigned n, h, w, c;  // the spatial tensor (BatchToSpaceNd output before crops, SpaceToBatchNd input)
    std::vector<unsigned> block;
    PadList pads;  // crops for BatchToSpaceNd, paddings for SpaceToBatchNd
};

const std::set<DataType> kBlockRefused = {DataType::Signed32, DataType::Boolean};

void add_batch_to_space(std::vector<CaseSpec>& out) {
    // Input [n*bh*bw, h, w, c]; output [n, h*bh - crops, w*bw - crops, c].
    const BlockParams params[] = {
        {"b2x2_nhwc", DataLayout::NHWC, 1, 2, 2, 1, {2, 2}, {{0, 0}, {0, 0}}},
        {"b2x2_crop_w_nhwc", DataLayout::NHWC, 2, 1, 3, 2, {2, 2}, {{0, 0}, {2, 0}}},
        {"b2x2_crops_nchw", DataLayout::NCHW, 1, 2, 2, 3, {2, 2}, {{1, 1}, {0, 1}}},
        {"b3x2_crop_top_nhwc", DataLayout::NHWC, 1, 2, 2, 3, {3, 2}, {{1, 0}, {0, 0}}},
        {"b1x2_nchw", DataLayout::NCHW, 2, 3, 2, 2, {1, 2}, {{0, 0}, {1, 0}}},
    };
    add_movement_cases(
        out, params, kBlockRefused, "batch_to_space_nd_", "BatchToSpaceNd",
        [](Net& net, const TypeVariant& v, const BlockParams& p) {
            const unsigned bh = p.block[0], bw = p.block[1];
            const TensorShape in_shape = image_shape(p.layout, p.n * bh * bw, p.h, p.w, p.c);
            const TensorShape out_shape = image_shape(p.layout, p.n, p.h * bh - p.pads[0].first - p.pads[0].second,
                                                      p.w * bw - p.pads[1].first - p.pads[1].second, p.c);
            armnn::BatchToSpaceNdDescriptor d(p.block, p.pads);
            d.m_DataLayout = p.layout;
            auto& in = net.input(io_info(v, in_shape));
            net.output(net.wire(net.net().AddBatchToSpaceNdLayer(d, "batch_to_space"), {&in}, io_info(v, out_shape)));
        });
}

void add_space_to_batch(std::vector<CaseSpec>& out) {
    // Input [n, h, w, c]; output [n*bh*bw, (h+pads)/bh, (w+pads)/bw, c]. Padding is real 0.
    const BlockParams params[] = {
        {"b2x2_nhwc", DataLayout::NHWC, 1, 4, 4, 1, {2, 2}, {{0, 0}, {0, 0}}},
        {"b2x3_pads_nhwc", DataLayout::NHWC, 2, 3, 5, 2, {2, 3}, {{1, 0}, {0, 1}}},
        {"b2x2_pad_h_nchw", DataLayout::NCHW, 1, 2, 4, 3, {2, 2}, {{1, 1}, {0, 0}}},
        {"b3x1_pads_nchw", DataLayout::NCHW, 1, 5, 3, 2, {3, 1}, {{0, 1}, {1, 1}}},
        {"b2x2_batch2_nhwc", DataLayout::NHWC, 2, 2, 4, 3, {2, 2}, {{0, 0}, {1, 1}}},
    };
    add_movement_cases(
        out, params, kBlockRefused, "space_to_batch_nd_", "SpaceToBatchNd",
        [](Net& net, const TypeVariant& v, const BlockParams& p) {
            const unsigned bh = p.block[0], bw = p.block[1];
            const unsigned ph = p.h + p.pads[0].first + p.pads[0].second;
            const unsigned pw = p.w + p.pads[1].first + p.pads[1].second;
            const TensorShape in_shape = image_shape(p.layout, p.n, p.h, p.w, p.c);
            const TensorShape out_shape = image_shape(p.layout, p.n * bh * bw, ph / bh, pw / bw, p.c);
            armnn::SpaceToBatchNdDescriptor d(p.block, p.pads);
            d.m_DataLayout = p.layout;
            auto& in = net.input(io_info(v, in_shape));
            net.output(net.wire(net.net().AddSpaceToBatchNdLayer(d, "space_to_batch"), {&in}, io_info(v, out_shape)));
        });
}

// ---- DepthToSpace / SpaceToDepth ------------------------------------------------------------------

struct DepthParams {
    const char* tag;
    DataLayout layout;
    unsigned n, h, w, c;  // the depth side: [n, h, w, c] with c divisible by block^2
    unsigned block;
};

const DepthParams kDepthParams[] = {
    {"b2_nhwc", DataLayout::NHWC, 1, 2, 2, 4, 2},
    {"b2_batch2_nhwc", DataLayout::NHWC, 2, 2, 3, 8, 2},
    {"b3_nchw", DataLayout::NCHW, 1, 2, 2, 9, 3},
    {"b2_c8_nchw", DataLayout::NCHW, 1, 3, 2, 8, 2},
    {"b3_c18_nhwc", DataLayout::NHWC, 1, 1, 2, 18, 3},
};

const std::set<DataType> kDepthRefused = {DataType::Signed32, DataType::Boolean};

void add_depth_space(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : all_data_types())
        for (size_t i = 0; i < std::size(kDepthParams); ++i) {
            if (refused(kDepthRefused, v, i)) continue;
            const DepthParams p = kDepthParams[i];
            const unsigned b = p.block;
            const TensorShape depth = image_shape(p.layout, p.n, p.h, p.w, p.c);
            const TensorShape space = image_shape(p.layout, p.n, p.h * b, p.w * b, p.c / (b * b));
            out.push_back(movement_case(std::string("depth_to_space_") + v.tag + "_" + p.tag, "DepthToSpace", v,
                                        [v, p, depth, space](Net& net) {
                                            const armnn::DepthToSpaceDescriptor d(p.block, p.layout);
                                            auto& in = net.input(io_info(v, depth));
                                            net.output(net.wire(net.net().AddDepthToSpaceLayer(d, "depth_to_space"), {&in},
                                                                io_info(v, space)));
                                        }));
            out.push_back(movement_case(std::string("space_to_depth_") + v.tag + "_" + p.tag, "SpaceToDepth", v,
                                        [v, p, depth, space](Net& net) {
                                            const armnn::SpaceToDepthDescriptor d(p.block, p.layout);
                                            auto& in = net.input(io_info(v, space));
                                            net.output(net.wire(net.net().AddSpaceToDepthLayer(d, "space_to_depth"), {&in},
                                                                io_info(v, depth)));
                                        }));
        }
}

// ---- Slice ----------------------------------------------------------------------------------------

const std::set<DataType> kSliceRefused = {DataType::Signed32, DataType::Boolean};

void add_slice(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        std::vector<unsigned> in, begin, size;
    };
    const P params[] = {
        {"4d_hw", {1, 4, 5, 3}, {0, 1, 2, 0}, {1, 2, 3, 3}},
        {"4d_all_axes", {2, 3, 4, 5}, {1, 1, 1, 1}, {1, 2, 3, 4}},
        {"3d", {3, 4, 5}, {1, 0, 2}, {2, 4, 1}},
        {"2d", {6, 7}, {2, 3}, {3, 4}},
        {"1d", {9}, {4}, {5}},
        {"whole", {2, 3}, {0, 0}, {2, 3}},
    };
    add_movement_cases(out, params, kSliceRefused, "slice_", "Slice", [](Net& net, const TypeVariant& v, const P& p) {
        auto& in = net.input(io_info(v, shape_of(p.in)));
        auto* layer = net.net().AddSliceLayer(armnn::SliceDescriptor(p.begin, p.size), "slice");
        net.output(net.wire(layer, {&in}, io_info(v, shape_of(p.size))));
    });
}

// ---- StridedSlice ---------------------------------------------------------------------------------

struct StridedParams {
    const char* tag;
    std::vector<unsigned> in;
    std::vector<int> begin, end, stride;
    int begin_mask = 0, end_mask = 0, shrink_mask = 0, ellipsis_mask = 0, new_axis_mask = 0;
};

// Output shape by Arm NN's rules (reference/armnn-format.md §2 StridedSlice: start/stop per axis with
// masks, negative values counted from the end, clamping, ceil((stop-start)/stride), shrunk axes dropped,
// [1] when every axis is). ellipsisMask and newAxisMask are ignored by Arm NN 20.08. Arm NN's shape
// inference checks this result, so a mistake here turns into a skipped case, never a wrong expectation.
TensorShape strided_output(const StridedParams& p) {
    std::vector<unsigned> dims;
    for (size_t a = 0; a < p.in.size(); ++a) {
        const int size = static_cast<int>(p.in[a]);
        const int stride = p.stride[a];
        const bool shrink = (p.shrink_mask >> a) & 1;
        int start = ((p.begin_mask >> a) & 1) ? (stride > 0 ? INT_MIN : INT_MAX) : p.begin[a];
        if (start < 0) start += size;
        start = std::clamp(start, 0, size - 1);
        int stop;
        if (shrink) stop = start + 1;
        else if ((p.end_mask >> a) & 1) stop = stride > 0 ? INT_MAX : INT_MIN;
        else stop = p.end[a];
        if (stop < 0) stop += size;
        stop = stride > 0 ? std::clamp(stop, 0, size) : std::clamp(stop, -1, size - 1);
        if (shrink) continue;
        const int n = stride > 0 ? (stop - start + stride - 1) / stride : (start - stop - stride - 1) / -stride;
        dims.push_back(static_cast<unsigned>(std::max(0, n)));
    }
    if (dims.empty()) dims.push_back(1);
    return shape_of(dims);
}

const std::set<DataType> kStridedRefused = {DataType::Signed32, DataType::Boolean};

void add_strided_slice(std::vector<CaseSpec>& out) {
    const StridedParams params[] = {
        {"stride2_w", {1, 4, 5, 3}, {0, 1, 0, 0}, {1, 4, 5, 3}, {1, 1, 2, 1}},
        {"negative_strides", {2, 6, 4}, {-1, -1, -1}, {-3, 0, -5}, {-1, -2, -1}},
        {"begin_end_masks", {3, 4, 5}, {1, 2, 1}, {2, 3, 4}, {1, 1, 1}, 0b101, 0b010},
        {"shrink_axes_0_2", {2, 3, 4, 5}, {1, 0, 2, 0}, {2, 3, 3, 5}, {1, 1, 1, 1}, 0, 0, 0b0101},
        {"shrink_all", {3, 4}, {1, 2}, {2, 3}, {1, 1}, 0, 0, 0b11},
        {"ellipsis_mask_ignored", {2, 3, 4}, {0, 1, 0}, {2, 3, 4}, {1, 1, 1}, 0, 0, 0, 0b001},
        {"new_axis_mask_ignored", {2, 3, 4}, {0, 0, 1}, {2, 3, 3}, {1, 1, 1}, 0, 0, 0, 0, 0b010},
        {"1d_stride3", {10}, {1}, {10}, {3}},
        {"reverse_end_mask", {5, 4}, {4, 0}, {0, 4}, {-1, 1}, 0, 0b01},
        {"negative_begin_clamped", {4, 6}, {-9, -4}, {9, -1}, {2, 1}},
        {"all_masks_mixed", {2, 5, 6, 3}, {1, 4, 1, 2}, {2, 0, 5, 3}, {1, -2, 2, 1}, 0b0100, 0b0010, 0b1000, 0, 0},
    };
    for (const TypeVariant& v : all_data_types())
        for (size_t i = 0; i < std::size(params); ++i) {
            if (refused(kStridedRefused, v, i)) continue;
            const StridedParams p = params[i];
            CaseSpec c = movement_case(std::string("strided_slice_") + v.tag + "_" + p.tag, "StridedSlice", v, [v, p](Net& net) {
                armnn::StridedSliceDescriptor d(p.begin, p.end, p.stride);
                d.m_BeginMask = p.begin_mask;
                d.m_EndMask = p.end_mask;
                d.m_ShrinkAxisMask = p.shrink_mask;
                d.m_EllipsisMask = p.ellipsis_mask;
                d.m_NewAxisMask = p.new_axis_mask;
                auto& in = net.input(io_info(v, shape_of(p.in)));
                net.output(net.wire(net.net().AddStridedSliceLayer(d, "strided_slice"), {&in}, io_info(v, strided_output(p))));
            });
            if (p.ellipsis_mask || p.new_axis_mask)
                c.note = "Arm NN 20.08 stores ellipsisMask/newAxisMask but ignores them (shape and values)";
            out.push_back(c);
        }
}

// ---- Stack ----------------------------------------------------------------------------------------

const std::set<DataType> kStackRefused = {DataType::Signed32, DataType::Boolean};

void add_stack(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        std::vector<unsigned> in;
        unsigned axis, count;
    };
    const P params[] = {
        {"axis0_2in_3x4", {3, 4}, 0, 2},
        {"axis1_3in_2x3", {2, 3}, 1, 3},
        {"axis2_last_2in_2x3", {2, 3}, 2, 2},
        {"axis1_4in_1x4x3", {1, 4, 3}, 1, 4},
        {"axis3_2in_1x2x3x2", {1, 2, 3, 2}, 3, 2},
        {"axis0_1in_5", {5}, 0, 1},
    };
    for (const TypeVariant& v : all_data_types())
        for (size_t i = 0; i < std::size(params); ++i) {
            if (refused(kStackRefused, v, i)) continue;
            const P p = params[i];
            const TensorShape in_shape = shape_of(p.in);
            std::vector<unsigned> od = p.in;
            od.insert(od.begin() + p.axis, p.count);
            const TensorShape out_shape = shape_of(od);
            CaseSpec c = movement_case(std::string("stack_") + v.tag + "_" + p.tag, "Stack", v, [v, p, in_shape, out_shape](Net& net) {
                auto* layer = net.net().AddStackLayer(armnn::StackDescriptor(p.axis, p.count, in_shape), "stack");
                for (unsigned k = 0; k < p.count; ++k) net.input(io_info(v, in_shape)).Connect(layer->GetInputSlot(k));
                layer->GetOutputSlot(0).SetTensorInfo(io_info(v, out_shape));
                net.output(layer->GetOutputSlot(0));
            });
            if (p.axis == 0 && (v.type == DataType::Float16 || v.type == DataType::QAsymmU8 ||
                                v.type == DataType::QAsymmS8 || v.type == DataType::QSymmS16)) {
                // CpuRef 20.08's RefStackWorkload copies axis-0 stacks as float elements whatever the data
                // type (4 bytes per element): out-of-bounds writes and a heap abort for every other type.
                // Later Arm NN removed that shortcut, so axis 0 runs the generic Stack like the other axes:
                // concatenation of the inputs along a new leading axis. Reference: each input reshaped to
                // [1, ...] and concatenated on axis 0, on CpuRef.
                c.note = "CpuRef 20.08 Stack axis 0 treats every type as float (heap overflow); expected values "
                         "from Reshape + Concat(axis 0) on CpuRef, the upstream-corrected semantics";
                c.skip_file_run_on_cpuref = true;
                c.oracle_build = [v, p, in_shape, out_shape](Net& net) {
                    std::vector<unsigned> one = p.in;
                    one.insert(one.begin(), 1u);
                    const TensorShape one_shape = shape_of(one);
                    armnn::ReshapeDescriptor r;
                    r.m_TargetShape = one_shape;
                    if (p.count == 1) {  // Concat needs two inputs; stacking one tensor is a reshape
                        auto& in = net.input(io_info(v, in_shape));
                        net.output(net.wire(net.net().AddReshapeLayer(r, "stack"), {&in}, io_info(v, out_shape)));
                        return;
                    }
                    const std::vector<TensorShape> parts(p.count, one_shape);
                    const armnn::OriginsDescriptor d = armnn::CreateDescriptorForConcatenation(parts.begin(), parts.end(), 0);
                    auto* concat = net.net().AddConcatLayer(d, "stack");
                    for (unsigned k = 0; k < p.count; ++k) {
                        auto& in = net.input(io_info(v, in_shape));
                        net.wire(net.net().AddReshapeLayer(r, ("reshape" + std::to_string(k)).c_str()), {&in}, io_info(v, one_shape))
                            .Connect(concat->GetInputSlot(k));
                    }
                    concat->GetOutputSlot(0).SetTensorInfo(io_info(v, out_shape));
                    net.output(concat->GetOutputSlot(0));
                };
            }
            out.push_back(c);
        }
}

// ---- Gather ---------------------------------------------------------------------------------------

const std::set<DataType> kGatherRefused = {DataType::Boolean};

// Gather's output shape: params[:axis] + indices + params[axis+1:].
std::vector<unsigned> gather_shape(const std::vector<unsigned>& params, const std::vector<unsigned>& indices, unsigned axis) {
    std::vector<unsigned> od(params.begin(), params.begin() + axis);
    od.insert(od.end(), indices.begin(), indices.end());
    od.insert(od.end(), params.begin() + axis + 1, params.end());
    return od;
}

void add_gather(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        std::vector<unsigned> params, indices;
        int axis;
        std::vector<float> const_indices;  // empty: the indices are a network input
    };
    const P params[] = {
        {"2d_idx3", {5, 4}, {3}, 0, {}},
        {"3d_idx2x2", {6, 2, 3}, {2, 2}, 0, {}},
        {"1d_idx5", {4}, {5}, 0, {}},
        {"4d_const_idx_repeat", {5, 3, 2, 2}, {4}, 0, {4, 0, 2, 2}},
        {"2d_const_idx2x3", {7, 3}, {2, 3}, 0, {6, 0, 1, 3, 3, 5}},
        {"axis1_2d", {3, 5}, {2}, 1, {}},
        {"axis1_3d_const_idx", {2, 4, 3}, {5}, 1, {3, 0, 0, 2, 1}},
        {"axis_neg1_3d", {2, 3, 4}, {3}, -1, {}},
        {"axis3_4d", {1, 2, 3, 4}, {2}, 3, {}},
    };
    for (const TypeVariant& v : all_data_types())
        for (size_t i = 0; i < std::size(params); ++i) {
            if (refused(kGatherRefused, v, i)) continue;
            const P p = params[i];
            const unsigned rank = static_cast<unsigned>(p.params.size());
            const unsigned axis = static_cast<unsigned>(p.axis < 0 ? p.axis + static_cast<int>(rank) : p.axis);
            const armnn::TensorInfo idx_info(shape_of(p.indices), DataType::Signed32);
            // The indices operand: a network input with random valid values (the Signed32 code of real
            // value x is x) or a Constant layer. Called once per network, in the same input order.
            auto indices = [p, axis, idx_info](Net& net) -> armnn::IOutputSlot& {
                if (p.const_indices.empty()) return net.input(idx_info, {0.0f, static_cast<float>(p.params[axis] - 1)});
                auto* c = net.net().AddConstantLayer(net.const_from(idx_info, p.const_indices), "indices");
                c->GetOutputSlot(0).SetTensorInfo(idx_info);
                return c->GetOutputSlot(0);
            };
            CaseSpec c = movement_case(std::string("gather_") + v.tag + "_" + p.tag, "Gather", v, [v, p, axis, indices](Net& net) {
                auto& data = net.input(io_info(v, shape_of(p.params)));
                auto& idx = indices(net);
                auto* layer = net.net().AddGatherLayer(armnn::GatherDescriptor(p.axis), "gather");
                net.output(net.wire(layer, {&data, &idx}, io_info(v, shape_of(gather_shape(p.params, p.indices, axis)))));
            });
            // Signed32 has no substitute (CpuRef 20.08 cannot Transpose it): one case keeps CpuRef's refusal.
            if (axis != 0 && v.type == DataType::Signed32) {
                if (p.axis != 1 || p.params.size() != 2) continue;
            } else if (axis != 0) {
                // CpuRef gathers along axis 0 only until Arm NN 23.02 (IsGatherSupported: "axis not
                // supported"); the file still carries the axis. Reference: Transpose the axis to the
                // front, Gather on axis 0, Transpose back (1-D indices), all on CpuRef.
                c.note = "CpuRef 20.08 gathers on axis 0 only; expected values from Transpose + Gather(axis 0) + Transpose";
                c.oracle_build = [v, p, axis, rank, indices](Net& net) {
                    std::vector<unsigned> front = {axis}, back(rank);
                    for (unsigned d = 0; d < rank; ++d)
                        if (d != axis) front.push_back(d);
                    for (unsigned d = 0; d < rank; ++d) back[d] = d < axis ? d + 1 : d == axis ? 0 : d;
                    std::vector<unsigned> moved(rank);
                    for (unsigned d = 0; d < rank; ++d) moved[d] = p.params[front[d]];
                    auto& data = net.input(io_info(v, shape_of(p.params)));
                    auto& idx = indices(net);
                    const armnn::TransposeDescriptor to_front(armnn::PermutationVector(front.data(), rank));
                    const armnn::TransposeDescriptor to_back(armnn::PermutationVector(back.data(), rank));
                    auto& t = net.wire(net.net().AddTransposeLayer(to_front, "to_front"), {&data}, io_info(v, shape_of(moved)));
                    auto& g = net.wire(net.net().AddGatherLayer(armnn::GatherDescriptor(0), "gather"), {&t, &idx},
                                       io_info(v, shape_of(gather_shape(moved, p.indices, 0))));
                    net.output(net.wire(net.net().AddTransposeLayer(to_back, "to_back"), {&g},
                                        io_info(v, shape_of(gather_shape(p.params, p.indices, axis)))));
                };
            }
            out.push_back(c);
        }
}

}  // namespace

void add_indexing_cases(std::vector<CaseSpec>& out) {
    add_batch_to_space(out);
    add_space_to_batch(out);
    add_depth_space(out);
    add_slice(out);
    add_strided_slice(out);
    add_stack(out);
    add_gather(out);
}

}  // namespace conformance

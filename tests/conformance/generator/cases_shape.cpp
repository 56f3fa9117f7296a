// Data-movement layers: Reshape, Permute, Transpose, Concat, Splitter, Pad, Mean, Resize.
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::TensorShape;

// Quantized data movement keeps the input's quantization (Arm NN requires it for most of these).
constexpr float kShapeLo = -3, kShapeHi = 3;

const TypeVariant kShapeTypes[] = {kF32, kF16, kU8, kS8, kS16};

void add_reshape(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape in, to;
    };
    const P params[] = {
        {"1x2x3x4_to_6x4", TensorShape({1, 2, 3, 4}), TensorShape({6, 4})},
        {"1x2x3x4_to_24", TensorShape({1, 2, 3, 4}), TensorShape({24})},
        {"2x3x5_to_5x1x6", TensorShape({2, 3, 5}), TensorShape({5, 1, 6})},
    };
    for (const TypeVariant& v : kShapeTypes)
        for (const P& p : params)
            out.push_back(make_case(std::string("reshape_") + v.tag + "_" + p.tag, "Reshape", v, [v, p](Net& net) {
                auto& in = net.input(ranged_info(v, p.in, kShapeLo, kShapeHi));
                armnn::ReshapeDescriptor d;
                d.m_TargetShape = p.to;
                net.output(
                    net.wire(net.net().AddReshapeLayer(d, "reshape"), {&in}, ranged_info(v, p.to, kShapeLo, kShapeHi)));
            }));
}

struct PermParams {
    const char* tag;
    TensorShape in;
    std::vector<unsigned> perm;
};

const PermParams kPerms[] = {
    {"0231_1x3x4x5", TensorShape({1, 3, 4, 5}), {0, 2, 3, 1}},
    {"0312_2x4x5x3", TensorShape({2, 4, 5, 3}), {0, 3, 1, 2}},
    {"3210_2x3x4x5", TensorShape({2, 3, 4, 5}), {3, 2, 1, 0}},
    {"102_3x5x7", TensorShape({3, 5, 7}), {1, 0, 2}},
    {"10_6x7", TensorShape({6, 7}), {1, 0}},
};

void add_permute_transpose(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : kShapeTypes)
        for (const PermParams& p : kPerms) {
            const armnn::PermutationVector pv(p.perm.data(), static_cast<unsigned>(p.perm.size()));
            // Permute: source dimension i goes to destination dimension perm[i].
            out.push_back(make_case(std::string("permute_") + v.tag + "_" + p.tag, "Permute", v, [v, p, pv](Net& net) {
                std::vector<unsigned> od(p.perm.size());
                for (unsigned i = 0; i < od.size(); ++i) od[p.perm[i]] = p.in[i];
                auto& in = net.input(ranged_info(v, p.in, kShapeLo, kShapeHi));
                auto* layer = net.net().AddPermuteLayer(armnn::PermuteDescriptor(pv), "permute");
                net.output(net.wire(
                    layer, {&in},
                    ranged_info(v, TensorShape(static_cast<unsigned>(od.size()), od.data()), kShapeLo, kShapeHi)));
            }));
            // Transpose: destination dimension i comes from source dimension perm[i].
            out.push_back(make_case(std::string("transpose_") + v.tag + "_" + p.tag, "Transpose", v, [v, p, pv](Net& net) {
                std::vector<unsigned> od(p.perm.size());
                for (unsigned i = 0; i < od.size(); ++i) od[i] = p.in[p.perm[i]];
                auto& in = net.input(ranged_info(v, p.in, kShapeLo, kShapeHi));
                auto* layer = net.net().AddTransposeLayer(armnn::TransposeDescriptor(pv), "transpose");
                net.output(net.wire(
                    layer, {&in},
                    ranged_info(v, TensorShape(static_cast<unsigned>(od.size()), od.data()), kShapeLo, kShapeHi)));
            }));
        }
}

void add_concat_splitter(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        std::vector<TensorShape> inputs;
        unsigned axis;
    };
    const P params[] = {
        {"axis0_2in", {TensorShape({1, 2, 3, 2}), TensorShape({2, 2, 3, 2})}, 0},
        {"axis1_3in", {TensorShape({1, 2, 3, 2}), TensorShape({1, 1, 3, 2}), TensorShape({1, 3, 3, 2})}, 1},
        {"axis2_2in", {TensorShape({1, 2, 3, 2}), TensorShape({1, 2, 5, 2})}, 2},
        {"axis3_3in_channels", {TensorShape({1, 4, 3, 2}), TensorShape({1, 4, 3, 3}), TensorShape({1, 4, 3, 1})}, 3},
        {"axis1_2d", {TensorShape({3, 4}), TensorShape({3, 7})}, 1},
    };
    for (const TypeVariant& v : kShapeTypes)
        for (const P& p : params)
            out.push_back(make_case(std::string("concat_") + v.tag + "_" + p.tag, "Concat", v, [v, p](Net& net) {
                const armnn::OriginsDescriptor d =
                    armnn::CreateDescriptorForConcatenation(p.inputs.begin(), p.inputs.end(), p.axis);
                auto* layer = net.net().AddConcatLayer(d, "concat");
                TensorShape os = p.inputs[0];
                for (size_t i = 0; i < p.inputs.size(); ++i) {
                    net.input(ranged_info(v, p.inputs[i], kShapeLo, kShapeHi))
                        .Connect(layer->GetInputSlot(static_cast<unsigned>(i)));
                    if (i) os[p.axis] += p.inputs[i][p.axis];
                }
                layer->GetOutputSlot(0).SetTensorInfo(ranged_info(v, os, kShapeLo, kShapeHi));
                net.output(layer->GetOutputSlot(0));
            }));

    // Inputs quantized differently from each other and from the output: Concat must requantize.
    for (const TypeVariant& v : {kU8, kS8, kS16})
        out.push_back(make_case(std::string("concat_") + v.tag + "_axis2_requantize", "Concat", v, [v](Net& net) {
            const std::vector<TensorShape> shapes = {TensorShape({1, 2, 3, 2}), TensorShape({1, 2, 4, 2})};
            const armnn::OriginsDescriptor d = armnn::CreateDescriptorForConcatenation(shapes.begin(), shapes.end(), 2);
            auto* layer = net.net().AddConcatLayer(d, "concat");
            net.input(ranged_info(v, shapes[0], -1, 1)).Connect(layer->GetInputSlot(0));
            net.input(ranged_info(v, shapes[1], -4, 2)).Connect(layer->GetInputSlot(1));
            layer->GetOutputSlot(0).SetTensorInfo(ranged_info(v, TensorShape({1, 2, 7, 2}), -3, 3));
            net.output(layer->GetOutputSlot(0));
        }));

    struct S {
        const char* tag;
        TensorShape in;
        unsigned axis;
        std::vector<unsigned> sizes;
    };
    const S splits[] = {
        {"axis3_2x2", TensorShape({1, 3, 4, 4}), 3, {2, 2}},
        {"axis1_1_2_3", TensorShape({2, 6, 3, 2}), 1, {1, 2, 3}},
        {"axis0_2views", TensorShape({3, 4, 2}), 0, {1, 2}},
        {"axis2_odd", TensorShape({1, 2, 7, 3}), 2, {3, 4}},
    };
    for (const TypeVariant& v : kShapeTypes)
        for (const S& s : splits)
            out.push_back(make_case(std::string("splitter_") + v.tag + "_" + s.tag, "Splitter", v, [v, s](Net& net) {
                const unsigned rank = s.in.GetNumDimensions();
                armnn::ViewsDescriptor d(static_cast<unsigned>(s.sizes.size()), rank);
                unsigned origin = 0;
                std::vector<TensorShape> views;
                for (unsigned view = 0; view < s.sizes.size(); ++view) {
                    TensorShape vs = s.in;
                    vs[s.axis] = s.sizes[view];
                    for (unsigned dim = 0; dim < rank; ++dim) {
                        d.SetViewOriginCoord(view, dim, dim == s.axis ? origin : 0);
                        d.SetViewSize(view, dim, vs[dim]);
                    }
                    origin += s.sizes[view];
                    views.push_back(vs);
                }
                auto& in = net.input(ranged_info(v, s.in, kShapeLo, kShapeHi));
                auto* layer = net.net().AddSplitterLayer(d, "splitter");
                in.Connect(layer->GetInputSlot(0));
                for (unsigned view = 0; view < views.size(); ++view) {
                    layer->GetOutputSlot(view).SetTensorInfo(ranged_info(v, views[view], kShapeLo, kShapeHi));
                    net.output(layer->GetOutputSlot(view));
                }
            }));
}

void add_pad(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape in;
        std::vector<std::pair<unsigned, unsigned>> pads;
        float value;  // raw quantized value for quantized types (Arm NN's Pad semantics)
    };
    const P params[] = {
        {"hw1_nhwc", TensorShape({1, 3, 4, 2}), {{0, 0}, {1, 1}, {1, 1}, {0, 0}}, 0},
        {"asym_value3", TensorShape({1, 2, 3, 4}), {{0, 1}, {2, 0}, {0, 3}, {1, 1}}, 3},
        {"2d", TensorShape({3, 5}), {{1, 2}, {0, 1}}, 0},
        {"3d_value_neg", TensorShape({2, 3, 2}), {{1, 0}, {0, 0}, {2, 2}}, -1},
    };
    for (const TypeVariant& v : kShapeTypes)
        for (const P& p : params)
            out.push_back(make_case(std::string("pad_") + v.tag + "_" + p.tag, "Pad", v, [v, p](Net& net) {
                TensorShape os = p.in;
                for (unsigned i = 0; i < os.GetNumDimensions(); ++i) os[i] += p.pads[i].first + p.pads[i].second;
                auto& in = net.input(ranged_info(v, p.in, kShapeLo, kShapeHi));
                float value = p.value;
                if (v.type == armnn::DataType::QAsymmU8 && value < 0) value = 7;  // uint8 has no negatives
                auto* layer = net.net().AddPadLayer(armnn::PadDescriptor(p.pads, value), "pad");
                net.output(net.wire(layer, {&in}, ranged_info(v, os, kShapeLo, kShapeHi)));
            }));
}

void add_mean(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape in;
        std::vector<unsigned> axes;
        bool keep;
    };
    const P params[] = {
        {"hw_keep", TensorShape({1, 4, 5, 3}), {1, 2}, true},
        {"hw_drop", TensorShape({2, 4, 5, 3}), {1, 2}, false},
        {"last_keep", TensorShape({2, 3, 7}), {2}, true},
        {"all_drop", TensorShape({2, 3, 4}), {}, false},
        {"axes03_drop", TensorShape({2, 3, 4, 5}), {0, 3}, false},
    };
    for (const TypeVariant& v : kShapeTypes)
        for (const P& p : params)
            out.push_back(make_case(std::string("mean_") + v.tag + "_" + p.tag, "Mean", v, [v, p](Net& net) {
                const unsigned rank = p.in.GetNumDimensions();
                std::vector<unsigned> od;
                for (unsigned i = 0; i < rank; ++i) {
                    bool reduced = p.axes.empty();
                    for (unsigned a : p.axes) reduced |= a == i;
                    if (!reduced) od.push_back(p.in[i]);
                    else if (p.keep) od.push_back(1);
                }
                if (od.empty()) od.push_back(1);  // a full reduction without keepDims gives [1]
                auto& in = net.input(ranged_info(v, p.in, kShapeLo, kShapeHi));
                auto* layer = net.net().AddMeanLayer(armnn::MeanDescriptor(p.axes, p.keep), "mean");
                net.output(net.wire(
                    layer, {&in},
                    ranged_info(v, TensorShape(static_cast<unsigned>(od.size()), od.data()), kShapeLo, kShapeHi)));
            }));
}

void add_resize(std::vector<CaseSpec>& out) {
    struct Size {
        const char* tag;
        unsigned h, w, oh, ow;
    };
    const Size sizes[] = {{"up_4x5_to_7x9", 4, 5, 7, 9}, {"down_8x9_to_3x4", 8, 9, 3, 4}, {"up2x_3x3_to_6x6", 3, 3, 6, 6}};
    struct Mode {
        const char* tag;
        bool align, half;
    };
    const Mode modes[] = {{"plain", false, false}, {"aligncorners", true, false}, {"halfpixel", false, true}};
    for (const TypeVariant& v : kShapeTypes)
        for (armnn::ResizeMethod method : {armnn::ResizeMethod::Bilinear, armnn::ResizeMethod::NearestNeighbor})
            for (const Mode& m : modes)
                for (unsigned si = 0; si < 3; ++si) {
                    if (v.type != armnn::DataType::Float32 && v.type != armnn::DataType::QAsymmU8 && si != 0) continue;
                    const Size s = sizes[si];
                    const armnn::DataLayout layout = si == 1 ? armnn::DataLayout::NCHW : armnn::DataLayout::NHWC;
                    const std::string name = std::string("resize_") +
                                             (method == armnn::ResizeMethod::Bilinear ? "bilinear_" : "nearest_") + v.tag +
                                             "_" + m.tag + "_" + s.tag + (si == 1 ? "_nchw" : "_nhwc");
                    out.push_back(make_case(name, "Resize", v, [v, s, m, method, layout](Net& net) {
                        auto d = resize_descriptor<armnn::ResizeDescriptor>(s.oh, s.ow, layout, m.align, m.half);
                        d.m_Method = method;
                        const unsigned c = 3, n = 1;
                        auto shape = [&](unsigned h, unsigned w) {
                            return layout == armnn::DataLayout::NHWC ? TensorShape({n, h, w, c}) : TensorShape({n, c, h, w});
                        };
                        auto& in = net.input(ranged_info(v, shape(s.h, s.w), kShapeLo, kShapeHi));
                        auto* layer = net.net().AddResizeLayer(d, "resize");
                        net.output(net.wire(layer, {&in}, ranged_info(v, shape(s.oh, s.ow), kShapeLo, kShapeHi)));
                    }));
                }
}

}  // namespace

void add_shape_cases(std::vector<CaseSpec>& out) {
    add_reshape(out);
    add_permute_transpose(out);
    add_concat_splitter(out);
    add_pad(out);
    add_mean(out);
    add_resize(out);
}

}  // namespace conformance

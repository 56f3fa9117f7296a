// The deprecated INetwork entry points Arm NN 20.08 still exposes: AddMergerLayer, AddResizeBilinearLayer,
// AddEqualLayer, AddGreaterLayer, AddAbsLayer, AddRsqrtLayer and the descriptor-less AddGatherLayer.
//
// 20.08's front end turns each into its successor before the serializer sees it (checked with
// `flatc --json` on the written files: Merger -> ConcatLayer, ResizeBilinear -> ResizeLayer (method
// Bilinear), Equal/Greater -> ComparisonLayer, Abs/Rsqrt -> ElementwiseUnaryLayer, Gather -> GatherLayer
// axis 0), so these cases exercise the successors as written through the old API. The legacy layer
// types themselves (MergerLayer, ResizeBilinearLayer, EqualLayer, GreaterLayer, AbsLayer, RsqrtLayer)
// cannot come out of 20.08; the model writer of issue 3 covers them.
#include <armnn/Deprecated.hpp>

#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/index_types.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::DataType;
using armnn::TensorShape;

// Calls of the deprecated API are the point of this file; the warning is silenced only around these
// wrappers.
ARMNN_NO_DEPRECATE_WARN_BEGIN
armnn::IConnectableLayer* add_merger(armnn::INetwork& net, const armnn::OriginsDescriptor& d) {
    return net.AddMergerLayer(d, "merger");
}
armnn::IConnectableLayer* add_resize_bilinear(armnn::INetwork& net, const armnn::ResizeBilinearDescriptor& d) {
    return net.AddResizeBilinearLayer(d, "resize_bilinear");
}

// The descriptor-less layers that only the deprecated API adds.
enum class OldLayer { Equal, Greater, Abs, Rsqrt, Gather };

armnn::IConnectableLayer* add_old_layer(armnn::INetwork& net, OldLayer which) {
    switch (which) {
        case OldLayer::Equal: return net.AddEqualLayer("equal");
        case OldLayer::Greater: return net.AddGreaterLayer("greater");
        case OldLayer::Abs: return net.AddAbsLayer("abs");
        case OldLayer::Rsqrt: return net.AddRsqrtLayer("rsqrt");
        case OldLayer::Gather: break;
    }
    return net.AddGatherLayer("gather");
}
ARMNN_NO_DEPRECATE_WARN_END

const TypeVariant kMainTypes[] = {kF32, kF16, kU8, kS8, kS16};

CaseSpec legacy_case(const std::string& name, const std::string& layer, const TypeVariant& v, const std::string& written_as,
                     std::function<void(Net&)> build) {
    CaseSpec c = make_case(name, layer, v, std::move(build));
    c.note = "deprecated INetwork::Add" + layer + "Layer; Arm NN 20.08 writes " + written_as;
    return c;
}

void add_merger_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : kMainTypes)
        for (unsigned axis : {1u, 3u}) {
            const std::string name = std::string("merger_") + v.tag + "_axis" + std::to_string(axis);
            out.push_back(legacy_case(name, "Merger", v, "ConcatLayer", [v, axis](Net& net) {
                const std::vector<TensorShape> shapes = {TensorShape({1, 2, 3, 2}), TensorShape({1, 2, 3, 2}),
                                                         TensorShape({1, 2, 3, 2})};
                const armnn::OriginsDescriptor d = armnn::CreateDescriptorForConcatenation(shapes.begin(), shapes.end(), axis);
                auto* layer = add_merger(net.net(), d);
                TensorShape os = shapes[0];
                os[axis] *= 3;
                for (unsigned i = 0; i < 3; ++i) net.input(ranged_info(v, shapes[i], -3, 3)).Connect(layer->GetInputSlot(i));
                layer->GetOutputSlot(0).SetTensorInfo(ranged_info(v, os, -3, 3));
                net.output(layer->GetOutputSlot(0));
            }));
        }
}

void add_resize_bilinear_cases(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        armnn::DataLayout layout;
        unsigned h, w, oh, ow;
        bool align, half;
    };
    const P params[] = {
        {"up_3x4_to_5x7_nhwc", armnn::DataLayout::NHWC, 3, 4, 5, 7, false, false},
        {"down_6x6_to_4x3_nchw", armnn::DataLayout::NCHW, 6, 6, 4, 3, false, false},
        {"aligncorners_3x3_to_5x5_nhwc", armnn::DataLayout::NHWC, 3, 3, 5, 5, true, false},
        {"halfpixel_4x4_to_6x3_nchw", armnn::DataLayout::NCHW, 4, 4, 6, 3, false, true},
    };
    for (const TypeVariant& v : kMainTypes)
        for (size_t i = 0; i < std::size(params); ++i) {
            if (v.type != DataType::Float32 && v.type != DataType::QAsymmU8 && i > 1) continue;
            const P p = params[i];
            out.push_back(legacy_case(std::string("resize_bilinear_") + v.tag + "_" + p.tag, "ResizeBilinear", v,
                                      "ResizeLayer (method Bilinear)", [v, p](Net& net) {
                                          const auto d = resize_descriptor<armnn::ResizeBilinearDescriptor>(
                                              p.oh, p.ow, p.layout, p.align, p.half);
                                          auto& in = net.input(ranged_info(v, image_shape(p.layout, 1, p.h, p.w, 2), -3, 3));
                                          net.output(net.wire(add_resize_bilinear(net.net(), d), {&in},
                                                              ranged_info(v, image_shape(p.layout, 1, p.oh, p.ow, 2), -3, 3)));
                                      }));
        }
}

void add_equal_greater_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : kMainTypes)
        for (bool equal : {true, false})
            for (bool bcast : {false, true}) {
                const std::string layer = equal ? "Equal" : "Greater";
                const std::string name = std::string(equal ? "equal_" : "greater_") + v.tag + (bcast ? "_bcast" : "_same");
                out.push_back(exact(legacy_case(name, layer, v, "ComparisonLayer", [v, equal, bcast](Net& net) {
                    const TensorShape sa({2, 3, 4}), sb = bcast ? TensorShape({1, 3, 1}) : TensorShape({2, 3, 4});
                    const bool fl = v.type == DataType::Float32 || v.type == DataType::Float16;
                    // Ties as in cases_logic.cpp: Floor for floats, a narrow range for quantized types.
                    armnn::IOutputSlot* a = &net.input(ranged_info(v, sa, -2, 2), fl ? ValueRange{-3, 3} : comparison_tie_range(v));
                    armnn::IOutputSlot* b = &net.input(ranged_info(v, sb, -4, 4), fl ? ValueRange{-3, 3} : comparison_tie_range(v));
                    if (fl) {
                        a = &net.wire(net.net().AddFloorLayer("floor_a"), {a}, v.info(sa, 0, 0));
                        b = &net.wire(net.net().AddFloorLayer("floor_b"), {b}, v.info(sb, 0, 0));
                    }
                    auto* layer = add_old_layer(net.net(), equal ? OldLayer::Equal : OldLayer::Greater);
                    net.output(net.wire(layer, {a, b}, armnn::TensorInfo(sa, DataType::Boolean)));
                })));
            }
}

void add_abs_rsqrt_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : kMainTypes)
        for (bool abs : {true, false}) {
            const std::string layer = abs ? "Abs" : "Rsqrt";
            const std::string name = std::string(abs ? "abs_" : "rsqrt_") + v.tag + "_1x3x4x5";
            CaseSpec c = legacy_case(name, layer, v, "ElementwiseUnaryLayer", [v, abs](Net& net) {
                const TensorShape shape({1, 3, 4, 5});
                const float lo = abs ? -4.0f : 0.1f, hi = 4.0f;
                auto& in = net.input(ranged_info(v, shape, abs ? lo : 0.0f, hi), {lo, hi});
                auto* layer = add_old_layer(net.net(), abs ? OldLayer::Abs : OldLayer::Rsqrt);
                net.output(net.wire(layer, {&in}, ranged_info(v, shape, 0.0f, abs ? 4.0f : 3.2f)));
            });
            // As for ElementwiseUnary (cases_elementwise.cpp): 20.08 writes it but cannot read it back.
            c.oracle_from_built = true;
            c.note += "; the 20.08 deserializer cannot read ElementwiseUnary, CpuRef ran the network as built";
            out.push_back(c);
        }
}

void add_gather_legacy_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : kMainTypes) {
        const std::string name = std::string("gather_legacy_api_") + v.tag + "_4x3_idx5";
        out.push_back(legacy_case(name, "Gather", v, "GatherLayer (axis 0)", [v](Net& net) {
            auto& data = net.input(ranged_info(v, TensorShape({4, 3}), -3, 3));
            auto& idx = net.input(armnn::TensorInfo(TensorShape({5}), DataType::Signed32), {0, 3});
            net.output(net.wire(add_old_layer(net.net(), OldLayer::Gather), {&data, &idx},
                                ranged_info(v, TensorShape({5, 3}), -3, 3)));
        }));
    }
}

}  // namespace

void add_deprecated_api_cases(std::vector<CaseSpec>& out) {
    add_merger_cases(out);
    add_resize_bilinear_cases(out);
    add_equal_greater_cases(out);
    add_abs_rsqrt_cases(out);
    add_gather_legacy_cases(out);
}

}  // namespace conformance

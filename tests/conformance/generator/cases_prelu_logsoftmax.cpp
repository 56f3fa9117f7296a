// Prelu (alpha broadcast in several shapes, as a constant or as a second input) and LogSoftmax (axes
// and beta) cases.
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::TensorShape;

const TypeVariant kPreluTypes[] = {kF32, kF16, kU8, kS8, kS16};

void add_prelu(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape in, alpha, out;
        bool alpha_const;  // a Constant layer (the TfLite parser's form) or a second network input
        // 20.08 cannot write QAsymmS8 constants (those cases stay, recorded as skipped): QAsymmS8 also gets
        // the same shapes with alpha as an input, under this name.
        const char* s8_input_tag;
    };
    const P params[] = {
        {"per_channel_nhwc_const", TensorShape({1, 4, 5, 3}), TensorShape({1, 1, 1, 3}), TensorShape({1, 4, 5, 3}), true,
         "per_channel_nhwc_as_input"},
        {"per_channel_nchw_input", TensorShape({2, 3, 4, 2}), TensorShape({1, 3, 1, 1}), TensorShape({2, 3, 4, 2}), false, nullptr},
        {"full_shape_input", TensorShape({2, 3, 4}), TensorShape({2, 3, 4}), TensorShape({2, 3, 4}), false, nullptr},
        {"scalar_like_const", TensorShape({3, 5}), TensorShape({1, 1}), TensorShape({3, 5}), true, "scalar_like_as_input"},
        // Both operands broadcast: [4, 1, 3] x [1, 5, 1] -> [4, 5, 3].
        {"both_broadcast_input", TensorShape({4, 1, 3}), TensorShape({1, 5, 1}), TensorShape({4, 5, 3}), false, nullptr},
        // Lower-rank alpha, aligned on the right as in TfLite (20.08 wants equal ranks: recorded as skipped).
        {"rank1_alpha_const", TensorShape({1, 2, 3, 4}), TensorShape({4}), TensorShape({1, 2, 3, 4}), true, nullptr},
    };
    auto add = [&out](const TypeVariant& v, const P& p, const char* tag, bool alpha_const) {
        out.push_back(make_case(std::string("prelu_") + v.tag + "_" + tag, "Prelu", v, [v, p, alpha_const](Net& net) {
            auto& in = net.input(ranged_info(v, p.in, -3, 3), {-3, 3});
            const armnn::TensorInfo ai = ranged_info(v, p.alpha, -0.5f, 1.5f);
            armnn::IOutputSlot* alpha = nullptr;
            if (alpha_const) {
                auto* c = net.net().AddConstantLayer(net.random_const(ai, -0.5f, 1.5f), "alpha");
                c->GetOutputSlot(0).SetTensorInfo(ai);
                alpha = &c->GetOutputSlot(0);
            } else {
                alpha = &net.input(ai, {-0.5f, 1.5f});
            }
            auto* layer = net.net().AddPreluLayer("prelu");
            net.output(net.wire(layer, {&in, alpha}, ranged_info(v, p.out, -4.5f, 4.5f)));
        }));
    };
    for (const TypeVariant& v : kPreluTypes)
        for (const P& p : params) {
            add(v, p, p.tag, p.alpha_const);
            if (v.type == armnn::DataType::QAsymmS8 && p.s8_input_tag) add(v, p, p.s8_input_tag, false);
        }
}

void add_log_softmax(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape shape;
        int axis;
        float beta;
    };
    const P params[] = {
        {"2x7_last", TensorShape({2, 7}), -1, 1.0f},
        {"2x5x3_axis1_beta05", TensorShape({2, 5, 3}), 1, 0.5f},
        {"4x3_axis0_beta2", TensorShape({4, 3}), 0, 2.0f},
        {"1x2x5x3_axism2", TensorShape({1, 2, 5, 3}), -2, 1.0f},
        {"3x4x2_last_positive", TensorShape({3, 4, 2}), 2, 1.5f},
        {"1x9_wide_inputs", TensorShape({1, 9}), -1, 1.0f},
    };
    for (const TypeVariant& v : kPreluTypes)
        for (const P& p : params)
            out.push_back(make_case(std::string("log_softmax_") + v.tag + "_" + p.tag, "LogSoftmax", v, [v, p](Net& net) {
                armnn::LogSoftmaxDescriptor d;
                d.m_Axis = p.axis;
                d.m_Beta = p.beta;
                const float r = std::string(p.tag).find("wide") != std::string::npos ? 10.0f : 2.0f;
                auto& in = net.input(ranged_info(v, p.shape, -r, r), {-r, r});
                auto* layer = net.net().AddLogSoftmaxLayer(d, "log_softmax");
                net.output(net.wire(layer, {&in}, ranged_info(v, p.shape, -16, 0)));
            }));
}

}  // namespace

void add_prelu_logsoftmax_cases(std::vector<CaseSpec>& out) {
    add_prelu(out);
    add_log_softmax(out);
}

}  // namespace conformance

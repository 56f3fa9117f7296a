// Activation (every function 20.08 can serialize) and Softmax.
#include <string>
#include <vector>

#include "tests/conformance/generator/armnn_runner.h"
#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/file_patch.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::ActivationFunction;

struct ActParams {
    const char* tag;
    ActivationFunction fn;
    float a, b;
    float in_lo, in_hi;    // input value range
    float out_lo, out_hi;  // output range, for quantized output parameters
};

const ActParams kActivations[] = {
    {"sigmoid", ActivationFunction::Sigmoid, 0, 0, -6, 6, 0, 1},
    {"tanh_a1b1", ActivationFunction::TanH, 1, 1, -3, 3, -1, 1},
    {"tanh_a2b05", ActivationFunction::TanH, 2, 0.5f, -4, 4, -2, 2},
    {"linear_a05b01", ActivationFunction::Linear, 0.5f, 0.1f, -4, 4, -2, 2.2f},
    {"relu", ActivationFunction::ReLu, 0, 0, -4, 4, 0, 4},
    {"boundedrelu_relu6", ActivationFunction::BoundedReLu, 6, 0, -8, 8, 0, 6},
    {"boundedrelu_a1bm1", ActivationFunction::BoundedReLu, 1, -1, -3, 3, -1, 1},
    {"softrelu", ActivationFunction::SoftReLu, 0, 0, -4, 4, 0, 4.1f},
    {"leakyrelu_a01", ActivationFunction::LeakyReLu, 0.1f, 0, -4, 4, -0.4f, 4},
    {"abs", ActivationFunction::Abs, 0, 0, -4, 4, 0, 4},
    {"sqrt", ActivationFunction::Sqrt, 0, 0, 0, 4, 0, 2},
    {"square", ActivationFunction::Square, 0, 0, -2, 2, 0, 4},
    {"elu_a1", ActivationFunction::Elu, 1, 0, -4, 4, -1, 4},
    {"elu_a05", ActivationFunction::Elu, 0.5f, 0, -4, 4, -0.5f, 4},
    {"hardswish", ActivationFunction::HardSwish, 0, 0, -5, 5, -0.4f, 5},
};

const armnn::TensorShape kActShapes[] = {armnn::TensorShape({1, 4, 5, 3}), armnn::TensorShape({3, 7})};

// The network of one activation case with function `fn` (the case's own, or a stand-in, below).
void build_activation(Net& net, const TypeVariant& v, const ActParams& p, unsigned shape_index, ActivationFunction fn) {
    const armnn::TensorShape& shape = kActShapes[shape_index];
    auto& in = net.input(ranged_info(v, shape, p.in_lo, p.in_hi), {p.in_lo, p.in_hi});
    armnn::ActivationDescriptor d;
    d.m_Function = fn;
    d.m_A = p.a;
    d.m_B = p.b;
    auto* layer = net.net().AddActivationLayer(d, "activation");
    net.output(net.wire(layer, {&in}, ranged_info(v, shape, p.out_lo, p.out_hi)));
}

CaseSpec activation_case(const TypeVariant& v, const ActParams& p, unsigned shape_index) {
    const std::string name = std::string("activation_") + p.tag + "_" + v.tag + "_shape" + std::to_string(shape_index);
    CaseSpec c = make_case(name, "Activation", v, [v, p, shape_index](Net& net) {
        build_activation(net, v, p, shape_index, p.fn);
    });
    c.covers = std::string("Activation/") + armnn::GetActivationFunctionAsCString(p.fn);
    if (p.fn == ActivationFunction::SoftReLu) {
        // 20.08's serializer has no SoftReLu case: it leaves activationFunction at the schema default,
        // Sigmoid, so its SoftReLu file is byte for byte its Sigmoid file (and its deserializer reads a 5
        // back as Sigmoid too). The file is therefore written with a stand-in function, Linear (2, a
        // stored byte), whose byte is then set to SoftReLu (5); CpuRef computes SoftReLu on the network
        // as built. Without this the suite had no file carrying function 5 at all.
        c.build = [v, p, shape_index](Net& net) { build_activation(net, v, p, shape_index, ActivationFunction::Linear); };
        c.patch_file = [](Bytes& file) {
            patch_activation_function(file, static_cast<uint8_t>(ActivationFunction::Linear),
                                      static_cast<uint8_t>(ActivationFunction::SoftReLu));
        };
        c.oracle_build = [v, p, shape_index](Net& net) { build_activation(net, v, p, shape_index, p.fn); };
        c.note = "file written as Linear with its function byte set to SoftReLu (5): 20.08 writes SoftReLu as "
                 "Sigmoid; CpuRef ran the network as built with SoftReLu";
    }
    return c;
}

struct SoftmaxParams {
    const char* tag;
    armnn::TensorShape shape;
    float beta;
};

CaseSpec softmax_case(const TypeVariant& v, const SoftmaxParams& p) {
    const std::string name = std::string("softmax_") + v.tag + "_" + p.tag;
    return make_case(name, "Softmax", v, [v, p](Net& net) {
        auto& in = net.input(ranged_info(v, p.shape, -6, 6), {-6, 6});
        armnn::SoftmaxDescriptor d;
        d.m_Beta = p.beta;
        auto* layer = net.net().AddSoftmaxLayer(d, "softmax");
        // Arm NN requires quantized softmax outputs to use scale 1/256 (offset 0 for uint8, -128 for int8).
        armnn::TensorInfo oi = v.info(p.shape, 1.0f / 256.0f, v.type == armnn::DataType::QAsymmS8 ? -128 : 0);
        if (v.type == armnn::DataType::QSymmS16) oi = v.info(p.shape, 1.0f / 32768.0f, 0);
        net.output(net.wire(layer, {&in}, oi));
    });
}

}  // namespace

void add_activation_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : {kF32, kF16, kU8, kS8, kS16})
        for (const ActParams& p : kActivations)
            for (unsigned s = 0; s < 2; ++s) {
                if (v.type != armnn::DataType::Float32 && v.type != armnn::DataType::QAsymmU8 && s == 1) continue;
                out.push_back(activation_case(v, p, s));
            }
    const SoftmaxParams softmax[] = {
        {"1x10_beta1", armnn::TensorShape({1, 10}), 1.0f},
        {"2x7_beta05", armnn::TensorShape({2, 7}), 0.5f},
        {"1x3x4x5_beta1", armnn::TensorShape({1, 3, 4, 5}), 1.0f},
        {"4x1001_beta2", armnn::TensorShape({4, 1001}), 2.0f},
    };
    for (const TypeVariant& v : {kF32, kF16, kU8, kS8, kS16})
        for (const SoftmaxParams& p : softmax) out.push_back(softmax_case(v, p));
}

}  // namespace conformance

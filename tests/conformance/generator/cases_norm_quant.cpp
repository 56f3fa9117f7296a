// BatchNormalization, Quantize, Dequantize.
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::DataType;
using armnn::TensorShape;

void add_batch_norm(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape in;
        armnn::DataLayout layout;
        unsigned channels;
        float eps;
    };
    const P params[] = {
        {"nhwc_1x4x5x3", TensorShape({1, 4, 5, 3}), armnn::DataLayout::NHWC, 3, 1e-3f},
        {"nchw_2x4x3x5", TensorShape({2, 4, 3, 5}), armnn::DataLayout::NCHW, 4, 1e-5f},
        {"nhwc_odd_1x7x1x9", TensorShape({1, 7, 1, 9}), armnn::DataLayout::NHWC, 9, 0.1f},
    };
    for (const TypeVariant& v : {kF32, kF16, kU8, kS8, kS16})
        for (const P& p : params)
            out.push_back(make_case(std::string("batch_norm_") + v.tag + "_" + p.tag, "BatchNormalization", v, [v, p](Net& net) {
                armnn::BatchNormalizationDescriptor d;
                d.m_Eps = p.eps;
                d.m_DataLayout = p.layout;
                // Constants have the input's type (CpuRef requires it), each quantized over its own range.
                const TensorShape cs({p.channels});
                const armnn::ConstTensor mean = net.random_const(ranged_info(v, cs, -1, 1), -1, 1);
                const armnn::ConstTensor var = net.random_const(ranged_info(v, cs, 0, 2), 0.25f, 2);
                const armnn::ConstTensor beta = net.random_const(ranged_info(v, cs, -1, 1), -1, 1);
                const armnn::ConstTensor gamma = net.random_const(ranged_info(v, cs, 0, 2), 0.5f, 1.5f);
                auto& in = net.input(ranged_info(v, p.in, -3, 3), {-3, 3});
                auto* layer = net.net().AddBatchNormalizationLayer(d, mean, var, beta, gamma, "batch_norm");
                net.output(net.wire(layer, {&in}, ranged_info(v, p.in, -10, 10)));
            }));
}

void add_quantize_dequantize(std::vector<CaseSpec>& out) {
    const TensorShape shapes[] = {TensorShape({1, 4, 5, 3}), TensorShape({17})};
    for (const TypeVariant& q : {kU8, kS8, kS16})
        for (unsigned si = 0; si < 2; ++si) {
            const TensorShape shape = shapes[si];
            // Quantize: float in [-5, 5] into a type covering [-4, 3], so clamping is exercised too.
            CaseSpec quantize = make_case(std::string("quantize_f32_to_") + q.tag + "_shape" + std::to_string(si), "Quantize", q,
                                          [q, shape](Net& net) {
                                              auto& in = net.input(float_info(shape), {-5, 5});
                                              auto* layer = net.net().AddQuantizeLayer("quantize");
                                              net.output(net.wire(layer, {&in}, ranged_info(q, shape, -4, 3)));
                                          });
            out.push_back(quantize);
            // Dequantize to Float32; compared as floats.
            CaseSpec dequantize = make_case(std::string("dequantize_") + q.tag + "_to_f32_shape" + std::to_string(si), "Dequantize",
                                            kF32, [q, shape](Net& net) {
                                                auto& in = net.input(ranged_info(q, shape, -4, 3));
                                                auto* layer = net.net().AddDequantizeLayer("dequantize");
                                                net.output(net.wire(layer, {&in}, float_info(shape)));
                                            });
            dequantize.dtype = q.name();
            out.push_back(dequantize);
        }
    // Half precision on either side.
    for (const TypeVariant& q : {kU8, kS16}) {
        const TensorShape shape({3, 7});
        out.push_back(make_case(std::string("quantize_f16_to_") + q.tag, "Quantize", q, [q, shape](Net& net) {
            auto& in = net.input(armnn::TensorInfo(shape, DataType::Float16), {-5, 5});
            net.output(net.wire(net.net().AddQuantizeLayer("quantize"), {&in}, ranged_info(q, shape, -4, 3)));
        }));
        CaseSpec dequantize = make_case(std::string("dequantize_") + q.tag + "_to_f16", "Dequantize", kF16, [q, shape](Net& net) {
            auto& in = net.input(ranged_info(q, shape, -4, 3));
            net.output(net.wire(net.net().AddDequantizeLayer("dequantize"), {&in}, armnn::TensorInfo(shape, DataType::Float16)));
        });
        dequantize.dtype = q.name();
        out.push_back(dequantize);
    }
    // Requantization (quantized in, differently quantized out), where CpuRef accepts it.
    for (const TypeVariant& from : {kU8, kS8})
        for (const TypeVariant& to : {kU8, kS8, kS16}) {
            const TensorShape shape({2, 3, 5});
            out.push_back(make_case(std::string("quantize_") + from.tag + "_to_" + to.tag, "Quantize", to, [from, to, shape](Net& net) {
                auto& in = net.input(ranged_info(from, shape, -4, 4));
                auto* layer = net.net().AddQuantizeLayer("requantize");
                net.output(net.wire(layer, {&in}, ranged_info(to, shape, -3, 2)));
            }));
        }
}

}  // namespace

void add_norm_quant_cases(std::vector<CaseSpec>& out) {
    add_batch_norm(out);
    add_quantize_dequantize(out);
}

}  // namespace conformance

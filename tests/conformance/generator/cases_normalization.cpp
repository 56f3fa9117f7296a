// L2Normalization, Normalization (LRN) and InstanceNormalization cases.
//
// One case per (parameter set, data type) for every type CpuRef might accept; the ones CpuRef 20.08
// refuses end up in the index as skipped with its message. Quantized outputs cover the range the
// layer can produce, so clamping stays rare and equal on both sides.
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"
#include "tests/conformance/generator/quant_range.h"

namespace conformance {
namespace {

using armnn::DataLayout;
using armnn::TensorShape;

const TypeVariant kAllTypes[] = {kF32, kF16, kU8, kS8, kS16};

void add_l2_normalization(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape shape;
        DataLayout layout;
        float eps;
        float in_lo, in_hi;
    };
    const P params[] = {
        {"nhwc_1x4x5x3", TensorShape({1, 4, 5, 3}), DataLayout::NHWC, 1e-12f, -3, 3},
        {"nchw_2x3x4x5", TensorShape({2, 3, 4, 5}), DataLayout::NCHW, 1e-12f, -3, 3},
        // eps above the sum of squares: out = x / sqrt(eps) (the max() branch).
        {"nhwc_large_eps_1x2x3x8", TensorShape({1, 2, 3, 8}), DataLayout::NHWC, 4.0f, -0.5f, 0.5f},
        {"nchw_eps_1x7x2x2", TensorShape({1, 7, 2, 2}), DataLayout::NCHW, 0.05f, -0.2f, 1.0f},
        // Ranks below 4 are padded to 4-D by the layout (the TfLite parser's [N, C] with NHWC).
        {"nhwc_2d_3x6", TensorShape({3, 6}), DataLayout::NHWC, 1e-12f, -3, 3},
        // Kept quirk: CpuRef pads [3, 6] with NCHW to [1, 1, 3, 6] (one channel), so each element is
        // normalized by itself; npurun follows it (reference/armnn-format.md §2, L2Normalization).
        {"nchw_2d_quirk_3x6", TensorShape({3, 6}), DataLayout::NCHW, 1e-12f, -3, 3},
        {"nhwc_3d_2x3x5", TensorShape({2, 3, 5}), DataLayout::NHWC, 1e-6f, -3, 3},
    };
    for (const TypeVariant& v : kAllTypes)
        for (const P& p : params)
            out.push_back(make_case(std::string("l2_norm_") + v.tag + "_" + p.tag, "L2Normalization", v, [v, p](Net& net) {
                armnn::L2NormalizationDescriptor d;
                d.m_Eps = p.eps;
                d.m_DataLayout = p.layout;
                auto& in = net.input(ranged_info(v, p.shape, p.in_lo, p.in_hi), {p.in_lo, p.in_hi});
                auto* layer = net.net().AddL2NormalizationLayer(d, "l2_norm");
                net.output(net.wire(layer, {&in}, ranged_info(v, p.shape, -1, 1)));
            }));
}

struct LrnParams {
    const char* tag;
    TensorShape shape;
    DataLayout layout;
    armnn::NormalizationAlgorithmChannel channel;
    uint32_t size;
    float alpha, beta, k;
};

armnn::NormalizationDescriptor lrn_desc(const LrnParams& p, DataLayout layout) {
    armnn::NormalizationDescriptor d;
    d.m_NormChannelType = p.channel;
    d.m_NormMethodType = armnn::NormalizationAlgorithmMethod::LocalBrightness;
    d.m_NormSize = p.size;
    d.m_Alpha = p.alpha;
    d.m_Beta = p.beta;
    d.m_K = p.k;
    d.m_DataLayout = layout;
    return d;
}

TensorShape nhwc_to_nchw(const TensorShape& s) { return TensorShape({s[0], s[3], s[1], s[2]}); }

void add_lrn(std::vector<CaseSpec>& out) {
    using armnn::NormalizationAlgorithmChannel;
    const LrnParams params[] = {
        {"across_nchw_s5", TensorShape({1, 7, 3, 4}), DataLayout::NCHW, NormalizationAlgorithmChannel::Across, 5, 0.5f, 0.75f, 1.0f},
        {"across_nhwc_s3", TensorShape({2, 3, 4, 6}), DataLayout::NHWC, NormalizationAlgorithmChannel::Across, 3, 0.2f, 0.5f, 2.0f},
        // Even size: radius 2 (size / 2), a window of 5.
        {"across_nhwc_s4", TensorShape({1, 2, 2, 9}), DataLayout::NHWC, NormalizationAlgorithmChannel::Across, 4, 1.0f, 1.0f, 1.0f},
        {"across_nchw_s1", TensorShape({1, 4, 2, 3}), DataLayout::NCHW, NormalizationAlgorithmChannel::Across, 1, 0.3f, 0.25f, 0.5f},
        {"within_nchw_s3", TensorShape({1, 2, 5, 6}), DataLayout::NCHW, NormalizationAlgorithmChannel::Within, 3, 0.1f, 0.75f, 1.0f},
        {"within_nchw_s5", TensorShape({2, 3, 4, 4}), DataLayout::NCHW, NormalizationAlgorithmChannel::Within, 5, 0.05f, 0.5f, 2.0f},
        {"within_nhwc_s3", TensorShape({1, 5, 6, 2}), DataLayout::NHWC, NormalizationAlgorithmChannel::Within, 3, 0.1f, 0.75f, 1.0f},
    };
    for (const TypeVariant& v : kAllTypes)
        for (const LrnParams& p : params) {
            // k >= 0.5 and alpha, beta > 0 keep |out| below |x| / k^beta <= 2|x|: the output range covers it.
            const float bound = 2.0f;
            CaseSpec c = make_case(std::string("lrn_") + v.tag + "_" + p.tag, "Normalization", v, [v, p, bound](Net& net) {
                auto& in = net.input(ranged_info(v, p.shape, -bound, bound), {-bound, bound});
                auto* layer = net.net().AddNormalizationLayer(lrn_desc(p, p.layout), "lrn");
                net.output(net.wire(layer, {&in}, ranged_info(v, p.shape, -bound, bound)));
            });
            if (p.channel == NormalizationAlgorithmChannel::Within && p.layout == DataLayout::NHWC) {
                // CpuRef (20.08 and later) indexes the within-channel path as NCHW whatever the layout
                // (reference/armnn-format.md §2); the layout is part of the layer's documented meaning, and
                // Arm NN's other backends honour it. The oracle is the same computation composed from
                // layers CpuRef gets right: Permute to NCHW, the NCHW LRN, Permute back.
                c.note = "CpuRef ignores the layout of within-channel LRN; expected values from Permute + NCHW LRN + Permute on CpuRef";
                c.oracle_build = [v, p, bound](Net& net) {
                    const armnn::TensorInfo io = ranged_info(v, p.shape, -bound, bound);
                    armnn::TensorInfo mid = io;
                    mid.SetShape(nhwc_to_nchw(p.shape));
                    auto& in = net.input(io, {-bound, bound});
                    auto* to_nchw = net.net().AddPermuteLayer(armnn::PermuteDescriptor({0, 2, 3, 1}), "to_nchw");
                    auto& a = net.wire(to_nchw, {&in}, mid);
                    auto* lrn = net.net().AddNormalizationLayer(lrn_desc(p, DataLayout::NCHW), "lrn");
                    armnn::TensorInfo mid_out = ranged_info(v, nhwc_to_nchw(p.shape), -bound, bound);
                    auto& b = net.wire(lrn, {&a}, mid_out);
                    auto* to_nhwc = net.net().AddPermuteLayer(armnn::PermuteDescriptor({0, 3, 1, 2}), "to_nhwc");
                    net.output(net.wire(to_nhwc, {&b}, ranged_info(v, p.shape, -bound, bound)));
                };
            }
            out.push_back(c);
        }
}

void add_instance_normalization(std::vector<CaseSpec>& out) {
    struct P {
        const char* tag;
        TensorShape shape;
        DataLayout layout;
        float gamma, beta, eps;
    };
    const P params[] = {
        {"nhwc_1x4x4x3", TensorShape({1, 4, 4, 3}), DataLayout::NHWC, 1.0f, 0.0f, 1e-12f},
        {"nchw_2x3x4x5", TensorShape({2, 3, 4, 5}), DataLayout::NCHW, 2.0f, 0.5f, 1e-3f},
        {"nhwc_2x3x2x4", TensorShape({2, 3, 2, 4}), DataLayout::NHWC, 0.5f, -1.0f, 0.1f},
        {"nchw_1x2x1x9", TensorShape({1, 2, 1, 9}), DataLayout::NCHW, 1.5f, 0.25f, 1e-5f},
    };
    for (const TypeVariant& v : kAllTypes)
        for (const P& p : params)
            out.push_back(make_case(std::string("instance_norm_") + v.tag + "_" + p.tag, "InstanceNormalization", v, [v, p](Net& net) {
                armnn::InstanceNormalizationDescriptor d;
                d.m_Gamma = p.gamma;
                d.m_Beta = p.beta;
                d.m_Eps = p.eps;
                d.m_DataLayout = p.layout;
                auto& in = net.input(ranged_info(v, p.shape, -2, 3), {-2, 3});
                auto* layer = net.net().AddInstanceNormalizationLayer(d, "instance_norm");
                // A normalized value is at most sqrt(H*W - 1) <= 4.4 in magnitude for these shapes.
                const float lo = p.beta - 4.5f * p.gamma, hi = p.beta + 4.5f * p.gamma;
                net.output(net.wire(layer, {&in}, ranged_info(v, p.shape, lo, hi)));
            }));
}

}  // namespace

void add_normalization_cases(std::vector<CaseSpec>& out) {
    add_l2_normalization(out);
    add_lrn(out);
    add_instance_normalization(out);
}

}  // namespace conformance

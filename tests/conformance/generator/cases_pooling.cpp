// Pooling2d: Max, Average and L2; both padding methods; both output roundings; NHWC and NCHW.
#include <cmath>
#include <string>
#include <vector>

#include "tests/conformance/generator/case_spec.h"

namespace conformance {
namespace {

using armnn::DataLayout;
using armnn::OutputShapeRounding;
using armnn::PaddingMethod;
using armnn::PoolingAlgorithm;

struct PoolGeometry {
    const char* tag;
    unsigned n, h, w, c;
    unsigned ph, pw, sy, sx;
    unsigned pl, pr, pt, pb;
    DataLayout layout;
};

const PoolGeometry kGeometries[] = {
    {"k2s2_nhwc", 1, 6, 6, 3, 2, 2, 2, 2, 0, 0, 0, 0, DataLayout::NHWC},
    {"k3s2p1_nhwc", 1, 7, 7, 2, 3, 3, 2, 2, 1, 1, 1, 1, DataLayout::NHWC},
    {"k3x2s2x1_asympad_nchw", 1, 5, 7, 2, 3, 2, 2, 1, 0, 1, 1, 0, DataLayout::NCHW},
    {"k3s3p1_batch2_nchw", 2, 8, 8, 3, 3, 3, 3, 3, 1, 1, 1, 1, DataLayout::NCHW},
    {"k2s2_odd_nhwc", 1, 7, 5, 2, 2, 2, 2, 2, 0, 0, 0, 0, DataLayout::NHWC},
};

// Arm NN 20.08's Pooling2dLayer::InferOutputShapes, including the rule that the last window must
// start inside the input or the low padding.
unsigned pooled(unsigned in, unsigned lo, unsigned hi, unsigned pool, unsigned stride, OutputShapeRounding r) {
    const float div = static_cast<float>(in + lo + hi - pool) / static_cast<float>(stride);
    unsigned size = static_cast<unsigned>(r == OutputShapeRounding::Ceiling ? std::ceil(div) : std::floor(div)) + 1;
    if ((size - 1) * stride >= in + lo) --size;
    return size;
}

armnn::TensorShape shape_of(DataLayout l, unsigned n, unsigned h, unsigned w, unsigned c) {
    return l == DataLayout::NHWC ? armnn::TensorShape({n, h, w, c}) : armnn::TensorShape({n, c, h, w});
}

const char* algo_tag(PoolingAlgorithm a) {
    return a == PoolingAlgorithm::Max ? "max" : a == PoolingAlgorithm::Average ? "avg" : "l2";
}

CaseSpec pool_case(const TypeVariant& v, PoolingAlgorithm algo, PaddingMethod method, OutputShapeRounding rounding,
                   const PoolGeometry& g) {
    const std::string name = std::string("pool2d_") + algo_tag(algo) + "_" + v.tag + "_" +
                             (method == PaddingMethod::Exclude ? "exclude" : "ignorevalue") + "_" +
                             (rounding == OutputShapeRounding::Floor ? "floor" : "ceil") + "_" + g.tag;
    CaseSpec c = make_case(name, "Pooling2d", v, [=](Net& net) {
        armnn::Pooling2dDescriptor d;
        d.m_PoolType = algo;
        d.m_PadLeft = g.pl;
        d.m_PadRight = g.pr;
        d.m_PadTop = g.pt;
        d.m_PadBottom = g.pb;
        d.m_PoolWidth = g.pw;
        d.m_PoolHeight = g.ph;
        d.m_StrideX = g.sx;
        d.m_StrideY = g.sy;
        d.m_OutputShapeRounding = rounding;
        d.m_PaddingMethod = method;
        d.m_DataLayout = g.layout;
        const int32_t zp = v.type == armnn::DataType::QAsymmU8 ? 128 : 0;
        auto& in = net.input(v.info(shape_of(g.layout, g.n, g.h, g.w, g.c), 0.05f, zp));
        const unsigned oh = pooled(g.h, g.pt, g.pb, g.ph, g.sy, rounding);
        const unsigned ow = pooled(g.w, g.pl, g.pr, g.pw, g.sx, rounding);
        auto* layer = net.net().AddPooling2dLayer(d, "pool");
        net.output(net.wire(layer, {&in}, v.info(shape_of(g.layout, g.n, oh, ow, g.c), 0.05f, zp)));
    });
    if (algo == PoolingAlgorithm::L2) {
        // The 20.08 serializer writes L2 (schema value 2) but its deserializer asserts "Unsupported
        // pooling algorithm" (it only maps Max and Average), so the expected values come from the
        // network as built.
        c.oracle_from_built = true;
        c.note = "20.08 deserializer cannot read L2 pooling; CpuRef ran the network as built";
    }
    return c;
}

}  // namespace

void add_pooling_cases(std::vector<CaseSpec>& out) {
    for (const TypeVariant& v : {kF32, kU8}) {
        for (PoolingAlgorithm algo : {PoolingAlgorithm::Max, PoolingAlgorithm::Average, PoolingAlgorithm::L2})
            for (PaddingMethod method : {PaddingMethod::Exclude, PaddingMethod::IgnoreValue})
                for (OutputShapeRounding rounding : {OutputShapeRounding::Floor, OutputShapeRounding::Ceiling})
                    for (const PoolGeometry& g : kGeometries) out.push_back(pool_case(v, algo, method, rounding, g));
    }
    // Other integer types on two geometries, where CpuRef accepts them.
    for (const TypeVariant& v : {kF16, kS8, kS16})
        for (PoolingAlgorithm algo : {PoolingAlgorithm::Max, PoolingAlgorithm::Average, PoolingAlgorithm::L2})
            for (int gi : {1, 2})
                out.push_back(pool_case(v, algo, PaddingMethod::Exclude, OutputShapeRounding::Ceiling, kGeometries[gi]));
}

}  // namespace conformance

// Placement: fused activations, segments split by CPU layers and by arithmetic domain, segment edges.
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/passes/layer_macs.h"
#include "runtime/passes/placement.h"

using namespace npurun;

namespace {

struct Net {
    Graph g;
    TensorId value(Shape s, DataType t = DataType::QAsymmS8) {
        Tensor x;
        x.info.shape = s;
        x.info.dtype = t;
        if (is_quantized(t)) x.info.quant.scales = {0.1f};
        return g.add_tensor(x);
    }
    TensorId weights(Shape s, DataType t = DataType::QSymmS8) {
        TensorId id = value(s, t);
        g.tensors[id].data = g.allocate_owned(g.tensors[id].info.num_bytes());
        return id;
    }
    uint32_t add(OpKind op, std::vector<TensorId> in, std::vector<TensorId> out, OpAttrs a = std::monostate{}) {
        Node n;
        n.op = op;
        n.source_index = uint32_t(g.nodes.size());
        n.name = std::string(to_string(op)) + std::to_string(g.nodes.size());
        n.inputs = std::move(in);
        n.outputs = std::move(out);
        n.attrs = std::move(a);
        g.nodes.push_back(std::move(n));
        return uint32_t(g.nodes.size() - 1);
    }
};

Convolution2dAttrs conv1x1() {
    Convolution2dAttrs a;
    a.layout = DataLayout::NHWC;
    return a;
}

}  // namespace

TEST(Placement, FusionSegmentsAndEdges) {
    Net n;
    TensorId x = n.value({1, 8, 8, 4});
    n.add(OpKind::Input, {}, {x}, BindingAttrs{0});
    TensorId c1 = n.value({1, 8, 8, 4});
    const uint32_t conv = n.add(OpKind::Convolution2d, {x, n.weights({4, 1, 1, 4})}, {c1}, conv1x1());
    TensorId r1 = n.value({1, 8, 8, 4});
    const uint32_t relu = n.add(OpKind::Activation, {c1}, {r1}, ActivationAttrs{ActivationFunction::ReLu, 0, 0});
    TensorId p1 = n.value({1, 4, 4, 4});
    Pooling2dAttrs pa;
    pa.pool_width = pa.pool_height = 2;
    pa.stride_x = pa.stride_y = 2;
    const uint32_t pool = n.add(OpKind::Pooling2d, {r1}, {p1}, pa);
    TensorId s1 = n.value({1, 4, 4, 4});
    const uint32_t softmax = n.add(OpKind::Softmax, {p1}, {s1}, SoftmaxAttrs{});
    TensorId c2 = n.value({1, 4, 4, 4});
    const uint32_t conv2 = n.add(OpKind::Convolution2d, {s1, n.weights({4, 1, 1, 4})}, {c2}, conv1x1());
    n.add(OpKind::Output, {c2}, {}, BindingAttrs{0});
    n.g.inputs = {{"in", 0, x}};
    n.g.outputs = {{"out", 0, c2}};

    PlacementOptions opt;
    opt.use_npu = true;
    Placement p = place(n.g, opt);
    EXPECT_EQ(p.nodes[conv].device, Placed::Npu);
    EXPECT_EQ(p.nodes[relu].device, Placed::Fused);
    EXPECT_EQ(p.nodes[relu].fused_into, int(conv));
    EXPECT_EQ(p.nodes[pool].device, Placed::Npu);
    EXPECT_EQ(p.nodes[softmax].device, Placed::Cpu);
    EXPECT_FALSE(p.nodes[softmax].reason.empty());
    EXPECT_EQ(p.nodes[conv2].device, Placed::Npu);
    ASSERT_EQ(p.segments.size(), 2u);
    EXPECT_EQ(p.segments[0].nodes, (std::vector<uint32_t>{conv, relu, pool}));
    EXPECT_EQ(p.segments[0].inputs, (std::vector<TensorId>{x}));
    EXPECT_EQ(p.segments[0].outputs, (std::vector<TensorId>{p1}));
    EXPECT_EQ(p.segments[1].inputs, (std::vector<TensorId>{s1}));
    EXPECT_EQ(p.segments[1].outputs, (std::vector<TensorId>{c2}));

    const std::string table = explain(n.g, p);
    EXPECT_NE(table.find("Softmax is not an NPU operation"), std::string::npos) << table;
    EXPECT_NE(table.find("4 of 5 layers on the NPU in 2 segment(s)\nNPU share of MACs: 100.0%\n"), std::string::npos) << table;

    // The second convolution (4*4*4 outputs x 4 inputs = 256 MACs) refused by the backend: 1024 of 1280 MACs stay.
    opt.lowering_refusal = [conv2](const Graph&, const Node& node, NpuDomain) {
        return node.source_index == conv2 ? Refusal::because("test refusal") : Refusal{};
    };
    p = place(n.g, opt);
    EXPECT_EQ(p.nodes[conv2].device, Placed::Cpu);
    EXPECT_EQ(layer_macs(n.g, n.g.nodes[conv]), 8u * 8 * 4 * 4);
    EXPECT_EQ(layer_macs(n.g, n.g.nodes[conv2]), 4u * 4 * 4 * 4);
    EXPECT_EQ(layer_macs(n.g, n.g.nodes[pool]), 0u);
    EXPECT_EQ(npu_mac_share_line(n.g, p), "NPU share of MACs: 80.0%\n");
}

TEST(LayerMacs, DepthwiseFullyConnectedAndMatMul) {
    Net n;
    TensorId x = n.value({1, 6, 6, 8});
    TensorId y = n.value({1, 3, 3, 8});
    DepthwiseConvolution2dAttrs da;
    da.layout = DataLayout::NHWC;
    const uint32_t dw = n.add(OpKind::DepthwiseConvolution2d, {x, n.weights({1, 3, 3, 8})}, {y}, da);
    EXPECT_EQ(layer_macs(n.g, n.g.nodes[dw]), 3u * 3 * 8 * 9);  // 72 outputs x a 3x3 window
    TensorId f = n.value({1, 72});
    TensorId o = n.value({1, 10});
    FullyConnectedAttrs fa;
    fa.transpose_weights = true;
    const uint32_t fc = n.add(OpKind::FullyConnected, {f, n.weights({10, 72})}, {o}, fa);
    EXPECT_EQ(layer_macs(n.g, n.g.nodes[fc]), 10u * 72);
    TensorId a = n.value({2, 5, 7});
    TensorId b = n.value({2, 7, 3});
    TensorId c = n.value({2, 5, 3});
    const uint32_t mm = n.add(OpKind::BatchMatMul, {a, b}, {c}, BatchMatMulAttrs{});
    EXPECT_EQ(layer_macs(n.g, n.g.nodes[mm]), 2u * 5 * 3 * 7);
    PlacementOptions cpu_only;
    EXPECT_EQ(npu_mac_share_line(n.g, place(n.g, cpu_only)), "NPU share of MACs: 0.0%\n");
    Net none;  // no MAC layer at all
    TensorId a0 = none.value({1, 4, 4, 4}), a1 = none.value({1, 4, 4, 4});
    none.add(OpKind::Activation, {a0}, {a1}, ActivationAttrs{ActivationFunction::ReLu, 0, 0});
    EXPECT_EQ(npu_mac_share_line(none.g, place(none.g, cpu_only)), "NPU share of MACs: 0.0% (the model has no MAC layers)\n");
}

TEST(Placement, ActivationFeedingTwoConsumersIsNotFused) {
    Net n;
    TensorId x = n.value({1, 8, 8, 4});
    TensorId c1 = n.value({1, 8, 8, 4});
    n.add(OpKind::Convolution2d, {x, n.weights({4, 1, 1, 4})}, {c1}, conv1x1());
    TensorId r1 = n.value({1, 8, 8, 4});
    const uint32_t relu = n.add(OpKind::Activation, {c1}, {r1}, ActivationAttrs{ActivationFunction::ReLu, 0, 0});
    TensorId other = n.value({1, 8, 8, 4});
    n.add(OpKind::Softmax, {c1}, {other}, SoftmaxAttrs{});  // second reader of the pre-activation value
    PlacementOptions opt;
    opt.use_npu = true;
    Placement p = place(n.g, opt);
    EXPECT_EQ(p.nodes[relu].device, Placed::Cpu);
    EXPECT_NE(p.nodes[relu].reason.find("fused"), std::string::npos);
}

TEST(Placement, CpuDeviceKeepsEverythingOnCpu) {
    Net n;
    TensorId x = n.value({1, 8, 8, 4});
    TensorId c1 = n.value({1, 8, 8, 4});
    n.add(OpKind::Convolution2d, {x, n.weights({4, 1, 1, 4})}, {c1}, conv1x1());
    Placement p = place(n.g, {});
    EXPECT_EQ(p.nodes[0].device, Placed::Cpu);
    EXPECT_TRUE(p.segments.empty());
}

TEST(Placement, DomainChangeStartsANewSegment) {
    Net n;
    TensorId x = n.value({1, 8, 8, 4});
    TensorId c1 = n.value({1, 8, 8, 4});
    n.add(OpKind::Convolution2d, {x, n.weights({4, 1, 1, 4})}, {c1}, conv1x1());
    TensorId h = n.value({1, 8, 8, 4}, DataType::Float16);
    TensorId c2 = n.value({1, 8, 8, 4}, DataType::Float16);
    n.add(OpKind::Convolution2d, {h, n.weights({4, 1, 1, 4}, DataType::Float16)}, {c2}, conv1x1());
    PlacementOptions opt;
    opt.use_npu = true;
    Placement p = place(n.g, opt);
    ASSERT_EQ(p.segments.size(), 2u);
    EXPECT_EQ(p.segments[0].domain, NpuDomain::Int8);
    EXPECT_EQ(p.segments[1].domain, NpuDomain::Fp16);
}

// A detection-style head: a CPU layer (Softmax here, a Reshape that moves data in a real network) reads the
// first convolution's output while the second convolution also does. In the stored order the CPU layer sits
// between the two convolutions and cuts them into two segments; the schedule moves it after the second, so
// one segment remains, and the order stays topological.
TEST(Placement, ScheduleMovesCpuLayersPastNpuWorkTheyDoNotFeed) {
    Net n;
    TensorId x = n.value({1, 8, 8, 4});
    n.add(OpKind::Input, {}, {x}, BindingAttrs{0});
    TensorId c1 = n.value({1, 8, 8, 4});
    const uint32_t conv = n.add(OpKind::Convolution2d, {x, n.weights({4, 1, 1, 4})}, {c1}, conv1x1());
    TensorId s1 = n.value({1, 8, 8, 4});
    const uint32_t softmax = n.add(OpKind::Softmax, {c1}, {s1}, SoftmaxAttrs{});
    n.add(OpKind::Output, {s1}, {}, BindingAttrs{0});
    TensorId c2 = n.value({1, 8, 8, 4});
    const uint32_t conv2 = n.add(OpKind::Convolution2d, {c1, n.weights({4, 1, 1, 4})}, {c2}, conv1x1());
    n.add(OpKind::Output, {c2}, {}, BindingAttrs{1});
    n.g.inputs = {{"in", 0, x}};
    n.g.outputs = {{"scores", 0, s1}, {"boxes", 1, c2}};

    PlacementOptions opt;
    opt.use_npu = true;
    const Placement p = place(n.g, opt);
    ASSERT_EQ(p.segments.size(), 1u) << explain(n.g, p);
    EXPECT_EQ(p.segments[0].nodes, (std::vector<uint32_t>{conv, conv2}));
    EXPECT_EQ(p.segments[0].outputs, (std::vector<TensorId>{c1, c2}));  // c1 also leaves: the Softmax reads it
    ASSERT_EQ(p.order.size(), n.g.nodes.size());
    auto pos = [&](uint32_t node) { return std::find(p.order.begin(), p.order.end(), node) - p.order.begin(); };
    EXPECT_LT(pos(conv), pos(conv2));
    EXPECT_LT(pos(conv2), pos(softmax));
    EXPECT_LT(pos(softmax), pos(softmax + 1));  // its Output node still follows it
    EXPECT_NE(explain(n.g, p).find("2 of 3 layers on the NPU in 1 segment(s)"), std::string::npos) << explain(n.g, p);

    // On the CPU alone, nothing is reordered.
    PlacementOptions cpu_only;
    const Placement c = place(n.g, cpu_only);
    for (uint32_t i = 0; i < c.order.size(); ++i) EXPECT_EQ(c.order[i], i);
}

// Where moving a CPU layer cannot save a segment (the second convolution reads the Softmax), the stored order
// is kept as it is.
TEST(Placement, ScheduleKeepsTheStoredOrderWhenNothingIsGained) {
    Net n;
    TensorId x = n.value({1, 8, 8, 4});
    n.add(OpKind::Input, {}, {x}, BindingAttrs{0});
    TensorId c1 = n.value({1, 8, 8, 4});
    n.add(OpKind::Convolution2d, {x, n.weights({4, 1, 1, 4})}, {c1}, conv1x1());
    TensorId s1 = n.value({1, 8, 8, 4});
    n.add(OpKind::Softmax, {c1}, {s1}, SoftmaxAttrs{});
    TensorId c2 = n.value({1, 8, 8, 4});
    n.add(OpKind::Convolution2d, {s1, n.weights({4, 1, 1, 4})}, {c2}, conv1x1());
    n.add(OpKind::Output, {c2}, {}, BindingAttrs{0});
    n.g.inputs = {{"in", 0, x}};
    n.g.outputs = {{"out", 0, c2}};
    PlacementOptions opt;
    opt.use_npu = true;
    const Placement p = place(n.g, opt);
    EXPECT_EQ(p.segments.size(), 2u);
    for (uint32_t i = 0; i < p.order.size(); ++i) EXPECT_EQ(p.order[i], i);
}

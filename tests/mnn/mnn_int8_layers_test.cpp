// Layer-by-layer agreement of slim-320-quant-ADMM-50.mnn between the CPU reference kernels (which
// reproduce MNN's int8 arithmetic) and the simulated NPU. The end-to-end tolerance
// (mnn_real_models_test.cpp) only says that something drifted: one output flipped by one LSB early in the
// network moves later layers by several LSBs and the boxes by tenths. Here every convolution (with the
// activation that reads it) runs alone on both devices from the CPU's own input to it, so each layer's
// own disagreement is counted, free of what earlier layers passed on. Skipped when ../shared is absent.
#include <algorithm>
#include <cstring>
#include <memory>

#include "ir/graph.h"
#include "tests/mnn/mnn_test_util.h"

using namespace npurun;
using namespace npurun::mnn_testing;

namespace {

// The loaded graph with every stored int8 value as an extra output (a value read by an Activation is
// the convolution's intermediate that the NPU fuses away, so only the activation's result counts). The
// copy's constants point into `m`'s storage, which the caller keeps alive.
std::shared_ptr<const Model> with_int8_outputs(const Model& m) {
    const Graph& g = m.graph();
    Graph c;
    c.tensors = g.tensors;
    c.nodes = g.nodes;
    c.inputs = g.inputs;
    c.file = g.file;
    std::vector<bool> read_by_activation(g.tensors.size(), false);
    for (const Node& n : g.nodes)
        if (n.op == OpKind::Activation)
            for (TensorId t : n.inputs)
                if (t != kNoTensor) read_by_activation[t] = true;
    int32_t id = 0;
    for (const Node& n : g.nodes)
        for (TensorId t : n.outputs)
            if (g.info(t).dtype == DataType::QAsymmS8 && !read_by_activation[t])
                c.outputs.push_back(Binding{g.tensor(t).name, id++, t});
    return std::make_shared<const Model>(std::move(c), m.path());
}

// One convolution and the activation reading it as a graph of their own, from the convolution's input.
std::shared_ptr<const Model> single_layer(const Model& m, const Node& conv, const Node& act) {
    const Graph& g = m.graph();
    Graph c;
    c.tensors = g.tensors;
    c.nodes = {conv, act};
    c.file = g.file;
    c.inputs.push_back(Binding{g.tensor(conv.inputs[0]).name, 0, conv.inputs[0]});
    c.outputs.push_back(Binding{g.tensor(act.outputs[0]).name, 0, act.outputs[0]});
    return std::make_shared<const Model>(std::move(c), m.path());
}

std::vector<int8_t> as_int8(const TensorBinding& b) {
    const auto* p = static_cast<const int8_t*>(b.data);
    return std::vector<int8_t>(p, p + b.info.shape.num_elements());
}

// Every int8 value of the whole network on the CPU, by tensor.
std::vector<std::vector<int8_t>> cpu_values(const std::shared_ptr<const Model>& m, std::vector<TensorId>* tensors) {
    SessionOptions o;
    o.device = DeviceKind::Cpu;
    Session s(m, o);
    const std::vector<float> in = read_floats(shared_path("models/mnn/reference/ultraface/input_1.bin"));
    EXPECT_EQ(s.input(0).info.num_bytes(), in.size() * 4);
    std::memcpy(s.input(0).data, in.data(), in.size() * 4);
    s.run();
    std::vector<std::vector<int8_t>> v;
    for (size_t i = 0; i < s.num_outputs(); ++i) {
        v.push_back(as_int8(s.output(i)));
        tensors->push_back(m->graph().outputs[i].tensor);
    }
    return v;
}

std::vector<int8_t> run_layer(const std::shared_ptr<const Model>& m, DeviceKind device, const std::vector<int8_t>& x) {
    SessionOptions o;
    o.device = device;
    o.profile = true;
    Session s(m, o);
    EXPECT_EQ(s.input(0).info.num_bytes(), x.size());
    std::memcpy(s.input(0).data, x.data(), x.size());
    s.run();
    if (device == DeviceKind::Sim) {
        bool on_npu = false;
        for (const LayerProfile& p : s.profile()) on_npu = on_npu || p.device == "sim";
        EXPECT_TRUE(on_npu) << "the layer did not run on the NPU";
    }
    return as_int8(s.output(0));
}

}  // namespace

// Each of the 42 int8 convolutions, from the same input, gives the CPU's bytes on the NPU: measured 0 of
// 3,011,480 values differ. The NPU carries each channel's multiplier as a product of two 16-bit factors
// and OUT_CVT's scale (runtime/npu/requant_per_channel.h), within ~2^-26 of it, so only an acc * scale
// within about 1e-6 of a .5 could round differently (none does in this network; MNN's own float32
// product moves values that close). The one 15-bit mantissa used before (a 14-bit fraction of the largest
// where channels span more than 2^14) differed in 2,490 values here, each by one LSB.
TEST(UltraFaceInt8Layers, EachConvolutionOnTheNpuMatchesTheCpu) {
    const std::string path = shared_path("models/mnn/slim-320-quant-ADMM-50.mnn");
    NPURUN_REQUIRE_SHARED(path);
    const std::shared_ptr<const Model> base = Model::load(path);
    const std::shared_ptr<const Model> all = with_int8_outputs(*base);
    const Graph& g = base->graph();
    std::vector<TensorId> tensors;
    const std::vector<std::vector<int8_t>> cpu = cpu_values(all, &tensors);
    size_t layers = 0, differing = 0, values = 0;
    for (const Node& conv : g.nodes) {
        if (conv.op != OpKind::Convolution2d && conv.op != OpKind::DepthwiseConvolution2d) continue;
        const Node* act = nullptr;
        for (const Node& n : g.nodes)
            if (n.op == OpKind::Activation && n.inputs[0] == conv.outputs[0]) act = &n;
        ASSERT_NE(act, nullptr) << conv.name << ": every int8 convolution has its clamp / ReLU";
        const auto in = std::find(tensors.begin(), tensors.end(), conv.inputs[0]);
        ASSERT_NE(in, tensors.end()) << conv.name << ": its input is not a stored int8 value";
        const std::shared_ptr<const Model> one = single_layer(*base, conv, *act);
        const std::vector<int8_t>& x = cpu[size_t(in - tensors.begin())];
        const std::vector<int8_t> a = run_layer(one, DeviceKind::Cpu, x);
        const std::vector<int8_t> b = run_layer(one, DeviceKind::Sim, x);
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            if (a[i] == b[i]) continue;
            ++differing;
            EXPECT_EQ(std::abs(int(a[i]) - int(b[i])), 1) << conv.name << " value " << i;
        }
        values += a.size();
        ++layers;
    }
    EXPECT_EQ(layers, 42u);
    EXPECT_EQ(values, 3011480u);
    EXPECT_EQ(differing, 0u) << "of " << values << " values";
}

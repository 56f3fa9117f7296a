// Writes the float32 model of the whole-model benchmark: MobileNet v1 (width 0.25, 128x128x3 input, 1001
// classes) with fixed pseudo-random weights, built with Arm NN 20.08's INetwork API and written by Arm
// NN's own serializer, so npurun and Arm NN read the very same file. Also writes a fixed input image.
//
// Why not a conformance model: those are single layers or tiny graphs; the benchmark needs the layer
// mix and sizes of a real float network (3x3 conv, 13 depthwise-separable blocks, average pooling, fully
// connected, softmax). Batch normalization is folded into the biases, as converters do for inference.
// Weights are uniform in +-sqrt(3/fan_in) (unit variance through each layer), so the activations neither
// vanish nor saturate ReLU6 everywhere: every kernel does real work on realistic values.
//
// Usage: make-float-mobilenet OUT.armnn OUT_INPUT.bin
#include <armnn/ArmNN.hpp>
#include <armnnSerializer/ISerializer.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

// Small deterministic generator (64-bit LCG, top bits): same file on every machine and compiler.
class Lcg {
public:
    explicit Lcg(uint64_t seed) : s_(seed) {}
    float uniform(float bound) {  // in [-bound, bound)
        s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
        const double unit = static_cast<double>(s_ >> 11) / static_cast<double>(1ull << 53);
        return static_cast<float>((2.0 * unit - 1.0) * bound);
    }

private:
    uint64_t s_;
};

class Builder {
public:
    Builder() : net_(armnn::INetwork::Create()), rng_(20080801) {}

    armnn::INetwork& net() { return *net_; }

    // Weights must outlive serialization (Arm NN keeps copies, but keeping ours costs nothing).
    armnn::ConstTensor constant(const armnn::TensorShape& shape, float bound) {
        store_.emplace_back(shape.GetNumElements());
        for (float& v : store_.back()) v = rng_.uniform(bound);
        return armnn::ConstTensor(armnn::TensorInfo(shape, armnn::DataType::Float32), store_.back().data());
    }

    armnn::IConnectableLayer* wire(armnn::IConnectableLayer* layer, armnn::IConnectableLayer* from,
                                   const armnn::TensorShape& out) {
        from->GetOutputSlot(0).Connect(layer->GetInputSlot(0));
        layer->GetOutputSlot(0).SetTensorInfo(armnn::TensorInfo(out, armnn::DataType::Float32));
        return layer;
    }

    armnn::IConnectableLayer* relu6(armnn::IConnectableLayer* from, const armnn::TensorShape& shape) {
        armnn::ActivationDescriptor d;
        d.m_Function = armnn::ActivationFunction::BoundedReLu;
        d.m_A = 6.0f;
        d.m_B = 0.0f;
        return wire(net_->AddActivationLayer(d, name("relu6")), from, shape);
    }

    // TensorFlow "SAME" padding on an even input: stride 1 pads 1 on every side, stride 2 only bottom/right.
    template <class Desc> static Desc same_3x3(unsigned stride) {
        Desc d;
        d.m_StrideX = d.m_StrideY = stride;
        d.m_PadLeft = d.m_PadTop = stride == 1 ? 1 : 0;
        d.m_PadRight = d.m_PadBottom = 1;
        d.m_BiasEnabled = true;
        d.m_DataLayout = armnn::DataLayout::NHWC;
        return d;
    }

    // Conv (3x3 or 1x1) + bias + ReLU6 on NHWC [1, h, w, cin] -> [1, h/stride, w/stride, cout].
    armnn::IConnectableLayer* conv(armnn::IConnectableLayer* from, unsigned h, unsigned w, unsigned cin,
                                   unsigned cout, unsigned k, unsigned stride) {
        auto d = same_3x3<armnn::Convolution2dDescriptor>(stride);
        if (k == 1) d.m_PadLeft = d.m_PadTop = d.m_PadRight = d.m_PadBottom = 0;
        const float bound = std::sqrt(3.0f / static_cast<float>(k * k * cin));
        const armnn::ConstTensor weights = constant({cout, k, k, cin}, bound);  // [O, H, W, I] for NHWC
        const armnn::ConstTensor bias = constant({cout}, 0.1f);
        auto* layer = net_->AddConvolution2dLayer(d, weights, armnn::Optional<armnn::ConstTensor>(bias), name("conv"));
        const armnn::TensorShape out({1, h / stride, w / stride, cout});
        return relu6(wire(layer, from, out), out);
    }

    armnn::IConnectableLayer* depthwise(armnn::IConnectableLayer* from, unsigned h, unsigned w, unsigned c,
                                        unsigned stride) {
        const auto d = same_3x3<armnn::DepthwiseConvolution2dDescriptor>(stride);
        const armnn::ConstTensor weights = constant({1, c, 3, 3}, std::sqrt(3.0f / 9.0f));  // [M, I, H, W]
        const armnn::ConstTensor bias = constant({c}, 0.1f);
        auto* layer = net_->AddDepthwiseConvolution2dLayer(d, weights, armnn::Optional<armnn::ConstTensor>(bias),
                                                           name("depthwise"));
        const armnn::TensorShape out({1, h / stride, w / stride, c});
        return relu6(wire(layer, from, out), out);
    }

    const char* name(const char* kind) {
        names_.push_back(std::string(kind) + "_" + std::to_string(names_.size()));
        return names_.back().c_str();
    }

private:
    armnn::INetworkPtr net_;
    Lcg rng_;
    std::vector<std::vector<float>> store_;
    std::vector<std::string> names_;  // Arm NN copies a name when the layer is added: regrowth is harmless
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s OUT.armnn OUT_INPUT.bin\n", argv[0]);
        return 2;
    }
    try {
        Builder b;
        const armnn::TensorShape in_shape({1, 128, 128, 3});
        armnn::IConnectableLayer* x = b.net().AddInputLayer(0, "input");
        x->GetOutputSlot(0).SetTensorInfo(armnn::TensorInfo(in_shape, armnn::DataType::Float32));

        // MobileNet v1 with width multiplier 0.25: channels 8, then (stride, output channels) per block.
        unsigned h = 64, c = 8;
        x = b.conv(x, 128, 128, 3, c, 3, 2);
        const unsigned blocks[13][2] = {{1, 16}, {2, 32}, {1, 32}, {2, 64}, {1, 64}, {2, 128}, {1, 128},
                                        {1, 128}, {1, 128}, {1, 128}, {1, 128}, {2, 256}, {1, 256}};
        for (const auto& blk : blocks) {
            x = b.depthwise(x, h, h, c, blk[0]);
            h /= blk[0];
            x = b.conv(x, h, h, c, blk[1], 1, 1);
            c = blk[1];
        }

        armnn::Pooling2dDescriptor pool;
        pool.m_PoolType = armnn::PoolingAlgorithm::Average;
        pool.m_PoolWidth = pool.m_PoolHeight = h;
        pool.m_StrideX = pool.m_StrideY = 1;
        pool.m_DataLayout = armnn::DataLayout::NHWC;
        x = b.wire(b.net().AddPooling2dLayer(pool, "avgpool"), x, armnn::TensorShape({1, 1, 1, c}));

        armnn::ReshapeDescriptor flat;
        flat.m_TargetShape = armnn::TensorShape({1, c});
        x = b.wire(b.net().AddReshapeLayer(flat, "flatten"), x, flat.m_TargetShape);

        const unsigned classes = 1001;
        armnn::FullyConnectedDescriptor fc;
        fc.m_BiasEnabled = true;
        fc.m_TransposeWeightMatrix = true;  // weights [classes, c], as TfLite stores them
        const armnn::ConstTensor fc_w = b.constant({classes, c}, std::sqrt(3.0f / static_cast<float>(c)));
        const armnn::ConstTensor fc_b = b.constant({classes}, 0.1f);
        x = b.wire(b.net().AddFullyConnectedLayer(fc, fc_w, armnn::Optional<armnn::ConstTensor>(fc_b), "logits"), x,
                   armnn::TensorShape({1, classes}));

        armnn::SoftmaxDescriptor sm;
        sm.m_Beta = 1.0f;
        x = b.wire(b.net().AddSoftmaxLayer(sm, "softmax"), x, armnn::TensorShape({1, classes}));
        x->GetOutputSlot(0).Connect(b.net().AddOutputLayer(0, "output")->GetInputSlot(0));

        auto serializer = armnnSerializer::ISerializer::Create();
        serializer->Serialize(b.net());
        std::ofstream model(argv[1], std::ios::binary);
        if (!model || !serializer->SaveSerializedToStream(model)) {
            std::fprintf(stderr, "make-float-mobilenet: cannot write %s\n", argv[1]);
            return 1;
        }

        // Input: a smooth image in [-1, 1] (what MobileNet's preprocessing produces), not white noise.
        std::vector<float> image(in_shape.GetNumElements());
        for (unsigned y = 0; y < 128; ++y)
            for (unsigned xx = 0; xx < 128; ++xx)
                for (unsigned ch = 0; ch < 3; ++ch)
                    image[(y * 128 + xx) * 3 + ch] =
                        std::sin(0.05f * static_cast<float>(y * (ch + 1)) + 0.03f * static_cast<float>(xx));
        std::ofstream input(argv[2], std::ios::binary);
        input.write(reinterpret_cast<const char*>(image.data()), static_cast<std::streamsize>(image.size() * 4));
        if (!input) {
            std::fprintf(stderr, "make-float-mobilenet: cannot write %s\n", argv[2]);
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make-float-mobilenet: %s\n", e.what());
        return 1;
    }
    return 0;
}

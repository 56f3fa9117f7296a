// Small .mnn files built in code with the generated MNN schema, for loader tests and as fuzz seeds.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "MNN_generated.h"

namespace npurun::mnn_testing {

using Param = std::pair<MNN::OpParameter, flatbuffers::Offset<void>>;

struct OpSpec {
    MNN::OpType type = MNN::OpType::Input;
    std::vector<int32_t> inputs, outputs;
    std::string name;
    std::function<Param(flatbuffers::FlatBufferBuilder&)> param;  // may be empty (no parameters)
};

struct NetSpec {
    std::vector<std::string> tensors;
    std::vector<OpSpec> ops;
    std::vector<std::string> output_names;
};

inline std::vector<uint8_t> build(const NetSpec& spec) {
    flatbuffers::FlatBufferBuilder fb;
    std::vector<flatbuffers::Offset<MNN::Op>> ops;
    for (const OpSpec& o : spec.ops) {
        Param p{MNN::OpParameter::NONE, 0};
        if (o.param) p = o.param(fb);
        ops.push_back(MNN::CreateOpDirect(fb, &o.inputs, p.first, p.second, o.name.c_str(), &o.outputs, o.type));
    }
    std::vector<flatbuffers::Offset<flatbuffers::String>> names, outs;
    for (const std::string& t : spec.tensors) names.push_back(fb.CreateString(t));
    for (const std::string& t : spec.output_names) outs.push_back(fb.CreateString(t));
    const auto net = MNN::CreateNetDirect(fb, "test", nullptr, 0, &ops, spec.output_names.empty() ? nullptr : &outs,
                                          MNN::ForwardType::CPU, MNN::NetSource::ONNX, &names);
    fb.Finish(net);
    return {fb.GetBufferPointer(), fb.GetBufferPointer() + fb.GetSize()};
}

inline OpSpec input_op(int32_t out, std::vector<int32_t> dims, std::string name = "x") {
    OpSpec o;
    o.type = MNN::OpType::Input;
    o.outputs = {out};
    o.name = std::move(name);
    o.param = [dims](flatbuffers::FlatBufferBuilder& fb) -> Param {
        return {MNN::OpParameter::Input, MNN::CreateInputDirect(fb, &dims).Union()};
    };
    return o;
}

// A float convolution with weights w (oc x ic/group x k x k) and bias b.
inline OpSpec conv_op(int32_t in, int32_t out, int32_t oc, int32_t k, int32_t pad, int32_t group, bool relu,
                      std::vector<float> w, std::vector<float> b, MNN::OpType type = MNN::OpType::Convolution) {
    OpSpec o;
    o.type = type;
    o.inputs = {in};
    o.outputs = {out};
    o.name = "conv";
    o.param = [=](flatbuffers::FlatBufferBuilder& fb) -> Param {
        const auto c = MNN::CreateConvolution2DCommon(fb, pad, pad, k, k, 1, 1, 1, 1, MNN::PadMode::CAFFE, group, oc, 0,
                                                      relu);
        return {MNN::OpParameter::Convolution2D, MNN::CreateConvolution2DDirect(fb, c, &w, &b).Union()};
    };
    return o;
}

inline OpSpec axis_op(MNN::OpType type, std::vector<int32_t> in, int32_t out, int32_t axis, std::string name) {
    OpSpec o;
    o.type = type;
    o.inputs = std::move(in);
    o.outputs = {out};
    o.name = std::move(name);
    o.param = [axis](flatbuffers::FlatBufferBuilder& fb) -> Param {
        return {MNN::OpParameter::Axis, MNN::CreateAxis(fb, axis).Union()};
    };
    return o;
}

// An op of `type` with one parameter table, built by `make` (the op-mapping tests' generic builder).
inline OpSpec param_op(MNN::OpType type, std::vector<int32_t> in, std::vector<int32_t> out, std::string name,
                       std::function<Param(flatbuffers::FlatBufferBuilder&)> make) {
    OpSpec o;
    o.type = type;
    o.inputs = std::move(in);
    o.outputs = std::move(out);
    o.name = std::move(name);
    o.param = std::move(make);
    return o;
}

// A float Const [dims] with values v (NCHW).
inline OpSpec float_const_op(int32_t out, std::vector<int32_t> dims, std::vector<float> v, std::string name) {
    return param_op(MNN::OpType::Const, {}, {out}, std::move(name), [=](flatbuffers::FlatBufferBuilder& fb) -> Param {
        return {MNN::OpParameter::Blob, MNN::CreateBlobDirect(fb, &dims, MNN::MNN_DATA_FORMAT::NCHW, MNN::DataType::DT_FLOAT,
                                                              nullptr, nullptr, nullptr, nullptr, &v)
                                            .Union()};
    });
}

inline std::vector<float> ramp(size_t n, float scale, float offset) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = float(int(i * 7 % 13) - 6) * scale + offset;
    return v;
}

// Input x [1,3,5,6] -> Convolution 3->4, 3x3, pad 1, fused ReLU -> Softmax over channels.
inline NetSpec small_conv_net() {
    NetSpec s;
    s.tensors = {"x", "conv_out", "prob"};
    s.ops = {input_op(0, {1, 3, 5, 6}),
             conv_op(0, 1, 4, 3, 1, 1, true, ramp(4 * 3 * 9, 0.05f, 0.01f), {0.1f, -0.2f, 0.3f, 0.0f}),
             axis_op(MNN::OpType::Softmax, {1}, 2, 1, "prob")};
    return s;
}

}  // namespace npurun::mnn_testing
